// PARCOACH's MPI microbenchmarks (github.com/parcoach/microbenchmarks), one
// distruntime program per case, written from the cases' descriptions.
// distruntime has no barrier, rooted reduce or scatter: a barrier is the
// RFC allreduce of one i32, MPI_Reduce an all_reduce, MPI_Scatter an
// all_to_all; a C variable whose address is taken is a memref.
// docs/verification.md tabulates the cases.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd -verify-diagnostics

// 01 CIVL_barrierReduce (error): even members barrier then reduce, odd
// members reduce then barrier.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<8xf64>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %even = arith.cmpi eq, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %even {
    // expected-error @below {{op 'distruntime.allreduce' here, 'distruntime.all_reduce' on the other side}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
    distruntime.all_reduce ins(%x : memref<8xf64>) outs(%x : memref<8xf64>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    distruntime.all_reduce ins(%x : memref<8xf64>) outs(%x : memref<8xf64>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 02 CIVL_barrierScatter (error): the root scatters then barriers, the
// others barrier then scatter.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %tok = memref.alloc() : memref<1xi32>
  %s = memref.alloc() : memref<8xf32>
  %d = memref.alloc() : memref<8xf32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    // expected-error @below {{op 'distruntime.all_to_all' here, 'distruntime.allreduce' on the other side}}
    distruntime.all_to_all ins(%s : memref<8xf32>) outs(%d : memref<8xf32>)
        {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  } else {
    // expected-note @below {{the other side's 'distruntime.allreduce'}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
    distruntime.all_to_all ins(%s : memref<8xf32>) outs(%d : memref<8xf32>)
        {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 03 CIVL_BcastReduce_bad (error): even members broadcast, reduce,
// broadcast; odd members broadcast, broadcast, reduce.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = memref.alloc() : memref<4xi64>
  %x = memref.alloc() : memref<4xi64>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %even = arith.cmpi eq, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %even {
    distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    // expected-error @below {{op 'distruntime.all_reduce' here, 'distruntime.collective_broadcast' on the other side}}
    distruntime.all_reduce ins(%x : memref<4xi64>) outs(%x : memref<4xi64>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    // expected-note @below {{the other side's 'distruntime.collective_broadcast'}}
    distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%x : memref<4xi64>) outs(%x : memref<4xi64>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 04 field-sensitive (correct): a "struct" holds the member id and the team
// size; the barrier depends on the size field only.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tok = memref.alloc() : memref<1xi32>
  %h = memref.alloca() : memref<2xindex>
  %me = distruntime.team_member team(0)
  %n = distruntime.team_size team(0)
  memref.store %me, %h[%c0] : memref<2xindex>
  memref.store %n, %h[%c1] : memref<2xindex>
  %np = memref.load %h[%c1] : memref<2xindex>
  %many = arith.cmpi ugt, %np, %c1 : index
  scf.if %many {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 05 index-dep (error): the barrier depends on A[r], r the member id, and
// every element of A holds another value.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %tok = memref.alloc() : memref<1xi32>
  %a = memref.alloc() : memref<16xindex>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %i, %a[%i] : memref<16xindex>
  }
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %v = memref.load %a[%me] : memref<16xindex>
  %zero = arith.cmpi eq, %v, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %zero {
    // expected-error @below {{'distruntime.allreduce' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 06 loop_barrier (error): odd members run 9 barriers, the others 10.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %tok = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  %n = arith.select %odd, %c9, %c10 : index
  // expected-note @below {{the 'scf.for' that decides}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-warning @below {{'distruntime.allreduce' runs on team 0 in a loop whose trip count may differ between members}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 07 mismatch_barrier (error): only odd members barrier.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{and the other side runs no matching collective}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 08 mismatch_barrier_com (error): odd members barrier on the whole team,
// even members within groups (another communicator).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{'distruntime.all_reduce' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.all_reduce ins(%tok : memref<1xi32>) outs(%tok : memref<1xi32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%tok : memref<1xi32>) outs(%tok : memref<1xi32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 09 mismatch_barrier_nb (error): odd members barrier, the others start a
// barrier and wait for it.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  } else {
    // expected-note @below {{the other side's 'distruntime.allreduce'}}
    %h = distruntime.allreduce <max> %tok team(0) : memref<1xi32> -> !distruntime.async_handle
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 10 MPIexample (error): n is 1 on odd members and 2 on the others; g,
// which reduces when the team is large, runs where n is 1; then all
// barrier.
func.func private @g(%s: index) {
  %c256 = arith.constant 256 : index
  %x = memref.alloc() : memref<1xi32>
  %big = arith.cmpi ugt, %s, %c256 : index
  scf.if %big {
    // expected-warning @below {{'distruntime.all_reduce' on team 0 may run on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.all_reduce ins(%x : memref<1xi32>) outs(%x : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  return
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %size = distruntime.team_size team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  %n = scf.if %odd -> index {
    scf.yield %c1 : index
  } else {
    scf.yield %c2 : index
  }
  %one = arith.cmpi eq, %n, %c1 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %one {
    func.call @g(%size) : (index) -> ()
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 11 noerror_barrier (correct): every member barriers.
func.func @main() -> i32 {
  %tok = memref.alloc() : memref<1xi32>
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 12 not_verifiable (correct): odd members barrier at one site, even
// members at another.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  scf.if %odd {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %even = arith.cmpi eq, %r, %c0 : index
  scf.if %even {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 13 phi-cond (error): v is 1 on member 0 and 2 elsewhere (a merge of
// unstructured control flow); members where v is 2 barrier.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %zero = arith.cmpi eq, %me, %c0 : index
  cf.cond_br %zero, ^one, ^two
^one:
  cf.br ^join(%c1 : index)
^two:
  cf.br ^join(%c2 : index)
^join(%v: index):
  %is2 = arith.cmpi eq, %v, %c2 : index
  // expected-note @below {{the 'cf.cond_br' that decides}}
  cf.cond_br %is2, ^barrier, ^done
^barrier:
  // expected-error @below {{and the other side runs no matching collective}}
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  cf.br ^done
^done:
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 14 pointer-alias (error): b points to a; a barrier depends on a before
// the member id is written through b (fine), another after it (not).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : index
  %tok = memref.alloc() : memref<1xi32>
  %a = memref.alloca() : memref<1xindex>
  %b = memref.cast %a : memref<1xindex> to memref<?xindex>
  memref.store %one, %a[%c0] : memref<1xindex>
  %a0 = memref.load %a[%c0] : memref<1xindex>
  %pos0 = arith.cmpi sgt, %a0, %c0 : index
  scf.if %pos0 {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  memref.store %me, %b[%c0] : memref<?xindex>
  %a1 = memref.load %a[%c0] : memref<1xindex>
  %pos1 = arith.cmpi sgt, %a1, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %pos1 {
    // expected-error @below {{and the other side runs no matching collective}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 15 pointer-instance (error): s is 1 when g(s) runs (g barriers if s),
// then becomes the member id's parity; a barrier depends on it.
func.func private @g(%s: index) {
  %c0 = arith.constant 0 : index
  %tok = memref.alloc() : memref<1xi32>
  %set = arith.cmpi ne, %s, %c0 : index
  scf.if %set {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  return
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  %s = memref.alloca() : memref<1xindex>
  memref.store %c1, %s[%c0] : memref<1xindex>
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %s0 = memref.load %s[%c0] : memref<1xindex>
  func.call @g(%s0) : (index) -> ()
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  memref.store %r, %s[%c0] : memref<1xindex>
  %s1 = memref.load %s[%c0] : memref<1xindex>
  %set = arith.cmpi ne, %s1, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %set {
    // expected-error @below {{and the other side runs no matching collective}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
