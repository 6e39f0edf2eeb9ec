// global_reduce: one value from every element of every member's buffer.
// Its result type is the data's element type, its reductions sum, prod,
// min and max on elements wider than i1, and `exact` rounds sums only.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @forms
// CHECK: distruntime.global_reduce <sum> %{{.*}} team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<?x?xf64> -> f64
// CHECK: distruntime.global_reduce <max> %{{.*}} team(3) : memref<4xi32, strided<[2]>> -> i32
func.func @forms(%a: memref<?x?xf64>, %b: memref<4xi32, strided<[2]>>) -> (f64, i32) {
  %s = distruntime.global_reduce <sum> %a team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<?x?xf64> -> f64
  %m = distruntime.global_reduce <max> %b team(3) : memref<4xi32, strided<[2]>> -> i32
  return %s, %m : f64, i32
}

// -----

func.func @wrong_result(%a: memref<4xf32>) -> f64 {
  // expected-error @+1 {{result type 'f64' must be the element type of 'data', 'f32'}}
  %s = distruntime.global_reduce <sum> %a team(0) : memref<4xf32> -> f64
  return %s : f64
}

// -----

func.func @bits(%a: memref<4xi1>) -> i1 {
  // expected-error @+1 {{needs elements wider than i1}}
  %s = distruntime.global_reduce <sum> %a team(0) : memref<4xi1> -> i1
  return %s : i1
}

// -----

func.func @xor(%a: memref<4xi32>) -> i32 {
  // expected-error @+1 {{reduction 'xor' is not one of sum, prod, min, max}}
  %s = distruntime.global_reduce <xor> %a team(0) : memref<4xi32> -> i32
  return %s : i32
}

// -----

func.func @exact_product(%a: memref<4xf32>) -> f32 {
  // expected-error @+1 {{reproducibility 'exact' rounds sums only, but 'data' of 'f32' is reduced by 'prod'; use 'ordered'}}
  %s = distruntime.global_reduce <prod> %a team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<4xf32> -> f32
  return %s : f32
}
