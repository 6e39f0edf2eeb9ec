// The collective_broadcast example of the seed (001), at its process count:
// 4 replicas, replica_groups [[2, 1]]: the source is replica 2 (the first
// of the group, not the lowest id); replicas 0 and 3 are in no group and
// get zeros.
// RUN: %compile %s -o %t
// RUN: %mpirun 4 %t | sort | FileCheck %s
// CHECK: rank 0: 0 0
// CHECK-NEXT: rank 1: 5 6
// CHECK-NEXT: rank 2: 5 6
// CHECK-NEXT: rank 3: 0 0

module attributes {distruntime.num_replicas = 4 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %me = distruntime.team_member team(0)
    // %operand@(i, 0): [[2i + 1, 2i + 2]]
    %i = arith.index_cast %me : index to i64
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %t = arith.muli %i, %two : i64
    %v0 = arith.addi %t, %one : i64
    %v1 = arith.addi %t, %two : i64
    %x = tensor.from_elements %v0, %v1 : tensor<1x2xi64>
    %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>) {
      replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>,
      channel_id = 0 : i64
    } -> tensor<1x2xi64>
    %a = tensor.extract %r[%c0, %c0] : tensor<1x2xi64>
    %b = tensor.extract %r[%c0, %c1] : tensor<1x2xi64>
    vector.print str "rank "
    vector.print %i : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %a : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %b : i64
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
