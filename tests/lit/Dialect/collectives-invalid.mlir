// One case per verifier constraint of the StableHLO-style collectives,
// named (Cn) after the seeds and StableHLO's spec in the function names.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics
func.func @ag_c1(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{'all_gather_dim' 2 is out of range [0, 2) of input #0}}
  %r = distruntime.all_gather ins(%x : tensor<2x2xi64>) {all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x2xi64>
  return
}

// -----

func.func @ag_c2(%x: tensor<2xi64>) {
  // expected-error @+1 {{'replica_groups' contains id 1 more than once}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} -> tensor<4xi64>
  return
}

// -----

module attributes {distruntime.num_replicas = 4 : i64} {
func.func @ag_c3(%x: tensor<2xi64>) {
  // expected-error @+1 {{'replica_groups' has 2 ids but cross_replica needs all 4 of the process grid}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}
}

// -----

func.func @ag_c4(%x: tensor<2xi64>) {
  // expected-error @+1 {{'replica_groups' id 2 is out of range [0, 2) (the number of ids in the groups)}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
func.func @ag_c3_flattened(%x: tensor<2xi64>) {
  // (C3) flattened_ids (channel_id > 0, use_global_device_ids):
  // size(replica_groups) = num_processes = 2 x 2, not num_replicas = 2.
  // expected-error @+1 {{'replica_groups' has 2 ids but flattened_ids needs all 4 of the process grid}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
func.func @ag_c3_flattened_more(%x: tensor<2xi64>) {
  // (C3) flattened_ids: 6 ids for num_processes = 4 (each id is below 6, so
  // (C4) holds).
  // expected-error @+1 {{'replica_groups' has 6 ids but flattened_ids needs all 4 of the process grid}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1], [2, 3], [4, 5]]> : tensor<3x2xi64>} -> tensor<4xi64>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
func.func @ag_c4_flattened(%x: tensor<2xi64>) {
  // (C4) flattened_ids: 4 ids (as (C3) wants), but 4 is not below
  // size(replica_groups) = 4.
  // expected-error @+1 {{'replica_groups' id 4 is out of range [0, 4) (the number of ids in the groups)}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1], [2, 4]]> : tensor<2x2xi64>} -> tensor<4xi64>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
func.func @ag_c4_flattened_negative(%x: tensor<2xi64>) {
  // (C4) flattened_ids: ids are non-negative (-1 padding: ragged-groups-invalid.mlir).
  // expected-error @+1 {{'replica_groups' id -2 is out of range [0, 4) (the number of ids in the groups)}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1], [-2, 3]]> : tensor<2x2xi64>} -> tensor<4xi64>
  return
}
}

// -----

func.func @ag_c5(%x: tensor<2xi64>) {
  // expected-error @+1 {{'use_global_device_ids' needs 'channel_id' > 0, got 0}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, use_global_device_ids, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @ag_c6_shape(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{result #0 has shape [2, 2] but input #0 of shape [2, 2] gives [2, 4]}}
  %r = distruntime.all_gather ins(%x : tensor<2x2xi64>) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x2xi64>
  return
}

// -----

func.func @ag_c6_element(%x: tensor<2xi64>) {
  // expected-error @+1 {{result #0 has element type 'i32' but input #0 has 'i64'}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  return
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 3 : i64} {
func.func @ag_c6_partitions(%x: tensor<2xi64>) {
  // cross_replica_and_partition: 2 replicas x 3 partitions per group.
  // expected-error @+1 {{result #0 has shape [4] but input #0 of shape [2] gives [12]}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}
}

// -----

// (C6) with the group size known only at run time (one group of every
// replica, no distruntime.num_replicas): the result size must still be the
// input size times some group size >= 1.
func.func @ag_c6_no_group_size(%x: memref<4xf32>, %y: memref<6xf32>) {
  // expected-error @+1 {{output #0 (outs) has size 6 in 'all_gather_dim' 0, but input #0 has size 4 there: 6 is not 4 times any group size}}
  distruntime.all_gather ins(%x : memref<4xf32>) outs(%y : memref<6xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

// A group has at least one member: the result is never smaller.
func.func @ag_c6_no_group_size_smaller(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{result #0 has size 2 in 'all_gather_dim' 1, but input #0 has size 4 there: 2 is not 4 times any group size}}
  %r = distruntime.all_gather ins(%x : tensor<3x4xf32>) {all_gather_dim = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<3x2xf32>
  return
}

// -----

func.func @ag_c6_no_group_size_empty(%x: tensor<0xf32>) {
  // expected-error @+1 {{result #0 has size 2 in 'all_gather_dim' 0, but input #0 has size 0 there: 2 is not 0 times any group size}}
  %r = distruntime.all_gather ins(%x : tensor<0xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<2xf32>
  return
}

// -----

// Every input is gathered over the same group.
func.func @ag_c6_no_group_size_two(%x: tensor<2xf32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{result #1 has size 9 in 'all_gather_dim' 0 and input #1 has size 3 there, a group size of 3, but result #0 and input #0 give a group size of 2}}
  %r:2 = distruntime.all_gather ins(%x, %y : tensor<2xf32>, tensor<3xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>, tensor<9xi32>
  return
}

// -----

// channel_id > 0 without use_global_device_ids: cross_replica_and_partition,
// whose groups are unknown without distruntime.num_replicas.
func.func @ag_c6_no_group_size_partitions(%x: memref<4xf32>, %y: memref<10xf32>) {
  // expected-error @+1 {{output #0 (outs) has size 10 in 'all_gather_dim' 0, but input #0 has size 4 there: 10 is not 4 times any group size}}
  distruntime.all_gather ins(%x : memref<4xf32>) outs(%y : memref<10xf32>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

// Accepted with the group size unknown: sizes some group size fits, empty
// inputs, one input's group size shared by the others, dynamic sizes.
func.func @ag_rs_any_group_size(%a: memref<4xf32>, %b: memref<12xf32>, %e: memref<0xi8>, %c: memref<3x2xi32>, %d: memref<3x6xi32>, %t: tensor<?xf32>) {
  distruntime.all_gather ins(%c : memref<3x2xi32>) outs(%d : memref<3x6xi32>) {all_gather_dim = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.all_gather ins(%e, %a : memref<0xi8>, memref<4xf32>) outs(%e, %b : memref<0xi8>, memref<12xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.reduce_scatter ins(%b, %e : memref<12xf32>, memref<0xi8>) outs(%a, %e : memref<4xf32>, memref<0xi8>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  %g = distruntime.all_gather ins(%t : tensor<?xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<7xf32>
  return
}

// -----

// Known group size on a memref form: the exact check names the 'outs'
// buffer as written.
func.func @ag_c6_memref(%x: memref<2xf32>, %y: memref<6xf32>) {
  // expected-error @+1 {{output #0 (outs) has shape [6] but input #0 of shape [2] gives [4]}}
  distruntime.all_gather ins(%x : memref<2xf32>) outs(%y : memref<6xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

module attributes {distruntime.num_replicas = 4 : i64} {
func.func @ag_c6_memref_grid(%x: memref<2xf32>, %y: memref<6xf32>) {
  // expected-error @+1 {{output #0 (outs) has shape [6] but input #0 of shape [2] gives [8]}}
  distruntime.all_gather ins(%x : memref<2xf32>) outs(%y : memref<6xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  return
}
}

// -----

func.func @ag_count(%x: tensor<2xi64>, %y: tensor<3xf32>) {
  // expected-error @+1 {{has 2 inputs but 1 results}}
  %r = distruntime.all_gather ins(%x, %y : tensor<2xi64>, tensor<3xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @ag_mixed(%x: tensor<2xi64>, %y: memref<3xf32>) {
  // expected-error @+1 {{mixes tensor and memref inputs; use one form}}
  %r:2 = distruntime.all_gather ins(%x, %y : tensor<2xi64>, memref<3xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>, tensor<6xf32>
  return
}

// -----

func.func @ag_memref_results(%x: memref<2xi64>) {
  // expected-error @+1 {{has memref inputs, so it writes 'outs' memrefs instead of returning tensors}}
  %r = distruntime.all_gather ins(%x : memref<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @ag_tensor_outs(%x: tensor<2xi64>, %o: memref<4xi64>) {
  // expected-error @+1 {{has tensor inputs, so it returns tensor results instead of writing 'outs' memrefs}}
  distruntime.all_gather ins(%x : tensor<2xi64>) outs(%o : memref<4xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @ag_groups_rank(%x: tensor<2xi64>) {
  // expected-error @+1 {{attribute 'replica_groups' failed to satisfy constraint: 2-D i64 dense constant}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[0, 1]> : tensor<2xi64>} -> tensor<4xi64>
  return
}

// -----

func.func @ar_c1(%x: tensor<2xf32>) {
  // expected-error @+1 {{'replica_groups' contains id 0 more than once}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

module attributes {distruntime.num_replicas = 3 : i64} {
func.func @ar_c2(%x: tensor<2xf32>) {
  // expected-error @+1 {{'replica_groups' has 2 ids but cross_replica_and_partition needs all 3 of the process grid}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
func.func @ar_c2_flattened(%x: tensor<2xf32>) {
  // expected-error @+1 {{'replica_groups' has 2 ids but flattened_ids needs all 4 of the process grid}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = 2 : i64, use_global_device_ids, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}
}

// -----

func.func @ar_c3(%x: tensor<2xf32>) {
  // -1 is padding in all_reduce (ragged-groups.mlir); other negatives are ids.
  // expected-error @+1 {{'replica_groups' id -2 is out of range [0, 2)}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, -2]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @ar_c4(%x: tensor<2xf32>) {
  // expected-error @+1 {{'use_global_device_ids' needs 'channel_id' > 0, got -1}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = -1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @ar_c5_type(%x: tensor<2xf64>) {
  // expected-error @+1 {{'computation' reduces 'f32' but input #0 has element type 'f64', which does not promote to it}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    distruntime.yield %s : f32
  } -> tensor<2xf64>
  return
}

// -----

// is_promotable needs the same kind: an integer never promotes to a float.
func.func @ar_c5_kind(%x: tensor<2xi16>) {
  // expected-error @+1 {{'computation' reduces 'f32' but input #0 has element type 'i16', which does not promote to it}}
  %r = distruntime.all_reduce ins(%x : tensor<2xi16>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    distruntime.yield %s : f32
  } -> tensor<2xf32>
  return
}

// -----

// (C7): the results have the computation's element type E.
func.func @ar_c7_promoted_result(%x: tensor<2xi8>) {
  // expected-error @+1 {{result #0 has element type 'i8' but 'computation' reduces 'i32'}}
  %r = distruntime.all_reduce ins(%x : tensor<2xi8>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    distruntime.yield %s : i32
  } -> tensor<2xi8>
  return
}

// -----

// i1 is StableHLO's boolean: it promotes to nothing else.
func.func @rs_c7_bool(%x: memref<4xi1>, %y: memref<2xi8>) {
  // expected-error @+1 {{'computation' reduces 'i8' but input #0 has element type 'i1', which does not promote to it}}
  distruntime.reduce_scatter ins(%x : memref<4xi1>) outs(%y : memref<2xi8>) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: i8, %b: i8):
    %s = arith.addi %a, %b : i8
    distruntime.yield %s : i8
  }
  return
}

// -----

func.func @ar_c5_body(%x: tensor<2xf32>) {
  // expected-error @+1 {{'computation' must yield a single arith add, mul, min, max, and, or or xor of its two arguments}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %s = arith.subf %a, %b : f32
    distruntime.yield %s : f32
  } -> tensor<2xf32>
  return
}

// -----

func.func @ar_c5_two_ops(%x: tensor<2xf32>) {
  // expected-error @+1 {{'computation' must yield a single arith add}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %b : f32
    distruntime.yield %t : f32
  } -> tensor<2xf32>
  return
}

// -----

func.func @ar_c5_region_minimum_on_integers(%x: tensor<2xi32>) {
  // expected-error @+1 {{reduction 'minimum' needs floating-point elements, but input #0 has element type 'i32'}}
  %r = distruntime.all_reduce ins(%x : tensor<2xi32>) {reduction = #distruntime.reduction<minimum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xi32>
  return
}

// -----

func.func @ar_c5_umax_on_floats(%x: tensor<2xf16>) {
  // expected-error @+1 {{reduction 'umax' needs integer elements, but input #0 has element type 'f16'}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf16>) {reduction = #distruntime.reduction<umax>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf16>
  return
}

// -----

func.func @ar_c5_arity(%x: tensor<2xf32>) {
  // expected-error @+1 {{'computation' must have one block with two arguments of the element type}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32):
    distruntime.yield %a : f32
  } -> tensor<2xf32>
  return
}

// -----

func.func @ar_both(%x: tensor<2xf32>) {
  // expected-error @+1 {{takes a 'reduction' attribute or a 'computation' region, not both}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    distruntime.yield %s : f32
  } -> tensor<2xf32>
  return
}

// -----

func.func @ar_neither(%x: tensor<2xf32>) {
  // expected-error @+1 {{needs a 'reduction' attribute or a 'computation' region}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @ar_bitwise_float(%x: tensor<2xf32>) {
  // expected-error @+1 {{reduction 'or' needs integer elements, but input #0 has element type 'f32'}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<or>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @ar_c6(%x: tensor<2xf32>) {
  // expected-error @+1 {{result #0 has shape [3] but input #0 of shape [2] gives [2]}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<3xf32>
  return
}

// -----

func.func @ar_c7(%x: memref<2xf32>, %o: memref<2xf16>) {
  // expected-error @+1 {{output #0 (outs) has element type 'f16' but input #0 has 'f32'}}
  distruntime.all_reduce ins(%x : memref<2xf32>) outs(%o : memref<2xf16>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @a2a_c1(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'split_dimension' 2 is out of range [0, 2) of input #0}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @a2a_c2(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{input #0 has size 3 in 'split_dimension' 0, which 'split_count' 2 does not divide}}
  %r = distruntime.all_to_all ins(%x : tensor<3x2xf32>) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x4xf32>
  return
}

// -----

func.func @a2a_c3(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'concat_dimension' -1 is out of range [0, 2) of input #0}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = -1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @a2a_c4(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'split_count' must be positive, got 0}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @a2a_c5(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'replica_groups' contains id 1 more than once}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[1, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 4 : i64} {
func.func @a2a_c6(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'replica_groups' has 2 ids but cross_partition needs all 4 of the process grid}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, channel_id = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}
}

// -----

func.func @a2a_c7(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'replica_groups' id 5 is out of range [0, 2)}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 5]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @a2a_c8(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'split_count' 4 differs from the group size 2}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @a2a_c9(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{result #0 has shape [4, 2] but input #0 of shape [4, 2] gives [2, 4]}}
  %r = distruntime.all_to_all ins(%x : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @rs_c1(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{input #0 has size 3 in 'scatter_dimension' 0, which the group size 2 does not divide}}
  %r = distruntime.reduce_scatter ins(%x : tensor<3x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xf32>
  return
}

// -----

func.func @rs_c2(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'scatter_dimension' 3 is out of range [0, 2) of input #0}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 3 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x2xf32>
  return
}

// -----

func.func @rs_c3(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'replica_groups' contains id 0 more than once}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0], [0]]> : tensor<2x1xi64>} -> tensor<4x2xf32>
  return
}

// -----

module attributes {distruntime.num_replicas = 6 : i64} {
func.func @rs_c4(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'replica_groups' has 2 ids but cross_replica needs all 6 of the process grid}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x2xf32>
  return
}
}

// -----

func.func @rs_c5(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'replica_groups' id 3 is out of range [0, 2)}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[3, 0]]> : tensor<1x2xi64>} -> tensor<2x2xf32>
  return
}

// -----

func.func @rs_c6(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'use_global_device_ids' needs 'channel_id' > 0, got 0}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, use_global_device_ids, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x2xf32>
  return
}

// -----

func.func @rs_c7(%x: tensor<4x2xi8>) {
  // expected-error @+1 {{'computation' must yield a single arith add}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xi8>) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: i8, %b: i8):
    %s = arith.divsi %a, %b : i8
    distruntime.yield %s : i8
  } -> tensor<2x2xi8>
  return
}

// -----

func.func @rs_c8(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{result #0 has shape [4, 2] but input #0 of shape [4, 2] gives [2, 2]}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return
}

// -----

func.func @rs_c9(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{result #0 has element type 'bf16' but input #0 has 'f32'}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x2xbf16>
  return
}

// -----

// (C1)/(C8) with the group size known only at run time: the input size must
// still be the result size times some group size >= 1.
func.func @rs_c8_no_group_size(%x: memref<6xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{input #0 has size 6 in 'scatter_dimension' 0, but output #0 (outs) has size 4 there: 6 is not 4 times any group size}}
  distruntime.reduce_scatter ins(%x : memref<6xf32>) outs(%y : memref<4xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @rs_c8_no_group_size_empty(%x: tensor<0x2xf32>) {
  // expected-error @+1 {{input #0 has size 0 in 'scatter_dimension' 0, but result #0 has size 1 there: 0 is not 1 times any group size}}
  %r = distruntime.reduce_scatter ins(%x : tensor<0x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<1x2xf32>
  return
}

// -----

func.func @rs_c8_no_group_size_two(%x: memref<8xf32>, %y: memref<8xi32>, %a: memref<4xf32>, %b: memref<2xi32>) {
  // expected-error @+1 {{input #1 has size 8 in 'scatter_dimension' 0 and output #1 (outs) has size 2 there, a group size of 4, but input #0 and output #0 (outs) give a group size of 2}}
  distruntime.reduce_scatter ins(%x, %y : memref<8xf32>, memref<8xi32>) outs(%a, %b : memref<4xf32>, memref<2xi32>) {reduction = #distruntime.reduction<max>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @rs_c8_memref(%x: memref<4x2xf32>, %y: memref<4x2xf32>) {
  // expected-error @+1 {{output #0 (outs) has shape [4, 2] but input #0 of shape [4, 2] gives [2, 2]}}
  distruntime.reduce_scatter ins(%x : memref<4x2xf32>) outs(%y : memref<4x2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @cb_c1(%x: tensor<1x2xi64>) {
  // expected-error @+1 {{'replica_groups' contains id 2 more than once}}
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {replica_groups = dense<[[2, 1], [0, 2]]> : tensor<2x2xi64>} -> tensor<1x2xi64>
  return
}

// -----

module attributes {distruntime.num_replicas = 4 : i64} {
func.func @cb_c2(%x: tensor<1x2xi64>) {
  // expected-error @+1 {{'replica_groups' id 4 is out of range [0, 4) of cross_replica}}
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {replica_groups = dense<[[4, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 4 : i64} {
func.func @cb_c2_partition(%x: tensor<1x2xi64>) {
  // expected-error @+1 {{'replica_groups' id 1 is out of range [0, 1) of cross_partition}}
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {channel_id = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 4 : i64, distruntime.num_partitions = 2 : i64} {
func.func @cb_c2_partition_given(%x: tensor<1x2xi64>) {
  // (C2) cross_partition (channel_id > 0): N = num_partitions = 2.
  // expected-error @+1 {{'replica_groups' id 3 is out of range [0, 2) of cross_partition}}
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {channel_id = 1 : i64, replica_groups = dense<[[1, 3]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
  return
}
}

// -----

func.func @cb_c2_negative(%x: tensor<1x2xi64>) {
  // expected-error @+1 {{'replica_groups' id -3 is out of range [0, ?) of cross_replica}}
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {replica_groups = dense<[[-3, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
  return
}

// -----

func.func @cb_c3(%x: tensor<1x2xi64>) {
  // expected-error @+1 {{result #0 has shape [2, 1] but input #0 of shape [1, 2] gives [1, 2]}}
  %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x1xi64>
  return
}

// -----

func.func @cp_c1(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' must have shape [n, 2], got 'tensor<1x3xi64>'}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @cp_c2(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' has source 0 more than once}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @cp_c3(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' has target 2 more than once}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 2], [1, 2]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

module attributes {distruntime.num_replicas = 3 : i64} {
func.func @cp_c4(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' id 3 is out of range [0, 3) of cross_replica}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 3]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 4 : i64, distruntime.num_partitions = 2 : i64} {
func.func @cp_c4_partition(%x: tensor<2xf32>) {
  // (C4) cross_partition (channel_id > 0): pairs name partitions, so N is
  // num_partitions = 2, though 2 < num_replicas = 4.
  // expected-error @+1 {{'source_target_pairs' id 2 is out of range [0, 2) of cross_partition}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {channel_id = 1 : i64, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}
}

// -----

func.func @cp_c5(%x: tensor<2xf32>) {
  // expected-error @+1 {{result #0 has element type 'f64' but input #0 has 'f32'}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf64>
  return
}

// -----

func.func @send_c1(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' must have shape [n, 2], got 'tensor<2x1xi64>'}}
  distruntime.send ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0], [1]]> : tensor<2x1xi64>}
  return
}

// -----

func.func @send_c2(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' has source 1 more than once}}
  distruntime.send ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[1, 0], [1, 2]]> : tensor<2x2xi64>}
  return
}

// -----

func.func @send_c3(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' has target 0 more than once}}
  distruntime.send ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[1, 0], [2, 0]]> : tensor<2x2xi64>}
  return
}

// -----

func.func @send_c4(%x: tensor<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' id 1 is out of range [0, 1) of cross_partition (channel_id > 0 names partitions; set the module attribute distruntime.num_partitions)}}
  distruntime.send ins(%x : tensor<2xf32>) {channel_id = 1 : i64, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @send_c5(%x: tensor<2xf32>) {
  // expected-error @+1 {{'channel_type' device_to_device contradicts 'is_host_transfer' = true (expected device_to_host)}}
  distruntime.send ins(%x : tensor<2xf32>) {channel_type = #distruntime.channel_type<device_to_device>, is_host_transfer = true, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @send_c5_device(%x: tensor<2xf32>) {
  // (C5): is_host_transfer = false needs device_to_device.
  // expected-error @+1 {{'channel_type' device_to_host contradicts 'is_host_transfer' = false (expected device_to_device)}}
  distruntime.send ins(%x : tensor<2xf32>) {channel_type = #distruntime.channel_type<device_to_host>, is_host_transfer = false, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @send_c5_host_to_device(%x: tensor<2xf32>) {
  // (C5): a send's channel_type is device_to_device or device_to_host only.
  // expected-error @+1 {{'channel_type' host_to_device contradicts 'is_host_transfer' = true (expected device_to_host)}}
  distruntime.send ins(%x : tensor<2xf32>) {channel_type = #distruntime.channel_type<host_to_device>, is_host_transfer = true, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @send_results(%x: tensor<2xf32>) {
  // expected-error @+1 {{produces no results}}
  %r = distruntime.send ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @recv_c1() {
  // expected-error @+1 {{'source_target_pairs' must have shape [n, 2], got 'tensor<1x1xi64>'}}
  %r = distruntime.recv {source_target_pairs = dense<[[0]]> : tensor<1x1xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @recv_c2() {
  // expected-error @+1 {{'source_target_pairs' has source 0 more than once}}
  %r = distruntime.recv {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @recv_c3() {
  // expected-error @+1 {{'source_target_pairs' has target 1 more than once}}
  %r = distruntime.recv {source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 2 : i64} {
func.func @recv_c4() {
  // expected-error @+1 {{'source_target_pairs' id 2 is out of range [0, 2) of cross_partition}}
  %r = distruntime.recv {channel_id = 3 : i64, source_target_pairs = dense<[[0, 2]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}
}

// -----

func.func @recv_c5() {
  // expected-error @+1 {{'channel_type' device_to_host contradicts 'is_host_transfer' = false (expected device_to_device)}}
  %r = distruntime.recv {channel_type = #distruntime.channel_type<device_to_host>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @recv_unknown_channel_type() {
  // expected-error @+1 {{unknown channel type 'device'; expected one of device_to_device, device_to_host, host_to_device}}
  %r = distruntime.recv {channel_type = #distruntime.channel_type<device>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @recv_c5_host() {
  // (C5): is_host_transfer = true excludes device_to_device.
  // expected-error @+1 {{'channel_type' device_to_device contradicts 'is_host_transfer' = true (expected device_to_host or host_to_device)}}
  %r = distruntime.recv {channel_type = #distruntime.channel_type<device_to_device>, is_host_transfer = true, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @recv_dynamic() {
  // expected-error @+1 {{tensor result #0 needs a static shape}}
  %r = distruntime.recv {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?xf32>
  return
}

// -----

func.func @recv_inputs(%x: tensor<2xf32>) {
  // expected-error @+1 {{takes no inputs}}
  %r = distruntime.recv ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  return
}

// -----

// expected-error @+1 {{'distruntime.num_replicas' must be a positive integer, got 0 : i64}}
module attributes {distruntime.num_replicas = 0 : i64} {
}

// -----

module {
  // expected-error @+1 {{'distruntime.num_partitions' belongs on a builtin.module}}
  func.func @f() attributes {distruntime.num_partitions = 2 : i64} {
    return
  }
}

// -----

// expected-error @+1 {{unknown distruntime attribute 'distruntime.replicas'}}
module attributes {distruntime.replicas = 2 : i64} {
}

// -----

// distruntime.proven: a unit attribute, on the ops whose runtime calls can
// say so.
func.func @proven_value(%a: memref<4xf32>) {
  // expected-error @+1 {{'distruntime.proven' is a unit attribute, got true}}
  distruntime.allreduce <sum> %a team(0) {distruntime.proven = true} : memref<4xf32>
  return
}

// -----

func.func @proven_team_size() -> index {
  // expected-error @+1 {{'distruntime.proven' belongs on a collective, send, recv or update_halo, not on 'distruntime.team_size'}}
  %n = distruntime.team_size team(0) {distruntime.proven}
  return %n : index
}

// -----

// A process grid larger than any team is an error, never a wrapped size
// (reduce_scatter's group size in cross_replica mode used to divide by it).
// expected-error @+1 {{the process grid 'distruntime.num_replicas' x 'distruntime.num_partitions' = 4611686018427387904 x 4 has more processes than a team can hold (2147483647)}}
module attributes {distruntime.num_replicas = 4611686018427387904 : i64, distruntime.num_partitions = 4 : i64} {
  func.func @grid_too_large(%x: memref<8xf32>, %y: memref<2xf32>) {
    distruntime.reduce_scatter ins(%x : memref<8xf32>) outs(%y : memref<2xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    return
  }
}

// -----

// A process grid larger than any team is an error, never a wrapped size
// (reduce_scatter's group size in cross_replica_and_partition mode used to divide by it).
// expected-error @+1 {{the process grid 'distruntime.num_replicas' x 'distruntime.num_partitions' = 4611686018427387904 x 4 has more processes than a team can hold (2147483647)}}
module attributes {distruntime.num_replicas = 4611686018427387904 : i64, distruntime.num_partitions = 4 : i64} {
  func.func @grid_too_large(%x: memref<8xf32>, %y: memref<2xf32>) {
    distruntime.reduce_scatter ins(%x : memref<8xf32>) outs(%y : memref<2xf32>) {channel_id = 1 : i64, reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    return
  }
}

// -----

// A process grid larger than any team is an error, never a wrapped size
// (reduce_scatter's group size in flattened_ids mode used to divide by it).
// expected-error @+1 {{the process grid 'distruntime.num_replicas' x 'distruntime.num_partitions' = 4611686018427387904 x 4 has more processes than a team can hold (2147483647)}}
module attributes {distruntime.num_replicas = 4611686018427387904 : i64, distruntime.num_partitions = 4 : i64} {
  func.func @grid_too_large(%x: memref<8xf32>, %y: memref<2xf32>) {
    distruntime.reduce_scatter ins(%x : memref<8xf32>) outs(%y : memref<2xf32>) {channel_id = 1 : i64, use_global_device_ids, reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    return
  }
}

// -----

// expected-error @+1 {{the process grid 'distruntime.num_replicas' x 'distruntime.num_partitions' = 65536 x 65536 has more processes than a team can hold (2147483647)}}
module attributes {distruntime.num_replicas = 65536 : i64, distruntime.num_partitions = 65536 : i64} {
  func.func @grid_past_int(%x: memref<2xf32>, %y: memref<2xf32>) {
    distruntime.all_reduce ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {channel_id = 1 : i64, use_global_device_ids, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    return
  }
}

// -----

// Ids at the top of int64 are ids like any other: out of range here, not
// taken for duplicates.
func.func @id_int64_max(%x: memref<2xf32>, %y: memref<2xf32>) {
  // expected-error @+1 {{'replica_groups' id 9223372036854775807 is out of range [0, 2) (the number of ids in the groups)}}
  distruntime.all_reduce ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 9223372036854775807]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @pair_target_int64_max_twice(%x: memref<2xf32>, %y: memref<2xf32>) {
  // expected-error @+1 {{'source_target_pairs' has target 9223372036854775806 more than once}}
  distruntime.collective_permute ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {source_target_pairs = dense<[[0, 9223372036854775806], [1, 9223372036854775806]]> : tensor<2x2xi64>}
  return
}

// -----

// Sizes past int64 are errors, never wrapped: an operand whose bytes do not
// fit, and results whose scaled dimension would not.
func.func @bytes_past_int64(%x: memref<4611686018427387904x4xf64>, %y: memref<4611686018427387904x4xf64>) {
  // expected-error @+1 {{input #0 of shape [4611686018427387904, 4] has more bytes than an int64 counts}}
  distruntime.all_reduce ins(%x : memref<4611686018427387904x4xf64>) outs(%y : memref<4611686018427387904x4xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @all_gather_result_past_int64(%x: memref<4611686018427387904xi8>, %y: memref<0xi8>) {
  // expected-error @+1 {{input #0 of shape [4611686018427387904] gives output #0 (outs) a dimension larger than an int64 counts}}
  distruntime.all_gather ins(%x : memref<4611686018427387904xi8>) outs(%y : memref<0xi8>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}
  return
}

// -----

// Each grid attribute alone is bounded too (else the grid would read as
// unknown and the lowering would pass a 1-partition grid).
// expected-error @+1 {{'distruntime.num_partitions' is 3000000000, more processes than a team can hold (2147483647)}}
module attributes {distruntime.num_partitions = 3000000000 : i64} {
  func.func @partitions_too_many(%x: memref<2xf32>, %y: memref<2xf32>) {
    distruntime.collective_permute ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {channel_id = 1 : i64, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
    return
  }
}

// -----

// all_to_all without split_count: the group size, where it is known, must
// divide the split dimension.
func.func @all_to_all_group_split(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{input #0 has size 3 in 'split_dimension' 0, which the group size 2 does not divide}}
  %r = distruntime.all_to_all ins(%x : tensor<3x2xf32>) {split_dimension = 0 : i64, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x4xf32>
  return
}
