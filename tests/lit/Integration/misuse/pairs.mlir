// Checked mode (DISTRT_CHECK=1) and source_target_pairs that differ between
// members. Unchecked, each of these exits 0: every sender sends, nobody
// receives, and the outputs are silently zero. collective_permute is called
// by every member, so checked mode agrees on it as on a collective; a recv
// compares its pairs with the header of the send it receives; a send whose
// target never receives it (its recv's pairs give it no source) is named at
// finalization, when the members compare how many headers they sent.
// RUN: split-file %s %t
// RUN: %compile %t/permute_pairs.mlir -o %t/permute_pairs
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/permute_pairs 2>&1 | FileCheck %s --check-prefixes=PERMUTE,PERMUTE2 --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/permute_pairs 2>&1 | FileCheck %s --check-prefixes=PERMUTE,PERMUTE2,PERMUTE3 --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 4 %t/permute_pairs 2>&1 | FileCheck %s --check-prefixes=PERMUTE,PERMUTE2,PERMUTE3,PERMUTE4 --implicit-check-not=ORTE_ERROR_LOG
// RUN: %mpirun 2 %t/permute_pairs | FileCheck %s --check-prefix=UNCHECKED
// RUN: %compile %t/send_pairs.mlir -o %t/send_pairs
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/send_pairs 2>&1 | FileCheck %s --check-prefix=SEND --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 3 %t/send_pairs 2>&1 | FileCheck %s --check-prefix=SEND --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/recv_pairs.mlir -o %t/recv_pairs
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/recv_pairs 2>&1 | FileCheck %s --check-prefix=RECV --implicit-check-not=ORTE_ERROR_LOG

// Rank 0 permutes with [[0, 1]], the others with [[1, 0]]: each member
// reports the pairs of the lowest rank that differs from it.
// PERMUTE-DAG: distrt: error: collective_permute at {{.*}}permute_pairs.mlir:11:5: team 0, rank 0: source_target_pairs {{\[\[}}0, 1]] {{.*}}here, {{\[\[}}1, 0]] {{.*}}on rank 1
// PERMUTE2-DAG: distrt: error: collective_permute at {{.*}}permute_pairs.mlir:13:5: team 0, rank 1: source_target_pairs {{\[\[}}1, 0]] {{.*}}here, {{\[\[}}0, 1]] {{.*}}on rank 0
// PERMUTE3-DAG: distrt: error: collective_permute at {{.*}}permute_pairs.mlir:13:5: team 0, rank 2: source_target_pairs {{\[\[}}1, 0]] {{.*}}here, {{\[\[}}0, 1]] {{.*}}on rank 0
// PERMUTE4-DAG: distrt: error: collective_permute at {{.*}}permute_pairs.mlir:13:5: team 0, rank 3: source_target_pairs {{\[\[}}1, 0]] {{.*}}here, {{\[\[}}0, 1]] {{.*}}on rank 0
// Unchecked the same program exits 0, both outputs zero (what checked mode
// now stops).
// UNCHECKED-DAG: rank 0: 0 0
// UNCHECKED-DAG: rank 1: 0 0
// Rank 0 sends with [[0, 1]]; rank 1's recv has [[1, 0]], which gives it no
// source: the header (16 bytes of data, channel 0) is found at finalization.
// SEND: distrt: error: finalize at program exit: team 0, rank 1: the send at {{.*}}send_pairs.mlir:9:5 on rank 0 sent this rank 16 bytes on channel_id 0 (source_target_pairs {{\[\[}}0, 1]]), which no recv took: the members disagree on source_target_pairs, or this rank skipped the recv
// Rank 1 receives rank 0's message, but with other pairs.
// RECV: distrt: error: recv at {{.*}}recv_pairs.mlir:9:5: team 0, rank 1: source_target_pairs {{\[\[}}0, 1], [1, 0]] here, {{\[\[}}0, 1]] from rank 0 (send at {{.*}}recv_pairs.mlir:7:5)

//--- permute_pairs.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %x = memref.alloc() : memref<2xf32>
  %y = memref.alloc() : memref<2xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%x : memref<2xf32>)
  linalg.fill ins(%one : f32) outs(%y : memref<2xf32>)
  scf.if %is0 {
    distruntime.collective_permute ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  } else {
    distruntime.collective_permute ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>}
  }
  %c1 = arith.constant 1 : index
  %y0 = memref.load %y[%c0] : memref<2xf32>
  %y1 = memref.load %y[%c1] : memref<2xf32>
  %mi = arith.index_cast %me : index to i32
  vector.print str "rank "
  vector.print %mi : i32 punctuation <no_punctuation>
  vector.print str ": "
  vector.print %y0 : f32 punctuation <no_punctuation>
  vector.print str " "
  vector.print %y1 : f32 punctuation <no_punctuation>
  vector.print punctuation <newline>
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- send_pairs.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %x = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%x : memref<4xf32>)
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  } else {
    distruntime.recv outs(%x : memref<4xf32>) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- recv_pairs.mlir
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %x = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  } else {
    distruntime.recv outs(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
