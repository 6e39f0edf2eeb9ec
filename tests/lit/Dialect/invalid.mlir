// One case per verifier diagnostic.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @negative_team() -> index {
  // expected-error @+1 {{attribute 'team' failed to satisfy constraint: team id (a non-negative 64-bit integer)}}
  %n = "distruntime.team_size"() {team = -1 : i64} : () -> index
  return %n : index
}

// -----

func.func @team_size_not_index() -> i32 {
  // expected-error @+1 {{result #0 must be index, but got 'i32'}}
  %n = "distruntime.team_size"() {team = 0 : i64} : () -> i32
  return %n : i32
}

// -----

func.func @bitwise_on_float(%buf: memref<4xf32>) {
  // expected-error @+1 {{reduction 'xor' needs integer elements, but 'data' has element type 'f32'}}
  distruntime.allreduce <xor> %buf team(0) : memref<4xf32>
  return
}

// -----

func.func @float_minimum_on_integers(%buf: memref<4xi64>) {
  // expected-error @+1 {{reduction 'maxnum' needs floating-point elements, but 'data' has element type 'i64'}}
  distruntime.allreduce <maxnum> %buf team(0) : memref<4xi64>
  return
}

// -----

func.func @unsigned_min_on_float(%buf: memref<4xbf16>) {
  // expected-error @+1 {{reduction 'umin' needs integer elements, but 'data' has element type 'bf16'}}
  distruntime.allreduce <umin> %buf team(0) : memref<4xbf16>
  return
}

// -----

func.func @unsupported_element(%buf: memref<4xi4>) {
  // expected-error @+1 {{operand #0 must be memref of i1, 8/16/32/64-bit integer, f16, bf16, f32 or f64 values}}
  distruntime.allreduce <sum> %buf team(0) : memref<4xi4>
  return
}

// -----

func.func @allreduce_on_tensor(%t: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be memref}}
  "distruntime.allreduce"(%t) {team = 0 : i64, op = #distruntime.reduction<sum>} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @unknown_reduction(%buf: memref<4xf32>) {
  // expected-error @+1 {{unknown reduction kind 'mean'; expected one of sum, prod, min, max, and, or, xor, umin, umax, minimum, maximum, minnum, maxnum}}
  distruntime.allreduce <mean> %buf team(0) : memref<4xf32>
  return
}

// -----

func.func @waited_twice(%buf: memref<4xf32>) {
  %h = distruntime.allreduce <sum> %buf team(0) : memref<4xf32> -> !distruntime.async_handle
  // expected-error @+1 {{async handle is waited 2 times on one path; each handle must be waited exactly once}}
  distruntime.wait %h
  distruntime.wait %h
  return
}

// -----

func.func @negative_key(%l: memref<?xf64>, %i: index) {
  // expected-error @+1 {{attribute 'key' failed to satisfy constraint: static id of an operation instance, used for caching}}
  %h, %a, %b = "distruntime.get_halo"(%l, %i, %i, %i, %i) {team = 0 : i64, key = -2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (memref<?xf64>, index, index, index, index) -> (!distruntime.async_handle, memref<?xf64>, memref<?xf64>)
  distruntime.wait %h
  return
}

// -----

func.func @rank0_local(%l: memref<f64>) {
  // expected-error @+1 {{'local' must have rank >= 1: the array is distributed along its first dimension}}
  %h, %a, %b = distruntime.get_halo %l gshape [] loffsets [] bboffsets [] bbsizes [] team(0) : memref<f64> -> memref<f64>, memref<f64>
  distruntime.wait %h
  return
}

// -----

func.func @gshape_count(%l: memref<?x4xf64>, %i: index) {
  // expected-error @+1 {{expects one 'gShape' value per dimension of 'local' (2), but got 1}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i] loffsets [%i, %i] bboffsets [%i, %i] bbsizes [%i, %i] team(0) : memref<?x4xf64> -> memref<?x4xf64>, memref<?x4xf64>
  distruntime.wait %h
  return
}

// -----

func.func @bbsizes_count(%l: memref<?x4xf64>, %i: index) {
  // expected-error @+1 {{expects one 'bbSizes' value per dimension of 'local' (2), but got 3}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i, %i] loffsets [%i, %i] bboffsets [%i, %i] bbsizes [%i, %i, %i] team(0) : memref<?x4xf64> -> memref<?x4xf64>, memref<?x4xf64>
  distruntime.wait %h
  return
}

// -----

func.func @halo_kind(%l: memref<?xf64>, %i: index) {
  // expected-error @+1 {{'left' halo must be a memref like 'local', but got 'tensor<?xf64>'}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%i] team(0) : memref<?xf64> -> tensor<?xf64>, memref<?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @halo_element_type(%l: tensor<?xf64>, %i: index) {
  // expected-error @+1 {{'right' halo element type 'f32' differs from the element type of 'local' 'f64'}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%i] team(0) : tensor<?xf64> -> tensor<?xf64>, tensor<?xf32>
  distruntime.wait %h
  return
}

// -----

func.func @halo_rank(%l: memref<?x4xf64>, %i: index) {
  // expected-error @+1 {{'left' halo has rank 1 but 'local' has rank 2}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i, %i] loffsets [%i, %i] bboffsets [%i, %i] bbsizes [%i, %i] team(0) : memref<?x4xf64> -> memref<?xf64>, memref<?x4xf64>
  distruntime.wait %h
  return
}

// -----

func.func @halo_layout(%l: memref<?x4xf64>, %i: index) {
  // expected-error @+1 {{'left' halo must have the identity layout, got 'memref<?x4xf64, strided<[8, 1]>>'}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i, %i] loffsets [%i, %i] bboffsets [%i, %i] bbsizes [%i, %i] team(0) : memref<?x4xf64> -> memref<?x4xf64, strided<[8, 1]>>, memref<?x4xf64>
  distruntime.wait %h
  return
}

// -----

func.func @halo_inner_size(%l: memref<?x4xf64>, %i: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'right' halo has size 4 in dimension 1, but the bounding box gives 3}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i, %c4] loffsets [%i, %c0] bboffsets [%i, %c0] bbsizes [%i, %c3] team(0) : memref<?x4xf64> -> memref<?x?xf64>, memref<?x4xf64>
  distruntime.wait %h
  return
}

