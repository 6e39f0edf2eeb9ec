// distruntime-combine-collectives on a gradient sync, compiled with the pass
// (the default) and without it (combine-collectives=0), run at np 1 to 4:
// both print the closed forms of Inputs/combine_ref.py, line for line.
//  - 8 gradients (tensors of 3k + 1 f64, k = 0..7) summed by 8 all_reduces
//    with calls between them, which become one op of 8 operands; process
//    p holds g_k[i] = (p + 1)(k + 1) + i, so sum_k[i] = (k + 1) P (P + 1) / 2
//    + P i; then the sum of sum_0 (dependent: a second op);
//  - 4 buffers of 5 i32 reduced with max (memref form, each filled just
//    before its op): m_j[i] = p (j - 1) + i, max over p (P - 1) max(j - 1, 0)
//    + i;
//  - an f32 and an i32 buffer gathered (memref form, outputs sized from the
//    team): a[i] = 10 p + i (2 elements), b[i] = 100 p + i + 7 (3).
// Each line is a checksum, sum over elements of (index + 1) * value;
// process 0 prints them, every process its total.
// RUN: %distruntime-opt %s --distruntime-combine-collectives | FileCheck %s --check-prefix=IR
// RUN: %compile %s -o %t
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=combine-collectives=0 %compile %s -o %t.off
// RUN: for np in 1 2 3 4; do %mpirun $np %t > %t.$np.out && %mpirun $np %t.off > %t.$np.off && python3 %S/Inputs/combine_ref.py $np > %t.$np.ref && sort %t.$np.out | diff %t.$np.ref - && sort %t.$np.off | diff %t.$np.ref - || exit 1; done

// IR: %[[S:.*]]:8 = distruntime.all_reduce ins({{.*}} : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>)
// IR-NEXT: distruntime.all_reduce ins(%[[S]]#0 : tensor<?xf64>)
// IR: distruntime.all_reduce ins({{.*}} : memref<5xi32>, memref<5xi32>, memref<5xi32>, memref<5xi32>) outs({{.*}}) {reduction = #distruntime.reduction<max>
// IR-NOT: distruntime.all_reduce
// IR: distruntime.all_gather ins({{.*}} : memref<2xf32>, memref<3xi32>) outs({{.*}} : memref<?xf32>, memref<?xi32>)
// IR-NOT: distruntime.all_gather

