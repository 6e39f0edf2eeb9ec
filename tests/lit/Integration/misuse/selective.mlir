// Selective checked mode: DISTRT_CHECK=1 checks the sites
// distruntime-verify-spmd could not prove, and runs the proven ones
// (`distruntime.proven`, DISTRT_SITE_PROVEN) unchecked; DISTRT_CHECK=all
// checks every site. The misuse programs here compile without the pass
// (lit.local.cfg), so that marks written by hand reach the runtime as
// written; unproven.mlir, and proven_location.mlir once more, compile with
// it (an empty DISTRUNTIME_PIPELINE_OPTIONS).
// RUN: split-file %s %t
//
// unproven.mlir: the pass proves the first all_reduce and not the second,
// whose size derives from the member id (it warns); the sites' flags say so,
// and DISTRT_CHECK=1 still stops the second, whose sizes differ.
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS= %compile %t/unproven.mlir --llvm-dialect -o %t/unproven.llvm.mlir 2>/dev/null
// RUN: mlir-translate --mlir-to-llvmir %t/unproven.llvm.mlir | FileCheck %s --check-prefix=UNPROVENIR
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS= %compile %t/unproven.mlir -o %t/unproven 2>/dev/null
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/unproven 2>&1 | FileCheck %s --check-prefixes=UNPROVEN,UNPROVEN2 --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/unproven 2>&1 | FileCheck %s --check-prefixes=UNPROVEN,UNPROVEN3 --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/unproven 2>&1 | FileCheck %s --check-prefixes=UNPROVEN,UNPROVEN3,UNPROVEN4 --implicit-check-not=ORTE_ERROR_LOG
//
// proven_location.mlir: rank 0 reduces at one line, the others at another,
// both marked proven by hand (the pass would not: a rank-dependent branch
// decides). MPI matches the two calls, so the program is correct: every
// rank gets the sum at every level. DISTRT_CHECK=1 skips them; DISTRT_CHECK=all
// checks them and lets them run, since where a call is written does not
// decide whether MPI matches it (what MPI needs to match does).
// RUN: %compile %t/proven_location.mlir -o %t/proven_location
// RUN: env DISTRT_CHECK=1 %mpirun 2 %t/proven_location 2>&1 | FileCheck %s --check-prefix=SKIPPED2 --implicit-check-not=distrt:
// RUN: env DISTRT_CHECK=1 %mpirun 3 %t/proven_location 2>&1 | FileCheck %s --check-prefix=SKIPPED3 --implicit-check-not=distrt:
// RUN: env DISTRT_CHECK=all DISTRT_TIMEOUT=20 %mpirun 2 %t/proven_location 2>&1 | FileCheck %s --check-prefix=SKIPPED2 --implicit-check-not=distrt:
// RUN: env DISTRT_CHECK=all DISTRT_TIMEOUT=20 %mpirun 3 %t/proven_location 2>&1 | FileCheck %s --check-prefix=SKIPPED3 --implicit-check-not=distrt:
// Compiled with the pass, the hand-written marks are removed (it cannot
// prove the ops), and DISTRT_CHECK=1 checks them and lets them run.
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS= %compile %t/proven_location.mlir -o %t/verified_location
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %mpirun 2 %t/verified_location 2>&1 | FileCheck %s --check-prefix=SKIPPED2 --implicit-check-not=distrt:
//
// proven_reduction.mlir: sum on rank 0, max elsewhere, marked proven by
// hand. DISTRT_CHECK=all stops it before MPI sees it (DISTRT_CHECK=1 would
// hand MPI calls that disagree: not run).
// RUN: %compile %t/proven_reduction.mlir -o %t/proven_reduction
// RUN: env DISTRT_CHECK=all DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/proven_reduction 2>&1 | FileCheck %s --check-prefix=ALLREDUCTION --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=all DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/proven_reduction 2>&1 | FileCheck %s --check-prefixes=ALLREDUCTION,ALLREDUCTION4 --implicit-check-not=ORTE_ERROR_LOG

// halo.mlir: a static update_halo in main, which the pass proves (its
// call passes 2: sync and proven), gives the same halos at both levels.
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS= %compile %t/halo.mlir --llvm-dialect -o %t/halo.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/halo.llvm.mlir | FileCheck %s --check-prefix=HALOIR
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS= %compile %t/halo.mlir -o %t/halo
// RUN: env DISTRT_CHECK=1 %mpirun 2 %t/halo 2>&1 | FileCheck %s --check-prefix=HALO --implicit-check-not=distrt:
// RUN: env DISTRT_CHECK=all %mpirun 2 %t/halo 2>&1 | FileCheck %s --check-prefix=HALO --implicit-check-not=distrt:

