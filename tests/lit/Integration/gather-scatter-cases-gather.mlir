// gather with batching dimensions, compiled and run, against the independent
// Python reference of seed 004 (Inputs/gather_scatter_ref.py, which writes
// each case's program with its inputs as constants and the expected output).
// Every case runs through the direct loop lowering and through
// decompose-batching-dims=1; both must print exactly the reference's output.
//  gather_batching_positions: start-indices batching dim after
//    index_vector_dim (paired with the operand's leading dim, i64 indices,
//    i32) and before it (the operand's trailing dim, i32 indices, f32);
//    negative and too-large starts clamp; slice sizes 2 and 3.
//  gather_swapped_batching: operand_batching_dims [0, 2] with
//    start_indices_batching_dims [2, 0] (f64, i64 indices); [1, 2] with
//    [1, 0], an explicit size-1 index vector and ui16 indices >= 2^15
//    (clamped to the upper bound, i64).
//  gather_implicit_index_vector: index_vector_dim == rank(start_indices)
//    with ui32 indices >= 2^31 (clamped to the upper bound) and with i32.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/gather_scatter_ref.py --selftest | FileCheck %s
// CHECK: selftest: ok
// RUN: python3 %S/Inputs/gather_scatter_ref.py gather_batching_positions %t/gather_batching_positions.mlir %t/gather_batching_positions.expected
// RUN: %compile %t/gather_batching_positions.mlir -o %t/gather_batching_positions.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/gather_batching_positions.mlir -o %t/gather_batching_positions.decomposed
// RUN: %mpirun 1 %t/gather_batching_positions.direct > %t/gather_batching_positions.direct.out
// RUN: diff %t/gather_batching_positions.expected %t/gather_batching_positions.direct.out
// RUN: %mpirun 1 %t/gather_batching_positions.decomposed > %t/gather_batching_positions.decomposed.out
// RUN: diff %t/gather_batching_positions.expected %t/gather_batching_positions.decomposed.out
// RUN: python3 %S/Inputs/gather_scatter_ref.py gather_swapped_batching %t/gather_swapped_batching.mlir %t/gather_swapped_batching.expected
// RUN: %compile %t/gather_swapped_batching.mlir -o %t/gather_swapped_batching.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/gather_swapped_batching.mlir -o %t/gather_swapped_batching.decomposed
// RUN: %mpirun 1 %t/gather_swapped_batching.direct > %t/gather_swapped_batching.direct.out
// RUN: diff %t/gather_swapped_batching.expected %t/gather_swapped_batching.direct.out
// RUN: %mpirun 1 %t/gather_swapped_batching.decomposed > %t/gather_swapped_batching.decomposed.out
// RUN: diff %t/gather_swapped_batching.expected %t/gather_swapped_batching.decomposed.out
// RUN: python3 %S/Inputs/gather_scatter_ref.py gather_implicit_index_vector %t/gather_implicit_index_vector.mlir %t/gather_implicit_index_vector.expected
// RUN: %compile %t/gather_implicit_index_vector.mlir -o %t/gather_implicit_index_vector.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/gather_implicit_index_vector.mlir -o %t/gather_implicit_index_vector.decomposed
// RUN: %mpirun 1 %t/gather_implicit_index_vector.direct > %t/gather_implicit_index_vector.direct.out
// RUN: diff %t/gather_implicit_index_vector.expected %t/gather_implicit_index_vector.direct.out
// RUN: %mpirun 1 %t/gather_implicit_index_vector.decomposed > %t/gather_implicit_index_vector.decomposed.out
// RUN: diff %t/gather_implicit_index_vector.expected %t/gather_implicit_index_vector.decomposed.out
