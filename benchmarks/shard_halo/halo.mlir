// shard.update_halo programs for the upstream-vs-distruntime benchmark
// (bench_shard_halo.cpp). Each function takes the process's local block
// *with its halo frame* (the layout shard-partition produces) and updates
// the halo in place. The build lowers this file twice: with stock
// `mlir-opt --convert-shard-to-mpi` (lower_upstream.sh; functions renamed
// @halo_upstream_*) and with `distruntime-opt --convert-shard-to-distruntime`
// (functions renamed @halo_ours_*).
//
// The timed cases have static shapes: upstream's lowering of a dynamic
// dimension queries `memref.dim %m, -9223372036854775808`
// (ShapedType::kDynamic used as the dimension index) and reads outside the
// descriptor (@halo_dyn_col, checked only; docs/benchmarks.md).
//
// Open MPI needs the DLTI entry for convert-shard-to-mpi's MPI lowering.
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  // Private: convert-shard-to-mpi leaves shard.grid in the module, which
  // mlir-translate cannot read; --symbol-dce drops it once unused.
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  shard.grid @grid2x2(shape = 2x2) {sym_visibility = "private"}

  // Column split (tensor dim 1 over grid axis 0): R rows x (16 + 2) columns,
  // a face of R f64 = 8R bytes.
  func.func @halo_col_8(%m: memref<8x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<8x18xf64>
    return
  }
  func.func @halo_col_32(%m: memref<32x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<32x18xf64>
    return
  }
  func.func @halo_col_128(%m: memref<128x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<128x18xf64>
    return
  }
  func.func @halo_col_512(%m: memref<512x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<512x18xf64>
    return
  }
  func.func @halo_col_2048(%m: memref<2048x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<2048x18xf64>
    return
  }
  func.func @halo_col_8192(%m: memref<8192x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<8192x18xf64>
    return
  }
  func.func @halo_col_32768(%m: memref<32768x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<32768x18xf64>
    return
  }
  func.func @halo_col_131072(%m: memref<131072x18xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<131072x18xf64>
    return
  }

  // The column split with dynamic sizes (8 x 18 at run time). Correctness
  // only.
  func.func @halo_dyn_col(%m: memref<?x?xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[], [0]] halo_sizes = [1, 1] : memref<?x?xf64>
    return
  }

  // Row split (tensor dim 0 over grid axis 0): (8 + 2) x 64, a face of
  // 64 f64 = 512 bytes. Correctness only.
  func.func @halo_row_64(%m: memref<10x64xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid split_axes = [[0]] halo_sizes = [1, 1] : memref<10x64xf64>
    return
  }

  // 2x2 grid, rows over axis 0, columns over axis 1: (8 + 2) x (8 + 2),
  // corners included. Correctness only (np = 4).
  func.func @halo_2x2_8(%m: memref<10x10xf64>) attributes {llvm.emit_c_interface} {
    shard.update_halo %m on @grid2x2 split_axes = [[0], [1]] halo_sizes = [1, 1, 1, 1] : memref<10x10xf64>
    return
  }
}
