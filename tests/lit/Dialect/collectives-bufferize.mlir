// Tensor-form collectives bufferize into the memref form: inputs are read
// in place, each result gets a fresh buffer (dynamic sizes from the input
// where the op keeps the dimension), attributes and regions carry over.
// RUN: %distruntime-opt %s --one-shot-bufferize="bufferize-function-boundaries" -split-input-file -verify-diagnostics | FileCheck %s

// An async op reads a private copy of its inputs: nothing else can write
// it before the wait.
// CHECK-LABEL: func @gather
// CHECK-SAME: (%[[X:.*]]: memref<?x2xf32{{.*}}>)
// CHECK: %[[D0:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: %[[COPY:.*]] = memref.alloc(%[[D0]]) {{.*}}: memref<?x2xf32>
// CHECK: memref.copy %[[X]], %[[COPY]]
// CHECK: %[[D:.*]] = memref.dim %[[COPY]], %{{.*}}
// CHECK: %[[OUT:.*]] = memref.alloc(%[[D]]) : memref<?x4xf32>
// CHECK: %[[H:.*]] = distruntime.all_gather ins(%[[COPY]] : memref<?x2xf32>) outs(%[[OUT]] : memref<?x4xf32>) async {all_gather_dim = 1 : i64
// CHECK: distruntime.wait %[[H]]
// CHECK: return %[[OUT]]
func.func @gather(%x: tensor<?x2xf32>) -> tensor<?x4xf32> {
  %r, %h = distruntime.all_gather ins(%x : tensor<?x2xf32>) async {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?x4xf32>
  distruntime.wait %h
  return %r : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func @reduce_region
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xi32>
// CHECK: distruntime.all_reduce ins(%{{.*}}) outs(%[[OUT]] : memref<4xi32>) {replica_groups
// CHECK: arith.addi
func.func @reduce_region(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = distruntime.all_reduce ins(%x : tensor<4xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    distruntime.yield %s : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// The gathered dimension cannot be sized from the input when dynamic.
func.func @dynamic_gathered_dim(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{result #0 needs a static size in dimension 0 to be bufferized}}
  // expected-error @+1 {{failed to bufferize op}}
  %r = distruntime.all_gather ins(%x : tensor<?xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// all_to_all of a 2x4 block, split_dimension 1 into 2 blocks of 2x2,
// concat_dimension 0: the result is (2 * 2) x (4 / 2) = 4x2.
// CHECK-LABEL: func @all_to_all
// CHECK-SAME: (%[[X:.*]]: memref<2x4xf32{{.*}}>)
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4x2xf32>
// CHECK: distruntime.all_to_all ins(%[[X]] : memref<2x4xf32{{.*}}>) outs(%[[OUT]] : memref<4x2xf32>) {concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}{{$}}
// CHECK: return %[[OUT]]
func.func @all_to_all(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %r = distruntime.all_to_all ins(%x : tensor<2x4xf32>) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// A changed dimension (split_dimension 0) cannot be sized from the input.
func.func @all_to_all_dynamic_split(%x: tensor<?x2xf32>) -> tensor<?x4xf32> {
  // expected-error @+2 {{result #0 needs a static size in dimension 0 to be bufferized}}
  // expected-error @+1 {{failed to bufferize op}}
  %r = distruntime.all_to_all ins(%x : tensor<?x2xf32>) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// reduce_scatter over a group of 3, scatter_dimension 0: 6 / 3 = 2 rows;
// dimension 1 is kept, so its dynamic size is the input's.
// CHECK-LABEL: func @reduce_scatter
// CHECK-SAME: (%[[X:.*]]: memref<6x?xi32{{.*}}>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[D:.*]] = memref.dim %[[X]], %[[C1]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[D]]) : memref<2x?xi32>
// CHECK: distruntime.reduce_scatter ins(%[[X]] : memref<6x?xi32{{.*}}>) outs(%[[OUT]] : memref<2x?xi32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>, scatter_dimension = 0 : i64}{{$}}
// CHECK: return %[[OUT]]
func.func @reduce_scatter(%x: tensor<6x?xi32>) -> tensor<2x?xi32> {
  %r = distruntime.reduce_scatter ins(%x : tensor<6x?xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<2x?xi32>
  return %r : tensor<2x?xi32>
}

// -----

// The computation region moves to the memref form.
// CHECK-LABEL: func @reduce_scatter_region
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x4xf64>
// CHECK: distruntime.reduce_scatter ins(%{{.*}} : memref<2x4xf64{{.*}}>) outs(%[[OUT]] : memref<1x4xf64>) {replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} computation {
// CHECK: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64):
// CHECK: %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f64
// CHECK: distruntime.yield %[[M]] : f64
// CHECK: return %[[OUT]]
func.func @reduce_scatter_region(%x: tensor<2x4xf64>) -> tensor<1x4xf64> {
  %r = distruntime.reduce_scatter ins(%x : tensor<2x4xf64>) {scatter_dimension = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f64, %b: f64):
    %m = arith.maximumf %a, %b : f64
    distruntime.yield %m : f64
  } -> tensor<1x4xf64>
  return %r : tensor<1x4xf64>
}

// -----

// CHECK-LABEL: func @collective_broadcast
// CHECK-SAME: (%[[X:.*]]: memref<1x2xi64{{.*}}>)
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x2xi64>
// CHECK: distruntime.collective_broadcast ins(%[[X]] : memref<1x2xi64{{.*}}>) outs(%[[OUT]] : memref<1x2xi64>) {replica_groups = dense<{{\[\[}}2, 1]]> : tensor<1x2xi64>}{{$}}
// CHECK: return %[[OUT]]
func.func @collective_broadcast(%x: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
  return %r : tensor<1x2xi64>
}

// -----

// Dynamic roots (has_dynamic_root) bufferize with the op: the roots' buffer
// is read in place even when async (the call reads it when issued), while
// the inputs are private copies; one output per input, none for the roots.
// CHECK-LABEL: func @collective_broadcast_roots
// CHECK-SAME: (%[[X:.*]]: memref<1x2xi64{{.*}}>, %[[Y:.*]]: memref<3xf32{{.*}}>, %[[R:.*]]: memref<2xi32{{.*}}>)
// CHECK: %[[CX:.*]] = memref.alloc() {{.*}}: memref<1x2xi64>
// CHECK: memref.copy %[[X]], %[[CX]]
// CHECK: %[[CY:.*]] = memref.alloc() {{.*}}: memref<3xf32>
// CHECK: memref.copy %[[Y]], %[[CY]]
// CHECK-NOT: memref.copy
// CHECK: %[[OX:.*]] = memref.alloc() : memref<1x2xi64>
// CHECK: %[[OY:.*]] = memref.alloc() : memref<3xf32>
// CHECK: %[[H:.*]] = distruntime.collective_broadcast ins(%[[CX]], %[[CY]] : memref<1x2xi64>, memref<3xf32>) roots(%[[R]] : memref<2xi32{{.*}}>) outs(%[[OX]], %[[OY]] : memref<1x2xi64>, memref<3xf32>) async {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}{{$}}
// CHECK: distruntime.wait %[[H]]
// CHECK: return %[[OX]], %[[OY]]
func.func @collective_broadcast_roots(%x: tensor<1x2xi64>, %y: tensor<3xf32>, %roots: tensor<2xi32>) -> (tensor<1x2xi64>, tensor<3xf32>) {
  %r:2, %h = distruntime.collective_broadcast ins(%x, %y : tensor<1x2xi64>, tensor<3xf32>) roots(%roots : tensor<2xi32>) async {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>, tensor<3xf32>
  distruntime.wait %h
  return %r#0, %r#1 : tensor<1x2xi64>, tensor<3xf32>
}

// -----

// A constant root bufferizes into a constant global.
// CHECK-LABEL: func @collective_broadcast_constant_root
// CHECK: %[[R:.*]] = memref.get_global @{{.*}} : memref<1xi32>
// CHECK: distruntime.collective_broadcast ins(%{{.*}} : memref<4xf32{{.*}}>) roots(%[[R]] : memref<1xi32>) outs(%{{.*}} : memref<4xf32>)
func.func @collective_broadcast_constant_root(%x: tensor<4xf32>) -> tensor<4xf32> {
  %roots = arith.constant dense<1> : tensor<1xi32>
  %r = distruntime.collective_broadcast ins(%x : tensor<4xf32>) roots(%roots : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Async: the handle of the memref form replaces the tensor form's.
// channel_id > 0 names partitions, so the module gives num_partitions.
// CHECK-LABEL: func @collective_permute
// CHECK-SAME: (%[[X:.*]]: memref<3xbf16{{.*}}>)
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<3xbf16>
// CHECK: memref.copy %[[X]], %[[COPY]]
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<3xbf16>
// CHECK: %[[H:.*]] = distruntime.collective_permute ins(%[[COPY]] : memref<3xbf16>) outs(%[[OUT]] : memref<3xbf16>) async {channel_id = 2 : i64, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}
// CHECK: distruntime.wait %[[H]]
// CHECK: return %[[OUT]]
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 3 : i64} {
func.func @collective_permute(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %r, %h = distruntime.collective_permute ins(%x : tensor<3xbf16>) async {channel_id = 2 : i64, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} -> tensor<3xbf16>
  distruntime.wait %h
  return %r : tensor<3xbf16>
}
}

// -----

// send has inputs and no results: nothing is allocated.
// channel_id > 0 names partitions, so the module gives num_partitions.
// CHECK-LABEL: func @send
// CHECK-SAME: (%[[X:.*]]: memref<2x2xi64{{.*}}>, %[[Y:.*]]: memref<3xf32{{.*}}>)
// CHECK-NOT: memref.alloc
// CHECK: distruntime.send ins(%[[X]], %[[Y]] : memref<2x2xi64{{.*}}>, memref<3xf32{{.*}}>) {channel_id = 1 : i64, channel_type = #distruntime.channel_type<device_to_device>, source_target_pairs = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}{{$}}
// CHECK-NOT: memref.alloc
// CHECK: return
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 3 : i64} {
func.func @send(%x: tensor<2x2xi64>, %y: tensor<3xf32>) {
  distruntime.send ins(%x, %y : tensor<2x2xi64>, tensor<3xf32>) {channel_id = 1 : i64, channel_type = #distruntime.channel_type<device_to_device>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}
}

// -----

// recv has no inputs: every result gets a fresh buffer of its static type.
// channel_id > 0 names partitions, so the module gives num_partitions.
// CHECK-LABEL: func @recv
// CHECK-SAME: () -> (memref<2x3xi16>, memref<4xf64>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<2x3xi16>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf64>
// CHECK: distruntime.recv outs(%[[A]], %[[B]] : memref<2x3xi16>, memref<4xf64>) {channel_id = 1 : i64, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2]]> : tensor<2x2xi64>}{{$}}
// CHECK: return %[[A]], %[[B]]
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 3 : i64} {
func.func @recv() -> (tensor<2x3xi16>, tensor<4xf64>) {
  %a, %b = distruntime.recv {channel_id = 1 : i64, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} -> tensor<2x3xi16>, tensor<4xf64>
  return %a, %b : tensor<2x3xi16>, tensor<4xf64>
}
}

// -----

// Two operands of different shapes and element types, gathered along
// dimension 0 over a group of 3: 2x3xi32 -> 6x3xi32 and 4xf64 -> 12xf64.
// CHECK-LABEL: func @gather_two
// CHECK-SAME: (%[[X:.*]]: memref<2x3xi32{{.*}}>, %[[Y:.*]]: memref<4xf64{{.*}}>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<6x3xi32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<12xf64>
// CHECK: distruntime.all_gather ins(%[[X]], %[[Y]] : memref<2x3xi32{{.*}}>, memref<4xf64{{.*}}>) outs(%[[A]], %[[B]] : memref<6x3xi32>, memref<12xf64>) {all_gather_dim = 0 : i64, replica_groups = dense<{{\[\[}}2, 0, 1]]> : tensor<1x3xi64>}{{$}}
// CHECK: return %[[A]], %[[B]]
func.func @gather_two(%x: tensor<2x3xi32>, %y: tensor<4xf64>) -> (tensor<6x3xi32>, tensor<12xf64>) {
  %a, %b = distruntime.all_gather ins(%x, %y : tensor<2x3xi32>, tensor<4xf64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} -> tensor<6x3xi32>, tensor<12xf64>
  return %a, %b : tensor<6x3xi32>, tensor<12xf64>
}

// -----

// The race the copy prevents: %x is not read after the async op, so
// bufferization lets the fill write %x's buffer in place while the gather
// may still be sending it.
// CHECK-LABEL: func @input_overwritten_before_wait
// CHECK-SAME: (%[[X:.*]]: memref<4xf32{{.*}}>)
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<4xf32>
// CHECK: memref.copy %[[X]], %[[COPY]]
// CHECK: %[[H:.*]] = distruntime.all_gather ins(%[[COPY]] : memref<4xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[X]] :
// CHECK: distruntime.wait %[[H]]
func.func @input_overwritten_before_wait(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %r, %h = distruntime.all_gather ins(%x : tensor<4xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<8xf32>
  %c = arith.constant 1.0 : f32
  %y = linalg.fill ins(%c : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  distruntime.wait %h
  return %y, %r : tensor<4xf32>, tensor<8xf32>
}

// -----

// get_halo is always async: it reads a private copy of `local` too.
// CHECK-LABEL: func @get_halo
// CHECK-SAME: (%[[L:.*]]: memref<?x3xi64{{.*}}>,
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}) {{.*}}: memref<?x3xi64>
// CHECK: memref.copy %[[L]], %[[COPY]]
// CHECK: distruntime.get_halo %[[COPY]] gshape
func.func @get_halo(%local: tensor<?x3xi64>, %i: index) -> (tensor<?x3xi64>, tensor<?x3xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %h, %l, %r = distruntime.get_halo %local gshape [%i, %c3] loffsets [%i, %c0] bboffsets [%i, %c0] bbsizes [%i, %c3] team(0)
      : tensor<?x3xi64> -> tensor<?x3xi64>, tensor<?x3xi64>
  distruntime.wait %h
  return %l, %r : tensor<?x3xi64>, tensor<?x3xi64>
}

// -----

// Buffer deallocation frees an op's buffers at the end of its block: an
// async tensor-form op waited in another block is refused.
func.func @wait_in_another_block(%x: tensor<4xf32>, %c: i1) -> tensor<8xf32> {
  %r, %h = scf.if %c -> (tensor<8xf32>, !distruntime.async_handle) {
    // expected-error @+2 {{is async on tensors, so it must be waited in its own block}}
    // expected-error @+1 {{failed to bufferize op}}
    %r0, %h0 = distruntime.all_gather ins(%x : tensor<4xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<8xf32>
    scf.yield %r0, %h0 : tensor<8xf32>, !distruntime.async_handle
  } else {
    %r1, %h1 = distruntime.all_gather ins(%x : tensor<4xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<8xf32>
    scf.yield %r1, %h1 : tensor<8xf32>, !distruntime.async_handle
  }
  distruntime.wait %h
  return %r : tensor<8xf32>
}
