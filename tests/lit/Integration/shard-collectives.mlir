// Every shard collective convert-shard-to-distruntime lowers, run on a 2x2
// grid (ranks row-major: (0,0)=0, (0,1)=1, (1,0)=2, (1,1)=3), each process
// starting from x@p = [10 p + 1, 10 p + 2]. Expected values from shard's
// definitions, by hand: grid_axes = [1] groups the rows {0,1},{2,3}, [0]
// the columns {0,2},{1,3}; [1, 0] all four with axis 1 slowest (0, 2, 1, 3);
// a root is an in-group index; shift sends p to the next along the axis;
// send/recv pair the two rows of each column (recv prints on its targets).
// At 3 processes the 2x2 grid is a run-time error naming it, on every rank.
// RUN: %compile %s -o %t
// RUN: %mpirun 4 %t | sort | FileCheck %s
// Every collective here is proven (distruntime.proven): DISTRT_CHECK=1
// runs them unchecked, DISTRT_CHECK=all checks them; the results are the
// same.
// RUN: env DISTRT_CHECK=1 %mpirun 4 %t | sort | FileCheck %s
// RUN: env DISTRT_CHECK=all %mpirun 4 %t | sort | FileCheck %s
// RUN: %S/Inputs/fails-within.sh 60 %mpirun 3 %t 2>&1 | FileCheck %s --check-prefix=SIZE --implicit-check-not=ORTE_ERROR_LOG

// SIZE-DAG: shard.grid @g (shape 2x2) at {{.*}}shard-collectives.mlir:72:1: rank 0: processes in team 0: 3 vs 4
// SIZE-DAG: shard.grid @g (shape 2x2) at {{.*}}shard-collectives.mlir:72:1: rank 2: processes in team 0: 3 vs 4

// CHECK: all_gather_axes10 rank 0: 1 2 21 22 11 12 31 32
// CHECK-NEXT: all_gather_axes10 rank 1: 1 2 21 22 11 12 31 32
// CHECK-NEXT: all_gather_axes10 rank 2: 1 2 21 22 11 12 31 32
// CHECK-NEXT: all_gather_axes10 rank 3: 1 2 21 22 11 12 31 32
// CHECK-NEXT: all_gather_axis0 rank 0: 1 2 21 22
// CHECK-NEXT: all_gather_axis0 rank 1: 11 12 31 32
// CHECK-NEXT: all_gather_axis0 rank 2: 1 2 21 22
// CHECK-NEXT: all_gather_axis0 rank 3: 11 12 31 32
// CHECK-NEXT: all_reduce_average_axis0 rank 0: 11 12
// CHECK-NEXT: all_reduce_average_axis0 rank 1: 21 22
// CHECK-NEXT: all_reduce_average_axis0 rank 2: 11 12
// CHECK-NEXT: all_reduce_average_axis0 rank 3: 21 22
// CHECK-NEXT: all_reduce_sum_axis1 rank 0: 12 14
// CHECK-NEXT: all_reduce_sum_axis1 rank 1: 12 14
// CHECK-NEXT: all_reduce_sum_axis1 rank 2: 52 54
// CHECK-NEXT: all_reduce_sum_axis1 rank 3: 52 54
// CHECK-NEXT: all_slice_axis0 rank 0: 1
// CHECK-NEXT: all_slice_axis0 rank 1: 11
// CHECK-NEXT: all_slice_axis0 rank 2: 22
// CHECK-NEXT: all_slice_axis0 rank 3: 32
// CHECK-NEXT: all_to_all_axis1 rank 0: 1 11
// CHECK-NEXT: all_to_all_axis1 rank 1: 2 12
// CHECK-NEXT: all_to_all_axis1 rank 2: 21 31
// CHECK-NEXT: all_to_all_axis1 rank 3: 22 32
// CHECK-NEXT: broadcast_axis0_root1 rank 0: 21 22
// CHECK-NEXT: broadcast_axis0_root1 rank 1: 31 32
// CHECK-NEXT: broadcast_axis0_root1 rank 2: 21 22
// CHECK-NEXT: broadcast_axis0_root1 rank 3: 31 32
// CHECK-NEXT: gather_axis1_root0 rank 0: 1 2 11 12
// CHECK-NEXT: gather_axis1_root0 rank 1: 1 2 11 12
// CHECK-NEXT: gather_axis1_root0 rank 2: 21 22 31 32
// CHECK-NEXT: gather_axis1_root0 rank 3: 21 22 31 32
// CHECK-NEXT: recv_axis0 rank 2: 1 2
// CHECK-NEXT: recv_axis0 rank 3: 11 12
// CHECK-NEXT: reduce_max_all rank 0: 31 32
// CHECK-NEXT: reduce_max_all rank 1: 31 32
// CHECK-NEXT: reduce_max_all rank 2: 31 32
// CHECK-NEXT: reduce_max_all rank 3: 31 32
// CHECK-NEXT: reduce_scatter_axis1 rank 0: 12
// CHECK-NEXT: reduce_scatter_axis1 rank 1: 14
// CHECK-NEXT: reduce_scatter_axis1 rank 2: 52
// CHECK-NEXT: reduce_scatter_axis1 rank 3: 54
// CHECK-NEXT: scatter_axis1_root0 rank 0: 1
// CHECK-NEXT: scatter_axis1_root0 rank 1: 2
// CHECK-NEXT: scatter_axis1_root0 rank 2: 21
// CHECK-NEXT: scatter_axis1_root0 rank 3: 22
// CHECK-NEXT: shift_axis1_rotate rank 0: 11 12
// CHECK-NEXT: shift_axis1_rotate rank 1: 1 2
// CHECK-NEXT: shift_axis1_rotate rank 2: 31 32
// CHECK-NEXT: shift_axis1_rotate rank 3: 21 22

