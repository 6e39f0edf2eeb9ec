// Checked mode (DISTRT_CHECK=1): ranks that disagree on a collective are
// stopped before it runs, every rank printing one line with the op, its
// location, its rank and the first field that differs, with both values.
// Without the check these programs hang, exit 0 with wrong data, or write
// past a buffer. Each run must fail within its time limit (fails-within.sh).
// RUN: split-file %s %t
// RUN: %compile %t/dtype.mlir -o %t/dtype
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/dtype 2>&1 | FileCheck %s --check-prefix=DTYPE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/count.mlir -o %t/count
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/count 2>&1 | FileCheck %s --check-prefix=COUNT --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/reduction.mlir -o %t/reduction
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/reduction 2>&1 | FileCheck %s --check-prefix=REDUCTION --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/groups.mlir -o %t/groups
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/groups 2>&1 | FileCheck %s --check-prefix=GROUPS --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/broadcast.mlir -o %t/broadcast
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/broadcast 2>&1 | FileCheck %s --check-prefix=BROADCAST --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/other_op.mlir -o %t/other_op
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/other_op 2>&1 | FileCheck %s --check-prefix=OTHEROP --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/skipped.mlir -o %t/skipped
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/skipped 2>&1 | FileCheck %s --check-prefix=SKIPPED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/skipped_next.mlir -o %t/skipped_next
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/skipped_next 2>&1 | FileCheck %s --check-prefix=SKIPPEDNEXT --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/gather_dim.mlir -o %t/gather_dim
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/gather_dim 2>&1 | FileCheck %s --check-prefix=GATHERDIM --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/split_dim.mlir -o %t/split_dim
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/split_dim 2>&1 | FileCheck %s --check-prefix=SPLITDIM --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/scatter_dim.mlir -o %t/scatter_dim
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/scatter_dim 2>&1 | FileCheck %s --check-prefix=SCATTERDIM --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/mode.mlir -o %t/mode
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/mode 2>&1 | FileCheck %s --check-prefix=MODE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/operands.mlir -o %t/operands
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/operands 2>&1 | FileCheck %s --check-prefix=OPERANDS --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/rfc_allreduce.mlir -o %t/rfc_allreduce
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/rfc_allreduce 2>&1 | FileCheck %s --check-prefix=RFCALLREDUCE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/last_rank.mlir -o %t/last_rank
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/last_rank 2>&1 | FileCheck %s --check-prefix=LASTRANK --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/gather_type.mlir -o %t/gather_type
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/gather_type 2>&1 | FileCheck %s --check-prefix=GATHERTYPE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/scatter_red.mlir -o %t/scatter_red
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/scatter_red 2>&1 | FileCheck %s --check-prefix=SCATTERRED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/p2p_type.mlir -o %t/p2p_type
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/p2p_type 2>&1 | FileCheck %s --check-prefix=P2PTYPE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/p2p_async.mlir -o %t/p2p_async
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/p2p_async 2>&1 | FileCheck %s --check-prefix=P2PASYNC --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/permute_type.mlir -o %t/permute_type
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/permute_type 2>&1 | FileCheck %s --check-prefix=PERMUTETYPE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/bad_check.mlir -o %t/bad_check
// RUN: env DISTRT_CHECK=yes %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/bad_check 2>&1 | FileCheck %s --check-prefix=BADCHECK --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/bad_timeout.mlir -o %t/bad_timeout
// RUN: env DISTRT_TIMEOUT=soon %S/../Inputs/fails-within.sh 60 %mpirun 1 %t/bad_timeout 2>&1 | FileCheck %s --check-prefix=BADTIMEOUT --implicit-check-not=ORTE_ERROR_LOG