// -----

func.func @halo_rows(%l: memref<3xf64>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  // rows [2, 6) requested, local rows [4, 7): the left halo has 2 rows.
  // expected-error @+1 {{'left' halo has size 1 in dimension 0, but the bounding box gives 2}}
  %h, %a, %b = distruntime.get_halo %l gshape [%c10] loffsets [%c4] bboffsets [%c2] bbsizes [%c4] team(0) : memref<3xf64> -> memref<1xf64>, memref<?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @negative_size(%l: memref<?xf64>, %i: index) {
  %m = arith.constant -1 : index
  // expected-error @+1 {{'bbSizes' is negative (-1) in dimension 0}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%m] team(0) : memref<?xf64> -> memref<?xf64>, memref<?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @bbox_outside(%l: memref<?xf64>, %i: index) {
  %c8 = arith.constant 8 : index
  %c5 = arith.constant 5 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{bounding box [5, 9) exceeds the global size 8 in dimension 0}}
  %h, %a, %b = distruntime.get_halo %l gshape [%c8] loffsets [%i] bboffsets [%c5] bbsizes [%c4] team(0) : memref<?xf64> -> memref<?xf64>, memref<?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @local_outside(%l: memref<5xf64>, %i: index) {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{local block [4, 9) exceeds the global size 8 in dimension 0}}
  %h, %a, %b = distruntime.get_halo %l gshape [%c8] loffsets [%c4] bboffsets [%i] bbsizes [%i] team(0) : memref<5xf64> -> memref<?xf64>, memref<?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @inner_offset(%l: memref<?x4xf64>, %i: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{the array is distributed along dimension 0 only, but 'lOffsets' is 1 in dimension 1}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i, %i] loffsets [%i, %c1] bboffsets [%i, %i] bbsizes [%i, %i] team(0) : memref<?x4xf64> -> memref<?x?xf64>, memref<?x?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @inner_extent(%l: memref<?x4xf64>, %i: index) {
  %c6 = arith.constant 6 : index
  // expected-error @+1 {{the array is distributed along dimension 0 only, but 'local' has size 4 in dimension 1 where the global size is 6}}
  %h, %a, %b = distruntime.get_halo %l gshape [%i, %c6] loffsets [%i, %i] bboffsets [%i, %i] bbsizes [%i, %i] team(0) : memref<?x4xf64> -> memref<?x?xf64>, memref<?x?xf64>
  distruntime.wait %h
  return
}

// -----

// Bounding boxes and blocks whose end passes int64 are outside the array,
// never wrapped back into it.
func.func @bbox_end_past_int64(%l: memref<?xf64>, %i: index) {
  %g = arith.constant 8 : index
  %o = arith.constant 4 : index
  %s = arith.constant 9223372036854775807 : index
  // expected-error @+1 {{bounding box [4, 9223372036854775811) exceeds the global size 8 in dimension 0}}
  %h, %a, %b = distruntime.get_halo %l gshape [%g] loffsets [%i] bboffsets [%o] bbsizes [%s] team(0) : memref<?xf64> -> memref<?xf64>, memref<?xf64>
  distruntime.wait %h
  return
}

// -----

func.func @local_end_past_int64(%l: memref<5xf64>, %i: index) {
  %g = arith.constant 9223372036854775807 : index
  %o = arith.constant 9223372036854775806 : index
  // expected-error @+1 {{local block [9223372036854775806, 9223372036854775811) exceeds the global size 9223372036854775807 in dimension 0}}
  %h, %a, %b = distruntime.get_halo %l gshape [%g] loffsets [%o] bboffsets [%i] bbsizes [%i] team(0) : memref<5xf64> -> memref<?xf64>, memref<?xf64>
  distruntime.wait %h
  return
}
