// distruntime-combine-collectives: sync all_reduces (all_gathers) of a block
// with the same team, groups, reduction (all_gather_dim) and element type
// become one multi-operand op at the place of the last one, each earlier
// op moving down past what neither uses its results nor touches its
// buffers. Negative cases: dependent ops, a use in between, other groups,
// reductions, types, forms, channels, teams or dims, conflicting memory
// effects in between (a store, a load, a view of a buffer, a call, a wait),
// sync and async ops together, and the byte threshold. Async ops combine
// with each other: combine-collectives-async.mlir.
// RUN: %distruntime-opt %s --split-input-file --distruntime-combine-collectives | FileCheck %s
// RUN: %distruntime-opt %s --split-input-file --distruntime-combine-collectives=max-bytes=48 | FileCheck %s --check-prefix=LIMIT

// The operands are available at the last op's place; unrelated work stays
// before it.
// CHECK-LABEL: func.func @tensors(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32>, %[[Y:[^:]*]]: tensor<8xf32>, %[[Z:[^:]*]]: tensor<2xf32>)
// CHECK-NEXT: %[[Y2:.*]] = arith.addf %[[Y]], %[[Y]]
// CHECK-NEXT: %[[R:.*]]:3 = distruntime.all_reduce ins(%[[X]], %[[Y2]], %[[Z]] : tensor<4xf32>, tensor<8xf32>, tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>, tensor<8xf32>, tensor<2xf32>
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1, %[[R]]#2
// LIMIT-LABEL: func.func @tensors(
// LIMIT: distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<8xf32>)
// LIMIT: distruntime.all_reduce ins(%{{.*}} : tensor<2xf32>)
func.func @tensors(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<8xf32>, tensor<2xf32>) {
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  %y2 = arith.addf %y, %y : tensor<8xf32>
  %b = distruntime.all_reduce ins(%y2 : tensor<8xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<8xf32>
  %c = distruntime.all_reduce ins(%z : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<8xf32>, tensor<2xf32>
}

// -----

// Memref form on buffers of their own (no aliasing), an op that is already
// multi-operand, and work on other buffers in between.
// CHECK-LABEL: func.func @memrefs(
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[C:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[OA:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[OB:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[OC:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[T:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NOT: distruntime.all_reduce
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK-NEXT: distruntime.all_reduce ins(%[[A]], %[[C]], %[[B]] : memref<4xf64>, memref<2xf64>, memref<4xf64>) outs(%[[OA]], %[[OC]], %[[OB]] : memref<4xf64>, memref<2xf64>, memref<4xf64>) {reduction = #distruntime.reduction<max>
// CHECK-NOT: distruntime.all_reduce
func.func @memrefs(%v: f64) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf64>
  %b = memref.alloc() : memref<4xf64>
  %c = memref.alloc() : memref<2xf64>
  %oa = memref.alloc() : memref<4xf64>
  %ob = memref.alloc() : memref<4xf64>
  %oc = memref.alloc() : memref<2xf64>
  %t = memref.alloc() : memref<4xf64>
  distruntime.all_reduce ins(%a, %c : memref<4xf64>, memref<2xf64>) outs(%oa, %oc : memref<4xf64>, memref<2xf64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
  memref.store %v, %t[%c0] : memref<4xf64>
  distruntime.all_reduce ins(%b : memref<4xf64>) outs(%ob : memref<4xf64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
  return
}

// -----

// all_gathers of different element types combine (they move bytes); one of
// another dimension does not.
// CHECK-LABEL: func.func @gathers(
// CHECK-NEXT: %[[G:.*]]:2 = distruntime.all_gather ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<3x2xi8>) {all_gather_dim = 0 : i64
// CHECK-SAME: -> tensor<8x2xf32>, tensor<6x2xi8>
// CHECK-NEXT: distruntime.all_gather ins(%{{.*}} : tensor<4x2xf32>) {all_gather_dim = 1 : i64
func.func @gathers(%x: tensor<4x2xf32>, %y: tensor<3x2xi8>)
    -> (tensor<8x2xf32>, tensor<6x2xi8>, tensor<4x4xf32>) {
  %a = distruntime.all_gather ins(%x : tensor<4x2xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<8x2xf32>
  %b = distruntime.all_gather ins(%y : tensor<3x2xi8>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<6x2xi8>
  %c = distruntime.all_gather ins(%x : tensor<4x2xf32>) {all_gather_dim = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<4x4xf32>
  return %a, %b, %c : tensor<8x2xf32>, tensor<6x2xi8>, tensor<4x4xf32>
}

// -----

// Computation regions: the same reduction in the same type combine, keeping
// the region; promoted inputs (i8 summed as i32) combine with i32 ones.
// CHECK-LABEL: func.func @regions(
// CHECK-NEXT: %[[R:.*]]:2 = distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<4xi8>, tensor<2xi32>) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} computation {
// CHECK-NEXT: ^bb0(%[[L:.*]]: i32, %[[RR:.*]]: i32):
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[L]], %[[RR]] : i32
// CHECK-NEXT: distruntime.yield %[[S]] : i32
// CHECK-NEXT: } -> tensor<4xi32>, tensor<2xi32>
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
func.func @regions(%x: tensor<4xi8>, %y: tensor<2xi32>) -> (tensor<4xi32>, tensor<2xi32>) {
  %a = distruntime.all_reduce ins(%x : tensor<4xi8>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    distruntime.yield %s : i32
  } -> tensor<4xi32>
  %b = distruntime.all_reduce ins(%y : tensor<2xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    distruntime.yield %s : i32
  } -> tensor<2xi32>
  return %a, %b : tensor<4xi32>, tensor<2xi32>
}

// -----

// Two kinds interleaved (sum, max): each kind combines on its own, at the
// place of its last op; ops nested in a loop body combine there.
// CHECK-LABEL: func.func @interleaved(
// CHECK: scf.for
// CHECK-NEXT: %[[L:.*]]:2 = distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>) {reduction = #distruntime.reduction<sum>
// CHECK-NEXT: arith.addf %[[L]]#0, %[[L]]#1
// CHECK-NEXT: scf.yield
// CHECK: %[[S:.*]]:2 = distruntime.all_reduce ins({{.*}}) {reduction = #distruntime.reduction<sum>
// CHECK-NEXT: %[[M:.*]]:2 = distruntime.all_reduce ins({{.*}}) {reduction = #distruntime.reduction<max>
// CHECK-NEXT: return %[[S]]#0, %[[M]]#0, %[[S]]#1, %[[M]]#1
func.func @interleaved(%x: tensor<2xf32>, %n: index)
    -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x) -> tensor<2xf32> {
    %p = distruntime.all_reduce ins(%t : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
    %q = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
    %s = arith.addf %p, %q : tensor<2xf32>
    scf.yield %s : tensor<2xf32>
  }
  %a = distruntime.all_reduce ins(%l : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %b = distruntime.all_reduce ins(%l : tensor<2xf32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %c = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %d = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return %a, %b, %c, %d : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// A call in between: tensors are values, so the tensor ops combine; the
// call's effects on memory are unknown, so the memref ops do not.
// CHECK-LABEL: func.func @call_between(
// CHECK: call @work()
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>)
// CHECK: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>)
// CHECK-NEXT: call @work()
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>)
func.func private @work()
func.func @call_between(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  func.call @work() : () -> ()
  %b = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %m = memref.alloc() : memref<2xf32>
  %n = memref.alloc() : memref<2xf32>
  %om = memref.alloc() : memref<2xf32>
  %on = memref.alloc() : memref<2xf32>
  distruntime.all_reduce ins(%m : memref<2xf32>) outs(%om : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  func.call @work() : () -> ()
  distruntime.all_reduce ins(%n : memref<2xf32>) outs(%on : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// -----

// Dependent ops: the second reduces the first's result.
// CHECK-LABEL: func.func @dependent(
// CHECK: %[[A:.*]] = distruntime.all_reduce ins(%{{.*}} : tensor<2xf32>)
// CHECK-NEXT: distruntime.all_reduce ins(%[[A]] : tensor<2xf32>)
func.func @dependent(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %b = distruntime.all_reduce ins(%a : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return %b : tensor<2xf32>
}

// -----

// The first's result is used in between (directly, or in a region), so it
// cannot move down to the second.
// CHECK-LABEL: func.func @used_between(
// CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<2xf32>)
// CHECK-NEXT: arith.addf
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : tensor<2xf32>)
// CHECK-NEXT: scf.if
// CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<2xf32>)
func.func @used_between(%x: tensor<2xf32>, %y: tensor<2xf32>, %flag: i1)
    -> (tensor<2xf32>, tensor<2xf32>) {
  %a = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %s = arith.addf %a, %a : tensor<2xf32>
  %b = distruntime.all_reduce ins(%y : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %t = scf.if %flag -> tensor<2xf32> {
    scf.yield %b : tensor<2xf32>
  } else {
    scf.yield %y : tensor<2xf32>
  }
  %c = distruntime.all_reduce ins(%y : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return %s, %c : tensor<2xf32>, tensor<2xf32>
}

// -----

// Different groups, reduction, element type, channel, global ids, team, or
// form: nothing combines.
// CHECK-LABEL: func.func @incompatible(
// CHECK-COUNT-8: distruntime.all_reduce ins(%{{[^,]*}} :
// CHECK-NOT: distruntime.all_reduce
func.func @incompatible(%x: tensor<2xf32>, %i: tensor<2xi32>, %m: memref<2xf32>, %o: memref<2xf32>) {
  %0 = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %1 = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %2 = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<prod>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %3 = distruntime.all_reduce ins(%i : tensor<2xi32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xi32>
  %4 = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %5 = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %6 = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, team = 1 : i64} -> tensor<2xf32>
  distruntime.all_reduce ins(%m : memref<2xf32>) outs(%o : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, team = 2 : i64}
  return
}

// -----

// Memory effects in between that the first op's move would cross: a store
// into its input, a load of its output, a write through a view of its
// input, a wait (which completes its async op's accesses: here a read of
// the output), and a second op that reads the first's output or writes its
// input.
// CHECK-LABEL: func.func @memory_conflicts(
// CHECK-COUNT-8: distruntime.all_reduce ins(%{{[^,]*}} :
// CHECK-NOT: distruntime.all_reduce
func.func @memory_conflicts(%v: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %oa = memref.alloc() : memref<4xf32>
  %ob = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%oa : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  memref.store %v, %a[%c0] : memref<4xf32>
  distruntime.all_reduce ins(%b : memref<4xf32>) outs(%ob : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %l = memref.load %ob[%c0] : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%oa : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %view = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.store %l, %view[%c0] : memref<2xf32, strided<[1], offset: 1>>
  distruntime.all_reduce ins(%b : memref<4xf32>) outs(%ob : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %t = memref.alloc() : memref<8xf32>
  %h = distruntime.all_gather ins(%ob : memref<4xf32>) outs(%t : memref<8xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %h
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%oa : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  // Read after write: the second reads the first's output.
  distruntime.all_reduce ins(%oa : memref<4xf32>) outs(%ob : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  // Write after read: the second writes the first's input.
  distruntime.all_reduce ins(%b : memref<4xf32>) outs(%oa : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

// A store through a raw pointer taken from the input (issue 33: the
// combined op read the stored value on every member): memory the pass
// cannot name, so nothing moves past it. A wait whose async op touches
// other buffers does not stop the move.
// CHECK-LABEL: func.func @raw_pointer(
// CHECK: distruntime.all_reduce ins(%[[A:.*]] : memref<4xi64>)
// CHECK: llvm.store
// CHECK: distruntime.wait
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}}, %{{.*}} : memref<4xi64>, memref<4xi64>)
// CHECK-NOT: distruntime.all_reduce
func.func @raw_pointer(%v: i64) {
  %a = memref.alloc() : memref<4xi64>
  %b = memref.alloc() : memref<4xi64>
  %c = memref.alloc() : memref<4xi64>
  %g = memref.alloc() : memref<8xi64>
  distruntime.all_reduce ins(%a : memref<4xi64>) outs(%a : memref<4xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %p = memref.extract_aligned_pointer_as_index %a : memref<4xi64> -> index
  %pi = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %pi : i64 to !llvm.ptr
  llvm.store %v, %ptr : i64, !llvm.ptr
  distruntime.all_reduce ins(%b : memref<4xi64>) outs(%b : memref<4xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %h = distruntime.all_gather ins(%c : memref<4xi64>) outs(%g : memref<8xi64>) async {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  distruntime.all_reduce ins(%c : memref<4xi64>) outs(%c : memref<4xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

// Buffers passed in may alias one another: nothing combines.
// CHECK-LABEL: func.func @arguments(
// CHECK-COUNT-2: distruntime.all_reduce ins(%{{[^,]*}} :
func.func @arguments(%x: memref<4xf32>, %y: memref<4xf32>, %ox: memref<4xf32>, %oy: memref<4xf32>) {
  distruntime.all_reduce ins(%x : memref<4xf32>) outs(%ox : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.all_reduce ins(%y : memref<4xf32>) outs(%oy : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

// Sync and async ops do not combine with each other, and async ops do not
// stop sync tensor ops around them.
// CHECK-LABEL: func.func @async(
// CHECK: %{{.*}}:2, %[[H:.*]] = distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>) async
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>) {
func.func @async(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %s = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %a, %h1 = distruntime.all_reduce ins(%x : tensor<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  %b, %h2 = distruntime.all_reduce ins(%x : tensor<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  distruntime.wait %h1
  distruntime.wait %h2
  %t = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return %s, %a, %b, %t : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// The byte threshold (48 bytes): three ops of 16 bytes combine, a fourth
// starts a new group; a dynamic shape has no known size and is left alone
// under a threshold (combined without one).
// CHECK-LABEL: func.func @threshold(
// CHECK: distruntime.all_reduce ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<?xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// LIMIT-LABEL: func.func @threshold(
// LIMIT: distruntime.all_reduce ins(%{{.*}} : tensor<?xf32>)
// LIMIT: distruntime.all_reduce ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// LIMIT-NEXT: distruntime.all_reduce ins(%{{.*}} : tensor<4xf32>)
func.func @threshold(%x: tensor<4xf32>, %d: tensor<?xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<?xf32>) {
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  %e = distruntime.all_reduce ins(%d : tensor<?xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?xf32>
  %b = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  %c = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  %f = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return %a, %b, %c, %f, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<?xf32>
}

// -----

// Ops of one reproducibility level combine; another level is another op.
// CHECK-LABEL: func.func @levels(
// CHECK: %[[O:.*]]:2 = distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<8xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>, reproducibility = #distruntime.reproducibility<ordered>}
// CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<2xf32>) {{.*}}reproducibility = #distruntime.reproducibility<exact>
func.func @levels(%x: tensor<4xf32>, %y: tensor<8xf32>, %z: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<8xf32>, tensor<2xf32>) {
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, reproducibility = #distruntime.reproducibility<ordered>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<4xf32>
  %b = distruntime.all_reduce ins(%y : tensor<8xf32>) {reduction = #distruntime.reduction<sum>, reproducibility = #distruntime.reproducibility<ordered>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<8xf32>
  %c = distruntime.all_reduce ins(%z : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, reproducibility = #distruntime.reproducibility<exact>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<2xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<8xf32>, tensor<2xf32>
}
