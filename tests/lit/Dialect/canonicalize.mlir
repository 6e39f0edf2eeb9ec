// RUN: %distruntime-opt %s -canonicalize -split-input-file | FileCheck %s

// Constant geometry gives static halo shapes; users keep their types.
// CHECK-LABEL: func @static_halos
func.func @static_halos(%l: memref<3x8xf64>) -> (memref<?x?xf64>, memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  // Local rows [4, 7), requested rows [2, 8): 2 rows left, 1 row right.
  // CHECK: distruntime.get_halo {{.*}} : memref<3x8xf64> -> memref<2x8xf64>, memref<1x8xf64>
  // CHECK: memref.cast %{{.*}} : memref<2x8xf64> to memref<?x?xf64>
  // CHECK: memref.cast %{{.*}} : memref<1x8xf64> to memref<?x?xf64>
  %h, %a, %b = distruntime.get_halo %l gshape [%c10, %c8] loffsets [%c4, %c0]
      bboffsets [%c2, %c0] bbsizes [%c6, %c8] team(0) key(1)
      : memref<3x8xf64> -> memref<?x?xf64>, memref<?x?xf64>
  distruntime.wait %h
  return %a, %b : memref<?x?xf64>, memref<?x?xf64>
}

// -----

// A bounding box inside the local block gives empty halos; on tensors the
// cast is a tensor.cast.
// CHECK-LABEL: func @empty_halos_tensor
func.func @empty_halos_tensor(%l: tensor<5xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  // CHECK: distruntime.get_halo {{.*}} : tensor<5xi32> -> tensor<0xi32>, tensor<0xi32>
  // CHECK: tensor.cast
  %h, %a, %b = distruntime.get_halo %l gshape [%c9] loffsets [%c1]
      bboffsets [%c2] bbsizes [%c3] team(0)
      : tensor<5xi32> -> tensor<?xi32>, tensor<?xi32>
  distruntime.wait %h
  return %a, %b : tensor<?xi32>, tensor<?xi32>
}

// -----

// A dynamic local size leaves dimension 0 dynamic but fixes the others.
// CHECK-LABEL: func @partially_static
func.func @partially_static(%l: memref<?x8xf64>, %off: index) -> memref<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  // CHECK: distruntime.get_halo {{.*}} : memref<?x8xf64> -> memref<?x4xf64>, memref<?x4xf64>
  %h, %a, %b = distruntime.get_halo %l gshape [%c8, %c8] loffsets [%off, %c0]
      bboffsets [%c0, %c0] bbsizes [%c8, %c4] team(0)
      : memref<?x8xf64> -> memref<?x?xf64>, memref<?x?xf64>
  distruntime.wait %h
  return %a : memref<?x?xf64>
}
