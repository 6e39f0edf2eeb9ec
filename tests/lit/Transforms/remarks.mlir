// The communication passes' remarks (MLIR's remark engine, printed as
// diagnostics): each combine with its ops and bytes, an op that could have
// joined but found another in the way, an async combine's wait; each op
// proven or not and why; each op made async, moved or left sync; each loop
// or linalg op overlapped with a halo exchange or not. The driver's
// --remarks-filter and the pass distruntime-enable-remarks (the pipelines'
// remarks=1) turn them on; without either there are none.
// RUN: %distruntime-opt %s --split-input-file --distruntime-combine-collectives --remarks-filter='distruntime.*' -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMBINE
// RUN: %distruntime-opt %s --split-input-file --distruntime-enable-remarks --distruntime-combine-collectives -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMBINE
// RUN: %distruntime-opt %s --split-input-file --distruntime-verify-spmd --remarks-filter='distruntime.*' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVE
// RUN: %distruntime-opt %s --split-input-file --distruntime-async-collectives --remarks-filter='distruntime.*' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ASYNC
// RUN: %distruntime-opt %s --split-input-file --distruntime-overlap-halo --remarks-filter='distruntime.*' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: %distruntime-opt %s --split-input-file --distruntime-verify-spmd --distruntime-combine-collectives --distruntime-async-collectives --distruntime-overlap-halo -o /dev/null 2>&1 | count 0
// RUN: %distruntime-opt %s --split-input-file --distruntime-enable-remarks=filter=distruntime-combine.* --distruntime-verify-spmd --distruntime-combine-collectives -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// ONE-NOT: Category:distruntime-verify-spmd
// ONE: [Passed] Combined | Category:distruntime-combine-collectives
// ONE-NOT: Category:distruntime-verify-spmd

