// Round trip of gather and scatter in tensor and memref form.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s

// CHECK-LABEL: func @gather_forms
func.func @gather_forms(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>,
                        %m: memref<8x4xf32>, %i: memref<3xui32>, %o: memref<3x4xf32>) -> tensor<2x2x3x2x2xi32> {
  // CHECK: distruntime.gather ins(%{{.*}}, %{{.*}} : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {
    dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1],
      operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>, indices_are_sorted = true
  } -> tensor<2x2x3x2x2xi32>
  // An embedding lookup: rows of %m at %i, index_vector_dim = rank(indices).
  // CHECK: distruntime.gather ins(%{{.*}}, %{{.*}} : memref<8x4xf32>, memref<3xui32>) outs(%{{.*}} : memref<3x4xf32>) {dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
  distruntime.gather ins(%m, %i : memref<8x4xf32>, memref<3xui32>) outs(%o : memref<3x4xf32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>
  }
  return %r : tensor<2x2x3x2x2xi32>
}

// CHECK-LABEL: func @scatter_forms
func.func @scatter_forms(%a: tensor<8xi32>, %b: tensor<8xf32>, %idx: tensor<3x1xi16>,
                         %ua: tensor<3xi32>, %ub: tensor<3xf32>, %m: memref<8xf64>,
                         %mi: memref<2xi64>, %mu: memref<2xf64>) -> (tensor<8xi32>, tensor<8xf32>) {
  // CHECK: distruntime.scatter ins(%{{.*}}, %{{.*}} : tensor<8xi32>, tensor<8xf32>) indices(%{{.*}} : tensor<3x1xi16>) updates(%{{.*}}, %{{.*}} : tensor<3xi32>, tensor<3xf32>) {scatter_dimension_numbers = #distruntime.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true} update_computation {
  // CHECK: arith.maxsi
  // CHECK: arith.mulf
  // CHECK: distruntime.yield %{{.*}}, %{{.*}} : i32, f32
  // CHECK: } -> tensor<8xi32>, tensor<8xf32>
  %r:2 = distruntime.scatter ins(%a, %b : tensor<8xi32>, tensor<8xf32>) indices(%idx : tensor<3x1xi16>)
      updates(%ua, %ub : tensor<3xi32>, tensor<3xf32>) {
    scatter_dimension_numbers = #distruntime.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    unique_indices = true
  } update_computation {
  ^bb0(%ca: i32, %cb: f32, %na: i32, %nb: f32):
    %x = arith.maxsi %ca, %na : i32
    %y = arith.mulf %cb, %nb : f32
    distruntime.yield %x, %y : i32, f32
  } -> tensor<8xi32>, tensor<8xf32>
  // In place on memrefs: outs is the input buffer.
  // CHECK: distruntime.scatter ins(%{{.*}} : memref<8xf64>) indices(%{{.*}} : memref<2xi64>) updates(%{{.*}} : memref<2xf64>) outs(%{{.*}} : memref<8xf64>)
  distruntime.scatter ins(%m : memref<8xf64>) indices(%mi : memref<2xi64>) updates(%mu : memref<2xf64>) outs(%m : memref<8xf64>) {
    scatter_dimension_numbers = #distruntime.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } update_computation {
  ^bb0(%c: f64, %n: f64):
    distruntime.yield %n : f64
  }
  return %r#0, %r#1 : tensor<8xi32>, tensor<8xf32>
}
