// One case per verifier constraint of gather (C1)-(C23) and scatter
// (C1)-(C25), numbered as in seed 004.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
func.func @gather_c1(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C1) rank(operand) = 4 must equal size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) = 3}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c2(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C2) 'index_vector_dim' 5 is outside [0, 4]}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 5>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c3(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C3) size(start_index_map) must equal the index vector size: 1 vs 2}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c4_unique(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C4) 'offset_dims' contains 3 more than once}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 3], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c4_sorted(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C4) 'offset_dims' must be sorted}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [4, 3], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c5(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C5) 'offset_dims' contains 5, outside [0, 5) of rank(result)}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 5], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c6(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C6) 'concatenate(collapsed_slice_dims, operand_batching_dims)' contains 0 more than once}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c7(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C7) 'collapsed_slice_dims' must be sorted}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [4], collapsed_slice_dims = [2, 1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c8(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C8) 'collapsed_slice_dims' contains 4, outside [0, 4) of rank(operand)}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [4], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c9(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C9) slice_sizes[1] = 2 must be <= 1 for a collapsed_slice_dim}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 2, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c10(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C10) 'operand_batching_dims' must be sorted}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [4], collapsed_slice_dims = [1], operand_batching_dims = [2, 0], start_indices_batching_dims = [1, 0], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c11(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C11) 'operand_batching_dims' contains 4, outside [0, 4) of rank(operand)}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [4], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c12(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C12) slice_sizes[0] = 2 must be <= 1 for an operand_batching_dim}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 2, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c13(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C13) 'start_indices_batching_dims' contains 1 more than once}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1, 1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c14(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C14) 'start_indices_batching_dims' contains 4, outside [0, 4) of rank(start_indices)}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [4], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c15(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C15) 'index_vector_dim' 3 is one of start_indices_batching_dims}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [3], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c16(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C16) size(operand_batching_dims) = 1 differs from size(start_indices_batching_dims) = 2}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1, 2], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c17(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x3x3x2xi64>) {
  // expected-error @+1 {{(C17) dim(operand, 0) must equal dim(start_indices, 1): 2 vs 3}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x3x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c18(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C18) 'concatenate(start_index_map, operand_batching_dims)' contains 0 more than once}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c19(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C19) 'start_index_map' contains 4, outside [0, 4) of rank(operand)}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 4], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c20(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C20) size(slice_sizes) = 3 must equal rank(operand) = 4}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c21(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C21) slice_sizes[3] = 3 is outside [0, 2]}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 3>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c21_negative(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C21) slice_sizes[2] = -1 is outside [0, 4]}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, -1, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_c22(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C22) result shape [2, 2, 3, 2, 3] differs from [2, 2, 3, 2, 2]}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x3xi32>
  return
}

// -----

// On memrefs the result is the 'outs' buffer, and named so.
func.func @gather_c22_memref(%m: memref<8x4xf32>, %i: memref<3xui32>, %o: memref<3x5xf32>) {
  // expected-error @+1 {{(C22) output (outs) shape [3, 5] differs from [3, 4]}}
  distruntime.gather ins(%m, %i : memref<8x4xf32>, memref<3xui32>) outs(%o : memref<3x5xf32>) {dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}
  return
}

// -----

func.func @gather_c22_rank(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C22) rank(result) = 6 must be 5 (batch dims plus offset dims)}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2x1xi32>
  return
}

// -----

func.func @gather_c23(%op: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) {
  // expected-error @+1 {{(C23) element type of the result 'i64' differs from the operand's 'i32'}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi64>
  return
}

// -----

