// One case per verifier constraint of collective_broadcast with dynamic roots
// (StableHLO's has_dynamic_root, constraints (C3)-(C6) of its spec), named
// after StableHLO's ops_stablehlo.mlir cases where it has one.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

// (C3): without roots, at least one input.
func.func @collective_broadcast_c3_no_operands() {
  // expected-error @+1 {{needs at least one input}}
  "distruntime.collective_broadcast"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : () -> ()
  return
}

// -----

// (C4): with roots, at least one input besides them.
func.func @collective_broadcast_c4_only_root(%root: tensor<1xi32>) {
  // expected-error @+1 {{has 'roots' but no inputs: a dynamic root needs at least one input to broadcast}}
  "distruntime.collective_broadcast"(%root) <{operandSegmentSizes = array<i32: 0, 0, 1, 0>, resultSegmentSizes = array<i32: 0, 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1xi32>) -> ()
  return
}

// -----

// (C4): the roots are i32.
func.func @collective_broadcast_c4_wrong_type(%operand: tensor<4xf32>, %root: tensor<1xf32>) {
  // expected-error @+1 {{'roots' must be a 1-D i32 tensor (a root index per input), got 'tensor<1xf32>'}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return
}

// -----

func.func @collective_broadcast_c4_i64(%operand: tensor<4xf32>, %root: tensor<1xi64>) {
  // expected-error @+1 {{'roots' must be a 1-D i32 tensor (a root index per input), got 'tensor<1xi64>'}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return
}

// -----

// (C4): the roots are 1-D.
func.func @collective_broadcast_c4_rank(%operand: tensor<4xf32>, %root: tensor<1x1xi32>) {
  // expected-error @+1 {{'roots' must be a 1-D i32 tensor (a root index per input), got 'tensor<1x1xi32>'}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1x1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return
}

// -----

// (C4): one root index per input.
func.func @collective_broadcast_c4_size_mismatch(%operand0: tensor<4xf32>, %operand1: tensor<4xf32>, %root: tensor<1xi32>) {
  // expected-error @+1 {{'roots' has 1 elements but the op has 2 inputs: it needs one root index per input}}
  %0:2 = distruntime.collective_broadcast ins(%operand0, %operand1 : tensor<4xf32>, tensor<4xf32>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @collective_broadcast_c4_dynamic_size(%operand: tensor<4xf32>, %root: tensor<?xi32>) {
  // expected-error @+1 {{'roots' has a dynamic size, but it needs one root index per input: 1}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<?xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return
}

// -----

// (C4): type(results[j]) = type(operands[j]).
func.func @collective_broadcast_c4_result_type(%operand: tensor<4xf32>, %root: tensor<1xi32>) {
  // expected-error @+1 {{result #0 has element type 'f64' but input #0 has 'f32'}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf64>
  return
}

// -----

func.func @collective_broadcast_c4_result_shape(%operand: tensor<4xf32>, %root: tensor<1xi32>) {
  // expected-error @+1 {{result #0 has shape [5] but input #0 of shape [4] gives [4]}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<5xf32>
  return
}

// -----

// (C5): size(results) = size(operands) - 1 with has_dynamic_root: a result
// per input, none for the roots.
func.func @collective_broadcast_c5(%operand: tensor<4xf32>, %root: tensor<1xi32>) {
  // expected-error @+1 {{has 1 inputs but 2 results}}
  %0:2 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>, tensor<1xi32>
  return
}

// -----

// The roots take the inputs' form.
func.func @collective_broadcast_roots_memref(%operand: tensor<4xf32>, %root: memref<1xi32>) {
  // expected-error @+1 {{'roots' is a memref but the inputs are tensors; use one form}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : memref<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return
}

// -----

func.func @collective_broadcast_roots_tensor(%operand: memref<4xf32>, %out: memref<4xf32>, %root: tensor<1xi32>) {
  // expected-error @+1 {{'roots' is a tensor but the inputs are memrefs; use one form}}
  distruntime.collective_broadcast ins(%operand : memref<4xf32>) roots(%root : tensor<1xi32>) outs(%out : memref<4xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

// (C6): a constant root index is a position in the groups.
func.func @collective_broadcast_c6(%operand0: tensor<4xf32>, %operand1: tensor<4xf32>) {
  %root = arith.constant dense<[1, 2]> : tensor<2xi32>
  // expected-error @+1 {{root index 2 of input #1 is out of range [0, 2): the groups have 2 members}}
  %0:2 = distruntime.collective_broadcast ins(%operand0, %operand1 : tensor<4xf32>, tensor<4xf32>) roots(%root : tensor<2xi32>) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @collective_broadcast_c6_negative(%operand: tensor<4xf32>) {
  %root = arith.constant dense<-1> : tensor<1xi32>
  // expected-error @+1 {{root index -1 of input #0 is negative}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi32>) {replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
  return
}

// -----

// Empty replica_groups with channel_id > 0: one group of every partition,
// 3 of them here.
module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 3 : i64} {
func.func @collective_broadcast_c6_partitions(%operand: tensor<4xf32>) {
  %root = arith.constant dense<3> : tensor<1xi32>
  // expected-error @+1 {{root index 3 of input #0 is out of range [0, 3): the groups have 3 members}}
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi32>) {channel_id = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
  return
}
}