// Element types differ (f32 on rank 0, i32 elsewhere): hung or gave wrong data unchecked.
// DTYPE-DAG: distrt: error: all_reduce at {{.*}}dtype.mlir:7:5: team 0, rank 0: element type f32 here, i32 on rank 1
// DTYPE-DAG: distrt: error: all_reduce at {{.*}}dtype.mlir:10:5: team 0, rank 1: element type i32 here, f32 on rank 0
// 65,536 elements against 32,768 at one all_reduce: unchecked it wrote past the smaller buffer.
// COUNT-DAG: distrt: error: all_reduce at {{.*}}count.mlir:14:3: team 0, rank 0: shape 65536 here, 32768 on rank 1
// COUNT-DAG: distrt: error: all_reduce at {{.*}}count.mlir:14:3: team 0, rank 1: shape 32768 here, 65536 on rank 0
// sum on rank 0, max elsewhere.
// REDUCTION-DAG: distrt: error: all_reduce at {{.*}}reduction.mlir:7:5: team 0, rank 0: reduction sum here, max on rank 1
// REDUCTION-DAG: distrt: error: all_reduce at {{.*}}reduction.mlir:10:5: team 0, rank 1: reduction max here, sum on rank 0
// REDUCTION-DAG: distrt: error: all_reduce at {{.*}}reduction.mlir:10:5: team 0, rank 2: reduction max here, sum on rank 0
// replica_groups differ: rank 0 pairs (0 1)(2 3), the others (0 2)(1 3).
// GROUPS-DAG: distrt: error: all_reduce at {{.*}}groups.mlir:7:5: team 0, rank 0: replica_groups {{\[\[}}0, 1], [2, 3{{\]\]}} (cross_replica) here, {{\[\[}}0, 2], [1, 3{{\]\]}} (cross_replica) on rank 1
// GROUPS-DAG: distrt: error: all_reduce at {{.*}}groups.mlir:10:5: team 0, rank 3: replica_groups {{\[\[}}0, 2], [1, 3{{\]\]}} (cross_replica) here, {{\[\[}}0, 1], [2, 3{{\]\]}} (cross_replica) on rank 0
// collective_broadcast from different roots: rank 1 names itself the root.
// BROADCAST-DAG: distrt: error: collective_broadcast at {{.*}}broadcast.mlir:7:5: team 0, rank 1: replica_groups {{\[\[}}1, 0, 2{{\]\]}} (cross_replica) here, {{\[\[}}0, 1, 2{{\]\]}} (cross_replica) on rank 0
// BROADCAST-DAG: distrt: error: collective_broadcast at {{.*}}broadcast.mlir:10:5: team 0, rank 0: replica_groups {{\[\[}}0, 1, 2{{\]\]}} (cross_replica) here, {{\[\[}}1, 0, 2{{\]\]}} (cross_replica) on rank 1
// BROADCAST-DAG: distrt: error: collective_broadcast at {{.*}}broadcast.mlir:10:5: team 0, rank 2: replica_groups {{\[\[}}0, 1, 2{{\]\]}} (cross_replica) here, {{\[\[}}1, 0, 2{{\]\]}} (cross_replica) on rank 1
// A different op on rank 1: all_gather where rank 0 runs all_reduce.
// OTHEROP-DAG: distrt: error: all_reduce at {{.*}}other_op.mlir:7:5: team 0, rank 0: op all_reduce here, all_gather on rank 1
// OTHEROP-DAG: distrt: error: all_gather at {{.*}}other_op.mlir:11:5: team 0, rank 1: op all_gather here, all_reduce on rank 0
// Rank 1 skips the all_reduce and goes on to exit: it is named at finalization.
// SKIPPED-DAG: distrt: error: all_reduce at {{.*}}skipped.mlir:7:5: team 0, rank 0: op all_reduce here, finalize on rank 1
// SKIPPED-DAG: distrt: error: finalize at program exit: team 0, rank 1: op finalize here, all_reduce on rank 0
// Rank 1 skips one all_reduce and runs the next, equal in all but its place:
// MPI matches the two (so does checked mode: where a call is written does
// not decide), and rank 0's second all_reduce then meets rank 1's exit.
// SKIPPEDNEXT-DAG: distrt: error: all_reduce at {{.*}}skipped_next.mlir:12:3: team 0, rank 0: op all_reduce here, finalize on rank 1
// SKIPPEDNEXT-DAG: distrt: error: finalize at program exit: team 0, rank 1: op finalize here, all_reduce on rank 0
// all_gather along dim 0 on rank 0, dim 1 on rank 1.
// GATHERDIM-DAG: distrt: error: all_gather at {{.*}}gather_dim.mlir:8:5: team 0, rank 0: result shape 4x2 here, 2x4 on rank 1
// GATHERDIM-DAG: distrt: error: all_gather at {{.*}}gather_dim.mlir:12:5: team 0, rank 1: result shape 2x4 here, 4x2 on rank 0
// all_to_all splitting dim 0 on rank 0, dim 1 on rank 1 (same shapes).
// SPLITDIM-DAG: distrt: error: all_to_all at {{.*}}split_dim.mlir:7:5: team 0, rank 0: split_dimension 0 here, 1 on rank 1
// SPLITDIM-DAG: distrt: error: all_to_all at {{.*}}split_dim.mlir:10:5: team 0, rank 1: split_dimension 1 here, 0 on rank 0
// reduce_scatter along dim 0 on rank 0, dim 1 on rank 1.
// SCATTERDIM-DAG: distrt: error: reduce_scatter at {{.*}}scatter_dim.mlir:8:5: team 0, rank 0: result shape 2x4 here, 4x2 on rank 1
// SCATTERDIM-DAG: distrt: error: reduce_scatter at {{.*}}scatter_dim.mlir:12:5: team 0, rank 1: result shape 4x2 here, 2x4 on rank 0
// Sync on rank 0, async on rank 1 (MPI never matches a blocking with a nonblocking collective).
// MODE-DAG: distrt: error: all_reduce at {{.*}}mode.mlir:7:5: team 0, rank 0: mode sync here, async on rank 1
// MODE-DAG: distrt: error: all_reduce at {{.*}}mode.mlir:10:10: team 0, rank 1: mode async here, sync on rank 0
// Two operands on rank 0, one on rank 1.
// OPERANDS-DAG: distrt: error: all_reduce at {{.*}}operands.mlir:7:5: team 0, rank 0: inputs 2 here, 1 on rank 1
// OPERANDS-DAG: distrt: error: all_reduce at {{.*}}operands.mlir:10:5: team 0, rank 1: inputs 1 here, 2 on rank 0
// The RFC's allreduce: f64 on rank 2, f32 elsewhere.
// RFCALLREDUCE-DAG: distrt: error: allreduce at {{.*}}rfc_allreduce.mlir:7:5: team 0, rank 2: element type f64 here, f32 on rank 0
// RFCALLREDUCE-DAG: distrt: error: allreduce at {{.*}}rfc_allreduce.mlir:10:5: team 0, rank 0: element type f32 here, f64 on rank 2
// RFCALLREDUCE-DAG: distrt: error: allreduce at {{.*}}rfc_allreduce.mlir:10:5: team 0, rank 1: element type f32 here, f64 on rank 2
// Only rank 3 differs (4 elements where the others have 8).
// LASTRANK-DAG: distrt: error: all_reduce at {{.*}}last_rank.mlir:14:3: team 0, rank 0: shape 8 here, 4 on rank 3
// LASTRANK-DAG: distrt: error: all_reduce at {{.*}}last_rank.mlir:14:3: team 0, rank 1: shape 8 here, 4 on rank 3
// LASTRANK-DAG: distrt: error: all_reduce at {{.*}}last_rank.mlir:14:3: team 0, rank 2: shape 8 here, 4 on rank 3
// LASTRANK-DAG: distrt: error: all_reduce at {{.*}}last_rank.mlir:14:3: team 0, rank 3: shape 4 here, 8 on rank 0
// all_gather of i8 on rank 0, ui8 elsewhere (same bytes).
// GATHERTYPE-DAG: distrt: error: all_gather at {{.*}}gather_type.mlir:8:5: team 0, rank 0: element type i8 here, ui8 on rank 1
// GATHERTYPE-DAG: distrt: error: all_gather at {{.*}}gather_type.mlir:12:5: team 0, rank 1: element type ui8 here, i8 on rank 0
// GATHERTYPE-DAG: distrt: error: all_gather at {{.*}}gather_type.mlir:12:5: team 0, rank 2: element type ui8 here, i8 on rank 0
// reduce_scatter with min on rank 0, umin on rank 1.
// SCATTERRED-DAG: distrt: error: reduce_scatter at {{.*}}scatter_red.mlir:8:5: team 0, rank 0: reduction min here, umin on rank 1
// SCATTERRED-DAG: distrt: error: reduce_scatter at {{.*}}scatter_red.mlir:12:5: team 0, rank 1: reduction umin here, min on rank 0
// send of f32, recv of i32 (the same bytes): unchecked the bits arrive reinterpreted.
// P2PTYPE-DAG: distrt: error: recv at {{.*}}p2p_type.mlir:10:5: team 0, rank 1: element type i32 here, f32 from rank 0 (send at {{.*}}p2p_type.mlir:7:5)
// The same with an async recv: reported at its wait, before the data is used.
// P2PASYNC-DAG: distrt: error: wait at {{.*}}p2p_async.mlir:11:5: team 0, rank 1: element type f64 here, i64 from rank 0 (send at {{.*}}p2p_async.mlir:7:5)
// collective_permute swapping f32 on rank 0 for i32 on rank 1: every member
// calls it, so the team agrees on it as on a collective.
// PERMUTETYPE-DAG: distrt: error: collective_permute at {{.*}}permute_type.mlir:7:5: team 0, rank 0: element type f32 here, i32 on rank 1
// PERMUTETYPE-DAG: distrt: error: collective_permute at {{.*}}permute_type.mlir:10:5: team 0, rank 1: element type i32 here, f32 on rank 0
// A DISTRT_CHECK that is neither 0, 1 nor all.
// BADCHECK-DAG: distrt: error: team_member at {{.*}}bad_check.mlir:2:9: team 0, rank 0: DISTRT_CHECK=yes in the environment: expected 0, 1 (check the sites the compiler did not prove) or all (check every site)
// BADCHECK-DAG: distrt: error: team_member at {{.*}}bad_check.mlir:2:9: team 0, rank 1: DISTRT_CHECK=yes in the environment: expected 0, 1 (check the sites the compiler did not prove) or all (check every site)
// A DISTRT_TIMEOUT that is not a number.
// BADTIMEOUT-DAG: distrt: error: team_member at {{.*}}bad_timeout.mlir:2:9: team 0, rank 0: DISTRT_TIMEOUT=soon in the environment: expected a number of seconds (0: no watchdog)

