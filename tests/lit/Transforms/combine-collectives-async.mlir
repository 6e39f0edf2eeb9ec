// distruntime-combine-collectives on async ops: async all_reduces
// (all_gathers), each waited once in their block, combine into one async op
// at the last start, waited where the first of their waits stood. Nothing
// that may wait for other members may stand between the starts (a wait, a
// sync collective, a call that communicates or whose effects are unknown);
// another async start may. Negative cases: a wait in another block, a
// handle waited in a nested region, a handle passed to a call.
// RUN: %distruntime-opt %s --split-input-file --distruntime-combine-collectives | FileCheck %s
// RUN: %distruntime-opt %s --split-input-file --distruntime-combine-collectives=max-bytes=32 | FileCheck %s --check-prefix=LIMIT

// Gradients filled by a call the pass sees into, each reduced async as it is
// ready: one async op after the last fill, waited at the first wait (the
// waits' order differs from the starts'); the fourth starts after that wait
// and stays alone.
// CHECK-LABEL: func.func @gradients(
// CHECK: call @fill(%[[A:[^,]*]],
// CHECK-NEXT: call @fill(%[[B:[^,]*]],
// CHECK-NEXT: call @fill(%[[C:[^,]*]],
// CHECK-NEXT: %[[H:.*]] = distruntime.all_reduce ins(%[[A]], %[[B]], %[[C]] : memref<4xf32>, memref<4xf32>, memref<4xf32>) outs(%[[A]], %[[B]], %[[C]] : memref<4xf32>, memref<4xf32>, memref<4xf32>) async
// CHECK-NEXT: call @fill(%[[D:[^,]*]],
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: %[[H3:.*]] = distruntime.all_reduce ins(%[[D]] : memref<4xf32>) outs(%[[D]] : memref<4xf32>) async
// CHECK-NEXT: distruntime.wait %[[H3]]
// CHECK-NEXT: return
// LIMIT-LABEL: func.func @gradients(
// LIMIT: distruntime.all_reduce ins(%{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>) outs(%{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>) async
// LIMIT: distruntime.all_reduce ins(%{{.*}} : memref<4xf32>) outs(%{{.*}} : memref<4xf32>) async
// LIMIT-COUNT-2: distruntime.wait
func.func private @fill(%m: memref<4xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%m : memref<4xf32>)
  return
}
func.func @gradients(%v: f32) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  func.call @fill(%a, %v) : (memref<4xf32>, f32) -> ()
  %h0 = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  func.call @fill(%b, %v) : (memref<4xf32>, f32) -> ()
  %h1 = distruntime.all_reduce ins(%b : memref<4xf32>) outs(%b : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  func.call @fill(%c, %v) : (memref<4xf32>, f32) -> ()
  %h2 = distruntime.all_reduce ins(%c : memref<4xf32>) outs(%c : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  func.call @fill(%d, %v) : (memref<4xf32>, f32) -> ()
  distruntime.wait %h1
  distruntime.wait %h0
  %h3 = distruntime.all_reduce ins(%d : memref<4xf32>) outs(%d : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %h2
  distruntime.wait %h3
  return
}

// -----

// Tensor form: each op's results are the combined op's, used after the wait.
// CHECK-LABEL: func.func @tensors(
// CHECK: %[[R:.*]]:2, %[[H:.*]] = distruntime.all_reduce ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<4xf32>) async {{.*}} -> tensor<2xf32>, tensor<4xf32>
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
func.func @tensors(%x: tensor<2xf32>, %y: tensor<4xf32>) -> (tensor<2xf32>, tensor<4xf32>) {
  %a, %h1 = distruntime.all_reduce ins(%x : tensor<2xf32>) async {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<2xf32>
  %b, %h2 = distruntime.all_reduce ins(%y : tensor<4xf32>) async {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<4xf32>
  distruntime.wait %h2
  distruntime.wait %h1
  return %a, %b : tensor<2xf32>, tensor<4xf32>
}

// -----

// Between the starts (fresh buffers, which alias no other): another op's
// async start does not stop them (the
// all_gathers combine too, waited at their first wait); a sync collective
// does, and so does a call whose effects are unknown (it may communicate).
// CHECK-LABEL: func.func @between(
// CHECK: %[[G:.*]] = distruntime.all_gather ins(%{{.*}}, %{{.*}} : memref<2xf32>, memref<2xf32>) outs(%{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>) async
// CHECK-NEXT: %[[H:.*]] = distruntime.all_reduce ins(%{{.*}}, %{{.*}} : memref<2xf32>, memref<2xf32>) outs({{.*}}) async
// CHECK-NEXT: distruntime.wait %[[G]]
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>) outs({{.*}}) async
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>) outs({{.*}}) {
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>) outs({{.*}}) async
// CHECK-NEXT: call @opaque()
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>) outs({{.*}}) async
func.func private @opaque()
func.func @between() {
  %x = memref.alloc() : memref<2xf32>
  %y = memref.alloc() : memref<2xf32>
  %gx = memref.alloc() : memref<4xf32>
  %gy = memref.alloc() : memref<4xf32>
  %o1 = memref.alloc() : memref<2xf32>
  %o2 = memref.alloc() : memref<2xf32>
  %o3 = memref.alloc() : memref<2xf32>
  %o4 = memref.alloc() : memref<2xf32>
  %o5 = memref.alloc() : memref<2xf32>
  %o6 = memref.alloc() : memref<2xf32>
  %g1 = distruntime.all_gather ins(%x : memref<2xf32>) outs(%gx : memref<4xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %h1 = distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o1 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %g2 = distruntime.all_gather ins(%y : memref<2xf32>) outs(%gy : memref<4xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %h2 = distruntime.all_reduce ins(%y : memref<2xf32>) outs(%o2 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %g1
  distruntime.wait %h1
  distruntime.wait %g2
  distruntime.wait %h2
  %h3 = distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o3 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.all_reduce ins(%y : memref<2xf32>) outs(%o4 : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %h4 = distruntime.all_reduce ins(%y : memref<2xf32>) outs(%o5 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  func.call @opaque() : () -> ()
  %h5 = distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o6 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %h3
  distruntime.wait %h4
  distruntime.wait %h5
  return
}

// -----

// Handles that are not waited once in their own block stay as they are:
// one waited in an scf.if, one passed to a call. The sync op after them
// is not combined with either.
// CHECK-LABEL: func.func @elsewhere(
// CHECK-COUNT-3: distruntime.all_reduce ins(%{{.*}} : memref<2xf32>)
func.func private @finish(%h: !distruntime.async_handle) {
  distruntime.wait %h
  return
}
func.func @elsewhere(%x: memref<2xf32>, %o1: memref<2xf32>, %o2: memref<2xf32>, %o3: memref<2xf32>, %c: i1) {
  %h1 = distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o1 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %h2 = distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o2 : memref<2xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  scf.if %c {
    distruntime.wait %h1
  } else {
    distruntime.wait %h1
  }
  func.call @finish(%h2) : (!distruntime.async_handle) -> ()
  distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o3 : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}
