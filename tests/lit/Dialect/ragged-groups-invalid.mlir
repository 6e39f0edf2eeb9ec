// Ragged replica_groups (groups padded with -1, "no process"): only
// all_reduce accepts them, as StableHLO's verifier (hlo::verifyReplicaGroups
// with allGroupsMustHaveSameSize = false for all_reduce, true for all_gather,
// all_to_all and reduce_scatter; collective_broadcast needs
// 0 <= replica_groups). One case per rejected form.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @all_gather_padded(%x: tensor<2xi64>) {
  // expected-error @+1 {{'replica_groups' pads group #1 with -1, but only all_reduce accepts groups of different sizes}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} -> tensor<6xi64>
  return
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
func.func @all_gather_padded_flattened(%x: tensor<2xi64>) {
  // expected-error @+1 {{'replica_groups' pads group #0 with -1, but only all_reduce accepts groups of different sizes}}
  %r = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, -1, 1], [2, 3, -1]]> : tensor<2x3xi64>} -> tensor<6xi64>
  return
}
}

// -----

func.func @all_to_all_padded(%x: tensor<6xf32>) {
  // expected-error @+1 {{'replica_groups' pads group #1 with -1, but only all_reduce accepts groups of different sizes}}
  %r = distruntime.all_to_all ins(%x : tensor<6xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} -> tensor<6xf32>
  return
}

// -----

func.func @reduce_scatter_padded(%x: tensor<6xf32>) {
  // expected-error @+1 {{'replica_groups' pads group #1 with -1, but only all_reduce accepts groups of different sizes}}
  %r = distruntime.reduce_scatter ins(%x : tensor<6xf32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @collective_broadcast_padded(%x: tensor<2xf32>) {
  // expected-error @+1 {{'replica_groups' pads group #1 with -1, but only all_reduce accepts groups of different sizes}}
  %r = distruntime.collective_broadcast ins(%x : tensor<2xf32>) {replica_groups = dense<[[2, 1], [0, -1]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @collective_permute_padded(%x: tensor<2xf32>) {
  // source_target_pairs have no padding: -1 is an id out of range.
  // expected-error @+1 {{'source_target_pairs' id -1 is out of range [0, ?) of cross_replica}}
  %r = distruntime.collective_permute ins(%x : tensor<2xf32>) {source_target_pairs = dense<[[0, 1], [1, -1]]> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_only_padding(%x: tensor<2xf32>) {
  // expected-error @+1 {{'replica_groups' names no process (every id is -1)}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<-1> : tensor<2x2xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_padded_twice(%x: tensor<2xf32>) {
  // (C1): -1 may repeat, ids may not.
  // expected-error @+1 {{'replica_groups' contains id 1 more than once}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, -1], [1, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_padded_bound(%x: tensor<2xf32>) {
  // (C3): size(replica_groups) counts the ids, not the padding: 3 here.
  // expected-error @+1 {{'replica_groups' id 3 is out of range [0, 3) (the number of ids in the groups)}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 3, -1], [1, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_padded_negative(%x: tensor<2xf32>) {
  // (C3): only -1 is padding.
  // expected-error @+1 {{'replica_groups' id -2 is out of range [0, 3) (the number of ids in the groups)}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, -1], [-2, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return
}

// -----

module attributes {distruntime.num_replicas = 4 : i64} {
func.func @all_reduce_padded_cover(%x: tensor<2xf32>) {
  // (C2): the ids, without padding, are every replica.
  // expected-error @+1 {{'replica_groups' has 3 ids but cross_replica needs all 4 of the process grid}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, -1], [2, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return
}
}

// -----

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 3 : i64} {
func.func @all_reduce_padded_cover_flattened(%x: tensor<2xf32>) {
  // (C2) flattened_ids: all 6 processes.
  // expected-error @+1 {{'replica_groups' has 5 ids but flattened_ids needs all 6 of the process grid}}
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 1, 2, 3], [4, -1, -1, -1]]> : tensor<2x4xi64>} -> tensor<2xf32>
  return
}
}