//--- dtype.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<4xf32>
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<4xi32>
    distruntime.all_reduce ins(%b : memref<4xi32>) outs(%b : memref<4xi32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- count.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %n = arith.constant 65536 : index
  } else {
    %m = arith.constant 32768 : index
  }
  %c65536 = arith.constant 65536 : index
  %c32768 = arith.constant 32768 : index
  %size = arith.select %is, %c65536, %c32768 : index
  %x = memref.alloc(%size) : memref<?xf32>
  distruntime.all_reduce ins(%x : memref<?xf32>) outs(%x : memref<?xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- reduction.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xi64>
    distruntime.all_reduce ins(%a : memref<2xi64>) outs(%a : memref<2xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<2xi64>
    distruntime.all_reduce ins(%b : memref<2xi64>) outs(%b : memref<2xi64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- groups.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xf64>
    distruntime.all_reduce ins(%a : memref<2xf64>) outs(%a : memref<2xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  } else {
    %b = memref.alloc() : memref<2xf64>
    distruntime.all_reduce ins(%b : memref<2xf64>) outs(%b : memref<2xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- broadcast.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 1 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<3xi32>
    distruntime.collective_broadcast ins(%a : memref<3xi32>) outs(%a : memref<3xi32>) {replica_groups = dense<[[1, 0, 2]]> : tensor<1x3xi64>}
  } else {
    %b = memref.alloc() : memref<3xi32>
    distruntime.collective_broadcast ins(%b : memref<3xi32>) outs(%b : memref<3xi32>) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- other_op.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xf32>
    distruntime.all_reduce ins(%a : memref<2xf32>) outs(%a : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<2xf32>
    %o = memref.alloc() : memref<4xf32>
    distruntime.all_gather ins(%b : memref<2xf32>) outs(%o : memref<4xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- skipped.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xf32>
    distruntime.all_reduce ins(%a : memref<2xf32>) outs(%a : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = arith.constant 0 : index
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- skipped_next.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xf32>
    distruntime.all_reduce ins(%a : memref<2xf32>) outs(%a : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = arith.constant 0 : index
  }
  %z = memref.alloc() : memref<2xf32>
  distruntime.all_reduce ins(%z : memref<2xf32>) outs(%z : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- gather_dim.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2x2xi16>
    %o = memref.alloc() : memref<4x2xi16>
    distruntime.all_gather ins(%a : memref<2x2xi16>) outs(%o : memref<4x2xi16>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<2x2xi16>
    %p = memref.alloc() : memref<2x4xi16>
    distruntime.all_gather ins(%b : memref<2x2xi16>) outs(%p : memref<2x4xi16>) {all_gather_dim = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- split_dim.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<4x4xf32>
    distruntime.all_to_all ins(%a : memref<4x4xf32>) outs(%a : memref<4x4xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<4x4xf32>
    distruntime.all_to_all ins(%b : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {split_dimension = 1 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- scatter_dim.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<4x4xi32>
    %o = memref.alloc() : memref<2x4xi32>
    distruntime.reduce_scatter ins(%a : memref<4x4xi32>) outs(%o : memref<2x4xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<4x4xi32>
    %p = memref.alloc() : memref<4x2xi32>
    distruntime.reduce_scatter ins(%b : memref<4x4xi32>) outs(%p : memref<4x2xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- mode.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xf64>
    distruntime.all_reduce ins(%a : memref<2xf64>) outs(%a : memref<2xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<2xf64>
    %h = distruntime.all_reduce ins(%b : memref<2xf64>) outs(%b : memref<2xf64>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- operands.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xf32>
    distruntime.all_reduce ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%a, %a : memref<2xf32>, memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<2xf32>
    distruntime.all_reduce ins(%b : memref<2xf32>) outs(%b : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- rfc_allreduce.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 2 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<4xf64>
    distruntime.allreduce <sum> %a team(0) : memref<4xf64>
  } else {
    %b = memref.alloc() : memref<4xf32>
    distruntime.allreduce <sum> %b team(0) : memref<4xf32>
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- last_rank.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 3 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %n = arith.constant 0 : index
  } else {
    %m = arith.constant 0 : index
  }
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %size = arith.select %is, %c4, %c8 : index
  %x = memref.alloc(%size) : memref<?xi64>
  distruntime.all_reduce ins(%x : memref<?xi64>) outs(%x : memref<?xi64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- gather_type.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<2xi8>
    %o = memref.alloc() : memref<6xi8>
    distruntime.all_gather ins(%a : memref<2xi8>) outs(%o : memref<6xi8>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<2xui8>
    %p = memref.alloc() : memref<6xui8>
    distruntime.all_gather ins(%b : memref<2xui8>) outs(%p : memref<6xui8>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- scatter_red.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %a = memref.alloc() : memref<4xi32>
    %o = memref.alloc() : memref<2xi32>
    distruntime.reduce_scatter ins(%a : memref<4xi32>) outs(%o : memref<2xi32>) {reduction = #distruntime.reduction<min>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %b = memref.alloc() : memref<4xi32>
    %p = memref.alloc() : memref<2xi32>
    distruntime.reduce_scatter ins(%b : memref<4xi32>) outs(%p : memref<2xi32>) {reduction = #distruntime.reduction<umin>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- p2p_type.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %x = memref.alloc() : memref<4xf32>
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  } else {
    %y = memref.alloc() : memref<4xi32>
    distruntime.recv outs(%y : memref<4xi32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- p2p_async.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %x = memref.alloc() : memref<2xi64>
    distruntime.send ins(%x : memref<2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  } else {
    %y = memref.alloc() : memref<2xf64>
    %h = distruntime.recv outs(%y : memref<2xf64>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- permute_type.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %cr = arith.constant 0 : index
  %is = arith.cmpi eq, %me, %cr : index
  scf.if %is {
    %w = memref.alloc() : memref<2xf32>
    distruntime.collective_permute ins(%w : memref<2xf32>) outs(%w : memref<2xf32>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  } else {
    %v = memref.alloc() : memref<2xi32>
    distruntime.collective_permute ins(%v : memref<2xi32>) outs(%v : memref<2xi32>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- bad_check.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- bad_timeout.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %r = arith.constant 0 : i32
  return %r : i32
}
