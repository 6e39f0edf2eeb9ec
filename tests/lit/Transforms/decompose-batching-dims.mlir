// distruntime-decompose-batching-dims rewrites tensor-form gather/scatter
// with batching dims into the older form (seed 004, "Compatibility"): the
// operand (input) batching dims join collapsed_slice_dims
// (inserted_window_dims), no batching dims remain, start_index_map
// (scatter_dims_to_operand_dims) is extended by the former batching dims,
// and one tensor.generate iota per batching dim (the position along the
// paired indices dim) is concatenated onto the indices along
// index_vector_dim; an implicit index vector (index_vector_dim ==
// rank(indices)) is first made explicit with tensor.expand_shape. Ops
// without batching dims and memref forms are left alone.
// RUN: %distruntime-opt %s --distruntime-decompose-batching-dims | FileCheck %s

// Swapped batching dims: operand [0, 2] with start indices [2, 0].
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[OPERAND:[^:]*]]: tensor<2x5x3x4xf64>, %[[INDICES:[^:]*]]: tensor<3x2x2x4xi64>)
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[IOTA0:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %[[P0:[^:]*]]: index, %{{.*}}: index):
// CHECK-NEXT: %[[C0:.*]] = arith.index_cast %[[P0]] : index to i64
// CHECK-NEXT: tensor.yield %[[C0]] : i64
// CHECK-NEXT: } : tensor<3x1x2x4xi64>
// CHECK: %[[IOTA1:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[P1:[^:]*]]: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: %[[C1:.*]] = arith.index_cast %[[P1]] : index to i64
// CHECK-NEXT: tensor.yield %[[C1]] : i64
// CHECK-NEXT: } : tensor<3x1x2x4xi64>
// CHECK: %[[CAT:.*]] = tensor.concat dim(1) %[[INDICES]], %[[IOTA0]], %[[IOTA1]] : {{.*}} -> tensor<3x4x2x4xi64>
// CHECK: distruntime.gather ins(%[[OPERAND]], %[[CAT]] : tensor<2x5x3x4xf64>, tensor<3x4x2x4xi64>)
// CHECK-SAME: dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0, 1, 2], start_index_map = [3, 1, 0, 2], index_vector_dim = 1>
// CHECK-SAME: slice_sizes = array<i64: 1, 1, 1, 3>
// CHECK-SAME: -> tensor<3x3x2x4xf64>
func.func @gather(%operand: tensor<2x5x3x4xf64>, %indices: tensor<3x2x2x4xi64>) -> tensor<3x3x2x4xf64> {
  %r = distruntime.gather ins(%operand, %indices : tensor<2x5x3x4xf64>, tensor<3x2x2x4xi64>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0, 2], start_indices_batching_dims = [2, 0], start_index_map = [3, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1, 1, 3>
  } -> tensor<3x3x2x4xf64>
  return %r : tensor<3x3x2x4xf64>
}

// Implicit index vector with unsigned indices: expand_shape first, the iota
// is cast to ui32.
// CHECK-LABEL: func.func @gather_implicit(
// CHECK-SAME: %[[OPERAND:[^:]*]]: tensor<3x8xi32>, %[[INDICES:[^:]*]]: tensor<3x4xui32>)
// CHECK: %[[EXP:.*]] = tensor.expand_shape %[[INDICES]] {{\[\[}}0], [1, 2]] output_shape [3, 4, 1] : tensor<3x4xui32> into tensor<3x4x1xui32>
// CHECK: %[[IOTA:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[P:[^:]*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT: %[[U:.*]] = builtin.unrealized_conversion_cast %[[I]] : i32 to ui32
// CHECK-NEXT: tensor.yield %[[U]] : ui32
// CHECK-NEXT: } : tensor<3x4x1xui32>
// CHECK: %[[CAT:.*]] = tensor.concat dim(2) %[[EXP]], %[[IOTA]] : {{.*}} -> tensor<3x4x2xui32>
// CHECK: distruntime.gather ins(%[[OPERAND]], %[[CAT]] : tensor<3x8xi32>, tensor<3x4x2xui32>)
// CHECK-SAME: dimension_numbers = #distruntime.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>
func.func @gather_implicit(%operand: tensor<3x8xi32>, %indices: tensor<3x4xui32>) -> tensor<3x4x3xi32> {
  %r = distruntime.gather ins(%operand, %indices : tensor<3x8xi32>, tensor<3x4xui32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 3>
  } -> tensor<3x4x3xi32>
  return %r : tensor<3x4x3xi32>
}

