// One case per update_halo verifier diagnostic.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics

func.func @grid_size_zero(%b: memref<8xf32>) {
  // expected-error @+1 {{grid size 0 of axis 1 must be positive}}
  distruntime.update_halo %b grid [2, 0] split_axes [[0]] halo_sizes [1, 1] : memref<8xf32>
  return
}

// -----

func.func @grid_axis_out_of_range(%b: memref<8x8xf32>) {
  // expected-error @+1 {{grid axis 2 in 'split_axes' of dimension 1 is out of range [0, 2)}}
  distruntime.update_halo %b grid [2, 2] split_axes [[0], [2]] halo_sizes [1, 1, 1, 1] : memref<8x8xf32>
  return
}

// -----

func.func @grid_axis_negative(%b: memref<8x8xf32>) {
  // expected-error @+1 {{grid axis -1 in 'split_axes' of dimension 0 is out of range [0, 2)}}
  distruntime.update_halo %b grid [2, 2] split_axes [[-1]] halo_sizes [1, 1, 1, 1] : memref<8x8xf32>
  return
}

// -----

func.func @grid_axis_twice(%b: memref<8x8xf32>) {
  // expected-error @+1 {{grid axis 0 splits both dimension 0 and dimension 1}}
  distruntime.update_halo %b grid [2, 2] split_axes [[0], [1, 0]] halo_sizes [1, 1, 1, 1] : memref<8x8xf32>
  return
}

// -----

func.func @grid_axis_twice_in_one_list(%b: memref<8x8xf32>) {
  // expected-error @+1 {{grid axis 1 splits both dimension 0 and dimension 0}}
  distruntime.update_halo %b grid [2, 2] split_axes [[1, 1]] halo_sizes [1, 1, 1, 1] : memref<8x8xf32>
  return
}

// -----

func.func @too_many_split_lists(%b: memref<8xf32>) {
  // expected-error @+1 {{has 2 'split_axes' lists but 'block' has rank 1}}
  distruntime.update_halo %b grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1] : memref<8xf32>
  return
}

// -----

func.func @halo_count(%b: memref<8x8xf32>) {
  // expected-error @+1 {{expects 4 'halo_sizes' (a low and a high size for each of the 2 dimensions of 'block'), got 2}}
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1] : memref<8x8xf32>
  return
}

// -----

func.func @halo_count_1d(%b: memref<8xf32>) {
  // expected-error @+1 {{expects 2 'halo_sizes' (a low and a high size for the 1 dimension of 'block'), got 3}}
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1, 1] : memref<8xf32>
  return
}

// -----

func.func @halo_dynamic_count(%b: memref<8xf32>, %w: index) {
  // expected-error @+1 {{expected 2 dynamic halo_sizes values}}
  "distruntime.update_halo"(%b, %w) <{grid = array<i64: 2>, split_axes = [array<i64: 0>], static_halo_sizes = array<i64: -9223372036854775808, -9223372036854775808>, team = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 1>, resultSegmentSizes = array<i32: 0, 0>}> : (memref<8xf32>, index) -> ()
  return
}

// -----

func.func @halo_negative(%b: memref<8x8xf32>) {
  // expected-error @+1 {{halo size hi -1 of dimension 1 is negative}}
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1, 0, -1] : memref<8x8xf32>
  return
}

// -----

func.func @halo_exceeds_block(%b: memref<8x3xf32>) {
  // expected-error @+1 {{halo sizes lo 2 and hi 2 of dimension 1 exceed the block size 3}}
  distruntime.update_halo %b grid [2] split_axes [[], [0]] halo_sizes [0, 0, 2, 2] : memref<8x3xf32>
  return
}

// -----

// Sizes past int64 are compared without their sum.
func.func @halo_exceeds_block_huge(%b: memref<8xf32>) {
  // expected-error @+1 {{halo sizes lo 9223372036854775806 and hi 9223372036854775806 of dimension 0 exceed the block size 8}}
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [9223372036854775806, 9223372036854775806] : memref<8xf32>
  return
}

