// Misuse unchecked mode catches on its own, at no cost to correct programs:
// sizes that disagree at a point-to-point transfer (MPI's receive counts),
// byte counts that overflow int64, handles never waited, unknown teams; an
// MPI failure in a collective points to checked mode. Each error run must
// fail within its limit; a handle never waited is a warning only with
// DISTRT_UNWAITED=warn.
// RUN: split-file %s %t
// RUN: %compile %t/recv_short.mlir -o %t/recv_short
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/recv_short 2>&1 | FileCheck %s --check-prefix=RECVSHORT --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/recv_long.mlir -o %t/recv_long
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/recv_long 2>&1 | FileCheck %s --check-prefix=RECVLONG --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/permute_sizes.mlir -o %t/permute_sizes
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/permute_sizes 2>&1 | FileCheck %s --check-prefix=PERMUTESIZES --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/huge_broadcast.mlir -o %t/huge_broadcast
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 1 %t/huge_broadcast 2>&1 | FileCheck %s --check-prefix=HUGEBROADCAST --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/huge_gather.mlir -o %t/huge_gather
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/huge_gather 2>&1 | FileCheck %s --check-prefix=HUGEGATHER --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/huge_send.mlir -o %t/huge_send
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/huge_send 2>&1 | FileCheck %s --check-prefix=HUGESEND --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/unwaited.mlir -o %t/unwaited
// RUN: %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/unwaited 2>&1 | FileCheck %s --check-prefix=UNWAITED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/unwaited 2>&1 | FileCheck %s --check-prefix=UNWAITED --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_UNWAITED=warn %mpirun 2 %t/unwaited 2>&1 | FileCheck %s --check-prefix=UNWAITEDWARN --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_UNWAITED=later %S/../Inputs/fails-within.sh 60 %mpirun 1 %t/unwaited 2>&1 | FileCheck %s --check-prefix=BADUNWAITED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/unwaited_dealloc.mlir -o %t/unwaited_dealloc
// RUN: %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/unwaited_dealloc 2>&1 | FileCheck %s --check-prefix=DEALLOC --implicit-check-not=ORTE_ERROR_LOG --implicit-check-not=Segmentation
// RUN: %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/unwaited_dealloc 2>&1 | FileCheck %s --check-prefix=DEALLOC --implicit-check-not=ORTE_ERROR_LOG --implicit-check-not=Segmentation
// RUN: %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/unwaited_dealloc 2>&1 | FileCheck %s --check-prefix=DEALLOC --implicit-check-not=ORTE_ERROR_LOG --implicit-check-not=Segmentation
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=10 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/unwaited_dealloc 2>&1 | FileCheck %s --check-prefix=DEALLOC --implicit-check-not=ORTE_ERROR_LOG --implicit-check-not=Segmentation --implicit-check-not="reach program exit"
// RUN: %compile %t/unreceived.mlir -o %t/unreceived
// RUN: %mpirun 2 %t/unreceived 2>&1 | FileCheck %s --check-prefix=UNRECEIVED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %mpirun 3 %t/unreceived 2>&1 | FileCheck %s --check-prefix=UNRECEIVED --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/unreceived 2>&1 | FileCheck %s --check-prefix=UNRECEIVEDCHECKED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/length.mlir -o %t/length
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/length 2>&1 | FileCheck %s --check-prefix=LENGTH --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_REDUCE_SHM=0 %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/length 2>&1 | FileCheck %s --check-prefix=LENGTHMPI --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/unknown_team.mlir -o %t/unknown_team
// RUN: %S/../Inputs/fails-within.sh 30 %mpirun 2 %t/unknown_team 2>&1 | FileCheck %s --check-prefix=UNKNOWNTEAM --implicit-check-not=ORTE_ERROR_LOG

