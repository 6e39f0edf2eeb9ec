// The memref form of gather and scatter, compiled and run, against the
// independent Python reference of seed 004 (Inputs/gather_scatter_ref.py):
// operands in memref.alloc'ed copies of memref.get_global buffers; gather
// into an outs buffer (i64, i32 indices); scatter-add (i32, i64 indices)
// into a separate outs buffer, whose input must stay unchanged; a variadic
// scatter (i64 arith.muli, f64 arith.maximumf, ui32 indices) whose outs are
// its input buffers (in place). decompose-batching-dims=1 leaves memref
// forms as they are, so both builds must agree with the reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/gather_scatter_ref.py memref_forms %t/memref_forms.mlir %t/memref_forms.expected
// RUN: %compile %t/memref_forms.mlir -o %t/memref_forms.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/memref_forms.mlir -o %t/memref_forms.decomposed
// RUN: %mpirun 1 %t/memref_forms.direct > %t/memref_forms.direct.out
// RUN: diff %t/memref_forms.expected %t/memref_forms.direct.out
// RUN: %mpirun 1 %t/memref_forms.decomposed > %t/memref_forms.decomposed.out
// RUN: diff %t/memref_forms.expected %t/memref_forms.decomposed.out

// gather and scatter act on each process's local data (SPMD): on 2 ranks,
// rank 0 and rank 1 hold different constants (arith.select on
// team_member), and each prints the results the reference computes for its
// own data, no communication involved.
// RUN: python3 %S/Inputs/gather_scatter_ref.py spmd_two_ranks %t/spmd_two_ranks.mlir %t/spmd_two_ranks.expected
// RUN: %compile %t/spmd_two_ranks.mlir -o %t/spmd_two_ranks.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %t/spmd_two_ranks.mlir -o %t/spmd_two_ranks.decomposed
// RUN: sort %t/spmd_two_ranks.expected > %t/spmd_two_ranks.expected.sorted
// RUN: %mpirun 2 %t/spmd_two_ranks.direct | sort > %t/spmd_two_ranks.direct.out
// RUN: diff %t/spmd_two_ranks.expected.sorted %t/spmd_two_ranks.direct.out
// RUN: %mpirun 2 %t/spmd_two_ranks.decomposed | sort > %t/spmd_two_ranks.decomposed.out
// RUN: diff %t/spmd_two_ranks.expected.sorted %t/spmd_two_ranks.decomposed.out
