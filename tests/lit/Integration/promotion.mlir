// all_reduce and reduce_scatter whose computation reduces in a wider type
// than the inputs' (StableHLO's is_promotable), compiled and run at np 2.
// all_reduce: x@q = [100 + q, 120 + q, -100 - q] i8, summed as i32:
//   [201, 241, -201] (past the i8 range).
// reduce_scatter, group [1, 0]: y@q = [60 q + 1000 i for i < 4] i16 -> i64,
//   max over q is 60 + 1000 i; position 0 (process 1) keeps i = 0, 1 and
//   position 1 (process 0) keeps i = 2, 3.
// RUN: %compile %s -o %t
// RUN: %mpirun 2 %t | sort | FileCheck %s
// CHECK: rank 0: 201 241 -201 | 2060 3060
// CHECK-NEXT: rank 1: 201 241 -201 | 60 1060
module attributes {distruntime.num_replicas = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    %q8 = arith.index_cast %me : index to i8
    %a = arith.constant 100 : i8
    %b = arith.constant 120 : i8
    %m = arith.constant -100 : i8
    %x0 = arith.addi %a, %q8 : i8
    %x1 = arith.addi %b, %q8 : i8
    %x2 = arith.subi %m, %q8 : i8
    %x = tensor.from_elements %x0, %x1, %x2 : tensor<3xi8>
    %s = distruntime.all_reduce ins(%x : tensor<3xi8>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      distruntime.yield %t : i32
    } -> tensor<3xi32>

    %y = memref.alloc() : memref<4xi16>
    %out = memref.alloc() : memref<2xi64>
    scf.for %i = %c0 to %c4 step %c1 {
      %k = arith.constant 1000 : index
      %sixty = arith.constant 60 : index
      %iq = arith.muli %me, %sixty : index
      %ik = arith.muli %i, %k : index
      %v = arith.addi %iq, %ik : index
      %v16 = arith.index_cast %v : index to i16
      memref.store %v16, %y[%i] : memref<4xi16>
    }
    distruntime.reduce_scatter ins(%y : memref<4xi16>) outs(%out : memref<2xi64>) {scatter_dimension = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} computation {
    ^bb0(%l: i64, %r: i64):
      %t = arith.maxsi %l, %r : i64
      distruntime.yield %t : i64
    }

    vector.print str "rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %i = %c0 to %c3 step %c1 {
      %e = tensor.extract %s[%i] : tensor<3xi32>
      vector.print str " "
      vector.print %e : i32 punctuation <no_punctuation>
    }
    vector.print str " |"
    scf.for %i = %c0 to %c2 step %c1 {
      %e = memref.load %out[%i] : memref<2xi64>
      vector.print str " "
      vector.print %e : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