// Rank 0 sends 4 elements, rank 1 receives into 2.
// RECVSHORT-DAG: distrt: error: recv at {{.*}}recv_short.mlir:13:5: team 0, rank 1: rank 0 sent more than the 8 bytes expected for the recv operands: the ranks disagree on the geometry or the element type
// Rank 0 sends 2 elements, rank 1 receives into 4.
// RECVLONG-DAG: distrt: error: recv at {{.*}}recv_long.mlir:13:5: team 0, rank 1: received 8 bytes from rank 0 for the recv operands, expected 16 bytes: the ranks disagree on the geometry or the element type
// A collective_permute whose operand has 3 elements on rank 0, 5 on rank 1.
// PERMUTESIZES-DAG: distrt: error: collective_permute at {{.*}}permute_sizes.mlir:12:3: team 0, rank 0: rank 1 sent more than the 6 bytes expected for the collective_permute operands: the ranks disagree on the geometry or the element type
// PERMUTESIZES-DAG: distrt: error: collective_permute at {{.*}}permute_sizes.mlir:12:3: team 0, rank 1: received 6 bytes from rank 0 for the collective_permute operands, expected 10 bytes: the ranks disagree on the geometry or the element type
// 2^61 f64 elements: 2^64 bytes wrapped to 0 and the op moved nothing.
// HUGEBROADCAST-DAG: distrt: error: collective_broadcast at {{.*}}huge_broadcast.mlir:10:3: team 0, rank 0: a memref of 2305843009213693952 f64 elements has more bytes than an int64 counts
// The same at all_gather.
// HUGEGATHER-DAG: distrt: error: all_gather at {{.*}}huge_gather.mlir:13:3: team 0, rank 0: a memref of 2305843009213693952 f64 elements has more bytes than an int64 counts
// HUGEGATHER-DAG: distrt: error: all_gather at {{.*}}huge_gather.mlir:13:3: team 0, rank 1: a memref of 2305843009213693952 f64 elements has more bytes than an int64 counts
// The same at send.
// HUGESEND-DAG: distrt: error: send at {{.*}}huge_send.mlir:11:5: team 0, rank 0: a memref of 2305843009213693952 f64 elements has more bytes than an int64 counts
// Handles never waited: an all_reduce every rank left, and a recv no send serves. Reported before anything touches their requests (the program may have freed their buffers), and the job exits 1 without completing them.
// UNWAITED-DAG: distrt: error: recv at {{.*}}unwaited.mlir:9:10: team 0, rank 1: the handle was never waited; the process exits 1 without completing it, since its buffers may be gone
// UNWAITED-DAG: distrt: error: all_reduce at {{.*}}unwaited.mlir:12:8: team 0, rank 0: the handle was never waited; the process exits 1 without completing it, since its buffers may be gone
// UNWAITED-DAG: distrt: error: all_reduce at {{.*}}unwaited.mlir:12:8: team 0, rank 1: the handle was never waited; the process exits 1 without completing it, since its buffers may be gone
// With DISTRT_UNWAITED=warn the same lines are warnings, the runtime completes the handles (their buffers must still be alive), cancels the receive no send serves, and the job exits 0.
// UNWAITEDWARN-DAG: distrt: warning: recv at {{.*}}unwaited.mlir:9:10: team 0, rank 1: the handle was never waited; completing it at finalization (its buffers must still be alive)
// UNWAITEDWARN-DAG: distrt: warning: recv at {{.*}}unwaited.mlir:9:10: team 0, rank 1: its receives were cancelled at finalization
// UNWAITEDWARN-DAG: distrt: warning: all_reduce at {{.*}}unwaited.mlir:12:8: team 0, rank 0: the handle was never waited; completing it at finalization (its buffers must still be alive)
// UNWAITEDWARN-DAG: distrt: warning: all_reduce at {{.*}}unwaited.mlir:12:8: team 0, rank 1: the handle was never waited; completing it at finalization (its buffers must still be alive)
// An async allreduce of 1 MiB waited on rank 0 only, its buffer then freed on every rank (so unmapped: completing it at exit crashed). Every other rank reports it and the job exits 1, without touching the freed memory; checked mode names the handle too, not the members that did reach exit.
// DEALLOC: distrt: error: allreduce at {{.*}}unwaited_dealloc.mlir:6:8: team 0, rank 1: the handle was never waited; the process exits 1 without completing it, since its buffers may be gone
// BADUNWAITED: distrt: error: team_member at {{.*}}unwaited.mlir:2:9: team 0, rank 0: DISTRT_UNWAITED=later in the environment: expected warn or error
// A small send no recv takes: eager, it vanished silently; the receiver reports it at teardown.
// UNRECEIVED-DAG: distrt: warning: team 0, rank 1: a message of 16 bytes from rank 0 on channel_id 0 was never received
// Checked mode names the send at program exit, from its header, and fails.
// UNRECEIVEDCHECKED: distrt: error: finalize at program exit: team 0, rank 1: the send at {{.*}}unreceived.mlir:9:5 on rank 0 sent this rank 16 bytes on channel_id 0 (source_target_pairs {{\[\[}}0, 1]]), which no recv took
// all_reduce of 8 elements on rank 0, 4 on rank 1. Small, it runs in shared memory, where each member reads how many bytes the other wrote and names it.
// LENGTH: distrt: error: all_reduce at {{.*}}length.mlir:9:3: team 0, rank {{[01]}}: {{received 16 bytes from rank 1 for the all_reduce operand, expected 32 bytes|rank 0 sent more than the 16 bytes expected for the all_reduce operand}}: the ranks disagree on the geometry or the element type
// On MPI (DISTRT_REDUCE_SHM=0) MPI fails (MPI_ERR_TRUNCATE under Open MPI), and the line says what to try.
// LENGTHMPI: distrt: error: all_reduce at {{.*}}length.mlir:9:3: team 0, rank {{[01]}}: MPI_Allreduce failed: {{.*}}; the ranks may disagree on this op: run with DISTRT_CHECK=1 to find which rank differs, and how
// A team id no host program registered.
// UNKNOWNTEAM-DAG: distrt: error: allreduce at {{.*}}unknown_team.mlir:3:3: team 1, rank 0: unknown team 1; registered teams: 0 (a host program registers an MPI communicator as a team with distrt_team_register or distrt::Team::registerComm)
// UNKNOWNTEAM-DAG: distrt: error: allreduce at {{.*}}unknown_team.mlir:3:3: team 1, rank 1: unknown team 1; registered teams: 0 (a host program registers an MPI communicator as a team with distrt_team_register or distrt::Team::registerComm)

