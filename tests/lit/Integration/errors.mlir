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

// TEAM-DAG: distrt: error: allreduce at {{.*}}bad_team.mlir:5:3: team 7, rank 0: {{.*}}unknown team 7
// TEAM-DAG: distrt: error: allreduce at {{.*}}bad_team.mlir:5:3: team 7, rank 1: {{.*}}unknown team 7
// WAIT: distrt: error: wait at {{.*}}wait_twice.mlir:12:3: {{.*}}rank {{[01]}}: {{.*}}already waited
// BBOX: distrt: error: get_halo at {{.*}}bbox.mlir:9:13: team 0, rank {{[01]}}: {{.*}}bounding box

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
