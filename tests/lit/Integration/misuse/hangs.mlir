// The watchdog (DISTRT_TIMEOUT=<seconds>, on in checked mode): a call that
// cannot complete is reported on every stuck rank with the op, its location
// and what it waits for (peers but itself, channel, the phase of the call,
// members known to have finished), and the job ends non-zero within the
// timeout + 5 s. Unwatched, each of these programs hangs forever.
// RUN: split-file %s %t
// RUN: %compile %t/recv_alone.mlir -o %t/recv_alone
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/recv_alone 2>&1 | FileCheck %s --check-prefix=RECVALONE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/channel.mlir -o %t/channel
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/channel 2>&1 | FileCheck %s --check-prefix=CHANNEL --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/stopped.mlir -o %t/stopped
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/stopped 2>&1 | FileCheck %s --check-prefix=STOPPED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/stopped_checked.mlir -o %t/stopped_checked
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 3 %t/stopped_checked 2>&1 | FileCheck %s --check-prefix=STOPPEDCHECKED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/stopped_last.mlir -o %t/stopped_last
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 4 %t/stopped_last 2>&1 | FileCheck %s --check-prefix=STOPPEDLAST --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/wait_recv.mlir -o %t/wait_recv
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/wait_recv 2>&1 | FileCheck %s --check-prefix=WAITRECV --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/permute_alone.mlir -o %t/permute_alone
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/permute_alone 2>&1 | FileCheck %s --check-prefix=PERMUTEALONE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/wait_reduce.mlir -o %t/wait_reduce
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/wait_reduce 2>&1 | FileCheck %s --check-prefix=WAITREDUCE --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/halo_changed.mlir -o %t/halo_changed
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/halo_changed 2>&1 | FileCheck %s --check-prefix=HALOCHANGED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/early_exit.mlir -o %t/early_exit
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/early_exit 2>&1 | FileCheck %s --check-prefix=EARLYEXIT --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 3 %t/early_exit 2>&1 | FileCheck %s --check-prefix=EARLYEXIT3 --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/last_exits.mlir -o %t/last_exits
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 3 %t/last_exits 2>&1 | FileCheck %s --check-prefix=LASTEXITS --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/halo_plan.mlir -o %t/halo_plan
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/halo_plan 2>&1 | FileCheck %s --check-prefix=HALOPLAN --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/get_halo_plan.mlir -o %t/get_halo_plan
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/get_halo_plan 2>&1 | FileCheck %s --check-prefix=GETHALOPLAN --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/group_split.mlir -o %t/group_split
// RUN: env DISTRT_TIMEOUT=3 %S/../Inputs/fails-within.sh 15 %mpirun 2 %t/group_split 2>&1 | FileCheck %s --check-prefix=GROUPSPLIT --implicit-check-not=ORTE_ERROR_LOG