module {
  /// Gradient k of this process: 3k + 1 elements (p + 1)(k + 1) + i.
  func.func @gradient(%k: index) -> tensor<?xf64> {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %me = distruntime.team_member team(0)
    %k3 = arith.muli %k, %c3 : index
    %n = arith.addi %k3, %c1 : index
    %p1 = arith.addi %me, %c1 : index
    %k1 = arith.addi %k, %c1 : index
    %scale = arith.muli %p1, %k1 : index
    %g = tensor.generate %n {
    ^bb0(%i: index):
      %v = arith.addi %scale, %i : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f64
      tensor.yield %vf : f64
    } : tensor<?xf64>
    return %g : tensor<?xf64>
  }

  /// sum over i of (i + 1) * t[i], as an integer (the values are exact).
  func.func @checksum(%t: tensor<?xf64>) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %n = tensor.dim %t, %c0 : tensor<?xf64>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %x = tensor.extract %t[%i] : tensor<?xf64>
      %w0 = arith.addi %i, %c1 : index
      %w1 = arith.index_cast %w0 : index to i64
      %w = arith.sitofp %w1 : i64 to f64
      %p = arith.mulf %w, %x : f64
      %a = arith.addf %acc, %p : f64
      scf.yield %a : f64
    }
    %r = arith.fptosi %s : f64 to i64
    return %r : i64
  }

  /// The same of a buffer of i32 or f32, via f64.
  func.func @checksum_i32(%m: memref<?xi32>) -> i64 {
    %c0 = arith.constant 0 : index
    %n = memref.dim %m, %c0 : memref<?xi32>
    %t = tensor.generate %n {
    ^bb0(%i: index):
      %x = memref.load %m[%i] : memref<?xi32>
      %f = arith.sitofp %x : i32 to f64
      tensor.yield %f : f64
    } : tensor<?xf64>
    %s = func.call @checksum(%t) : (tensor<?xf64>) -> i64
    return %s : i64
  }
  func.func @checksum_f32(%m: memref<?xf32>) -> i64 {
    %c0 = arith.constant 0 : index
    %n = memref.dim %m, %c0 : memref<?xf32>
    %t = tensor.generate %n {
    ^bb0(%i: index):
      %x = memref.load %m[%i] : memref<?xf32>
      %f = arith.extf %x : f32 to f64
      tensor.yield %f : f64
    } : tensor<?xf64>
    %s = func.call @checksum(%t) : (tensor<?xf64>) -> i64
    return %s : i64
  }

  /// Process 0 prints "<what> <k>: <value>"; returns value for the total.
  func.func @report(%what: i64, %k: index, %value: i64) -> i64 {
    %c0 = arith.constant 0 : index
    %me = distruntime.team_member team(0)
    %first = arith.cmpi eq, %me, %c0 : index
    scf.if %first {
      vector.print %what : i64 punctuation <no_punctuation>
      vector.print str " "
      %ki = arith.index_cast %k : index to i64
      vector.print %ki : i64 punctuation <no_punctuation>
      vector.print str ": "
      vector.print %value : i64
    }
    return %value : i64
  }

  /// Buffer j of max: p (j - 1) + i for i < 5.
  func.func @fill_max(%m: memref<5xi32>, %j: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %me = distruntime.team_member team(0)
    %pi = arith.index_cast %me : index to i32
    %ji = arith.index_cast %j : index to i32
    %one = arith.constant 1 : i32
    %j1 = arith.subi %ji, %one : i32
    %base = arith.muli %pi, %j1 : i32
    scf.for %i = %c0 to %c5 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.addi %base, %ii : i32
      memref.store %v, %m[%i] : memref<5xi32>
    }
    return
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %me = distruntime.team_member team(0)
    %size = distruntime.team_size team(0)

    // Gradient sync: each gradient reduced once it is computed.
    %g0 = func.call @gradient(%c0) : (index) -> tensor<?xf64>
    %r0 = distruntime.all_reduce ins(%g0 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g1 = func.call @gradient(%c1) : (index) -> tensor<?xf64>
    %r1 = distruntime.all_reduce ins(%g1 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g2 = func.call @gradient(%c2) : (index) -> tensor<?xf64>
    %r2 = distruntime.all_reduce ins(%g2 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g3 = func.call @gradient(%c3) : (index) -> tensor<?xf64>
    %r3 = distruntime.all_reduce ins(%g3 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g4 = func.call @gradient(%c4) : (index) -> tensor<?xf64>
    %r4 = distruntime.all_reduce ins(%g4 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g5 = func.call @gradient(%c5) : (index) -> tensor<?xf64>
    %r5 = distruntime.all_reduce ins(%g5 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g6 = func.call @gradient(%c6) : (index) -> tensor<?xf64>
    %r6 = distruntime.all_reduce ins(%g6 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    %g7 = func.call @gradient(%c7) : (index) -> tensor<?xf64>
    %r7 = distruntime.all_reduce ins(%g7 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>
    // Depends on the first: reduced after it.
    %rr = distruntime.all_reduce ins(%r0 : tensor<?xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?xf64>

    // Max of four buffers of this function's own, each filled just before
    // its reduction (by a loop: a call's effects are unknown, and would
    // keep the op before it in place).
    %m0 = memref.alloc() : memref<5xi32>
    %m1 = memref.alloc() : memref<5xi32>
    %m2 = memref.alloc() : memref<5xi32>
    %m3 = memref.alloc() : memref<5xi32>
    %o0 = memref.alloc() : memref<5xi32>
    %o1 = memref.alloc() : memref<5xi32>
    %o2 = memref.alloc() : memref<5xi32>
    %o3 = memref.alloc() : memref<5xi32>
    %pi = arith.index_cast %me : index to i32
    %one = arith.constant 1 : i32
    func.call @fill_max(%m0, %c0) : (memref<5xi32>, index) -> ()
    distruntime.all_reduce ins(%m0 : memref<5xi32>) outs(%o0 : memref<5xi32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    scf.for %i = %c0 to %c5 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %m1[%i] : memref<5xi32>
    }
    distruntime.all_reduce ins(%m1 : memref<5xi32>) outs(%o1 : memref<5xi32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    scf.for %i = %c0 to %c5 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.addi %pi, %ii : i32
      memref.store %v, %m2[%i] : memref<5xi32>
    }
    distruntime.all_reduce ins(%m2 : memref<5xi32>) outs(%o2 : memref<5xi32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    scf.for %i = %c0 to %c5 step %c1 {
      %p2 = arith.addi %pi, %pi : i32
      %ii = arith.index_cast %i : index to i32
      %v = arith.addi %p2, %ii : i32
      memref.store %v, %m3[%i] : memref<5xi32>
    }
    distruntime.all_reduce ins(%m3 : memref<5xi32>) outs(%o3 : memref<5xi32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}

    // Two gathers, each input filled just before its op: a[i] = 10 p + i,
    // b[i] = 100 p + i + 7.
    %n2 = arith.muli %size, %c2 : index
    %n3 = arith.muli %size, %c3 : index
    %a = memref.alloc() : memref<2xf32>
    %b = memref.alloc() : memref<3xi32>
    %ga = memref.alloc(%n2) : memref<?xf32>
    %gb = memref.alloc(%n3) : memref<?xi32>
    %p64 = arith.index_cast %me : index to i64
    %ten = arith.constant 10 : i64
    %hundred = arith.constant 100 : i64
    %seven = arith.constant 7 : i64
    %p10 = arith.muli %p64, %ten : i64
    %p100 = arith.muli %p64, %hundred : i64
    scf.for %i = %c0 to %c2 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %v = arith.addi %p10, %ii : i64
      %f = arith.sitofp %v : i64 to f32
      memref.store %f, %a[%i] : memref<2xf32>
    }
    distruntime.all_gather ins(%a : memref<2xf32>) outs(%ga : memref<?xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    scf.for %i = %c0 to %c3 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %v0 = arith.addi %p100, %ii : i64
      %v1 = arith.addi %v0, %seven : i64
      %v = arith.trunci %v1 : i64 to i32
      memref.store %v, %b[%i] : memref<3xi32>
    }
    distruntime.all_gather ins(%b : memref<3xi32>) outs(%gb : memref<?xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}

    // The checksums: sum k (1), rr (2), max j (3), gathers a (4) and b (5).
    %w1 = arith.constant 1 : i64
    %w2 = arith.constant 2 : i64
    %w3 = arith.constant 3 : i64
    %w4 = arith.constant 4 : i64
    %w5 = arith.constant 5 : i64
    %t0 = func.call @checksum(%r0) : (tensor<?xf64>) -> i64
    %t1 = func.call @checksum(%r1) : (tensor<?xf64>) -> i64
    %t2 = func.call @checksum(%r2) : (tensor<?xf64>) -> i64
    %t3 = func.call @checksum(%r3) : (tensor<?xf64>) -> i64
    %t4 = func.call @checksum(%r4) : (tensor<?xf64>) -> i64
    %t5 = func.call @checksum(%r5) : (tensor<?xf64>) -> i64
    %t6 = func.call @checksum(%r6) : (tensor<?xf64>) -> i64
    %t7 = func.call @checksum(%r7) : (tensor<?xf64>) -> i64
    %trr = func.call @checksum(%rr) : (tensor<?xf64>) -> i64
    %d0 = memref.cast %o0 : memref<5xi32> to memref<?xi32>
    %d1 = memref.cast %o1 : memref<5xi32> to memref<?xi32>
    %d2 = memref.cast %o2 : memref<5xi32> to memref<?xi32>
    %d3 = memref.cast %o3 : memref<5xi32> to memref<?xi32>
    %x0 = func.call @checksum_i32(%d0) : (memref<?xi32>) -> i64
    %x1 = func.call @checksum_i32(%d1) : (memref<?xi32>) -> i64
    %x2 = func.call @checksum_i32(%d2) : (memref<?xi32>) -> i64
    %x3 = func.call @checksum_i32(%d3) : (memref<?xi32>) -> i64
    %ta = func.call @checksum_f32(%ga) : (memref<?xf32>) -> i64
    %tb = func.call @checksum_i32(%gb) : (memref<?xi32>) -> i64
    %e0 = func.call @report(%w1, %c0, %t0) : (i64, index, i64) -> i64
    %e1 = func.call @report(%w1, %c1, %t1) : (i64, index, i64) -> i64
    %e2 = func.call @report(%w1, %c2, %t2) : (i64, index, i64) -> i64
    %e3 = func.call @report(%w1, %c3, %t3) : (i64, index, i64) -> i64
    %e4 = func.call @report(%w1, %c4, %t4) : (i64, index, i64) -> i64
    %e5 = func.call @report(%w1, %c5, %t5) : (i64, index, i64) -> i64
    %e6 = func.call @report(%w1, %c6, %t6) : (i64, index, i64) -> i64
    %e7 = func.call @report(%w1, %c7, %t7) : (i64, index, i64) -> i64
    %err = func.call @report(%w2, %c0, %trr) : (i64, index, i64) -> i64
    %f0 = func.call @report(%w3, %c0, %x0) : (i64, index, i64) -> i64
    %f1 = func.call @report(%w3, %c1, %x1) : (i64, index, i64) -> i64
    %f2 = func.call @report(%w3, %c2, %x2) : (i64, index, i64) -> i64
    %f3 = func.call @report(%w3, %c3, %x3) : (i64, index, i64) -> i64
    %fa = func.call @report(%w4, %c0, %ta) : (i64, index, i64) -> i64
    %fb = func.call @report(%w5, %c0, %tb) : (i64, index, i64) -> i64
    // Every process: the total of its checksums (all hold the same).
    %all = tensor.from_elements %e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7, %err, %f0, %f1, %f2, %f3, %fa, %fb : tensor<15xi64>
    %c15 = arith.constant 15 : index
    %z = arith.constant 0 : i64
    %total = scf.for %i = %c0 to %c15 step %c1 iter_args(%acc = %z) -> i64 {
      %v = tensor.extract %all[%i] : tensor<15xi64>
      %n = arith.addi %acc, %v : i64
      scf.yield %n : i64
    }
    vector.print str "total "
    vector.print %total : i64
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
