// Groups and pairs read at run time: the op takes the attribute or the
// table operand, one of them, of the op's form, a 2-D i64 table; pairs have
// two columns.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @both(%x: memref<4xf32>, %g: memref<?x?xi64>) {
  // expected-error @+1 {{takes 'replica_groups' as an attribute or as an operand `replica_groups(%table : ...)`, not both}}
  distruntime.all_reduce ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) replica_groups(%g : memref<?x?xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// -----

func.func @neither(%x: memref<4xf32>) {
  // expected-error @+1 {{takes 'source_target_pairs' as an attribute or as an operand `source_target_pairs(%table : ...)`, but has neither}}
  distruntime.send ins(%x : memref<4xf32>) {channel_id = 1 : i64}
  return
}

// -----

func.func @tensor_table_memref_op(%x: memref<4xf32>, %g: tensor<?x?xi64>) {
  // expected-error @+1 {{'replica_groups' is a tensor but the op is in memref form; use one form}}
  distruntime.collective_broadcast ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) replica_groups(%g : tensor<?x?xi64>)
  return
}

// -----

func.func @memref_table_tensor_op(%x: tensor<4xf32>, %p: memref<?x2xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'source_target_pairs' is a memref but the op is in tensor form; use one form}}
  %r = distruntime.collective_permute ins(%x : tensor<4xf32>) source_target_pairs(%p : memref<?x2xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @one_dimensional(%x: memref<4xf32>, %g: memref<?xi64>) {
  // expected-error @+1 {{'replica_groups' must be a 2-D i64 memref (a row per group), got 'memref<?xi64>'}}
  distruntime.all_gather ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) replica_groups(%g : memref<?xi64>) {all_gather_dim = 0 : i64}
  return
}

// -----

func.func @i32_pairs(%x: memref<4xf32>, %p: memref<?x2xi32>) {
  // expected-error @+1 {{'source_target_pairs' must be a 2-D i64 memref (a row per pair), got 'memref<?x2xi32>'}}
  distruntime.recv outs(%x : memref<4xf32>) source_target_pairs(%p : memref<?x2xi32>) {channel_id = 1 : i64}
  return
}

// -----

func.func @three_columns(%x: memref<4xf32>, %p: memref<?x3xi64>) {
  // expected-error @+1 {{'source_target_pairs' must have shape [n, 2], got 'memref<?x3xi64>'}}
  distruntime.send ins(%x : memref<4xf32>) source_target_pairs(%p : memref<?x3xi64>) {channel_id = 1 : i64}
  return
}
