// One case per verifier constraint of all_to_all_v.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @rank0(%x: tensor<i64>) {
  // expected-error @+1 {{input #0 has rank 0, but all_to_all_v exchanges rows (dimension 0)}}
  %r = distruntime.all_to_all_v ins(%x : tensor<i64>) {send_counts = dense<[[1]]> : tensor<1x1xi64>, recv_counts = dense<[[1]]> : tensor<1x1xi64>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} -> tensor<i64>
  return
}

// -----

func.func @table_type(%x: tensor<2xi64>) {
  // expected-error @+1 {{'send_counts' failed to satisfy constraint: 2-D i64 dense constant}}
  %r = distruntime.all_to_all_v ins(%x : tensor<2xi64>) {send_counts = dense<[1, 1]> : tensor<2xi64>, recv_counts = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xi64>
  return
}

// -----

func.func @not_square(%x: tensor<4xi64>) {
  // expected-error @+1 {{'send_counts' has shape 2x3; it needs a row and a column per group member}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<[[1, 1, 0], [1, 1, 0]]> : tensor<2x3xi64>, recv_counts = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @group_size(%x: tensor<4xi64>) {
  // expected-error @+1 {{'recv_counts' is 3x3 but the group size is 2}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, recv_counts = dense<1> : tensor<3x3xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @sizes_differ(%x: tensor<4xi64>) {
  // expected-error @+1 {{'send_counts' is 2x2 but 'recv_counts' is 3x3}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<1> : tensor<2x2xi64>, recv_counts = dense<1> : tensor<3x3xi64>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @negative(%x: tensor<4xi64>) {
  // expected-error @+1 {{'send_counts' has a negative count -1 at [1, 0]}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<[[1, 1], [-1, 1]]> : tensor<2x2xi64>, recv_counts = dense<[[1, -1], [1, 1]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @not_transposed(%x: tensor<4xi64>) {
  // expected-error @+1 {{'recv_counts' [0, 1] is 2 but 'send_counts' [1, 0] is 3: member 0 receives from member 1 what 1 sends it}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @sends_too_much(%x: tensor<3xi64>) {
  // expected-error @+1 {{member 1 sends 4 rows in all ('send_counts' row 1) but input #0 has 3}}
  %r = distruntime.all_to_all_v ins(%x : tensor<3xi64>) {send_counts = dense<[[1, 2], [4, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 4], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<5xi64>
  return
}

// -----

func.func @receives_too_much(%x: memref<4x2xf32>, %o: memref<4x2xf32>) {
  // expected-error @+1 {{member 0 receives 5 rows in all ('recv_counts' row 0) but output #0 (outs) has 4}}
  distruntime.all_to_all_v ins(%x : memref<4x2xf32>) outs(%o : memref<4x2xf32>) {send_counts = dense<[[1, 2], [4, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 4], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @row_shape(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{result #0 has shape [4, 3] but input #0 of shape [4, 2] gives [?, 2]}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4x2xf32>) {send_counts = dense<1> : tensor<2x2xi64>, recv_counts = dense<1> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x3xf32>
  return
}

// -----

func.func @groups(%x: tensor<4xi64>) {
  // expected-error @+1 {{'replica_groups' contains id 1 more than once}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<1> : tensor<2x2xi64>, recv_counts = dense<1> : tensor<2x2xi64>, replica_groups = dense<[[1, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

module attributes {distruntime.num_replicas = 3 : i64} {
func.func @whole_team(%x: tensor<4xi64>) {
  // expected-error @+1 {{'send_counts' is 2x2 but the group size is 3}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) {send_counts = dense<1> : tensor<2x2xi64>, recv_counts = dense<1> : tensor<2x2xi64>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xi64>
  return
}
}

// -----

// The rows form: this member's counts as operands.

func.func @no_counts(%x: memref<4xi64>) {
  // expected-error @+1 {{needs its counts: 'send_counts' and 'recv_counts' tables (attributes, every member's rows), or this member's rows as operands: send_counts(%s : T) recv_counts(%r : T)}}
  distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%x : memref<4xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @both_forms(%x: memref<4xi64>, %c: memref<2xi64>) {
  // expected-error @+1 {{has both count tables (attributes) and count operands; use one form}}
  distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%x : memref<4xi64>) send_counts(%c : memref<2xi64>) recv_counts(%c : memref<2xi64>) {send_counts = dense<1> : tensor<2x2xi64>, recv_counts = dense<1> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @rows_form(%x: memref<4xi64>, %c: tensor<2xi64>) {
  // expected-error @+1 {{'send_counts' is a tensor but the op is in memref form; use one form}}
  distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%x : memref<4xi64>) send_counts(%c : tensor<2xi64>) recv_counts(%c : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @rows_type(%x: memref<4xi64>, %c: memref<2xi64>, %d: memref<2xi32>) {
  // expected-error @+1 {{'recv_counts' has element type 'i32' but 'send_counts' has 'i64'; the 2 have one type}}
  distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%x : memref<4xi64>) send_counts(%c : memref<2xi64>) recv_counts(%d : memref<2xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @rows_length(%x: memref<4xi64>, %c: memref<3xi64>) {
  // expected-error @+1 {{'send_counts' has 3 values but the groups have 2 members; it needs one per member}}
  distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%x : memref<4xi64>) send_counts(%c : memref<3xi64>) recv_counts(%c : memref<3xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @rows_negative(%x: tensor<4xi64>) {
  %c = arith.constant dense<[1, -3]> : tensor<2xi64>
  // expected-error @+1 {{'send_counts' has a negative value -3 at index 1}}
  %r = distruntime.all_to_all_v ins(%x : tensor<4xi64>) send_counts(%c : tensor<2xi64>) recv_counts(%c : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}