func.func @gather_kinds(%op: tensor<2x3x4x2xi32>, %idx: memref<2x2x3x2xi64>) {
  // expected-error @+1 {{'operand' and 'start_indices' must both be tensors or both be memrefs}}
  %r = distruntime.gather ins(%op, %idx : tensor<2x3x4x2xi32>, memref<2x2x3x2xi64>) {dimension_numbers = #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>} -> tensor<2x2x3x2x2xi32>
  return
}

// -----

func.func @gather_memref_no_outs(%op: memref<4xf32>, %idx: memref<1xi32>) {
  // expected-error @+1 {{on memrefs writes an 'outs' memref and returns nothing}}
  %r = distruntime.gather ins(%op, %idx : memref<4xf32>, memref<1xi32>) {dimension_numbers = #distruntime.gather<offset_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>} -> tensor<2xf32>
  return
}

// -----

func.func @gather_bad_dims() {
  // expected-error @+1 {{unknown dimension list 'batch_dims'}}
  "test.op"() {dims = #distruntime.gather<batch_dims = [0], index_vector_dim = 1>} : () -> ()
  return
}

// -----

func.func @gather_no_ivd() {
  // expected-error @+1 {{expected 'index_vector_dim'}}
  "test.op"() {dims = #distruntime.gather<offset_dims = [0]>} : () -> ()
  return
}

// -----

func.func @scatter_c1(%in0: tensor<2x3x4x2xi64>, %in1: tensor<2x3x4x3xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>, %up1: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C1) input #1 has shape [2, 3, 4, 3] unlike input #0 [2, 3, 4, 2]}}
  %r:2 = distruntime.scatter ins(%in0, %in1 : tensor<2x3x4x2xi64>, tensor<2x3x4x3xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0, %up1 : tensor<2x2x3x2x2xi64>, tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64, %c: i64, %d: i64):
    distruntime.yield %c, %d : i64, i64
  } -> tensor<2x3x4x2xi64>, tensor<2x3x4x3xi64>
  return
}

// -----

func.func @scatter_c2(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C2) rank(inputs[0]) = 4 must equal size(update_window_dims) + size(inserted_window_dims) + size(input_batching_dims) = 3}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c3(%in0: tensor<2x3x4x2xi64>, %in1: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>, %up1: tensor<2x2x3x2x1xi64>) {
  // expected-error @+1 {{(C3) update #1 has shape [2, 2, 3, 2, 1] unlike update #0 [2, 2, 3, 2, 2]}}
  %r:2 = distruntime.scatter ins(%in0, %in1 : tensor<2x3x4x2xi64>, tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0, %up1 : tensor<2x2x3x2x2xi64>, tensor<2x2x3x2x1xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64, %c: i64, %d: i64):
    distruntime.yield %c, %d : i64, i64
  } -> tensor<2x3x4x2xi64>, tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c4_scatter(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x4x2x2xi64>) {
  // expected-error @+1 {{(C4) update scatter dimension 2 has size 4 but scatter_indices gives 3}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x4x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c4_window(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x3xi64>) {
  // expected-error @+1 {{(C4) update window dimension 4 has size 3, larger than the input's 2}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x3xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c4_rank(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2x1xi64>) {
  // expected-error @+1 {{(C4) rank(updates[0]) = 6 must be 5 (scatter dims plus update_window_dims)}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2x1xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c5(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>, %up1: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C5) needs 0 < size(inputs) = size(updates), got 1 and 2}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0, %up1 : tensor<2x2x3x2x2xi64>, tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c6(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi32>) {
  // expected-error @+1 {{(C6) update #0 has element type 'i32' but input #0 has 'i64'}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi32>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c7(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C7) 'update_window_dims' must be sorted}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [4, 3], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c7_unique(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C7) 'update_window_dims' contains 3 more than once}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 3], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c8(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C8) 'update_window_dims' contains 5, outside [0, 5) of rank(updates[0])}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 5], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c9(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C9) 'concatenate(inserted_window_dims, input_batching_dims)' contains 0 more than once}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [0], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c10(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C10) 'inserted_window_dims' must be sorted}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [4], inserted_window_dims = [2, 1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c11(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C11) 'inserted_window_dims' contains 4, outside [0, 4) of rank(inputs[0])}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [4], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c12(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C12) 'input_batching_dims' must be sorted}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [4], inserted_window_dims = [1], input_batching_dims = [2, 0], scatter_indices_batching_dims = [1, 0], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c13(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C13) 'input_batching_dims' contains 4, outside [0, 4) of rank(inputs[0])}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [4], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c14(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C14) 'scatter_indices_batching_dims' contains 1 more than once}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1, 1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c15(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C15) 'scatter_indices_batching_dims' contains 4, outside [0, 4) of rank(scatter_indices)}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [4], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c16(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C16) 'index_vector_dim' 3 is one of scatter_indices_batching_dims}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [3], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c17(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C17) size(input_batching_dims) = 1 differs from size(scatter_indices_batching_dims) = 2}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1, 2], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c18(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x3x3x2xi64>, %up0: tensor<2x3x3x2x2xi64>) {
  // expected-error @+1 {{(C18) dim(inputs[0], 0) must equal dim(scatter_indices, 1): 2 vs 3}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x3x3x2xi64>) updates(%up0 : tensor<2x3x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c19(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C19) size(scatter_dims_to_operand_dims) must equal the index vector size: 1 vs 2}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c20(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C20) 'concatenate(scatter_dims_to_operand_dims, input_batching_dims)' contains 0 more than once}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 0], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c21(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C21) 'scatter_dims_to_operand_dims' contains 4, outside [0, 4) of rank(inputs[0])}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 4], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c22(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C22) 'index_vector_dim' 5 is outside [0, 4]}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 5>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c23_arity(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' takes 3 arguments; expected 2 (current values, then updates)}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64, %c: i64):
    distruntime.yield %a : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c23_type(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' computes operand 0 in 'f64', which input #0's element type 'i64' does not promote to}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: f64, %b: f64):
    %s = arith.addf %a, %b : f64
    distruntime.yield %s : f64
  } -> tensor<2x3x4x2xf64>
  return
}

