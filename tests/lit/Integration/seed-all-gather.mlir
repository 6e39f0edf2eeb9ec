// The all_gather example of the seed (000), at its process count:
// 2 replicas, all_gather_dim = 1, replica_groups [[0, 1]].
// RUN: %compile %s -o %t
// RUN: %mpirun 2 %t | sort | FileCheck %s
// CHECK: rank 0: 1 2 5 6 3 4 7 8
// CHECK-NEXT: rank 1: 1 2 5 6 3 4 7 8

module attributes {distruntime.num_replicas = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %me = distruntime.team_member team(0)
    %is0 = arith.cmpi eq, %me, %c0 : index
    // %operand1@(0, 0): [[1, 2], [3, 4]], %operand1@(1, 0): [[5, 6], [7, 8]]
    %a = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %b = arith.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
    %x = arith.select %is0, %a, %b : tensor<2x2xi64>
    %r = distruntime.all_gather ins(%x : tensor<2x2xi64>) {
      all_gather_dim = 1 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_id = 0 : i64
    } -> tensor<2x4xi64>
    %flat = tensor.collapse_shape %r [[0, 1]] : tensor<2x4xi64> into tensor<8xi64>
    call @print_row(%me, %flat) : (index, tensor<8xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  func.func @print_row(%rank: index, %row: tensor<8xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %r = arith.index_cast %rank : index to i64
    vector.print str "rank "
    vector.print %r : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %i = %c0 to %c8 step %c1 {
      %v = tensor.extract %row[%i] : tensor<8xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    return
  }
}
