// verify-spmd on issue 33's programs: disagreements that reach a collective
// through paths the analysis once did not follow are reported, and correct
// programs (a solver testing convergence on an in-place all_reduce, a loop
// whose bounds move together) compile without a diagnostic.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd -verify-diagnostics

// The convergence test of every iterative solver: branch on what an
// in-place all_reduce left in the buffer.
func.func @converged(%iters: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tol = arith.constant 1.0e-6 : f64
  %me = distruntime.team_member team(0)
  %mei = arith.index_cast %me : index to i64
  %mef = arith.sitofp %mei : i64 to f64
  %r = memref.alloc() : memref<1xf64>
  scf.for %i = %c0 to %iters step %c1 {
    memref.store %mef, %r[%c0] : memref<1xf64>
    distruntime.all_reduce ins(%r : memref<1xf64>) outs(%r : memref<1xf64>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    %res = memref.load %r[%c0] : memref<1xf64>
    %small = arith.cmpf olt, %res, %tol : f64
    scf.if %small {
      distruntime.allreduce <sum> %r team(0) : memref<1xf64>
    }
  }
  return
}

// -----

// The RFC's allreduce, then an early return on its result.
func.func @early_return(%a: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %mei = arith.index_cast %me : index to i64
  %mef = arith.sitofp %mei : i64 to f64
  memref.store %mef, %a[%c0] : memref<4xf64>
  %b = memref.alloc() : memref<4xf64>
  memref.copy %a, %b : memref<4xf64> to memref<4xf64>
  distruntime.allreduce <sum> %b team(0) : memref<4xf64>
  %s = memref.load %b[%c0] : memref<4xf64>
  %zero = arith.constant 0.0 : f64
  %done = arith.cmpf oeq, %s, %zero : f64
  cf.cond_br %done, ^exit, ^more
^more:
  distruntime.allreduce <sum> %b team(0) : memref<4xf64>
  return
^exit:
  return
}

// -----

// `for i = r to r + 3`: every member turns three times.
func.func @shifted_loop(%x: memref<4xf64>) {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %me = distruntime.team_member team(0)
  %end = arith.addi %me, %c3 : index
  scf.for %i = %me to %end step %c1 {
    distruntime.allreduce <sum> %x team(0) : memref<4xf64>
  }
  affine.for %i = %me to affine_map<()[s0] -> (s0 + 3)>()[%me] {
    distruntime.allreduce <sum> %x team(0) : memref<4xf64>
  }
  return
}

// -----

// An affine loop bounded by the member id turns a different number of
// times.
func.func @affine_trip(%x: memref<4xf64>) {
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  // expected-note @below {{the 'affine.for' that decides, on a value that may differ between members}}
  affine.for %i = 0 to %me {
    // expected-warning @below {{'distruntime.allreduce' runs on team 0 in a loop whose trip count may differ between members}}
    distruntime.allreduce <sum> %x team(0) : memref<4xf64>
  }
  return
}

// -----

// A flag a private helper sets on member 0 only picks the reduction.
func.func private @set(%b: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  memref.store %t, %b[%c0] : memref<1xi1>
  return
}
func.func @helper_flag(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %flag = memref.alloc() : memref<1xi1>
  memref.store %f, %flag[%c0] : memref<1xi1>
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    func.call @set(%flag) : (memref<1xi1>) -> ()
  }
  %sum = memref.load %flag[%c0] : memref<1xi1>
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  %r = scf.if %sum -> tensor<4xf32> {
    // expected-error @below {{reduction sum here, max on the other side}}
    %s = distruntime.all_reduce ins(%x : tensor<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    %m = distruntime.all_reduce ins(%x : tensor<4xf32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A flag written through a raw pointer taken from its buffer.
func.func @pointer_flag(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i8
  %me = distruntime.team_member team(0)
  %flag = memref.alloc() : memref<1xi8>
  memref.store %z, %flag[%c0] : memref<1xi8>
  %p = memref.extract_aligned_pointer_as_index %flag : memref<1xi8> -> index
  %pi = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %pi : i64 to !llvm.ptr
  %mei = arith.index_cast %me : index to i64
  %m8 = arith.trunci %mei : i64 to i8
  llvm.store %m8, %ptr : i8, !llvm.ptr
  // expected-note @below {{it derives from memory that may differ between members, read here}}
  %v = memref.load %flag[%c0] : memref<1xi8>
  %set = arith.cmpi ne, %v, %z : i8
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  %r = scf.if %set -> tensor<4xf32> {
    // expected-error @below {{reduction sum here, max on the other side}}
    %s = distruntime.all_reduce ins(%x : tensor<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    %m = distruntime.all_reduce ins(%x : tensor<4xf32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A buffer yielded out of a loop and written through the result.
func.func @loop_alias(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %me = distruntime.team_member team(0)
  %flag = memref.alloc() : memref<1xindex>
  memref.store %c0, %flag[%c0] : memref<1xindex>
  %alias = scf.for %i = %c0 to %n step %c1 iter_args(%b = %flag) -> memref<1xindex> {
    scf.yield %b : memref<1xindex>
  }
  memref.store %me, %alias[%c0] : memref<1xindex>
  // expected-note @below {{it derives from memory that may differ between members, read here}}
  %v = memref.load %flag[%c0] : memref<1xindex>
  %set = arith.cmpi ne, %v, %c0 : index
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  %r = scf.if %set -> tensor<4xf32> {
    // expected-error @below {{reduction sum here, max on the other side}}
    %s = distruntime.all_reduce ins(%x : tensor<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    %m = distruntime.all_reduce ins(%x : tensor<4xf32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A read through a subview of an async all_reduce's output before its wait.
func.func @subview_read(%x: memref<8xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%x : memref<8xf64>) outs(%x : memref<8xf64>)
      async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %v = memref.subview %x[2] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: 2>>
  // expected-error @below {{reads a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  %l = memref.load %v[%c0] : memref<4xf64, strided<[1], offset: 2>>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return %l : f64
}

// -----

// Subviews of one buffer: the async op's part and a disjoint part.
func.func @subview_apart(%x: memref<8xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %lo = memref.subview %x[0] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1]>>
  %hi = memref.subview %x[4] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: 4>>
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%lo : memref<4xf64, strided<[1]>>) outs(%lo : memref<4xf64, strided<[1]>>)
      async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %l = memref.load %hi[%c0] : memref<4xf64, strided<[1], offset: 4>>
  %v = memref.subview %x[3] [2] [1] : memref<8xf64> to memref<2xf64, strided<[1], offset: 3>>
  // expected-error @below {{reads a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  %m = memref.load %v[%c0] : memref<2xf64, strided<[1], offset: 3>>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  %s = arith.addf %l, %m : f64
  return %s : f64
}

// -----

// Bounds that both add to the member id (found by tests/spmdfuzz): one turn
// on every member. Unsigned, from r - 2 to r - 1 wraps for r < 2: member 0
// turns once, member 1 not at all.
func.func @both_shifted(%x: memref<4xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // expected-note @below {{it derives from the member id here}}
  %r = distruntime.team_member team(0)
  %lo = arith.addi %r, %c2 : index
  %hi = arith.addi %r, %c3 : index
  scf.for %i = %lo to %hi step %c1 {
    distruntime.allreduce <sum> %x team(0) : memref<4xf64>
  }
  %ulo = arith.subi %r, %c2 : index
  %uhi = arith.subi %r, %c1 : index
  // expected-note @below {{the 'scf.for' that decides, on a value that may differ between members}}
  scf.for unsigned %i = %ulo to %uhi step %c1 {
    // expected-warning @below {{'distruntime.allreduce' runs on team 0 in a loop whose trip count may differ between members}}
    distruntime.allreduce <sum> %x team(0) : memref<4xf64>
  }
  return
}

// -----

// A wait on each side of a branch (found by the MBI-class programs): every
// path waits once. The op's verifier accepts the two waits, as one path
// runs only one.
func.func @wait_both_sides(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  %h = distruntime.all_reduce ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.if %is0 {
    %two = arith.constant 2.0 : f32
    linalg.fill ins(%two : f32) outs(%y : memref<4xf32>)
    distruntime.wait %h
  } else {
    distruntime.wait %h
  }
  return
}

// -----

// Waits on two sides, but a nested branch without else leaves a path
// without one.
func.func @wait_some_sides(%x: memref<4xf32>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  // expected-error @below {{the async handle of 'distruntime.all_reduce' is not waited on every path}}
  %h = distruntime.all_reduce ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.if %is0 {
    scf.if %flag {
      distruntime.wait %h
    }
  } else {
    distruntime.wait %h
  }
  return
}

// -----

// The async op and the read on one view the check cannot bound (dynamic
// offset): the same view reaches the same elements, an error.
func.func @same_dynamic_view(%x: memref<8xf64>, %o: index) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.subview %x[%o] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: ?>>
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%v : memref<4xf64, strided<[1], offset: ?>>) outs(%v : memref<4xf64, strided<[1], offset: ?>>)
      async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-error @below {{reads a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  %l = memref.load %v[%c0] : memref<4xf64, strided<[1], offset: ?>>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return %l : f64
}

// -----

// A read through another dynamic view of the buffer may or may not meet
// the pending part: a warning.
func.func @other_dynamic_view(%x: memref<8xf64>, %o: index, %p: index) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.subview %x[%o] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: ?>>
  %w = memref.subview %x[%p] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: ?>>
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%v : memref<4xf64, strided<[1], offset: ?>>) outs(%v : memref<4xf64, strided<[1], offset: ?>>)
      async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-warning @below {{reads a view that may overlap a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  %l = memref.load %w[%c0] : memref<4xf64, strided<[1], offset: ?>>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return %l : f64
}
