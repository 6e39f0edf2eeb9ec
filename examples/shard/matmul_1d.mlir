// C = C0 + A B with upstream shard annotations, on a 1-D grid of 4: the
// contraction dimension K is split, so each process multiplies a 6x3 block
// of A by a 3x6 block of B and shard-partition sums the partial products
// with shard.all_reduce (only process 0 adds C0). The inputs arrive
// replicated and are cut locally (shard.all_slice).
//
// Run:    scripts/run.sh examples/shard/matmul_1d.mlir -np 4
// Check:  python3 examples/shard/reference.py matmul

shard.grid @grid(shape = 4)

func.func @matmul(%a: tensor<6x12xf64>, %b: tensor<12x6xf64>,
                  %c: tensor<6x6xf64>) -> tensor<6x6xf64> {
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %k_cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %k_rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %replicated : tensor<6x12xf64>
  %b0 = shard.shard %b to %replicated : tensor<12x6xf64>
  %a1 = shard.shard %a0 to %k_cols annotate_for_users : tensor<6x12xf64>
  %b1 = shard.shard %b0 to %k_rows annotate_for_users : tensor<12x6xf64>
  %r = linalg.matmul ins(%a1, %b1 : tensor<6x12xf64>, tensor<12x6xf64>)
                     outs(%c : tensor<6x6xf64>) -> tensor<6x6xf64>
  %r0 = shard.shard %r to %replicated : tensor<6x6xf64>
  return %r0 : tensor<6x6xf64>
}

// Inputs from closed forms (the reference computes the same):
// A(i, k) = (i + 2k) mod 5 - 2, B(k, j) = (3k + j) mod 7 - 3, C0(i, j) = i - j.
func.func @pattern(%x: index, %y: index, %p: index, %q: index, %m: index,
                   %shift: index) -> f64 {
  %px = arith.muli %p, %x : index
  %qy = arith.muli %q, %y : index
  %s = arith.addi %px, %qy : index
  %r = arith.remui %s, %m : index
  %ri = arith.index_cast %r : index to i64
  %si = arith.index_cast %shift : index to i64
  %d = arith.subi %ri, %si : i64
  %v = arith.sitofp %d : i64 to f64
  return %v : f64
}

func.func @inputs() -> (tensor<6x12xf64>, tensor<12x6xf64>, tensor<6x6xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %a = tensor.generate {
  ^bb0(%i: index, %k: index):
    %v = func.call @pattern(%i, %k, %c1, %c2, %c5, %c2)
        : (index, index, index, index, index, index) -> f64
    tensor.yield %v : f64
  } : tensor<6x12xf64>
  %b = tensor.generate {
  ^bb0(%k: index, %j: index):
    %v = func.call @pattern(%k, %j, %c3, %c1, %c7, %c3)
        : (index, index, index, index, index, index) -> f64
    tensor.yield %v : f64
  } : tensor<12x6xf64>
  %c = tensor.generate {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    %di = arith.index_cast %d : index to i64
    %v = arith.sitofp %di : i64 to f64
    tensor.yield %v : f64
  } : tensor<6x6xf64>
  return %a, %b, %c : tensor<6x12xf64>, tensor<12x6xf64>, tensor<6x6xf64>
}

// Process 0 prints the rows (values followed by a space); every process prints a checksum of its copy
// (sum of (i * 6 + j + 1) * C(i, j)), so a process with other data shows.
func.func @print_result(%r: tensor<6x6xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 6 : index
  %cols = arith.constant 6 : index
  %pad = arith.constant 0.0 : f64
  %me = distruntime.team_member team(0)
  %first = arith.cmpi eq, %me, %c0 : index
  scf.if %first {
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %x = tensor.extract %r[%i, %j] : tensor<6x6xf64>
        vector.print %x : f64 punctuation <no_punctuation>
        vector.print str " "
      }
      vector.print punctuation <newline>
    }
  }
  %sum = scf.for %i = %c0 to %rows step %c1 iter_args(%s = %pad) -> f64 {
    %t = scf.for %j = %c0 to %cols step %c1 iter_args(%u = %s) -> f64 {
      %ic = arith.muli %i, %cols : index
      %w0 = arith.addi %ic, %j : index
      %w1 = arith.addi %w0, %c1 : index
      %wi = arith.index_cast %w1 : index to i64
      %w = arith.sitofp %wi : i64 to f64
      %x = tensor.extract %r[%i, %j] : tensor<6x6xf64>
      %p = arith.mulf %w, %x : f64
      %n = arith.addf %u, %p : f64
      scf.yield %n : f64
    }
    scf.yield %t : f64
  }
  vector.print str "checksum "
  vector.print %sum : f64
  return
}

func.func @main() -> i32 {
  %a, %b, %c = func.call @inputs()
      : () -> (tensor<6x12xf64>, tensor<12x6xf64>, tensor<6x6xf64>)
  %r = func.call @matmul(%a, %b, %c)
      : (tensor<6x12xf64>, tensor<12x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  func.call @print_result(%r) : (tensor<6x6xf64>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