// Combined (tensor form: 16 + 32 bytes); the third reduces the first's
// result and cannot join. All three proven: main runs them alike.
func.func @main() -> i32 {
  %x = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.constant dense<2.0> : tensor<8xf32>
  // PROVE: remarks.mlir:[[@LINE+1]]:8: remark: [Passed] Proven | Category:distruntime-verify-spmd | Function=main | Remark="every member runs it alike: checked mode skips it"
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  // COMBINE-DAG: remarks.mlir:[[@LINE+1]]:8: remark: [Passed] Combined | Category:distruntime-combine-collectives | Function=main | InputBytes=48, Remark="2 distruntime.all_reduce ops combined into one", Remark="distruntime.all_reduce at {{.*}}remarks.mlir:[[@LINE-1]]:8", Remark="distruntime.all_reduce at {{.*}}remarks.mlir:[[@LINE+1]]:8"
  %b = distruntime.all_reduce ins(%y : tensor<8xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<8xf32>
  // COMBINE-DAG: remarks.mlir:[[@LINE+1]]:8: remark: [Missed] NotCombined | Category:distruntime-combine-collectives | Function=main | Reason="it uses a result or a buffer of that op", Remark="not combined with the distruntime.all_reduce at {{.*}}remarks.mlir:[[@LINE-1]]:8"
  %c = distruntime.all_reduce ins(%a : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// Async ops combine, waited at the first wait; a sync collective stops the
// next two. Not proven: a public function other than main.
func.func @kernel() {
  %p = memref.alloc() : memref<4xf32>
  %q = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  %t = memref.alloc() : memref<4xf32>
  %g = memref.alloc() : memref<4xf32>
  // PROVE: remarks.mlir:[[@LINE+1]]:9: remark: [Missed] NotProven | Category:distruntime-verify-spmd | Function=kernel | Reason="its function @kernel is public: a host may call it on some members only"
  %h1 = distruntime.all_reduce ins(%p : memref<4xf32>) outs(%p : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  // COMBINE-DAG: remarks.mlir:[[@LINE+1]]:9: remark: [Passed] Combined | {{.*}}InputBytes=32, {{.*}}Remark="async: one wait, the first one's: distruntime.wait at {{.*}}remarks.mlir:[[@LINE+2]]:3"
  %h2 = distruntime.all_reduce ins(%q : memref<4xf32>) outs(%q : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %h2
  distruntime.wait %h1
  %h3 = distruntime.all_reduce ins(%s : memref<4xf32>) outs(%s : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.all_gather ins(%g : memref<4xf32>) outs(%g : memref<4xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
  // COMBINE-DAG: remarks.mlir:[[@LINE+2]]:9: remark: [Missed] NotCombined | {{.*}}Reason="the distruntime.all_gather at {{.*}}remarks.mlir:[[@LINE-1]]:3 stands between them: it uses a result, touches a buffer of theirs or may wait for other members", Remark="not combined with the distruntime.all_reduce at {{.*}}remarks.mlir:[[@LINE-2]]:9"
  // ASYNC: remarks.mlir:[[@LINE+1]]:9: remark: [Passed] Spread | Category:distruntime-async-collectives | Function=kernel | Remark="starts where it was, is waited at the end of its block"
  %h4 = distruntime.all_reduce ins(%t : memref<4xf32>) outs(%t : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %h4
  distruntime.wait %h3
  return
}

// -----

// Left sync: a collective with no work around it.
func.func @alone(%g: memref<4xf32>) {
  // ASYNC: remarks.mlir:[[@LINE+1]]:3: remark: [Missed] LeftSync | Category:distruntime-async-collectives | Function=alone | Reason="no work could run while it is in flight: the block's start before it, the block's end after it"
  distruntime.all_gather ins(%g : memref<4xf32>) outs(%g : memref<4xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
  return
}

// -----

// Under a condition on the member's rank on both sides: not proven. Made
// async around the loop after it, waited at the end of the block.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f64
  %me = distruntime.team_member team(0)
  %first = arith.cmpi eq, %me, %c0 : index
  %u = memref.alloc() : memref<4xf64>
  %w = memref.alloc() : memref<4xf64>
  scf.if %first {
    // PROVE: remarks.mlir:[[@LINE+1]]:5: remark: [Missed] NotProven | Category:distruntime-verify-spmd | Function=main | Reason="the scf.if at {{.*}}remarks.mlir:[[@LINE-1]]:3 around it decides on a value that may differ between members (member id)"
    distruntime.allreduce <sum> %u team(0) : memref<4xf64>
  } else {
    distruntime.allreduce <sum> %u team(0) : memref<4xf64>
  }
  // ASYNC: remarks.mlir:[[@LINE+1]]:3: remark: [Passed] MadeAsync | Category:distruntime-async-collectives | Function=main | Remark="starts where it was, is waited at the end of its block"
  distruntime.allreduce <sum> %u team(0) : memref<4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %f, %w[%i] : memref<4xf64>
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// get_halo is never proven; the loop over rows after it is split, so its
// interior runs while the halos are in flight; a loop every row of which
// reads a halo is not.
func.func private @step(%u: memref<?x8xf64> {llvm.noalias}, %v: memref<?x8xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %u, %c0 : memref<?x8xf64>
  // OVERLAP: remarks.mlir:[[@LINE+3]]:23: remark: [Passed] Overlapped | Category:distruntime-overlap-halo | Function=step | Remark="the interior of the scf.for at {{.*}}remarks.mlir:[[@LINE+6]]:3 runs while the halos are in flight, its boundary iterations after"
  // OVERLAP: remarks.mlir:[[@LINE+2]]:23: remark: [Missed] NotOverlapped | Category:distruntime-overlap-halo | Function=step | Reason="no interior of 1 or 2 boundary iterations each side is free of the halos", Remark="the scf.for at {{.*}}remarks.mlir:[[@LINE+18]]:3 reads the halos"
  // PROVE: remarks.mlir:[[@LINE+1]]:23: remark: [Missed] NotProven | Category:distruntime-verify-spmd | Function=step | Reason="get_halo never is: whether a member replans depends on its geometry values"
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c0 to %n step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %up_buf, %up_row = scf.if %is_first -> (memref<?x8xf64>, index) {
      scf.yield %left, %c0 : memref<?x8xf64>, index
    } else {
      %p = arith.subi %i, %c1 : index
      scf.yield %u, %p : memref<?x8xf64>, index
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %up_buf[%up_row, %j] : memref<?x8xf64>
      memref.store %a, %v[%i, %j] : memref<?x8xf64>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %right[%c0, %c0] : memref<?x8xf64>
    memref.store %a, %v[%i, %c0] : memref<?x8xf64>
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}
