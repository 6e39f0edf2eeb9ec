// The uniformity analysis: each op marked `spmd.probe` gets a remark with
// the lattice of its results. Sources of difference (the member id, data
// received, memory the analysis cannot see whole, external calls,
// unmodeled ops), what replicating collectives make uniform,
// and what control flow that may differ does to the values it merges.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd=print-uniformity=1 -verify-diagnostics

func.func @sources(%arg: index) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{may differ (member id)}}
  %me = distruntime.team_member team(0) {spmd.probe}
  // expected-remark @below {{uniform}}
  %n = distruntime.team_size team(0) {spmd.probe}
  // expected-remark @below {{uniform}}
  %s = arith.addi %n, %c0 {spmd.probe} : index
  // expected-remark @below {{may differ (member id)}}
  %t = arith.muli %me, %n {spmd.probe} : index
  // An entry point's arguments are the same on every member (SPMD).
  // expected-remark @below {{uniform}}
  %u = arith.addi %arg, %c0 {spmd.probe} : index
  return
}

// -----

// Replicating collectives: uniform over the team with one group of all,
// within their groups otherwise; other collectives receive data.
func.func @collectives(%x: tensor<4xf32>) {
  // expected-remark @below {{uniform}}
  %a = distruntime.all_reduce ins(%x : tensor<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>, spmd.probe} -> tensor<4xf32>
  // expected-remark @below {{uniform within the groups of 'distruntime.all_reduce'}}
  %b = distruntime.all_reduce ins(%x : tensor<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, spmd.probe} -> tensor<4xf32>
  // expected-remark @below {{uniform}}
  %g = distruntime.all_gather ins(%x : tensor<4xf32>)
      {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, spmd.probe} -> tensor<8xf32>
  // expected-remark @below {{may differ (received)}}
  %p = distruntime.collective_permute ins(%x : tensor<4xf32>)
      {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, spmd.probe} -> tensor<4xf32>
  // expected-remark @below {{may differ (received)}}
  %r = distruntime.reduce_scatter ins(%x : tensor<4xf32>)
      {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, spmd.probe} -> tensor<2xf32>
  // expected-remark @below {{may differ (received)}}
  %m = arith.addf %a, %p {spmd.probe} : tensor<4xf32>
  return
}

// -----

// Memory: a buffer written only uniformly (constants, replicating
// collectives) reads uniform; a store of a value that may differ, or a
// store under a condition that may differ, makes its loads differ; so does
// a buffer passed where the analysis cannot follow it.
func.func private @opaque(memref<2xf64>)
func.func @memory(%v: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index

  %a = memref.alloc() : memref<2xf64>
  memref.store %zero, %a[%c0] : memref<2xf64>
  distruntime.allreduce <sum> %a team(0) : memref<2xf64>
  // expected-remark @below {{uniform}}
  %la = memref.load %a[%c0] {spmd.probe} : memref<2xf64>
  // An index that may differ reads different elements.
  // expected-remark @below {{may differ (member id)}}
  %li = memref.load %a[%me] {spmd.probe} : memref<2xf64>

  %b = memref.alloc() : memref<2xindex>
  memref.store %me, %b[%c0] : memref<2xindex>
  memref.store %c1, %b[%c1] : memref<2xindex>
  // expected-remark @below {{may differ (member id)}}
  %lb = memref.load %b[%c0] {spmd.probe} : memref<2xindex>
  // Another constant index: the store of the member id does not reach.
  // expected-remark @below {{uniform}}
  %lb1 = memref.load %b[%c1] {spmd.probe} : memref<2xindex>

  %c = memref.alloc() : memref<2xf64>
  scf.if %is0 {
    memref.store %zero, %c[%c0] : memref<2xf64>
  }
  // expected-remark @below {{may differ (member id)}}
  %lc = memref.load %c[%c0] {spmd.probe} : memref<2xf64>

  %d = memref.alloc() : memref<2xf64>
  func.call @opaque(%d) : (memref<2xf64>) -> ()
  // expected-remark @below {{may differ (memory)}}
  %ld = memref.load %d[%c0] {spmd.probe} : memref<2xf64>

  // A load that runs before the store of the member id reads what came
  // before it.
  %e = memref.alloca() : memref<1xindex>
  memref.store %c1, %e[%c0] : memref<1xindex>
  // expected-remark @below {{uniform}}
  %le = memref.load %e[%c0] {spmd.probe} : memref<1xindex>
  memref.store %me, %e[%c0] : memref<1xindex>
  // expected-remark @below {{may differ (member id)}}
  %le2 = memref.load %e[%c0] {spmd.probe} : memref<1xindex>
  return
}