// A recv no send serves.
// RECVALONE-DAG: distrt: error: recv at {{.*}}recv_alone.mlir:13:5: team 0, rank 1: no progress for 3 s (DISTRT_TIMEOUT): waiting for a message from rank 0 on channel_id 0
// A send on channel 1, its recv on channel 2.
// CHANNEL-DAG: distrt: error: recv at {{.*}}channel.mlir:17:5: team 0, rank 1: no progress for 3 s (DISTRT_TIMEOUT): waiting for a message from rank 0 on channel_id 2
// Rank 1 stops (sleeps) before an all_reduce.
// STOPPED-DAG: distrt: error: all_reduce at {{.*}}stopped.mlir:16:3: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 1){{$}}
// The same in checked mode, at np 3: the others wait in the agreement.
// STOPPEDCHECKED-DAG: distrt: error: all_reduce at {{.*}}stopped_checked.mlir:16:3: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of team 0 to reach this op (checked mode's agreement)
// STOPPEDCHECKED-DAG: distrt: error: all_reduce at {{.*}}stopped_checked.mlir:16:3: team 0, rank 2: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of team 0 to reach this op (checked mode's agreement)
// Rank 3 of 4 stops before an all_gather.
// STOPPEDLAST-DAG: distrt: error: all_gather at {{.*}}stopped_last.mlir:17:3: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 1, 2, 3){{$}}
// STOPPEDLAST-DAG: distrt: error: all_gather at {{.*}}stopped_last.mlir:17:3: team 0, rank 1: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 0, 2, 3){{$}}
// STOPPEDLAST-DAG: distrt: error: all_gather at {{.*}}stopped_last.mlir:17:3: team 0, rank 2: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 0, 1, 3){{$}}
// An async recv no send serves, then its wait: the sender has finished.
// WAITRECV-DAG: distrt: error: wait at {{.*}}wait_recv.mlir:14:5: team 0, rank 1: no progress for 3 s (DISTRT_TIMEOUT): waiting for the recv issued at {{.*}}wait_recv.mlir:13:10 to complete (receiving from team ranks 0); team rank 0 has finished (reached program exit)
// Rank 1 skips a collective_permute that swaps with rank 0.
// PERMUTEALONE-DAG: distrt: error: collective_permute at {{.*}}permute_alone.mlir:13:5: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the exchange with its target and source (team ranks 1, 1)
// Rank 1 stops; rank 0 waits for an async all_reduce.
// WAITREDUCE-DAG: distrt: error: wait at {{.*}}wait_reduce.mlir:14:5: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the all_reduce issued at {{.*}}wait_reduce.mlir:13:10 to complete
// get_halo's key 1 changes its geometry on rank 1 only, the second time: unchecked the ranks would pair a replan with an exchange.
// HALOCHANGED-DAG: distrt: error: get_halo at {{.*}}halo_changed.mlir:18:18: team 0, rank 0: geometry unchanged here, changed (replanned) on rank 1
// HALOCHANGED-DAG: distrt: error: get_halo at {{.*}}halo_changed.mlir:18:18: team 0, rank 1: geometry changed (replanned) here, unchanged on rank 0
// Rank 1 returns before an all_reduce rank 0 makes: it told the others it finished.
// EARLYEXIT-DAG: distrt: error: all_reduce at {{.*}}early_exit.mlir:13:5: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 1); team rank 1 has finished (reached program exit)
// The same at np 3: ranks 1 and 2 return.
// EARLYEXIT3-DAG: distrt: error: all_reduce at {{.*}}early_exit.mlir:13:5: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 1, 2); team ranks 1, 2 have finished (reached program exit)
// Rank 2 of 3 returns before an all_reduce: ranks 0 and 1 name it, not each other.
// LASTEXITS-DAG: distrt: error: all_reduce at {{.*}}last_exits.mlir:8:5: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 1, 2); team rank 2 has finished (reached program exit)
// LASTEXITS-DAG: distrt: error: all_reduce at {{.*}}last_exits.mlir:8:5: team 0, rank 1: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of its group (team ranks 0, 2); team rank 2 has finished (reached program exit)
// Each phase of a call says what it waits for. Rank 1 stops; rank 0 plans an update_halo,
// HALOPLAN-DAG: distrt: error: update_halo at {{.*}}halo_plan.mlir:11:3: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of team 0 to exchange update_halo's plan headers (key 1)
// a get_halo,
// GETHALOPLAN-DAG: distrt: error: get_halo at {{.*}}get_halo_plan.mlir:13:16: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of team 0 to exchange get_halo's plan headers (key 2)
// and an all_reduce whose groups need a communicator of their own.
// GROUPSPLIT-DAG: distrt: error: all_reduce at {{.*}}group_split.mlir:11:3: team 0, rank 0: no progress for 3 s (DISTRT_TIMEOUT): waiting for the other members of team 0 to set up communicators with it

//--- recv_alone.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %y = memref.alloc() : memref<4xf32>
  scf.if %is1 {
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- channel.mlir
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 2 : i64} {
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %y = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.send ins(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 2 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
}

//--- stopped.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  scf.if %is1 {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  %a = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- stopped_checked.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  scf.if %is1 {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  %a = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- stopped_last.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  scf.if %isLast {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  %a = memref.alloc() : memref<2xi32>
  %o = memref.alloc() : memref<8xi32>
  distruntime.all_gather ins(%a : memref<2xi32>) outs(%o : memref<8xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- wait_recv.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %y = memref.alloc() : memref<4xf32>
  scf.if %is1 {
    %h = distruntime.recv outs(%y : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- permute_alone.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %w = memref.alloc() : memref<2xf32>
  scf.if %is0 {
    distruntime.collective_permute ins(%w : memref<2xf32>) outs(%w : memref<2xf32>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- wait_reduce.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  } else {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- halo_changed.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %n = distruntime.team_size team(0)
  %local = memref.alloc() : memref<1xi64>
  scf.for %i = %c0 to %c2 step %c1 {
    %second = arith.cmpi eq, %i, %c1 : index
    %shrink = arith.andi %second, %is1 : i1
    %lo = arith.select %shrink, %me, %c0 : index
    %len = arith.select %shrink, %c1, %n : index
    %h, %l, %r = distruntime.get_halo %local gshape [%n] loffsets [%me] bboffsets [%lo] bbsizes [%len] team(0) key(1) : memref<1xi64> -> memref<?xi64>, memref<?xi64>
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- early_exit.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %isLast = arith.cmpi eq, %me, %c3 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- last_exits.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c2 = arith.constant 2 : index
  %notLast = arith.cmpi ne, %me, %c2 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %notLast {
    // Sync: watched, it waits in the runtime's loop, which hears of rank 2.
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- halo_plan.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c1 = arith.constant 1 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %u = memref.alloc() : memref<6xi64>
  scf.if %is1 {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1] key(1) : memref<6xi64>
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- get_halo_plan.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %n = distruntime.team_size team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  scf.if %is1 {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  %local = memref.alloc() : memref<1xi64>
  %h, %l, %r = distruntime.get_halo %local gshape [%n] loffsets [%me] bboffsets [%c0] bbsizes [%n] team(0) key(2) : memref<1xi64> -> memref<?xi64>, memref<?xi64>
  distruntime.wait %h
  %z = arith.constant 0 : i32
  return %z : i32
}

//--- group_split.mlir
func.func private @sleep(i32) -> i32
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c1 = arith.constant 1 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is1 {
    %s = arith.constant 3600 : i32
    %z = func.call @sleep(%s) : (i32) -> i32
  }
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
