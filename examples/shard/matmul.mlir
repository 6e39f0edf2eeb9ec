// C = C0 + A B written once with upstream shard annotations, partitioned
// three ways and run through distruntime (scripts/compile.sh runs
// shard-to-llvm on programs with a shard.grid):
//  - @matmul_k on a 1-D grid of 4: the contraction dimension K is split, so
//    each process multiplies a 6x3 block of A by a 3x6 block of B and
//    shard-partition sums the partial products with shard.all_reduce (only
//    process 0 adds C0);
//  - @matmul_2d on a 2x2 grid: rows of A and C on grid axis 0, columns of B
//    and C on axis 1; each process computes a 3x3 block of C locally and two
//    shard.all_gather (one per axis) assemble the result;
//  - @matmul_k_rows: @matmul_k's K split on a taller A (12 rows), the
//    result kept split by rows for the work that follows (here (C + C) / 2,
//    which is C exactly): shard-partition sums the partial products with
//    shard.all_reduce and cuts each process's rows with shard.all_slice,
//    which shard-to-llvm (distruntime-shard-simplify) turns into one
//    shard.reduce_scatter, so that each process receives its rows only:
//    half the data of the all_reduce. (Over more than two processes it
//    does so with shard-to-llvm{reassociate=1} only: MPI may then add the
//    partial products in another order.) A shard.all_gather assembles the
//    rows to print.
// The inputs arrive replicated and each process cuts its blocks
// (shard.all_slice). The first two print the same matrix.
//
// Run:    scripts/run.sh examples/shard/matmul.mlir -np 4
// Check:  python3 examples/shard/reference.py matmul

shard.grid @line(shape = 4)
shard.grid @square(shape = 2x2)

func.func @matmul_k(%a: tensor<6x12xf64>, %b: tensor<12x6xf64>,
                    %c: tensor<6x6xf64>) -> tensor<6x6xf64> {
  %replicated = shard.sharding @line split_axes = [[]] : !shard.sharding
  %k_cols = shard.sharding @line split_axes = [[], [0]] : !shard.sharding
  %k_rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %replicated : tensor<6x12xf64>
  %b0 = shard.shard %b to %replicated : tensor<12x6xf64>
  %a1 = shard.shard %a0 to %k_cols annotate_for_users : tensor<6x12xf64>
  %b1 = shard.shard %b0 to %k_rows annotate_for_users : tensor<12x6xf64>
  %r = linalg.matmul ins(%a1, %b1 : tensor<6x12xf64>, tensor<12x6xf64>)
                     outs(%c : tensor<6x6xf64>) -> tensor<6x6xf64>
  %r0 = shard.shard %r to %replicated : tensor<6x6xf64>
  return %r0 : tensor<6x6xf64>
}

// Upstream's resharding moves one grid axis at a time (a two-axis move in
// one annotation loses an axis in MLIR 22), so C is cut and gathered in two
// steps: replicated <-> rows <-> blocks.
func.func @matmul_2d(%a: tensor<6x12xf64>, %b: tensor<12x6xf64>,
                     %c: tensor<6x6xf64>) -> tensor<6x6xf64> {
  %replicated = shard.sharding @square split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @square split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @square split_axes = [[], [1]] : !shard.sharding
  %blocks = shard.sharding @square split_axes = [[0], [1]] : !shard.sharding
  %a0 = shard.shard %a to %replicated : tensor<6x12xf64>
  %b0 = shard.shard %b to %replicated : tensor<12x6xf64>
  %c0 = shard.shard %c to %replicated : tensor<6x6xf64>
  %a1 = shard.shard %a0 to %rows annotate_for_users : tensor<6x12xf64>
  %b1 = shard.shard %b0 to %cols annotate_for_users : tensor<12x6xf64>
  %c1 = shard.shard %c0 to %rows annotate_for_users : tensor<6x6xf64>
  %c2 = shard.shard %c1 to %rows : tensor<6x6xf64>
  %c3 = shard.shard %c2 to %blocks annotate_for_users : tensor<6x6xf64>
  %r = linalg.matmul ins(%a1, %b1 : tensor<6x12xf64>, tensor<12x6xf64>)
                     outs(%c3 : tensor<6x6xf64>) -> tensor<6x6xf64>
  %r0 = shard.shard %r to %blocks : tensor<6x6xf64>
  %r1 = shard.shard %r0 to %rows annotate_for_users : tensor<6x6xf64>
  %r2 = shard.shard %r1 to %rows : tensor<6x6xf64>
  %r3 = shard.shard %r2 to %replicated annotate_for_users : tensor<6x6xf64>
  return %r3 : tensor<6x6xf64>
}