// -----

// (C23): narrowing is not a promotion.
func.func @scatter_c23_narrower(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' computes operand 0 in 'i32', which input #0's element type 'i64' does not promote to}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    distruntime.yield %s : i32
  } -> tensor<2x3x4x2xi32>
  return
}

// -----

// (C23): the current value and the update take the same E0.
func.func @scatter_c23_args(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' must have type (E0..E0, E0..E0) -> (E0..E0); E0 is 'i64' but argument #1 is 'i32' and yield value #0 is 'i64'}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i32):
    distruntime.yield %a : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c23_yield(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' must end in a distruntime.yield of 1 values}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    distruntime.yield %a, %b : i64, i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_c24(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C24) result #0 has shape [2, 3, 4, 3] unlike input #0 [2, 3, 4, 2]}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x3xi64>
  return
}

// -----

func.func @scatter_c24_memref(%m: memref<8xf64>, %mi: memref<2xi64>, %mu: memref<2xf64>, %o: memref<9xf64>) {
  // expected-error @+1 {{(C24) output #0 (outs) has shape [9] unlike input #0 [8]}}
  distruntime.scatter ins(%m : memref<8xf64>) indices(%mi : memref<2xi64>) updates(%mu : memref<2xf64>) outs(%o : memref<9xf64>) {scatter_dimension_numbers = #distruntime.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} update_computation {
  ^bb0(%c: f64, %n: f64):
    distruntime.yield %n : f64
  }
  return
}

// -----

func.func @scatter_c25(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C25) result #0 has element type 'i32' but input #0 has 'i64'}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi32>
  return
}

// -----

// (C25) with a promoting computation: the results take its type E0.
func.func @scatter_c25_promoted(%in0: tensor<2x3x4x2xi16>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi16>) {
  // expected-error @+1 {{(C25) result #0 has element type 'i16' but 'update_computation' computes in 'i64'}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi16>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi16>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  } -> tensor<2x3x4x2xi16>
  return
}

// -----

func.func @scatter_no_results(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{has 1 inputs but 0 results}}
  distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    distruntime.yield %s : i64
  }
  return
}
