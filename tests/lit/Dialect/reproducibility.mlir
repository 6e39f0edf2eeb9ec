// The reproducibility attribute: it round-trips on the ops that take it,
// `exact` is refused for floating-point products (it rounds sums), and an
// unknown level names the valid ones.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @levels
// CHECK: distruntime.all_reduce {{.*}}reproducibility = #distruntime.reproducibility<exact>
// CHECK: distruntime.reduce_scatter {{.*}}reproducibility = #distruntime.reproducibility<ordered>
// CHECK: distruntime.allreduce <prod> %{{.*}} team(0) {reproducibility = #distruntime.reproducibility<mpi>}
func.func @levels(%x: tensor<4xf32>, %m: memref<2xf64>) -> (tensor<4xf32>, tensor<2xf32>) {
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<sum>, reproducibility = #distruntime.reproducibility<exact>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  %b = distruntime.reduce_scatter ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<prod>, reproducibility = #distruntime.reproducibility<ordered>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf32>
  distruntime.allreduce <prod> %m team(0) {reproducibility = #distruntime.reproducibility<mpi>} : memref<2xf64>
  return %a, %b : tensor<4xf32>, tensor<2xf32>
}

// -----

// Integer products are exact in any order: `exact` is accepted.
// CHECK-LABEL: func.func @exact_integer_product
func.func @exact_integer_product(%x: tensor<4xi32>) -> tensor<4xi32> {
  %a = distruntime.all_reduce ins(%x : tensor<4xi32>) {reduction = #distruntime.reduction<prod>, reproducibility = #distruntime.reproducibility<exact>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  return %a : tensor<4xi32>
}

// -----

func.func @exact_product(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{reproducibility 'exact' rounds sums only, but input #0 of 'f32' is reduced by 'prod'; use 'ordered'}}
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {reduction = #distruntime.reduction<prod>, reproducibility = #distruntime.reproducibility<exact>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @exact_product_region(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{reproducibility 'exact' rounds sums only, but 'computation' of 'f64' is reduced by 'prod'}}
  %a = distruntime.all_reduce ins(%x : tensor<4xf64>) {reproducibility = #distruntime.reproducibility<exact>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%l: f64, %r: f64):
    %p = arith.mulf %l, %r : f64
    distruntime.yield %p : f64
  } -> tensor<4xf64>
  return %a : tensor<4xf64>
}

// -----

func.func @exact_product_scatter(%x: tensor<4xf16>) -> tensor<2xf16> {
  // expected-error @+1 {{reproducibility 'exact' rounds sums only, but input #0 of 'f16' is reduced by 'prod'}}
  %b = distruntime.reduce_scatter ins(%x : tensor<4xf16>) {reduction = #distruntime.reduction<prod>, reproducibility = #distruntime.reproducibility<exact>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xf16>
  return %b : tensor<2xf16>
}

// -----

func.func @exact_product_rfc(%m: memref<2xbf16>) {
  // expected-error @+1 {{reproducibility 'exact' rounds sums only, but 'data' of 'bf16' is reduced by 'prod'}}
  distruntime.allreduce <prod> %m team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<2xbf16>
  return
}

// -----

func.func @unknown_level(%m: memref<2xf64>) {
  // expected-error @+1 {{unknown reproducibility level 'fast'; expected one of mpi, ordered, exact}}
  distruntime.allreduce <sum> %m team(0) {reproducibility = #distruntime.reproducibility<fast>} : memref<2xf64>
  return
}