shard.grid @g(shape = 2x2)

func.func @row1(%t: tensor<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = tensor.extract %t[%i] : tensor<1xf64>
    vector.print str " "
    vector.print %v : f64 punctuation <no_punctuation>
  }
  return
}
func.func @row2(%t: tensor<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = tensor.extract %t[%i] : tensor<2xf64>
    vector.print str " "
    vector.print %v : f64 punctuation <no_punctuation>
  }
  return
}
func.func @row4(%t: tensor<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = tensor.extract %t[%i] : tensor<4xf64>
    vector.print str " "
    vector.print %v : f64 punctuation <no_punctuation>
  }
  return
}
func.func @row8(%t: tensor<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = tensor.extract %t[%i] : tensor<8xf64>
    vector.print str " "
    vector.print %v : f64 punctuation <no_punctuation>
  }
  return
}

func.func @main() -> i32 {
  %c2 = arith.constant 2 : index
  %p = shard.process_linear_index on @g : index
  %p64 = arith.index_cast %p : index to i64
  %x = tensor.generate {
  ^bb0(%k: index):
    %ten = arith.constant 10 : index
    %one = arith.constant 1 : index
    %a = arith.muli %p, %ten : index
    %b = arith.addi %a, %k : index
    %c = arith.addi %b, %one : index
    %ci = arith.index_cast %c : index to i64
    %v = arith.sitofp %ci : i64 to f64
    tensor.yield %v : f64
  } : tensor<2xf64>
  %print_all_reduce_sum_axis1 = arith.constant true
  %print_all_reduce_average_axis0 = arith.constant true
  %print_all_gather_axis0 = arith.constant true
  %print_all_gather_axes10 = arith.constant true
  %print_all_to_all_axis1 = arith.constant true
  %print_reduce_scatter_axis1 = arith.constant true
  %print_broadcast_axis0_root1 = arith.constant true
  %print_scatter_axis1_root0 = arith.constant true
  %print_gather_axis1_root0 = arith.constant true
  %print_reduce_max_all = arith.constant true
  %print_shift_axis1_rotate = arith.constant true
  %print_recv_axis0 = arith.cmpi uge, %p, %c2 : index
  %print_all_slice_axis0 = arith.constant true
  %r_all_reduce_sum_axis1 = shard.all_reduce %x on @g grid_axes = [1] : tensor<2xf64> -> tensor<2xf64>
  scf.if %print_all_reduce_sum_axis1 {
    vector.print str "all_reduce_sum_axis1 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_all_reduce_sum_axis1) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_all_reduce_average_axis0 = shard.all_reduce %x on @g grid_axes = [0] reduction = average : tensor<2xf64> -> tensor<2xf64>
  scf.if %print_all_reduce_average_axis0 {
    vector.print str "all_reduce_average_axis0 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_all_reduce_average_axis0) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_all_gather_axis0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2xf64> -> tensor<4xf64>
  scf.if %print_all_gather_axis0 {
    vector.print str "all_gather_axis0 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row4(%r_all_gather_axis0) : (tensor<4xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_all_gather_axes10 = shard.all_gather %x on @g grid_axes = [1, 0] gather_axis = 0 : tensor<2xf64> -> tensor<8xf64>
  scf.if %print_all_gather_axes10 {
    vector.print str "all_gather_axes10 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row8(%r_all_gather_axes10) : (tensor<8xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_all_to_all_axis1 = shard.all_to_all %x on @g grid_axes = [1] split_axis = 0 concat_axis = 0 : tensor<2xf64> -> tensor<2xf64>
  scf.if %print_all_to_all_axis1 {
    vector.print str "all_to_all_axis1 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_all_to_all_axis1) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_reduce_scatter_axis1 = shard.reduce_scatter %x on @g grid_axes = [1] scatter_axis = 0 : tensor<2xf64> -> tensor<1xf64>
  scf.if %print_reduce_scatter_axis1 {
    vector.print str "reduce_scatter_axis1 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row1(%r_reduce_scatter_axis1) : (tensor<1xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_broadcast_axis0_root1 = shard.broadcast %x on @g grid_axes = [0] root = [1] : (tensor<2xf64>) -> tensor<2xf64>
  scf.if %print_broadcast_axis0_root1 {
    vector.print str "broadcast_axis0_root1 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_broadcast_axis0_root1) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_scatter_axis1_root0 = shard.scatter %x on @g grid_axes = [1] scatter_axis = 0 root = [0] : (tensor<2xf64>) -> tensor<1xf64>
  scf.if %print_scatter_axis1_root0 {
    vector.print str "scatter_axis1_root0 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row1(%r_scatter_axis1_root0) : (tensor<1xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_gather_axis1_root0 = shard.gather %x on @g grid_axes = [1] gather_axis = 0 root = [0] : (tensor<2xf64>) -> tensor<4xf64>
  scf.if %print_gather_axis1_root0 {
    vector.print str "gather_axis1_root0 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row4(%r_gather_axis1_root0) : (tensor<4xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_reduce_max_all = shard.reduce %x on @g grid_axes = [0, 1] reduction = max root = [0, 0] : (tensor<2xf64>) -> tensor<2xf64>
  scf.if %print_reduce_max_all {
    vector.print str "reduce_max_all rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_reduce_max_all) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_shift_axis1_rotate = shard.shift %x on @g grid_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<2xf64> -> tensor<2xf64>
  scf.if %print_shift_axis1_rotate {
    vector.print str "shift_axis1_rotate rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_shift_axis1_rotate) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %s_recv_axis0 = shard.send %x on @g grid_axes = [0] destination = [1] : (tensor<2xf64>) -> tensor<2xf64>
  %r_recv_axis0 = shard.recv %x on @g grid_axes = [0] source = [0] : (tensor<2xf64>) -> tensor<2xf64>
  scf.if %print_recv_axis0 {
    vector.print str "recv_axis0 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row2(%r_recv_axis0) : (tensor<2xf64>) -> ()
    vector.print punctuation <newline>
  }
  %r_all_slice_axis0 = shard.all_slice %x on @g grid_axes = [0] slice_axis = 0 : tensor<2xf64> -> tensor<1xf64>
  scf.if %print_all_slice_axis0 {
    vector.print str "all_slice_axis0 rank "
    vector.print %p64 : i64 punctuation <no_punctuation>
    vector.print str ":"
    func.call @row1(%r_all_slice_axis0) : (tensor<1xf64>) -> ()
    vector.print punctuation <newline>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
