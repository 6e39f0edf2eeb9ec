// An async tensor-form collective reads a private copy of its input. Here
// the input is not read after the op, so bufferization lets the fill write
// the input's buffer in place before the wait; the reduction must still see
// the input as it was at the op. x@q = [10 q + i], i < 4, so the sum over N
// processes is 10 N (N - 1) / 2 + N i.
// With buffer deallocation, the copy is freed after the wait.
// RUN: %distruntime-opt %s --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline)' | FileCheck %s --check-prefix=IR
// IR: %[[X:.*]] = memref.alloc() {{.*}}: memref<4xi64>
// IR: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<4xi64>
// IR-NEXT: memref.copy %[[X]], %[[COPY]]
// IR: %[[H:.*]] = distruntime.all_reduce ins(%[[COPY]] : memref<4xi64>)
// IR-NEXT: linalg.fill ins(%{{.*}} : i64) outs(%[[X]] : memref<4xi64>)
// IR-NEXT: distruntime.wait %[[H]]
// IR: memref.dealloc %[[COPY]]
// RUN: %compile %s -o %t
// RUN: %mpirun 1 %t | sort | FileCheck %s --check-prefix=NP1
// RUN: %mpirun 2 %t | sort | FileCheck %s --check-prefix=NP2
// RUN: %mpirun 3 %t | sort | FileCheck %s --check-prefix=NP3
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=buffer-deallocation=1 %compile %s -o %t.dealloc
// RUN: %mpirun 3 %t.dealloc | sort | FileCheck %s --check-prefix=NP3
// NP1: rank 0: 0 1 2 3 | 1000 1000 1000 1000
// NP2: rank 0: 10 12 14 16 | 1000 1000 1000 1000
// NP2-NEXT: rank 1: 10 12 14 16 | 1000 1000 1000 1000
// NP3: rank 0: 30 33 36 39 | 1000 1000 1000 1000
// NP3-NEXT: rank 1: 30 33 36 39 | 1000 1000 1000 1000
// NP3-NEXT: rank 2: 30 33 36 39 | 1000 1000 1000 1000
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %q = arith.index_cast %me : index to i64
  %ten = arith.constant 10 : i64
  %base = arith.muli %q, %ten : i64
  %e = tensor.empty() : tensor<4xi64>
  %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %e) -> tensor<4xi64> {
    %ii = arith.index_cast %i : index to i64
    %v = arith.addi %base, %ii : i64
    %n = tensor.insert %v into %a[%i] : tensor<4xi64>
    scf.yield %n : tensor<4xi64>
  }
  %r, %h = distruntime.all_reduce ins(%x : tensor<4xi64>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xi64>
  %thousand = arith.constant 1000 : i64
  %y = linalg.fill ins(%thousand : i64) outs(%x : tensor<4xi64>) -> tensor<4xi64>
  distruntime.wait %h

  vector.print str "rank "
  vector.print %q : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %c4 step %c1 {
    %s = tensor.extract %r[%i] : tensor<4xi64>
    vector.print str " "
    vector.print %s : i64 punctuation <no_punctuation>
  }
  vector.print str " |"
  scf.for %i = %c0 to %c4 step %c1 {
    %s = tensor.extract %y[%i] : tensor<4xi64>
    vector.print str " "
    vector.print %s : i64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