// CHECK-LABEL: func.func @scatter(
// CHECK-SAME: %[[INPUT:[^:]*]]: tensor<5x4x3xf64>, %[[INDICES:[^:]*]]: tensor<3x4x2xi32>, %[[UPDATES:[^:]*]]: tensor<3x4x2xf64>)
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[IOTA:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[P:[^:]*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT: tensor.yield %[[I]] : i32
// CHECK-NEXT: } : tensor<3x4x1xi32>
// CHECK: %[[CAT:.*]] = tensor.concat dim(2) %[[INDICES]], %[[IOTA]] : {{.*}} -> tensor<3x4x3xi32>
// CHECK: distruntime.scatter ins(%[[INPUT]] : tensor<5x4x3xf64>) indices(%[[CAT]] : tensor<3x4x3xi32>) updates(%[[UPDATES]] : tensor<3x4x2xf64>)
// CHECK-SAME: scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [2], inserted_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1, 2], index_vector_dim = 2>
// CHECK: arith.addf
// CHECK: distruntime.yield
// CHECK: -> tensor<5x4x3xf64>
func.func @scatter(%input: tensor<5x4x3xf64>, %indices: tensor<3x4x2xi32>, %updates: tensor<3x4x2xf64>) -> tensor<5x4x3xf64> {
  %r = distruntime.scatter ins(%input : tensor<5x4x3xf64>) indices(%indices : tensor<3x4x2xi32>) updates(%updates : tensor<3x4x2xf64>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [2], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>
  } update_computation {
  ^bb0(%cur: f64, %upd: f64):
    %s = arith.addf %cur, %upd : f64
    distruntime.yield %s : f64
  } -> tensor<5x4x3xf64>
  return %r : tensor<5x4x3xf64>
}

// Swapped batching dims and an implicit index vector.
// CHECK-LABEL: func.func @scatter_implicit(
// CHECK-SAME: %[[INPUT:[^:]*]]: tensor<2x5x3xf32>, %[[INDICES:[^:]*]]: tensor<3x4x2xi32>, %[[UPDATES:[^:]*]]: tensor<3x4x2x2xf32>)
// CHECK: %[[EXP:.*]] = tensor.expand_shape %[[INDICES]] {{\[\[}}0], [1], [2, 3]] output_shape [3, 4, 2, 1] : tensor<3x4x2xi32> into tensor<3x4x2x1xi32>
// CHECK: %[[IOTA0:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %[[P0:[^:]*]]: index, %{{.*}}: index):
// CHECK-NEXT: arith.index_cast %[[P0]] : index to i32
// CHECK: } : tensor<3x4x2x1xi32>
// CHECK: %[[IOTA1:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[P1:[^:]*]]: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: arith.index_cast %[[P1]] : index to i32
// CHECK: } : tensor<3x4x2x1xi32>
// CHECK: %[[CAT:.*]] = tensor.concat dim(3) %[[EXP]], %[[IOTA0]], %[[IOTA1]] : {{.*}} -> tensor<3x4x2x3xi32>
// CHECK: distruntime.scatter ins(%[[INPUT]] : tensor<2x5x3xf32>) indices(%[[CAT]] : tensor<3x4x2x3xi32>) updates(%[[UPDATES]] : tensor<3x4x2x2xf32>)
// CHECK-SAME: scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3], inserted_window_dims = [0, 2], scatter_dims_to_operand_dims = [1, 0, 2], index_vector_dim = 3>
// CHECK: arith.maximumf
func.func @scatter_implicit(%input: tensor<2x5x3xf32>, %indices: tensor<3x4x2xi32>, %updates: tensor<3x4x2x2xf32>) -> tensor<2x5x3xf32> {
  %r = distruntime.scatter ins(%input : tensor<2x5x3xf32>) indices(%indices : tensor<3x4x2xi32>) updates(%updates : tensor<3x4x2x2xf32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3], input_batching_dims = [0, 2], scatter_indices_batching_dims = [2, 0], scatter_dims_to_operand_dims = [1], index_vector_dim = 3>
  } update_computation {
  ^bb0(%cur: f32, %upd: f32):
    %m = arith.maximumf %cur, %upd : f32
    distruntime.yield %m : f32
  } -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}

// Batching positions that do not fit the indices' element type (i8 with
// 130 positions, ui8 with 260): the indices are widened to i64 first
// (sign-extended, zero-extended), and the iotas are i64. Positions that fit
// (ui8 with 256) keep the type.
// CHECK-LABEL: func.func @widen(
// CHECK-SAME: %[[I8:[^:]*]]: tensor<130x1xi8>, %[[UI8:[^:]*]]: tensor<260x1xui8>, %[[FIT:[^:]*]]: tensor<256x1xui8>
// CHECK: %[[W8:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: index, %[[B:[^:]*]]: index):
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[I8]][%[[A]], %[[B]]] : tensor<130x1xi8>
// CHECK-NEXT: %[[X:.*]] = arith.extsi %[[E]] : i8 to i64
// CHECK-NEXT: tensor.yield %[[X]] : i64
// CHECK-NEXT: } : tensor<130x1xi64>
// CHECK: %[[IOTA8:.*]] = tensor.generate
// CHECK: } : tensor<130x1xi64>
// CHECK: %[[CAT8:.*]] = tensor.concat dim(1) %[[W8]], %[[IOTA8]] : {{.*}} -> tensor<130x2xi64>
// CHECK: distruntime.gather ins(%{{.*}}, %[[CAT8]] : tensor<130x4xi32>, tensor<130x2xi64>)
// CHECK: %[[WU8:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: index, %[[B:[^:]*]]: index):
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[UI8]][%[[A]], %[[B]]] : tensor<260x1xui8>
// CHECK-NEXT: %[[S:.*]] = builtin.unrealized_conversion_cast %[[E]] : ui8 to i8
// CHECK-NEXT: %[[X:.*]] = arith.extui %[[S]] : i8 to i64
// CHECK-NEXT: tensor.yield %[[X]] : i64
// CHECK-NEXT: } : tensor<260x1xi64>
// CHECK: %[[IOTAU8:.*]] = tensor.generate
// CHECK: } : tensor<260x1xi64>
// CHECK: %[[CATU8:.*]] = tensor.concat dim(1) %[[WU8]], %[[IOTAU8]] : {{.*}} -> tensor<260x2xi64>
// CHECK: distruntime.scatter ins(%{{.*}} : tensor<260x3xi32>) indices(%[[CATU8]] : tensor<260x2xi64>)
// CHECK-NOT: arith.extui
// CHECK: %[[CATFIT:.*]] = tensor.concat dim(1) %[[FIT]], %{{.*}} : {{.*}} -> tensor<256x2xui8>
// CHECK: distruntime.gather ins(%{{.*}}, %[[CATFIT]] : tensor<256x4xi32>, tensor<256x2xui8>)
func.func @widen(%i8: tensor<130x1xi8>, %ui8: tensor<260x1xui8>, %fit: tensor<256x1xui8>, %a: tensor<130x4xi32>, %b: tensor<260x3xi32>, %u: tensor<260x2xi32>, %c: tensor<256x4xi32>) -> (tensor<130x2xi32>, tensor<260x3xi32>, tensor<256x2xi32>) {
  %g = distruntime.gather ins(%a, %i8 : tensor<130x4xi32>, tensor<130x1xi8>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } -> tensor<130x2xi32>
  %s = distruntime.scatter ins(%b : tensor<260x3xi32>) indices(%ui8 : tensor<260x1xui8>) updates(%u : tensor<260x2xi32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>
  } update_computation {
  ^bb0(%cur: i32, %upd: i32):
    %m = arith.maxsi %cur, %upd : i32
    distruntime.yield %m : i32
  } -> tensor<260x3xi32>
  %f = distruntime.gather ins(%c, %fit : tensor<256x4xi32>, tensor<256x1xui8>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } -> tensor<256x2xi32>
  return %g, %s, %f : tensor<130x2xi32>, tensor<260x3xi32>, tensor<256x2xi32>
}

// Nothing to decompose: no batching dims, or the memref form.
// CHECK-LABEL: func.func @untouched(
// CHECK-NOT: tensor.generate
// CHECK-NOT: tensor.concat
// CHECK: distruntime.gather {{.*}}#distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
// CHECK: distruntime.gather {{.*}} outs({{.*}}) {{.*}}operand_batching_dims = [0], start_indices_batching_dims = [0]
// CHECK: return
func.func @untouched(%operand: tensor<6x4xi32>, %indices: tensor<5xi32>, %m: memref<3x8xi32>, %mi: memref<3x4xi32>, %mo: memref<3x4x3xi32>) -> tensor<5x4xi32> {
  %r = distruntime.gather ins(%operand, %indices : tensor<6x4xi32>, tensor<5xi32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>
  } -> tensor<5x4xi32>
  distruntime.gather ins(%m, %mi : memref<3x8xi32>, memref<3x4xi32>) outs(%mo : memref<3x4x3xi32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 3>
  }
  return %r : tensor<5x4xi32>
}
