// distruntime-verify-spmd marks with `distruntime.proven` the communicating
// ops every member of their team certainly runs alike (docs/verification.md,
// "Selective checked mode"), and only those: an op under a condition, a loop
// bound or a cf branch that may differ, in a function not entered alike
// (only `main` and the private functions it calls alike are), or with a
// dynamic size that may differ is not; send and recv only as the matching
// pair of their channel; update_halo only with static shapes, for every op
// of its key; get_halo never. A mark the input carries is removed where the
// pass cannot prove it, and mark-proven=0 leaves the ops alone.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd 2>/dev/null | FileCheck %s
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd=mark-proven=0 2>/dev/null | FileCheck %s --check-prefix=OFF

// OFF-LABEL: func.func @main
// OFF-NOT: distruntime.proven
// OFF-LABEL: func.func private @handwritten
// OFF-COUNT-3: {distruntime.proven, reduction

// At the top level of main, and in a loop with constant bounds: proven. A
// dynamic size from team_size is uniform; one from team_member is not (the
// pass warns of it).
// CHECK-LABEL: func.func @main
// CHECK: distruntime.all_reduce ins(%{{.*}} : memref<4xf32>) {{.*}}{distruntime.proven,
// CHECK: scf.for
// CHECK: distruntime.all_gather {{.*}}{all_gather_dim = 0 : i64, distruntime.proven,
// CHECK: distruntime.allreduce <sum> %{{.*}} team(0) {distruntime.proven} : memref<?xf64>
// CHECK: distruntime.allreduce <max> %{{.*}} team(0) : memref<?xf64>
// CHECK: distruntime.collective_permute {{.*}}{distruntime.proven,
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.for %i = %c0 to %c3 step %c1 {
    distruntime.all_gather ins(%a : memref<4xf32>) outs(%b : memref<8xf32>)
        {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  }
  %n = distruntime.team_size team(0)
  %u = memref.alloc(%n) : memref<?xf64>
  distruntime.allreduce <sum> %u team(0) : memref<?xf64>
  %me = distruntime.team_member team(0)
  %m = arith.addi %me, %c1 : index
  %v = memref.alloc(%m) : memref<?xf64>
  distruntime.allreduce <max> %v team(0) : memref<?xf64>
  distruntime.collective_permute ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// A public function other than main: a host may call it on some members
// only, so nothing in it is proven, even with static shapes.
// CHECK-LABEL: func.func @kernel
// CHECK: distruntime.all_reduce ins(%{{.*}}) outs(%{{.*}}) {reduction
func.func @kernel(%a: memref<4xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

// Control that may differ: both sides of a rank-dependent scf.if run the
// same collective (no diagnostic), yet a member reaches one op or the
// other, not both: neither is proven. A loop whose trip count may differ,
// and a collective a rank-dependent early return may skip, are not either.
// CHECK-LABEL: func.func private @divergent
// CHECK: scf.if
// CHECK-NOT: distruntime.proven
// CHECK: scf.for
// CHECK-NOT: distruntime.proven
// CHECK: return
// CHECK-LABEL: func.func private @early_return
// CHECK: ^bb2:
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}}) outs(%{{.*}}) {reduction
func.func private @divergent(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  scf.for %i = %c0 to %me step %c1 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  return
}
func.func private @early_return(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  cf.cond_br %is0, ^exit, ^work
^exit:
  return
^work:
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  func.call @divergent(%a) : (memref<4xf32>) -> ()
  func.call @early_return(%a) : (memref<4xf32>) -> ()
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// Through calls: a private function called only where every member calls
// it is entered alike; one also called under a rank-dependent condition is
// not, nor is a recursive one.
// CHECK-LABEL: func.func private @everywhere
// CHECK: distruntime.all_reduce {{.*}}{distruntime.proven,
// CHECK-LABEL: func.func private @sometimes
// CHECK-NOT: distruntime.proven
// CHECK-LABEL: func.func private @recursive
// CHECK-NOT: distruntime.proven
// CHECK-LABEL: func.func @main
func.func private @everywhere(%a: memref<4xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}
func.func private @sometimes(%a: memref<4xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}
func.func private @recursive(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<min>, replica_groups = dense<> : tensor<0x0xi64>}
  %more = arith.cmpi sgt, %n, %c0 : index
  scf.if %more {
    %m = arith.subi %n, %c1 : index
    func.call @recursive(%a, %m) : (memref<4xf32>, index) -> ()
  }
  return
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc() : memref<4xf32>
  func.call @everywhere(%a) : (memref<4xf32>) -> ()
  func.call @everywhere(%a) : (memref<4xf32>) -> ()
  func.call @sometimes(%a) : (memref<4xf32>) -> ()
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    func.call @sometimes(%a) : (memref<4xf32>) -> ()
  } else {
    func.call @sometimes(%a) : (memref<4xf32>) -> ()
  }
  func.call @recursive(%a, %c2) : (memref<4xf32>, index) -> ()
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// Tensors: a dynamic size from a tensor.empty of uniform size is uniform,
// through the linalg.fill that writes it.
// CHECK-LABEL: func.func @main
// CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<?xf32>) {{.*}}distruntime.proven
func.func @main() -> i32 {
  %n = distruntime.team_size team(0)
  %me = distruntime.team_member team(0)
  %i = arith.index_cast %me : index to i32
  %x = arith.sitofp %i : i32 to f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %t = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = distruntime.all_reduce ins(%t : tensor<?xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// send and recv: a channel's one send and one recv, in one block, with the
// same pairs and static types, are proven together. A second send on a
// channel, a recv of a dynamic shape, or a recv in another block leaves the
// channel unproven (checked mode's headers compare sender and receiver).
// (Pairs of a channel_id > 0 name partitions: the module gives two.)
// CHECK-LABEL: func.func @main
// CHECK: distruntime.send {{.*}}channel_id = 1 : i64, distruntime.proven
// CHECK: distruntime.recv {{.*}}channel_id = 1 : i64, distruntime.proven
// CHECK: distruntime.send
// CHECK-NOT: distruntime.proven
// CHECK: return
module attributes {distruntime.num_partitions = 2 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.alloc() : memref<2xi64>
  %y = memref.alloc() : memref<2xi64>
  %z = memref.alloc(%c2) : memref<?xi64>
  distruntime.send ins(%x : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64}
  distruntime.recv outs(%y : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64}
  // Two sends on channel 2.
  distruntime.send ins(%x : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 2 : i64}
  distruntime.send ins(%x : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 2 : i64}
  distruntime.recv outs(%y : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 2 : i64}
  distruntime.recv outs(%y : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 2 : i64}
  // A recv of a dynamic shape (another type is an error of the pass:
  // a channel's one send and one recv that cannot meet).
  distruntime.send ins(%x : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 3 : i64}
  distruntime.recv outs(%z : memref<?xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 3 : i64}
  // The recv in a loop body, the send outside.
  distruntime.send ins(%x : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 4 : i64}
  scf.for %i = %c0 to %c2 step %c1 {
    distruntime.recv outs(%y : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 4 : i64}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
}

// -----

// update_halo: static block and halo sizes, for every op of key 1: proven.
// Key 2 has one op with a dynamic halo size: neither of its ops is (a
// member could replan where another does not). A grid of dims_create's
// sizes agrees (key 3: proven); one of the member's id may not (key 4: not
// proven). get_halo is never proven.
// CHECK-LABEL: func.func @main
// CHECK: distruntime.update_halo %{{.*}} key(1) {distruntime.proven} : memref<10x8xf32>
// CHECK: distruntime.update_halo %{{.*}} key(1) {distruntime.proven} : memref<10x8xf32>
// CHECK: distruntime.update_halo %{{.*}} key(2) : memref<10x8xf32>
// CHECK: distruntime.update_halo %{{.*}} key(2) : memref<10x8xf32>
// CHECK: distruntime.update_halo %{{.*}} key(3) {distruntime.proven} : memref<10x8xf32>
// CHECK: distruntime.update_halo %{{.*}} key(4) : memref<10x8xf32>
// CHECK: distruntime.get_halo
// CHECK-NOT: distruntime.proven
// CHECK: return
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %b = memref.alloc() : memref<10x8xf32>
  %l = memref.alloc() : memref<3x8xf64>
  distruntime.update_halo %b grid [4] split_axes [[0]] halo_sizes [1, 1, 0, 0] key(1) : memref<10x8xf32>
  distruntime.update_halo %b grid [4] split_axes [[0]] halo_sizes [1, 1, 0, 0] key(1) : memref<10x8xf32>
  %n = distruntime.team_size team(0)
  distruntime.update_halo %b grid [4] split_axes [[0]] halo_sizes [1, 1, 0, 0] key(2) : memref<10x8xf32>
  distruntime.update_halo %b grid [4] split_axes [[0]] halo_sizes [%n : index, 1, 0, 0] key(2) : memref<10x8xf32>
  %g:2 = distruntime.dims_create team(0) : index, index
  distruntime.update_halo %b grid [%g#0 : index, %g#1 : index] split_axes [[0], [1]] halo_sizes [1, 1, 0, 0] key(3) : memref<10x8xf32>
  %me = distruntime.team_member team(0)
  %m1 = arith.addi %me, %c1 : index
  distruntime.update_halo %b grid [%m1 : index] split_axes [[0]] halo_sizes [1, 1, 0, 0] key(4) : memref<10x8xf32>
  %h, %lo, %hi = distruntime.get_halo %l gshape [%c10, %c8] loffsets [%c1, %c0]
      bboffsets [%c0, %c0] bbsizes [%c10, %c8] team(0)
      : memref<3x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// A mark the input carries on an op the pass cannot prove is removed; on
// one it proves, it stays.
// CHECK-LABEL: func.func private @handwritten
// CHECK: scf.if
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}}) outs(%{{.*}}) {reduction = #distruntime.reduction<sum>
// CHECK: } else {
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}}) outs(%{{.*}}) {reduction = #distruntime.reduction<sum>
// CHECK: distruntime.all_reduce {{.*}}{distruntime.proven, reduction = #distruntime.reduction<max>
func.func private @handwritten(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {distruntime.proven, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {distruntime.proven, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {distruntime.proven, reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  func.call @handwritten(%a) : (memref<4xf32>) -> ()
  %r = arith.constant 0 : i32
  return %r : i32
}

// -----

// Run-time roots are data the analysis does not follow: the broadcast that
// reads them stays checked; the one with the default root is proven.
// CHECK-LABEL: func.func @main
// CHECK: distruntime.collective_broadcast ins(%{{.*}} : memref<4xf32>) outs(%{{.*}} : memref<4xf32>) {distruntime.proven,
// CHECK: distruntime.collective_broadcast ins(%{{.*}} : memref<4xf32>) roots(%{{.*}} : memref<1xi32>) outs(%{{.*}} : memref<4xf32>) {replica_groups
func.func @main(%roots: memref<1xi32>) -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  distruntime.collective_broadcast ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.collective_broadcast ins(%a : memref<4xf32>) roots(%roots : memref<1xi32>) outs(%b : memref<4xf32>)
      {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}
