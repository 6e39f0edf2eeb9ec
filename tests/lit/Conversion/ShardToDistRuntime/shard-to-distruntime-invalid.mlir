// What convert-shard-to-distruntime cannot lower: one error naming the op
// and the reason, and the pass fails (a non-zero exit, unlike upstream's
// convert-shard-to-mpi, which exits 0 after "failed to legalize").
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics --convert-shard-to-distruntime
// RUN: not %distruntime-opt %s -split-input-file --convert-shard-to-distruntime > /dev/null 2>&1

shard.grid @g(shape = 4)
func.func @unpartitioned(%t: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op is a sharding annotation: partition the function first}}
  %0 = shard.shard %t to %s : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @dyn(shape = 2x?)
func.func @dynamic_grid_collective(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_reduce' op needs a static grid, but @dyn has shape 2x?: its process groups are computed at compile time}}
  %0 = shard.all_reduce %t on @dyn grid_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @dyn2(shape = ?x?)
func.func @two_dynamic_axes() -> index {
  // expected-error @+1 {{'shard.process_multi_index' op uses @dyn2 of shape ?x?: at most one grid axis may be dynamic}}
  %0:2 = shard.process_multi_index on @dyn2 : index, index
  return %0#0 : index
}

// -----

shard.grid @g(shape = 4)
func.func @generic_reduction(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_reduce' op has reduction `generic`, which names no element-wise operation}}
  %0 = shard.all_reduce %t on @g reduction = generic : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @g(shape = 4)
func.func @bitwise_float(%t: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'shard.reduce_scatter' op has a bitwise reduction on 'f32' elements; bitwise reductions need integers}}
  %0 = shard.reduce_scatter %t on @g grid_axes = [0] reduction = bitwise_or scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

shard.grid @g(shape = 4)
func.func @unsupported_element(%t: tensor<8xi3>) -> tensor<8xi3> {
  // expected-error @+1 {{'shard.all_reduce' op has 'i3' elements, which distruntime does not move}}
  %0 = shard.all_reduce %t on @g : tensor<8xi3> -> tensor<8xi3>
  return %0 : tensor<8xi3>
}

// -----

shard.grid @g(shape = 4)
func.func @dynamic_root(%t: tensor<8xf32>, %root: index) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.broadcast' op has a dynamic root; distruntime compiles the process groups with it, so it must be a constant}}
  %0 = shard.broadcast %t on @g grid_axes = [0] root = [%root] : (tensor<8xf32>, index) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @g(shape = 3)
func.func @send_group_of_three(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.send' op groups 3 processes, but a shard.send/recv pair describes one message per group}}
  %0 = shard.send %t on @g grid_axes = [0] destination = [1] : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @recv_without_source(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.recv' op has no source: distruntime needs to know whom to receive from at compile time}}
  %0 = shard.recv %t on @g grid_axes = [0] : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @dynamic_destination(%t: tensor<8xf32>, %d: index) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.send' op has a dynamic destination}}
  %0 = shard.send %t on @g grid_axes = [0] destination = [%d] : (tensor<8xf32>, index) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @g(shape = 4)
func.func @dynamic_slice(%t: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'shard.all_slice' op needs a static result size along the slice axis 0}}
  %0 = shard.all_slice %t on @g grid_axes = [0] slice_axis = 0 : tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

shard.grid @g(shape = 4)
func.func @halo_count(%m: memref<10x8xf32>) {
  // expected-error @+1 {{'shard.update_halo' op has 4 halo sizes for 1 split dimensions; it needs a (low, high) pair for each}}
  %0 = shard.update_halo %m on @g split_axes = [[0]] halo_sizes = [1, 1, 1, 1] : memref<10x8xf32>
  return
}

// -----

shard.grid @g(shape = 4)
func.func @strided_result(%m: memref<8xf32>) -> memref<8xf32, strided<[2]>> {
  // expected-error @+1 {{'shard.all_reduce' op needs an identity-layout result memref}}
  %0 = shard.all_reduce %m on @g grid_axes = [0] : memref<8xf32> -> memref<8xf32, strided<[2]>>
  return %0 : memref<8xf32, strided<[2]>>
}

// -----

shard.grid @g(shape = 4)
func.func private @use(!shard.sharding)
func.func @sharding_escapes() {
  // expected-error @+1 {{'shard.sharding' op is used by func.call, which distruntime cannot lower}}
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  func.call @use(%s) : (!shard.sharding) -> ()
  return
}

// -----

shard.grid @g(shape = 2x2)
func.func @short_device(%d0: index) -> (index, index) {
  %s = shard.sharding @g split_axes = [[1]] : !shard.sharding
  // expected-error @+1 {{'shard.shard_shape' op has a device index of 1 coordinates on a grid of 2 axes}}
  %0:2 = shard.shard_shape dims = [10, 4] sharding = %s device = [%d0] : index, index
  return %0#0, %0#1 : index, index
}

// -----

shard.grid @g(shape = 2x3)
func.func @no_split_axes(%a: index, %b: index) -> (index, index) {
  // expected-error @+1 {{'shard.neighbors_linear_indices' op has no split_axes to step along}}
  %n:2 = shard.neighbors_linear_indices on @g[%a, %b] split_axes = [] : index, index
  return %n#0, %n#1 : index, index
}

// -----

shard.grid @g(shape = 2)
func.func @average_i1(%t: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'shard.all_reduce' op averages 'i1' elements; average needs floats or signless integers wider than i1}}
  %0 = shard.all_reduce %t on @g grid_axes = [0] reduction = average : tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

shard.grid @g(shape = 128)
func.func @average_count_overflows(%t: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'shard.all_reduce' op averages 'i8' elements over 128 processes, a count the type cannot hold}}
  %0 = shard.all_reduce %t on @g grid_axes = [0] reduction = average : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

shard.grid @g(shape = 2)
func.func @convert_unsigned(%t: tensor<4xui8>) -> tensor<4xui32> {
  // expected-error @+1 {{'shard.all_reduce' op converts 'ui8' to 'ui32' elements; only signless integers and floats convert}}
  %0 = shard.all_reduce %t on @g grid_axes = [0] : tensor<4xui8> -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

shard.grid @g(shape = 2)
func.func @complex_elements(%t: tensor<4xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'shard.all_gather' op has 'complex<f32>' elements, which distruntime does not move}}
  %0 = shard.all_gather %t on @g grid_axes = [0] gather_axis = 0 : tensor<4xcomplex<f32>> -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

shard.grid @g(shape = 2)
func.func @tensor_to_memref(%t: tensor<4xf32>) -> memref<4xf32> {
  // expected-error @+1 {{'shard.all_reduce' op takes 'tensor<4xf32>' and returns 'memref<4xf32>'; distruntime lowers tensor to tensor or memref to memref}}
  %0 = shard.all_reduce %t on @g grid_axes = [0] : tensor<4xf32> -> memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @dynamic_gather(%t: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'shard.all_gather' op needs static shapes, but has 'tensor<?x3xf32>' (distruntime's tensor collectives need them)}}
  %0 = shard.all_gather %t on @g grid_axes = [0] gather_axis = 0 : tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

shard.grid @g(shape = 0x2)
func.func @empty_grid(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'shard.all_reduce' op uses @g of shape 0x2, which has no processes}}
  %0 = shard.all_reduce %t on @g grid_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2x2)
func.func @halo_axes_past_rank(%m: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'shard.update_halo' op has split_axes for 2 dimensions on a rank-1 block}}
  %0 = shard.update_halo %m on @g split_axes = [[], [0]] halo_sizes = [1, 1] : tensor<10xf32>
  return %0 : tensor<10xf32>
}
