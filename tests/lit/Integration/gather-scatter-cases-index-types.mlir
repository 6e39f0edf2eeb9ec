// Index types at their limits, compiled and run, against the independent
// Python reference of seed 004 (Inputs/gather_scatter_ref.py); direct loop
// lowering and decompose-batching-dims=1 must both match it.
//  ui64 start indices >= 2^63 are huge positive values: gather clamps them
//    to dim - slice_size; scatter skips every element of their windows
//    (start + window offset must not wrap around into bounds in 64-bit
//    index arithmetic).
//  i8 indices with a batching dim of 130 positions (gather) and ui8 indices
//    with 260 (scatter-max): the decomposition's iotas must not wrap in the
//    indices' element type.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/gather_scatter_ref.py index_type_edges %t/index_type_edges.mlir %t/index_type_edges.expected
// RUN: %compile %t/index_type_edges.mlir -o %t/index_type_edges.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/index_type_edges.mlir -o %t/index_type_edges.decomposed
// RUN: %mpirun 1 %t/index_type_edges.direct > %t/index_type_edges.direct.out
// RUN: diff %t/index_type_edges.expected %t/index_type_edges.direct.out
// RUN: %mpirun 1 %t/index_type_edges.decomposed > %t/index_type_edges.decomposed.out
// RUN: diff %t/index_type_edges.expected %t/index_type_edges.decomposed.out
