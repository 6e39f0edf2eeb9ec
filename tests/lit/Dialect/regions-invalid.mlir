// Region bodies of every shape: an op is verified before its blocks are, so
// its verifier meets empty blocks and blocks without a terminator, and must
// report them instead of reading a terminator that is not there (found by
// fuzzing, scripts/fuzz.sh).
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @scatter_empty_block(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' must end in a distruntime.yield of 1 values}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

func.func @scatter_no_terminator(%in0: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>) {
  // expected-error @+1 {{(C23) 'update_computation' must end in a distruntime.yield of 1 values}}
  %r = distruntime.scatter ins(%in0 : tensor<2x3x4x2xi64>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0 : tensor<2x2x3x2x2xi64>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
  } -> tensor<2x3x4x2xi64>
  return
}

// -----

// Two inputs: (C25) reads the block's arguments before (C23) runs.
func.func @scatter_two_inputs_empty_block(%in0: tensor<2x3x4x2xi64>, %in1: tensor<2x3x4x2xf32>, %idx: tensor<2x2x3x2xi64>, %up0: tensor<2x2x3x2x2xi64>, %up1: tensor<2x2x3x2x2xf32>) {
  // expected-error @+1 {{(C23) 'update_computation' must end in a distruntime.yield of 2 values}}
  %r:2 = distruntime.scatter ins(%in0, %in1 : tensor<2x3x4x2xi64>, tensor<2x3x4x2xf32>) indices(%idx : tensor<2x2x3x2xi64>) updates(%up0, %up1 : tensor<2x2x3x2x2xi64>, tensor<2x2x3x2x2xf32>) {scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>} update_computation {
  ^bb0(%a: i64, %b: f32, %c: i64, %d: f32):
  } -> tensor<2x3x4x2xi64>, tensor<2x3x4x2xf32>
  return
}

// -----

func.func @all_reduce_empty_block(%x: tensor<2xf32>) {
  // expected-error @+1 {{'computation' must yield a single arith add, mul, min, max, and, or or xor of its two arguments}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
  } -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_no_terminator(%x: tensor<2xf32>) {
  // expected-error @+1 {{'computation' must yield a single arith add, mul, min, max, and, or or xor of its two arguments}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %b : f32
  } -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_no_block(%x: tensor<2xf32>) {
  // expected-error @+1 {{'computation' must have one block with two arguments of the element type}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    cf.br ^bb1
  ^bb1:
    %s = arith.addf %a, %b : f32
    distruntime.yield %s : f32
  } -> tensor<2xf32>
  return
}

// -----

func.func @reduce_scatter_empty_block(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{'computation' must yield a single arith add, mul, min, max, and, or or xor of its two arguments}}
  %r = distruntime.reduce_scatter ins(%x : tensor<2x2xi64>) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: i64, %b: i64):
  } -> tensor<2x1xi64>
  return
}
