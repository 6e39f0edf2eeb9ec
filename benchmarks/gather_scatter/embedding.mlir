// Embedding-sized gather and scatter for bench_gather_scatter: a batch of
// tables, each looked up (gather) or updated (scatter-add) at a list of row
// indices; the batch is a batching dimension of operand and indices.
//   table   : B x R x D f32, indices : B x N i32, rows : B x N x D f32

func.func @gather_rows(%table: memref<?x?x?xf32>, %indices: memref<?x?xi32>,
                       %rows: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  distruntime.gather ins(%table, %indices : memref<?x?x?xf32>, memref<?x?xi32>)
      outs(%rows : memref<?x?x?xf32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [2],
      collapsed_slice_dims = [1], operand_batching_dims = [0],
      start_indices_batching_dims = [0], start_index_map = [1],
      index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1, 128>
  }
  return
}

func.func @scatter_add_rows(%table: memref<?x?x?xf32>, %indices: memref<?x?xi32>,
                            %rows: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  distruntime.scatter ins(%table : memref<?x?x?xf32>)
      indices(%indices : memref<?x?xi32>) updates(%rows : memref<?x?x?xf32>)
      outs(%table : memref<?x?x?xf32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [2],
      inserted_window_dims = [1], input_batching_dims = [0],
      scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1],
      index_vector_dim = 2>
  } update_computation {
  ^bb0(%current: f32, %update: f32):
    %sum = arith.addf %current, %update : f32
    distruntime.yield %sum : f32
  }
  return
}
