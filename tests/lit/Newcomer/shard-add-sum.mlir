// A newcomer's third program: an element-wise add and a sum written with
// upstream shard annotations on a grid of 4, written from the guide
// ("Upstream shard programs"). x(i) = i and y(i) = i / 2 arrive replicated,
// each process adds its quarter, and shard-partition combines the partial
// sums (shard.all_reduce) and gathers z (shard.all_gather). Every process
// prints z = 1.5 i and sum(z) = 1.5 * 120 = 180, all exact in f64.
// RUN: %compile %s -o %t
// RUN: %mpirun 4 %t | sort | uniq -c | FileCheck %s
// CHECK: 4 sum 180
// CHECK-NEXT: 4 z 0 1.5 3 4.5 6 7.5 9 10.5 12 13.5 15 16.5 18 19.5 21 22.5
// The grid needs 4 processes: on 2 each process says so and the job fails.
// RUN: not %mpirun 2 %t 2>&1 | FileCheck %s --check-prefix=NP2
// NP2: distrt: error: shard.grid @grid (shape 4) at {{.*}}shard-add-sum.mlir:{{[0-9]+}}:1: rank {{[01]}}: processes in team 0: 2 vs 4

shard.grid @grid(shape = 4)

#id = affine_map<(i) -> (i)>

func.func @add_sum(%x: tensor<16xf64>, %y: tensor<16xf64>) -> (tensor<16xf64>, tensor<f64>) {
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x0 = shard.shard %x to %replicated : tensor<16xf64>
  %x1 = shard.shard %x0 to %split annotate_for_users : tensor<16xf64>
  %y0 = shard.shard %y to %replicated : tensor<16xf64>
  %y1 = shard.shard %y0 to %split annotate_for_users : tensor<16xf64>
  %e = tensor.empty() : tensor<16xf64>
  %z = linalg.add ins(%x1, %y1 : tensor<16xf64>, tensor<16xf64>)
      outs(%e : tensor<16xf64>) -> tensor<16xf64>
  %z0 = shard.shard %z to %split : tensor<16xf64>
  %z1 = shard.shard %z0 to %split annotate_for_users : tensor<16xf64>
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<f64>
  %acc = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %sum = linalg.reduce ins(%z1 : tensor<16xf64>) outs(%acc : tensor<f64>) dimensions = [0]
    (%in: f64, %a: f64) {
      %t = arith.addf %in, %a : f64
      linalg.yield %t : f64
    }
  %sum1 = shard.shard %sum to %replicated : tensor<f64>
  %z2 = shard.shard %z0 to %replicated annotate_for_users : tensor<16xf64>
  return %z2, %sum1 : tensor<16xf64>, tensor<f64>
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 16 : index
  %half = arith.constant 0.5 : f64
  %x = tensor.generate {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f64
    tensor.yield %v : f64
  } : tensor<16xf64>
  %y = tensor.generate {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f64
    %h = arith.mulf %v, %half : f64
    tensor.yield %h : f64
  } : tensor<16xf64>
  %z, %sum = func.call @add_sum(%x, %y)
      : (tensor<16xf64>, tensor<16xf64>) -> (tensor<16xf64>, tensor<f64>)
  vector.print str "z"
  scf.for %i = %c0 to %n step %c1 {
    %v = tensor.extract %z[%i] : tensor<16xf64>
    vector.print str " "
    vector.print %v : f64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %s = tensor.extract %sum[] : tensor<f64>
  vector.print str "sum "
  vector.print %s : f64
  %ok = arith.constant 0 : i32
  return %ok : i32
}
