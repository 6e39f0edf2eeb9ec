// collective_broadcast's dynamic roots misused. A root out of range of its
// process group is an error on the rank that passes it, naming the op, the
// root, the input and the group, and never a hang: alone on one rank of a
// group, that rank ends the job while the others wait in the broadcast.
// Members of a group that pass different roots are named in checked mode
// (unchecked, MPI_Bcast with different roots is undefined); groups may pass
// different roots. Each run must fail within its time limit.
// RUN: split-file %s %t
// RUN: %compile %t/range_one.mlir -o %t/range_one
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 3 %t/range_one 2>&1 | FileCheck %s --check-prefix=RANGEONE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/range_all.mlir -o %t/range_all
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/range_all 2>&1 | FileCheck %s --check-prefix=RANGEALL --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/range_all 2>&1 | FileCheck %s --check-prefix=RANGEALL --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/range_one 2>&1 | FileCheck %s --check-prefix=RANGECHECKED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/differ.mlir -o %t/differ
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/differ 2>&1 | FileCheck %s --check-prefix=DIFFER --implicit-check-not=ORTE_ERROR_LOG --implicit-check-not='roots [1, 1]'

// Ranks 0 and 1 pass root 0, rank 2 passes 3 (the team size): rank 2 fails,
// the others are in MPI_Bcast until the job ends.
// RANGEONE: distrt: error: collective_broadcast at {{.*}}range_one.mlir:12:3: team 0, rank 2: root index 3 of input #0 is out of range [0, 3): its process group (team ranks 2, 0, 1) has 3 members
// Every rank passes -1, computed at run time: each fails before any MPI call.
// RANGEALL-DAG: distrt: error: collective_broadcast at {{.*}}range_all.mlir:9:10: team 0, rank 0: root index -1 of input #1 is out of range [0, 2): its process group (team ranks 1, 0) has 2 members
// RANGEALL-DAG: distrt: error: collective_broadcast at {{.*}}range_all.mlir:9:10: team 0, rank 1: root index -1 of input #1 is out of range [0, 2): its process group (team ranks 1, 0) has 2 members
// Checked mode first names the members that disagree: rank 2 against the
// lowest rank of its group with other roots, the others against rank 2.
// RANGECHECKED-DAG: distrt: error: collective_broadcast at {{.*}}range_one.mlir:12:3: team 0, rank 0: roots [0] here, [3] on rank 2 of this process group
// RANGECHECKED-DAG: distrt: error: collective_broadcast at {{.*}}range_one.mlir:12:3: team 0, rank 1: roots [0] here, [3] on rank 2 of this process group
// RANGECHECKED-DAG: distrt: error: collective_broadcast at {{.*}}range_one.mlir:12:3: team 0, rank 2: roots [3] here, [0] on rank 0 of this process group
// Groups {0, 1} and {2, 3}: {0, 1} agree on [1, 1] (a root of its own), rank
// 2 passes [0, 0], rank 3 [0, 1]. Only ranks 2 and 3 fail; 0 and 1 broadcast.
// DIFFER-DAG: distrt: error: collective_broadcast at {{.*}}differ.mlir:20:3: team 0, rank 2: roots [0, 0] here, [0, 1] on rank 3 of this process group
// DIFFER-DAG: distrt: error: collective_broadcast at {{.*}}differ.mlir:20:3: team 0, rank 3: roots [0, 1] here, [0, 0] on rank 2 of this process group

//--- range_one.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %size = distruntime.team_size team(0)
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %last = arith.cmpi eq, %me, %c2 : index
  %root = arith.select %last, %size, %c0 : index
  %r = arith.index_cast %root : index to i32
  %roots = memref.alloc() : memref<1xi32>
  memref.store %r, %roots[%c0] : memref<1xi32>
  %x = memref.alloc() : memref<4xf32>
  distruntime.collective_broadcast ins(%x : memref<4xf32>) roots(%roots : memref<1xi32>) outs(%x : memref<4xf32>) {replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>}
  %ok = arith.constant 0 : i32
  return %ok : i32
}

//--- range_all.mlir
func.func @main() -> i32 {
  %size = distruntime.team_size team(0)
  %c3 = arith.constant 3 : index
  %bad = arith.subi %size, %c3 : index
  %r = arith.index_cast %bad : index to i32
  %zero = arith.constant 0 : i32
  %roots = tensor.from_elements %zero, %r : tensor<2xi32>
  %x = arith.constant dense<1.0> : tensor<4xf32>
  %b:2 = distruntime.collective_broadcast ins(%x, %x : tensor<4xf32>, tensor<4xf32>) roots(%roots : tensor<2xi32>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<4xf32>, tensor<4xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

//--- differ.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %low = arith.cmpi ult, %me, %c2 : index
  %is3 = arith.cmpi eq, %me, %c3 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  // [1, 1] on ranks 0 and 1, [0, 0] on rank 2, [0, 1] on rank 3.
  %first = arith.select %low, %i1, %i0 : i32
  %tail = arith.select %is3, %i1, %i0 : i32
  %second = arith.select %low, %i1, %tail : i32
  %roots = memref.alloc() : memref<2xi32>
  memref.store %first, %roots[%c0] : memref<2xi32>
  memref.store %second, %roots[%c1] : memref<2xi32>
  %x = memref.alloc() : memref<4xf32>
  %y = memref.alloc() : memref<2xi64>
  distruntime.collective_broadcast ins(%x, %y : memref<4xf32>, memref<2xi64>) roots(%roots : memref<2xi32>) outs(%x, %y : memref<4xf32>, memref<2xi64>) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  %ok = arith.constant 0 : i32
  return %ok : i32
}
