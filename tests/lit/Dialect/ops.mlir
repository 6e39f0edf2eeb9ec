// Round trip of every op, in the custom and in the RFC's generic form.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s

// CHECK-LABEL: func @team_queries
func.func @team_queries() -> (index, index) {
  // CHECK: distruntime.team_size team(0)
  %n = distruntime.team_size team(0)
  // CHECK: distruntime.team_member team(3)
  %m = distruntime.team_member team(3)
  return %n, %m : index, index
}

// CHECK-LABEL: func @rfc_generic_form
func.func @rfc_generic_form(%buf: memref<8xf32>) -> index {
  // CHECK: distruntime.team_size team(0)
  %n = "distruntime.team_size"() {team = 0 : i64} : () -> index
  // CHECK: distruntime.allreduce <prod> %{{.*}} team(2) : memref<8xf32>
  "distruntime.allreduce"(%buf) {team = 2 : i64, op = #distruntime.reduction<prod>} : (memref<8xf32>) -> ()
  return %n : index
}

// CHECK-LABEL: func @allreduce_forms
func.func @allreduce_forms(%a: memref<4x?xf64, strided<[?, 1], offset: ?>>,
                           %b: memref<i1>, %c: memref<2x3x4xui16>,
                           %d: memref<5xbf16>, %e: memref<5xf16>,
                           %f: memref<7xsi8>) {
  // CHECK: distruntime.allreduce <sum> %{{.*}} team(0) : memref<4x?xf64, strided<[?, 1], offset: ?>>
  distruntime.allreduce <sum> %a team(0) : memref<4x?xf64, strided<[?, 1], offset: ?>>
  // CHECK: %[[H:.*]] = distruntime.allreduce <xor> %{{.*}} team(0) : memref<i1> -> !distruntime.async_handle
  %h = distruntime.allreduce <xor> %b team(0) : memref<i1> -> !distruntime.async_handle
  // CHECK: distruntime.wait %[[H]]
  distruntime.wait %h
  // CHECK: distruntime.allreduce <and> %{{.*}} : memref<2x3x4xui16>
  distruntime.allreduce <and> %c team(0) : memref<2x3x4xui16>
  // CHECK: distruntime.allreduce <max> %{{.*}} : memref<5xbf16>
  distruntime.allreduce <max> %d team(0) : memref<5xbf16>
  // CHECK: distruntime.allreduce <min> %{{.*}} : memref<5xf16>
  distruntime.allreduce <min> %e team(0) : memref<5xf16>
  // CHECK: distruntime.allreduce <or> %{{.*}} : memref<7xsi8>
  distruntime.allreduce <or> %f team(0) : memref<7xsi8>
  return
}

// CHECK-LABEL: func @get_halo_memref
func.func @get_halo_memref(%local: memref<?x8xf64>, %n: index, %off: index,
                           %lo: index, %len: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // CHECK: %[[H:.*]], %{{.*}}, %{{.*}} = distruntime.get_halo %{{.*}} gshape[%{{.*}}, %{{.*}}] loffsets[%{{.*}}, %{{.*}}] bboffsets[%{{.*}}, %{{.*}}] bbsizes[%{{.*}}, %{{.*}}] team(0) key(7) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  %h, %l, %r = distruntime.get_halo %local gshape [%n, %c8] loffsets [%off, %c0]
      bboffsets [%lo, %c0] bbsizes [%len, %c8] team(0) key(7)
      : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  // CHECK: distruntime.wait %[[H]]
  distruntime.wait %h
  return
}

// CHECK-LABEL: func @get_halo_tensor_no_key
func.func @get_halo_tensor_no_key(%local: tensor<?xi32>, %n: index,
                                  %off: index, %lo: index, %len: index)
    -> (tensor<?xi32>, tensor<?xi32>) {
  // CHECK: distruntime.get_halo %{{.*}} team(1) : tensor<?xi32> -> tensor<?xi32>, tensor<?xi32>
  %h, %l, %r = distruntime.get_halo %local gshape [%n] loffsets [%off]
      bboffsets [%lo] bbsizes [%len] team(1)
      : tensor<?xi32> -> tensor<?xi32>, tensor<?xi32>
  distruntime.wait %h
  return %l, %r : tensor<?xi32>, tensor<?xi32>
}

// Handles may cross control flow.
// CHECK-LABEL: func @handle_through_if
func.func @handle_through_if(%buf: memref<4xf64>, %c: i1) {
  %h = distruntime.allreduce <sum> %buf team(0) : memref<4xf64> -> !distruntime.async_handle
  // CHECK: scf.if
  %g = scf.if %c -> !distruntime.async_handle {
    scf.yield %h : !distruntime.async_handle
  } else {
    scf.yield %h : !distruntime.async_handle
  }
  distruntime.wait %g
  return
}

// A run-time size check (emitted by distruntime-lower-gather-scatter).
// CHECK-LABEL: func @check
func.func @check(%have: index, %want: index) {
  // CHECK: distruntime.check sle %{{.*}}, %{{.*}}, "gather", "slice_sizes[0] against operand dimension 0"
  distruntime.check sle %have, %want, "gather", "slice_sizes[0] against operand dimension 0"
  return
}