// The first all_reduce's site is static (1) and proven (2); the second's
// neither.
// UNPROVENIR-DAG: @__distrt_site_all_reduce = internal global { i64, ptr, ptr } { i64 3, ptr null, ptr null }
// UNPROVENIR-DAG: @__distrt_site_all_reduce_1 = internal global { i64, ptr, ptr } zeroinitializer
// 2 elements on rank 0, 3 on the others.
// UNPROVEN-DAG: distrt: error: all_reduce at {{.*}}unproven.mlir:20:3: team 0, rank 0: shape 2 here, 3 on rank 1
// UNPROVEN2-DAG: distrt: error: all_reduce at {{.*}}unproven.mlir:20:3: team 0, rank 1: shape 3 here, 2 on rank 0
// UNPROVEN3-DAG: distrt: error: all_reduce at {{.*}}unproven.mlir:20:3: team 0, rank 2: shape 3 here, 2 on rank 0
// UNPROVEN4-DAG: distrt: error: all_reduce at {{.*}}unproven.mlir:20:3: team 0, rank 3: shape 3 here, 2 on rank 0
// The sum over ranks r of 10 r + i: 10 N (N - 1) / 2 + N i.
// SKIPPED2-DAG: rank 0: 10 12 14 16
// SKIPPED2-DAG: rank 1: 10 12 14 16
// SKIPPED3-DAG: rank 0: 30 33 36 39
// SKIPPED3-DAG: rank 1: 30 33 36 39
// SKIPPED3-DAG: rank 2: 30 33 36 39
// ALLREDUCTION-DAG: distrt: error: all_reduce at {{.*}}proven_reduction.mlir:7:5: team 0, rank 0: reduction sum here, max on rank 1
// ALLREDUCTION-DAG: distrt: error: all_reduce at {{.*}}proven_reduction.mlir:9:5: team 0, rank 1: reduction max here, sum on rank 0
// ALLREDUCTION4-DAG: distrt: error: all_reduce at {{.*}}proven_reduction.mlir:9:5: team 0, rank 3: reduction max here, sum on rank 0
// Team 0 (i64 = 4), key 1, sync and proven: 2.
// HALOIR: call i64 @distrt_update_halo(i64 0, i64 1, i32 4, i64 %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, ptr %{{.*}}, i32 2, ptr @
// Cores 10 r + 1 ... 10 r + 4 with a halo of one each side; halos outside
// the array keep -1.
// HALO-DAG: rank 0: -1 1 2 3 4 11
// HALO-DAG: rank 1: 4 11 12 13 14 -1

//--- unproven.mlir
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %me = distruntime.team_member team(0)
  %a = memref.alloc() : memref<4xi64>
  %base = arith.muli %me, %c10 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.addi %base, %i : index
    %w = arith.index_cast %v : index to i64
    memref.store %w, %a[%i] : memref<4xi64>
  }
  distruntime.all_reduce ins(%a : memref<4xi64>) outs(%a : memref<4xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %is0 = arith.cmpi eq, %me, %c0 : index
  %n = arith.select %is0, %c2, %c3 : index
  %b = memref.alloc(%n) : memref<?xi64>
  distruntime.all_reduce ins(%b : memref<?xi64>) outs(%b : memref<?xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %z = arith.constant 0 : i32
  return %z : i32
}

//--- proven_location.mlir
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %me = distruntime.team_member team(0)
  %a = memref.alloc() : memref<4xi64>
  %base = arith.muli %me, %c10 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.addi %base, %i : index
    %w = arith.index_cast %v : index to i64
    memref.store %w, %a[%i] : memref<4xi64>
  }
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xi64>) outs(%a : memref<4xi64>) {distruntime.proven, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xi64>) outs(%a : memref<4xi64>) {distruntime.proven, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.index_cast %me : index to i64
  vector.print str "rank "
  vector.print %r : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xi64>
    vector.print str " "
    vector.print %x : i64 punctuation <no_punctuation>
  }
  vector.print str "\n"
  %z = arith.constant 0 : i32
  return %z : i32
}

//--- proven_reduction.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<2xi64>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<2xi64>) outs(%a : memref<2xi64>) {distruntime.proven, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<2xi64>) outs(%a : memref<2xi64>) {distruntime.proven, reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %z = arith.constant 0 : i32
  return %z : i32
}

//--- halo.mlir
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %m1 = arith.constant -1 : i64
  %me = distruntime.team_member team(0)
  %b = memref.alloc() : memref<6xi64>
  %base = arith.muli %me, %c10 : index
  scf.for %i = %c0 to %c6 step %c1 {
    memref.store %m1, %b[%i] : memref<6xi64>
  }
  scf.for %i = %c1 to %c5 step %c1 {
    %v = arith.addi %base, %i : index
    %w = arith.index_cast %v : index to i64
    memref.store %w, %b[%i] : memref<6xi64>
  }
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1] key(1) : memref<6xi64>
  %r = arith.index_cast %me : index to i64
  vector.print str "rank "
  vector.print %r : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %c6 step %c1 {
    %x = memref.load %b[%i] : memref<6xi64>
    vector.print str " "
    vector.print %x : i64 punctuation <no_punctuation>
  }
  vector.print str "\n"
  %z = arith.constant 0 : i32
  return %z : i32
}
