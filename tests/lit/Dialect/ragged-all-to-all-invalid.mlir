// One case per verifier constraint of ragged_all_to_all.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @tensor_one_input(%x: tensor<3xi32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{on tensors takes two inputs (input, output) and returns one result, got 1 inputs and 1 results}}
  %r = distruntime.ragged_all_to_all ins(%x : tensor<3xi32>) input_offsets(%s : tensor<2xi64>) send_sizes(%s : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<3xi32>
  return
}

// -----

func.func @memref_two_inputs(%x: memref<3xi32>, %s: memref<2xi64>) {
  // expected-error @+1 {{on memrefs reads one input and updates one output (outs), got 2 inputs and 1 outputs}}
  distruntime.ragged_all_to_all ins(%x, %x : memref<3xi32>, memref<3xi32>) outs(%x : memref<3xi32>) input_offsets(%s : memref<2xi64>) send_sizes(%s : memref<2xi64>) output_offsets(%s : memref<2xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @mixed_forms(%x: tensor<3xi32>, %y: memref<4xi32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{mixes tensor and memref inputs; use one form}}
  %r = distruntime.ragged_all_to_all ins(%x, %y : tensor<3xi32>, memref<4xi32>) input_offsets(%s : tensor<2xi64>) send_sizes(%s : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  return
}

// -----

func.func @result_type(%x: tensor<3xi32>, %y: tensor<4xi32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{result #0 has type 'tensor<5xi32>' but the output it updates has type 'tensor<4xi32>'}}
  %r = distruntime.ragged_all_to_all ins(%x, %y : tensor<3xi32>, tensor<4xi32>) input_offsets(%s : tensor<2xi64>) send_sizes(%s : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<5xi32>
  return
}

// -----

func.func @element_type(%x: memref<3xi32>, %y: memref<4xf32>, %s: memref<2xi64>) {
  // expected-error @+1 {{output #0 (outs) has element type 'f32' but input #0 has 'i32'}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xf32>) input_offsets(%s : memref<2xi64>) send_sizes(%s : memref<2xi64>) output_offsets(%s : memref<2xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @rank0(%x: tensor<i32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{input #0 has rank 0, but ragged_all_to_all exchanges rows (dimension 0)}}
  %r = distruntime.ragged_all_to_all ins(%x, %x : tensor<i32>, tensor<i32>) input_offsets(%s : tensor<2xi64>) send_sizes(%s : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<i32>
  return
}

// -----

func.func @ranks(%x: tensor<3xi32>, %y: tensor<4x1xi32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{input #1 (output) has rank 2 but input #0 has rank 1}}
  %r = distruntime.ragged_all_to_all ins(%x, %y : tensor<3xi32>, tensor<4x1xi32>) input_offsets(%s : tensor<2xi64>) send_sizes(%s : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x1xi32>
  return
}

// -----

func.func @row_shape(%x: memref<3x2xi32>, %y: memref<4x3xi32>, %s: memref<2xi64>) {
  // expected-error @+1 {{output #0 (outs) has shape [4, 3] but input #0 has [3, 2]: rows are exchanged whole, so they must agree past dimension 0}}
  distruntime.ragged_all_to_all ins(%x : memref<3x2xi32>) outs(%y : memref<4x3xi32>) input_offsets(%s : memref<2xi64>) send_sizes(%s : memref<2xi64>) output_offsets(%s : memref<2xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @sizes_form(%x: tensor<3xi32>, %y: tensor<4xi32>, %s: tensor<2xi64>, %m: memref<2xi64>) {
  // expected-error @+1 {{'recv_sizes' is a memref but the op is in tensor form; use one form}}
  %r = distruntime.ragged_all_to_all ins(%x, %y : tensor<3xi32>, tensor<4xi32>) input_offsets(%s : tensor<2xi64>) send_sizes(%s : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%m : memref<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  return
}

// -----

func.func @sizes_type(%x: memref<3xi32>, %y: memref<4xi32>, %s: memref<2xi64>, %t: memref<2xi32>) {
  // expected-error @+1 {{'send_sizes' has element type 'i32' but 'input_offsets' has 'i64'; the 4 have one type}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xi32>) input_offsets(%s : memref<2xi64>) send_sizes(%t : memref<2xi32>) output_offsets(%s : memref<2xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @sizes_element(%x: memref<3xi32>, %y: memref<4xi32>, %s: memref<2xf32>) {
  // expected-error @+1 {{operand #2 must be variadic of 1-D i32 or i64 tensor or memref}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xi32>) input_offsets(%s : memref<2xf32>) send_sizes(%s : memref<2xf32>) output_offsets(%s : memref<2xf32>) recv_sizes(%s : memref<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @sizes_count(%x: memref<3xi32>, %y: memref<4xi32>, %s: memref<2xi64>, %t: memref<3xi64>, %d: memref<?xi64>) {
  // expected-error @+1 {{'output_offsets' has 3 values but 'input_offsets' has 2; each has one per group member}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xi32>) input_offsets(%s : memref<2xi64>) send_sizes(%d : memref<?xi64>) output_offsets(%t : memref<3xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @group_size(%x: memref<3xi32>, %y: memref<4xi32>, %s: memref<3xi64>) {
  // expected-error @+1 {{'input_offsets' has 3 values but the groups have 2 members; it needs one per member}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xi32>) input_offsets(%s : memref<3xi64>) send_sizes(%s : memref<3xi64>) output_offsets(%s : memref<3xi64>) recv_sizes(%s : memref<3xi64>) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  return
}

// -----

func.func @negative(%x: tensor<3xi32>, %y: tensor<4xi32>, %s: tensor<2xi64>) {
  %n = arith.constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'send_sizes' has a negative value -1 at index 1}}
  %r = distruntime.ragged_all_to_all ins(%x, %y : tensor<3xi32>, tensor<4xi32>) input_offsets(%s : tensor<2xi64>) send_sizes(%n : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  return
}

// -----

func.func @past_input(%x: tensor<3xi32>, %y: tensor<4xi32>, %s: tensor<2xi64>) {
  %io = arith.constant dense<[0, 2]> : tensor<2xi64>
  %ss = arith.constant dense<[1, 2]> : tensor<2xi64>
  // expected-error @+1 {{sends rows [2, 4) to member 1 ('input_offsets' and 'send_sizes' at 1) but input #0 has 3 rows}}
  %r = distruntime.ragged_all_to_all ins(%x, %y : tensor<3xi32>, tensor<4xi32>) input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>) output_offsets(%s : tensor<2xi64>) recv_sizes(%s : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  return
}

// -----

func.func @groups_repeat(%x: memref<3xi32>, %y: memref<4xi32>, %s: memref<2xi64>) {
  // expected-error @+1 {{'replica_groups' contains id 1 more than once}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xi32>) input_offsets(%s : memref<2xi64>) send_sizes(%s : memref<2xi64>) output_offsets(%s : memref<2xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<[[1, 1]]> : tensor<1x2xi64>}
  return
}

// -----

module attributes {distruntime.num_replicas = 3 : i64} {
func.func @whole_team(%x: memref<3xi32>, %y: memref<4xi32>, %s: memref<2xi64>) {
  // expected-error @+1 {{'input_offsets' has 2 values but the groups have 3 members; it needs one per member}}
  distruntime.ragged_all_to_all ins(%x : memref<3xi32>) outs(%y : memref<4xi32>) input_offsets(%s : memref<2xi64>) send_sizes(%s : memref<2xi64>) output_offsets(%s : memref<2xi64>) recv_sizes(%s : memref<2xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  return
}
}
