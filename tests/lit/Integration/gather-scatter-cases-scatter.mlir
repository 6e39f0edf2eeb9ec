// scatter with batching dimensions, compiled and run, against the independent
// Python reference of seed 004 (Inputs/gather_scatter_ref.py). Each case
// also prints its tensor inputs, which must be unchanged. Direct loop
// lowering and decompose-batching-dims=1 must both print the reference's
// output exactly.
//  scatter_add_out_of_bounds: windows partially and fully out of bounds
//    (negative and too-large starts) are skipped element by element; i32
//    with the indices' batching dim after index_vector_dim (i64 indices),
//    f64 with an inserted window dim and a trailing batching dim (i32).
//  scatter_max_mul: arith.maximumf (f32) with input_batching_dims [0, 2]
//    paired with scatter_indices_batching_dims [2, 0] and an implicit index
//    vector; arith.muli (i64) with ui16 indices >= 2^15 (skipped).
//  scatter_variadic: i32 and f32 inputs, one update_computation with two
//    results (arith.maxsi, arith.addf), ui32 indices >= 2^31 (skipped).
//  scatter_replace_unique: yield the update, unique_indices = true (f64
//    with batching dims, i32 without), windows at -2 and past the end.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/gather_scatter_ref.py scatter_add_out_of_bounds %t/scatter_add_out_of_bounds.mlir %t/scatter_add_out_of_bounds.expected
// RUN: %compile %t/scatter_add_out_of_bounds.mlir -o %t/scatter_add_out_of_bounds.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/scatter_add_out_of_bounds.mlir -o %t/scatter_add_out_of_bounds.decomposed
// RUN: %mpirun 1 %t/scatter_add_out_of_bounds.direct > %t/scatter_add_out_of_bounds.direct.out
// RUN: diff %t/scatter_add_out_of_bounds.expected %t/scatter_add_out_of_bounds.direct.out
// RUN: %mpirun 1 %t/scatter_add_out_of_bounds.decomposed > %t/scatter_add_out_of_bounds.decomposed.out
// RUN: diff %t/scatter_add_out_of_bounds.expected %t/scatter_add_out_of_bounds.decomposed.out
// RUN: python3 %S/Inputs/gather_scatter_ref.py scatter_max_mul %t/scatter_max_mul.mlir %t/scatter_max_mul.expected
// RUN: %compile %t/scatter_max_mul.mlir -o %t/scatter_max_mul.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/scatter_max_mul.mlir -o %t/scatter_max_mul.decomposed
// RUN: %mpirun 1 %t/scatter_max_mul.direct > %t/scatter_max_mul.direct.out
// RUN: diff %t/scatter_max_mul.expected %t/scatter_max_mul.direct.out
// RUN: %mpirun 1 %t/scatter_max_mul.decomposed > %t/scatter_max_mul.decomposed.out
// RUN: diff %t/scatter_max_mul.expected %t/scatter_max_mul.decomposed.out
// RUN: python3 %S/Inputs/gather_scatter_ref.py scatter_variadic %t/scatter_variadic.mlir %t/scatter_variadic.expected
// RUN: %compile %t/scatter_variadic.mlir -o %t/scatter_variadic.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/scatter_variadic.mlir -o %t/scatter_variadic.decomposed
// RUN: %mpirun 1 %t/scatter_variadic.direct > %t/scatter_variadic.direct.out
// RUN: diff %t/scatter_variadic.expected %t/scatter_variadic.direct.out
// RUN: %mpirun 1 %t/scatter_variadic.decomposed > %t/scatter_variadic.decomposed.out
// RUN: diff %t/scatter_variadic.expected %t/scatter_variadic.decomposed.out
// RUN: python3 %S/Inputs/gather_scatter_ref.py scatter_replace_unique %t/scatter_replace_unique.mlir %t/scatter_replace_unique.expected
// RUN: %compile %t/scatter_replace_unique.mlir -o %t/scatter_replace_unique.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/scatter_replace_unique.mlir -o %t/scatter_replace_unique.decomposed
// RUN: %mpirun 1 %t/scatter_replace_unique.direct > %t/scatter_replace_unique.direct.out
// RUN: diff %t/scatter_replace_unique.expected %t/scatter_replace_unique.direct.out
// RUN: %mpirun 1 %t/scatter_replace_unique.decomposed > %t/scatter_replace_unique.decomposed.out
// RUN: diff %t/scatter_replace_unique.expected %t/scatter_replace_unique.decomposed.out