//--- recv_short.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  scf.if %is0 {
    %x = memref.alloc() : memref<4xf32>
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    %y = memref.alloc() : memref<2xf32>
    distruntime.recv outs(%y : memref<2xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- recv_long.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  scf.if %is0 {
    %x = memref.alloc() : memref<2xf32>
    distruntime.send ins(%x : memref<2xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    %y = memref.alloc() : memref<4xf32>
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- permute_sizes.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %size = arith.select %is0, %c3, %c5 : index
  %w = memref.alloc(%size) : memref<?xi16>
  %o = memref.alloc(%size) : memref<?xi16>
  distruntime.collective_permute ins(%w : memref<?xi16>) outs(%o : memref<?xi16>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- huge_broadcast.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %a = memref.alloc() : memref<4xf64>
  %n = arith.constant 2305843009213693952 : index
  %big = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<4xf64> to memref<?xf64>
  distruntime.collective_broadcast ins(%big : memref<?xf64>) outs(%big : memref<?xf64>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- huge_gather.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %a = memref.alloc() : memref<4xf64>
  %n = arith.constant 2305843009213693952 : index
  %big = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<4xf64> to memref<?xf64>
  %o = memref.alloc() : memref<8xf64>
  %m = arith.constant 4611686018427387904 : index
  %big2 = memref.reinterpret_cast %o to offset: [0], sizes: [%m], strides: [1] : memref<8xf64> to memref<?xf64>
  distruntime.all_gather ins(%big : memref<?xf64>) outs(%big2 : memref<?xf64>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- huge_send.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %a = memref.alloc() : memref<4xf64>
  %n = arith.constant 2305843009213693952 : index
  %big = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<4xf64> to memref<?xf64>
  scf.if %is0 {
    distruntime.send ins(%big : memref<?xf64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- unwaited.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %y = memref.alloc() : memref<4xf32>
  scf.if %is1 {
    %h = distruntime.recv outs(%y : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %a = memref.alloc() : memref<4xf32>
  %g = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- unwaited_dealloc.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<262144xf32>
  %h = distruntime.allreduce <sum> %a team(0) : memref<262144xf32> -> !distruntime.async_handle
  scf.if %is0 {
    distruntime.wait %h
  }
  memref.dealloc %a : memref<262144xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- unreceived.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %y = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.send ins(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %a = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- length.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = arith.select %is0, %c8, %c4 : index
  %x = memref.alloc(%n) : memref<?xf32>
  distruntime.all_reduce ins(%x : memref<?xf32>) outs(%x : memref<?xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- unknown_team.mlir
func.func @main() -> i32 {
  %x = memref.alloc() : memref<4xf32>
  distruntime.allreduce <sum> %x team(1) : memref<4xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}
