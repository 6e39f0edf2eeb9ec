// An elementwise map and two reductions written with upstream shard
// annotations, on a 1-D grid of 4: x arrives replicated and each process
// keeps its quarter (shard.all_slice), squares it and reduces it locally;
// shard-partition then combines the partial sum and maximum with
// shard.all_reduce and reassembles y = x * x with shard.all_gather.
//
// Run:    scripts/run.sh examples/shard/elementwise.mlir -np 4
// Check:  python3 examples/shard/reference.py elementwise

shard.grid @grid(shape = 4)

#id = affine_map<(i) -> (i)>

func.func @square_sum_max(%x: tensor<16xf64>)
    -> (tensor<16xf64>, tensor<f64>, tensor<f64>) {
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x0 = shard.shard %x to %replicated : tensor<16xf64>
  %x1 = shard.shard %x0 to %split annotate_for_users : tensor<16xf64>
  %e = tensor.empty() : tensor<16xf64>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x1 : tensor<16xf64>) outs(%e : tensor<16xf64>) {
  ^bb0(%a: f64, %o: f64):
    %sq = arith.mulf %a, %a : f64
    linalg.yield %sq : f64
  } -> tensor<16xf64>
  %y0 = shard.shard %y to %split : tensor<16xf64>
  %y1 = shard.shard %y0 to %split annotate_for_users : tensor<16xf64>

  %zero = arith.constant 0.0 : f64
  %low = arith.constant -1.0e300 : f64
  %e0 = tensor.empty() : tensor<f64>
  %sum0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %max0 = linalg.fill ins(%low : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %sum = linalg.reduce ins(%y1 : tensor<16xf64>) outs(%sum0 : tensor<f64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %t = arith.addf %in, %acc : f64
      linalg.yield %t : f64
    }
  %max = linalg.reduce ins(%y1 : tensor<16xf64>) outs(%max0 : tensor<f64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %t = arith.maximumf %in, %acc : f64
      linalg.yield %t : f64
    }
  %sum1 = shard.shard %sum to %replicated : tensor<f64>
  %max1 = shard.shard %max to %replicated : tensor<f64>
  %y2 = shard.shard %y0 to %replicated annotate_for_users : tensor<16xf64>
  return %y2, %sum1, %max1 : tensor<16xf64>, tensor<f64>, tensor<f64>
}

// x(i) = i - 7. Process 0 prints y; every process prints its sum, maximum
// and a checksum of its y (sum of (i + 1) * y(i)), so any process holding
// other data shows.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant 16 : index
  %zero = arith.constant 0.0 : f64
  %x = tensor.generate {
  ^bb0(%i: index):
    %d = arith.subi %i, %c7 : index
    %di = arith.index_cast %d : index to i64
    %v = arith.sitofp %di : i64 to f64
    tensor.yield %v : f64
  } : tensor<16xf64>
  %y, %sum, %max = func.call @square_sum_max(%x)
      : (tensor<16xf64>) -> (tensor<16xf64>, tensor<f64>, tensor<f64>)
  %me = distruntime.team_member team(0)
  %first = arith.cmpi eq, %me, %c0 : index
  scf.if %first {
    vector.print str "y "
    scf.for %i = %c0 to %n step %c1 {
      %v = tensor.extract %y[%i] : tensor<16xf64>
      vector.print %v : f64 punctuation <no_punctuation>
      vector.print str " "
    }
    vector.print punctuation <newline>
  }
  %check = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> f64 {
    %w0 = arith.addi %i, %c1 : index
    %wi = arith.index_cast %w0 : index to i64
    %w = arith.sitofp %wi : i64 to f64
    %v = tensor.extract %y[%i] : tensor<16xf64>
    %p = arith.mulf %w, %v : f64
    %t = arith.addf %s, %p : f64
    scf.yield %t : f64
  }
  %s = tensor.extract %sum[] : tensor<f64>
  %m = tensor.extract %max[] : tensor<f64>
  vector.print str "sum "
  vector.print %s : f64 punctuation <no_punctuation>
  vector.print str " max "
  vector.print %m : f64 punctuation <no_punctuation>
  vector.print str " checksum "
  vector.print %check : f64
  %ok = arith.constant 0 : i32
  return %ok : i32
}
