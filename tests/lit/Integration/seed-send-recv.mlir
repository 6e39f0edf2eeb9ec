// The send/recv examples of the seed (003): source_target_pairs
// [[0, 1], [1, 2]] on channel 1. channel_id > 0 names partitions, so the
// grid is 1 replica x 3 partitions. Process 0 is nobody's target and gets
// zeros. The seed's recv example marks its channel host_to_device while
// is_host_transfer = false, which its own (C5) rejects; here the channel
// type is left to follow is_host_transfer. The host-transfer send of the
// seed is the queue test below, then an async host-transfer recv posted
// before its send (on channel 2), which the send serves.
// RUN: %compile %s -o %t
// RUN: %mpirun 3 %t | sort | FileCheck %s
// Each channel's send and recv are a pair distruntime-verify-spmd proves:
// checked mode at DISTRT_CHECK=1 sends no headers for them, at all it does;
// the data is the same.
// RUN: env DISTRT_CHECK=1 %mpirun 3 %t | sort | FileCheck %s
// RUN: env DISTRT_CHECK=all %mpirun 3 %t | sort | FileCheck %s
// CHECK: rank 0: 0 0 0 0 host 7 8 9 10 later 1 2 3 4
// CHECK-NEXT: rank 1: 1 2 3 4 host 7 8 9 10 later 101 102 103 104
// CHECK-NEXT: rank 2: 101 102 103 104 host 7 8 9 10 later 201 202 203 204

module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 3 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %i = arith.index_cast %me : index to i64
    // operand@p = [[100 p + 1, 100 p + 2], [100 p + 3, 100 p + 4]]
    %hundred = arith.constant 100 : i64
    %base = arith.muli %i, %hundred : i64
    %x = memref.alloc() : memref<2x2xi64>
    %y = memref.alloc() : memref<2x2xi64>
    %c2 = arith.constant 2 : index
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %k0 = arith.muli %r, %c2 : index
        %k1 = arith.addi %k0, %c : index
        %k2 = arith.addi %k1, %c1 : index
        %k = arith.index_cast %k2 : index to i64
        %v = arith.addi %base, %k : i64
        memref.store %v, %x[%r, %c] : memref<2x2xi64>
      }
    }
    %hs = distruntime.send ins(%x : memref<2x2xi64>) async {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
      channel_id = 1 : i64, is_host_transfer = false
    }
    distruntime.recv outs(%y : memref<2x2xi64>) {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
      channel_id = 1 : i64, is_host_transfer = false
    }
    distruntime.wait %hs

    // Host transfer, as in the seed's send example: a FIFO per channel.
    %q = arith.constant dense<[[7, 8], [9, 10]]> : tensor<2x2xi64>
    distruntime.send ins(%q : tensor<2x2xi64>) {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
      channel_id = 1 : i64,
      channel_type = #distruntime.channel_type<device_to_host>,
      is_host_transfer = true
    }
    %h = distruntime.recv {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
      channel_id = 1 : i64, is_host_transfer = true
    } -> tensor<2x2xi64>

    %z = memref.alloc() : memref<2x2xi64>
    %hr = distruntime.recv outs(%z : memref<2x2xi64>) async {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
      channel_id = 2 : i64, is_host_transfer = true
    }
    distruntime.send ins(%x : memref<2x2xi64>) {
      source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
      channel_id = 2 : i64, is_host_transfer = true
    }
    distruntime.wait %hr

    vector.print str "rank "
    vector.print %i : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = memref.load %y[%r, %c] : memref<2x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print str " host"
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = tensor.extract %h[%r, %c] : tensor<2x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print str " later"
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = memref.load %z[%r, %c] : memref<2x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
