// Run-time errors stop the job with one line per failing rank naming the op,
// its .mlir location, the team, the rank and the reason; never a crash or a
// hang (every run has a timeout).
// RUN: split-file %s %t
// RUN: %compile %t/bad_team.mlir -o %t/bad_team
// RUN: not %mpirun 2 %t/bad_team 2>&1 | FileCheck %s --check-prefix=TEAM
// RUN: %compile %t/wait_twice.mlir -o %t/wait_twice
// RUN: not %mpirun 2 %t/wait_twice 2>&1 | FileCheck %s --check-prefix=WAIT
// RUN: %compile %t/bbox.mlir -o %t/bbox
// RUN: not %mpirun 2 %t/bbox 2>&1 | FileCheck %s --check-prefix=BBOX
// RUN: %compile %t/gather_sizes.mlir -o %t/gather_sizes
// RUN: not %mpirun 1 %t/gather_sizes 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: %compile %t/scatter_sizes.mlir -o %t/scatter_sizes
// RUN: not %mpirun 1 %t/scatter_sizes 2>&1 | FileCheck %s --check-prefix=SCATTER

// TEAM-DAG: distrt: error: allreduce at {{.*}}bad_team.mlir:5:3: team 7, rank 0: {{.*}}unknown team 7
// TEAM-DAG: distrt: error: allreduce at {{.*}}bad_team.mlir:5:3: team 7, rank 1: {{.*}}unknown team 7
// WAIT: distrt: error: wait at {{.*}}wait_twice.mlir:12:3: {{.*}}rank {{[01]}}: {{.*}}already waited
// BBOX: distrt: error: get_halo at {{.*}}bbox.mlir:9:13: team 0, rank {{[01]}}: {{.*}}bounding box
// Dynamic sizes the verifier could not see are checked before any access.
// GATHER: distrt: error: gather at {{.*}}gather_sizes.mlir:7:3: rank 0: result dimension 0 against indices dimension 0: 5 vs 3
// SCATTER: distrt: error: scatter at {{.*}}scatter_sizes.mlir:8:3: rank 0: update dimension 0 against indices dimension 0: 4 vs 3

//--- bad_team.mlir
func.func @main() -> i32 {
  %buf = memref.alloc() : memref<4xf64>
  // Team 7 was never registered.
  %c0 = arith.constant 0 : i32
  distruntime.allreduce <sum> %buf team(7) : memref<4xf64>
  return %c0 : i32
}

//--- wait_twice.mlir
func.func @main() -> i32 {
  %buf = memref.alloc() : memref<4xf64>
  %true = arith.constant true
  %h = distruntime.allreduce <sum> %buf team(0) : memref<4xf64> -> !distruntime.async_handle
  // The same handle under another name: invisible to the verifier.
  %g = scf.if %true -> !distruntime.async_handle {
    scf.yield %h : !distruntime.async_handle
  } else {
    scf.yield %h : !distruntime.async_handle
  }
  distruntime.wait %h
  distruntime.wait %g
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

//--- bbox.mlir
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %n = distruntime.team_size team(0)
  %me = distruntime.team_member team(0)
  %local = memref.alloc() : memref<1xf32>
  // Global size = team size, rows [0, n + 1) requested: one row too many.
  %n1 = arith.addi %n, %n : index
  %h, %l, %r =
            distruntime.get_halo %local gshape [%n] loffsets [%me] bboffsets [%c0] bbsizes [%n1] team(0)
      : memref<1xf32> -> memref<?xf32>, memref<?xf32>
  distruntime.wait %h
  %z = arith.constant 0 : i32
  return %z : i32
}

//--- gather_sizes.mlir
func.func @main() -> i32 {
  %operand = memref.alloc() : memref<8x4xf32>
  %indices = memref.alloc() : memref<3xi32>
  %rows = memref.alloc() : memref<5x4xf32>
  // Five result rows for three indices, hidden from the verifier.
  %out = memref.cast %rows : memref<5x4xf32> to memref<?x4xf32>
  distruntime.gather ins(%operand, %indices : memref<8x4xf32>, memref<3xi32>) outs(%out : memref<?x4xf32>) {dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

//--- scatter_sizes.mlir
func.func @main() -> i32 {
  %input = memref.alloc() : memref<8xf32>
  %i = memref.alloc() : memref<3x1xi32>
  %u = memref.alloc() : memref<4xf32>
  %indices = memref.cast %i : memref<3x1xi32> to memref<?x1xi32>
  // Four updates for three indices, hidden from the verifier.
  %updates = memref.cast %u : memref<4xf32> to memref<?xf32>
  distruntime.scatter ins(%input : memref<8xf32>) indices(%indices : memref<?x1xi32>) updates(%updates : memref<?xf32>) outs(%input : memref<8xf32>) {scatter_dimension_numbers = #distruntime.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} update_computation {
  ^bb0(%a: f32, %b: f32):
    distruntime.yield %b : f32
  }
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}