func.func @matmul_k_rows(%a: tensor<12x12xf64>, %b: tensor<12x6xf64>,
                         %c: tensor<12x6xf64>) -> tensor<12x6xf64> {
  %replicated = shard.sharding @line split_axes = [[]] : !shard.sharding
  %k_cols = shard.sharding @line split_axes = [[], [0]] : !shard.sharding
  %k_rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %replicated : tensor<12x12xf64>
  %b0 = shard.shard %b to %replicated : tensor<12x6xf64>
  %a1 = shard.shard %a0 to %k_cols annotate_for_users : tensor<12x12xf64>
  %b1 = shard.shard %b0 to %k_rows annotate_for_users : tensor<12x6xf64>
  %r = linalg.matmul ins(%a1, %b1 : tensor<12x12xf64>, tensor<12x6xf64>)
                     outs(%c : tensor<12x6xf64>) -> tensor<12x6xf64>
  %r0 = shard.shard %r to %replicated : tensor<12x6xf64>
  %r1 = shard.shard %r0 to %rows annotate_for_users : tensor<12x6xf64>
  %half = arith.constant 0.5 : f64
  %e = tensor.empty() : tensor<12x6xf64>
  %s = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%r1 : tensor<12x6xf64>) outs(%e : tensor<12x6xf64>) {
  ^bb0(%x: f64, %out: f64):
    %twice = arith.addf %x, %x : f64
    %y = arith.mulf %twice, %half : f64
    linalg.yield %y : f64
  } -> tensor<12x6xf64>
  %s0 = shard.shard %s to %rows : tensor<12x6xf64>
  %s1 = shard.shard %s0 to %replicated annotate_for_users : tensor<12x6xf64>
  return %s1 : tensor<12x6xf64>
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

// The same closed forms with 12 rows.
func.func @inputs_tall()
    -> (tensor<12x12xf64>, tensor<12x6xf64>, tensor<12x6xf64>) {
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
  } : tensor<12x12xf64>
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
  } : tensor<12x6xf64>
  return %a, %b, %c : tensor<12x12xf64>, tensor<12x6xf64>, tensor<12x6xf64>
}

// Process 0 prints the rows (values followed by a space); every process prints a checksum of its copy
// (sum of (i * 6 + j + 1) * C(i, j)), so a process with other data shows.
func.func @print_result(%r: tensor<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %r, %c0 : tensor<?x?xf64>
  %cols = tensor.dim %r, %c1 : tensor<?x?xf64>
  %pad = arith.constant 0.0 : f64
  %me = distruntime.team_member team(0)
  %first = arith.cmpi eq, %me, %c0 : index
  scf.if %first {
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %x = tensor.extract %r[%i, %j] : tensor<?x?xf64>
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
      %x = tensor.extract %r[%i, %j] : tensor<?x?xf64>
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
  %r = func.call @matmul_k(%a, %b, %c)
      : (tensor<6x12xf64>, tensor<12x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  %rd = tensor.cast %r : tensor<6x6xf64> to tensor<?x?xf64>
  func.call @print_result(%rd) : (tensor<?x?xf64>) -> ()
  %s = func.call @matmul_2d(%a, %b, %c)
      : (tensor<6x12xf64>, tensor<12x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  %sd = tensor.cast %s : tensor<6x6xf64> to tensor<?x?xf64>
  func.call @print_result(%sd) : (tensor<?x?xf64>) -> ()
  %ta, %tb, %tc = func.call @inputs_tall()
      : () -> (tensor<12x12xf64>, tensor<12x6xf64>, tensor<12x6xf64>)
  %t = func.call @matmul_k_rows(%ta, %tb, %tc)
      : (tensor<12x12xf64>, tensor<12x6xf64>, tensor<12x6xf64>) -> tensor<12x6xf64>
  %td = tensor.cast %t : tensor<12x6xf64> to tensor<?x?xf64>
  func.call @print_result(%td) : (tensor<?x?xf64>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
