// Checked mode (DISTRT_CHECK=1) and outputs that overlap what they may not:
// another output (the last write wins), or an input other than their own
// (the op may write the output before it reads the input). Unchecked, these
// exit 0 with wrong data. Checked mode checks each call's buffers when it
// plans the call, as distruntime-verify-spmd checks them when compiling;
// the pass sees only one buffer used twice, the run time any overlap (two
// subviews of one allocation). Every rank reports its own call.
// RUN: split-file %s %t
// RUN: %compile %t/same_outputs.mlir -o %t/same_outputs
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 1 %t/same_outputs 2>&1 | FileCheck %s --check-prefix=SAME --implicit-check-not=ORTE_ERROR_LOG
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/same_outputs 2>&1 | FileCheck %s --check-prefixes=SAME,SAME2 --implicit-check-not=ORTE_ERROR_LOG
// RUN: %mpirun 2 %t/same_outputs | FileCheck %s --check-prefix=LASTWINS
// RUN: %compile %t/views.mlir -o %t/views
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/views 2>&1 | FileCheck %s --check-prefixes=VIEWS --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/crossed.mlir -o %t/crossed
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %S/../Inputs/fails-within.sh 60 %mpirun 2 %t/crossed 2>&1 | FileCheck %s --check-prefix=CROSSED --implicit-check-not=ORTE_ERROR_LOG
// RUN: %compile %t/in_place.mlir -o %t/in_place
// RUN: env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 %mpirun 2 %t/in_place | FileCheck %s --check-prefix=INPLACE

// all_reduce of two inputs into one buffer, twice.
// SAME-DAG: distrt: error: all_reduce at {{.*}}same_outputs.mlir:10:3: team 0, rank 0: outputs #0 and #1 overlap: the op writes both, and the last write wins
// SAME2-DAG: distrt: error: all_reduce at {{.*}}same_outputs.mlir:10:3: team 0, rank 1: outputs #0 and #1 overlap: the op writes both, and the last write wins
// Unchecked at np 2 the sums of the second input (2 + 2) win over the first's (1 + 1).
// LASTWINS: 4 4
// Two subviews of one allocation, elements [0, 4) and [2, 6).
// VIEWS-DAG: distrt: error: all_reduce at {{.*}}views.mlir:8:3: team 0, rank 0: outputs #0 and #1 overlap: the op writes both, and the last write wins
// VIEWS-DAG: distrt: error: all_reduce at {{.*}}views.mlir:8:3: team 0, rank 1: outputs #0 and #1 overlap: the op writes both, and the last write wins
// ins(%a, %b) outs(%b, %a): output #0 is input #1's buffer.
// CROSSED-DAG: distrt: error: all_reduce at {{.*}}crossed.mlir:5:3: team 0, rank 0: output #0 overlaps input #1: the op may write the output before it reads the input (only an operand's own input and output may share memory)
// CROSSED-DAG: distrt: error: all_reduce at {{.*}}crossed.mlir:5:3: team 0, rank 1: output #0 overlaps input #1: the op may write the output before it reads the input (only an operand's own input and output may share memory)
// In place (each operand's own input and output one buffer) is fine: 1 + 1 and 2 + 2.
// INPLACE: 2 4

//--- same_outputs.mlir
func.func @main() -> i32 {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  %c = memref.alloc() : memref<2xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  linalg.fill ins(%two : f32) outs(%b : memref<2xf32>)
  %me = distruntime.team_member team(0)
  distruntime.all_reduce ins(%a, %b : memref<2xf32>, memref<2xf32>) outs(%c, %c : memref<2xf32>, memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    %c1 = arith.constant 1 : index
    %v0 = memref.load %c[%c0] : memref<2xf32>
    %v1 = memref.load %c[%c1] : memref<2xf32>
    vector.print %v0 : f32 punctuation <no_punctuation>
    vector.print str " "
    vector.print %v1 : f32 punctuation <no_punctuation>
    vector.print punctuation <newline>
  }
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- views.mlir
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %buf = memref.alloc() : memref<8xf32>
  %lo = memref.subview %buf[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %hi = memref.subview %buf[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %me = distruntime.team_member team(0)
  distruntime.all_reduce ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%lo, %hi : memref<4xf32, strided<[1]>>, memref<4xf32, strided<[1], offset: 2>>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- crossed.mlir
func.func @main() -> i32 {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  %me = distruntime.team_member team(0)
  distruntime.all_reduce ins(%a, %b : memref<2xf32>, memref<2xf32>) outs(%b, %a : memref<2xf32>, memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}

//--- in_place.mlir
func.func @main() -> i32 {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  linalg.fill ins(%two : f32) outs(%b : memref<2xf32>)
  %me = distruntime.team_member team(0)
  distruntime.all_reduce ins(%a, %b : memref<2xf32>, memref<2xf32>) outs(%a, %b : memref<2xf32>, memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    %va = memref.load %a[%c0] : memref<2xf32>
    %vb = memref.load %b[%c0] : memref<2xf32>
    vector.print %va : f32 punctuation <no_punctuation>
    vector.print str " "
    vector.print %vb : f32 punctuation <no_punctuation>
    vector.print punctuation <newline>
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