// -----

func.func @element_type(%b: memref<8xcomplex<f32>>) {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref}}
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1] : memref<8xcomplex<f32>>
  return
}

// -----

func.func @rank_zero(%b: memref<f32>) {
  // expected-error @+1 {{'block' must have rank >= 1}}
  distruntime.update_halo %b grid [2] split_axes [] halo_sizes [] : memref<f32>
  return
}

// -----

func.func @halo_size_type(%b: memref<8xf32>, %w: i32) {
  // expected-error @+1 {{operand #1 must be variadic of index or 64-bit signless integer}}
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [%w : i32, 1] : memref<8xf32>
  return
}

// -----

func.func @tensor_without_result(%t: tensor<8xf32>) {
  // expected-error @+1 {{on a tensor must return the updated tensor}}
  "distruntime.update_halo"(%t) <{grid = array<i64: 2>, split_axes = [array<i64: 0>], static_halo_sizes = array<i64: 1, 1>, team = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, resultSegmentSizes = array<i32: 0, 0>}> : (tensor<8xf32>) -> ()
  return
}

// -----

func.func @memref_with_result(%b: memref<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{on a memref updates it in place and returns no tensor}}
  %r = "distruntime.update_halo"(%b) <{grid = array<i64: 2>, split_axes = [array<i64: 0>], static_halo_sizes = array<i64: 1, 1>, team = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (memref<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @result_type(%t: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result type 'tensor<4xf32>' differs from the block type 'tensor<8xf32>'}}
  %r = "distruntime.update_halo"(%t) <{grid = array<i64: 2>, split_axes = [array<i64: 0>], static_halo_sizes = array<i64: 1, 1>, team = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<8xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @negative_key(%b: memref<8xf32>) {
  // expected-error @+1 {{attribute 'key' failed to satisfy constraint: static id of an operation instance, used for caching}}
  "distruntime.update_halo"(%b) <{grid = array<i64: 2>, split_axes = [array<i64: 0>], static_halo_sizes = array<i64: 1, 1>, team = 0 : i64, key = -1 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, resultSegmentSizes = array<i32: 0, 0>}> : (memref<8xf32>) -> ()
  return
}

// -----

func.func @grid_values_count(%b: memref<8x8xf32>, %p: index) {
  // expected-error @+1 {{expected 2 dynamic grid values}}
  "distruntime.update_halo"(%b, %p) <{grid = array<i64: -9223372036854775808, -9223372036854775808>, split_axes = [array<i64: 0>, array<i64: 1>], static_halo_sizes = array<i64: 1, 1, 1, 1>, team = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 0>, resultSegmentSizes = array<i32: 0, 0>}> : (memref<8x8xf32>, index) -> ()
  return
}

// -----

func.func @grid_value_type(%b: memref<8xf32>, %p: f32) {
  // expected-error @+1 {{'distruntime.update_halo' op operand #1 must be variadic of index or 64-bit signless integer}}
  "distruntime.update_halo"(%b, %p) <{grid = array<i64: -9223372036854775808>, split_axes = [array<i64: 0>], static_halo_sizes = array<i64: 1, 1>, team = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 0>, resultSegmentSizes = array<i32: 0, 0>}> : (memref<8xf32>, f32) -> ()
  return
}

// -----

func.func @grid_empty(%b: memref<8xf32>) {
  // expected-error @+1 {{needs a grid of at least one axis}}
  distruntime.update_halo %b grid [] split_axes [] halo_sizes [1, 1] : memref<8xf32>
  return
}

// -----

func.func @dims_create_no_result() {
  // expected-error @+1 {{'distruntime.dims_create' op needs at least one result: one per grid axis}}
  "distruntime.dims_create"() <{team = 0 : i64}> : () -> ()
  return
}