// -----

// Control flow: values merged by a branch whose condition may differ
// differ; loop results differ with their bounds; the induction variable of
// a loop with uniform start and step agrees within each turn.
func.func @control(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  // expected-remark @below {{may differ (member id)}}
  %v = scf.if %is0 -> index {
    scf.yield %c1 : index
  } else {
    scf.yield %c4 : index
  } {spmd.probe}
  %t = arith.cmpi eq, %c0, %c0 : index
  // expected-remark @below {{uniform}}
  %w = scf.if %t -> index {
    scf.yield %c1 : index
  } else {
    scf.yield %c4 : index
  } {spmd.probe}
  // expected-remark @below {{may differ (member id)}}
  %s = scf.for %i = %c0 to %me step %c1 iter_args(%acc = %c0) -> index {
    // expected-remark @below {{uniform}}
    %next = arith.addi %acc, %i {spmd.probe} : index
    scf.yield %next : index
  } {spmd.probe}
  return
}

// -----

// Unstructured control flow: a block argument where paths from a branch
// that may differ meet.
func.func @joins() -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %odd = arith.remui %me, %c2 : index
  %c = arith.cmpi eq, %odd, %c0 : index
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^join(%c0 : index)
^b:
  cf.br ^join(%c1 : index)
^join(%v: index):
  // expected-remark @below {{may differ (member id)}}
  %w = arith.addi %v, %c0 {spmd.probe} : index
  return %w : index
}

// -----

// Interprocedural: a private function's arguments are what its callers
// pass.
func.func private @callee(%x: index) -> index {
  %c1 = arith.constant 1 : index
  // expected-remark @below {{uniform}}
  %y = arith.addi %x, %c1 {spmd.probe} : index
  return %y : index
}
func.func private @callee2(%x: index) -> index {
  %c1 = arith.constant 1 : index
  // expected-remark @below {{may differ (member id)}}
  %y = arith.addi %x, %c1 {spmd.probe} : index
  return %y : index
}
func.func @caller() -> index {
  %n = distruntime.team_size team(0)
  %me = distruntime.team_member team(0)
  %a = func.call @callee(%n) : (index) -> index
  %b = func.call @callee2(%me) : (index) -> index
  // expected-remark @below {{uniform}}
  %c = func.call @callee(%a) {spmd.probe} : (index) -> index
  return %c : index
}

// -----

// Every member gets the same command line: what main's pointers reach,
// parsed by atoi, reads uniform; other external calls and other pointers
// may differ.
func.func private @atoi(!llvm.ptr) -> i32
func.func private @rand() -> i32
func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
  %c1 = arith.constant 1 : i32
  %p = llvm.getelementptr %argv[%c1] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.ptr
  %s = llvm.load %p : !llvm.ptr -> !llvm.ptr
  // expected-remark @below {{uniform}}
  %n = func.call @atoi(%s) {spmd.probe} : (!llvm.ptr) -> i32
  // expected-remark @below {{may differ (external call)}}
  %r = func.call @rand() {spmd.probe} : () -> i32
  %one = arith.constant 1 : i64
  %q = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  // expected-remark @below {{may differ (memory)}}
  %v = llvm.load %q {spmd.probe} : !llvm.ptr -> i32
  return %n : i32
}

// -----

// global_reduce's value is the same on every member of its team, although
// the members' buffers (and so their sizes) differ.
func.func @global_reduce(%n: index) {
  %me = distruntime.team_member team(0)
  %buf = memref.alloc(%me) : memref<?xf64>
  // expected-remark @below {{uniform}}
  %s = distruntime.global_reduce <sum> %buf team(0) {spmd.probe} : memref<?xf64> -> f64
  return
}
