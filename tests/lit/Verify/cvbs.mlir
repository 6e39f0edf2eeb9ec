// RWTH's Collectives-Verification-Benchmark-Suite (the SPMD IR paper's
// code base): its new MPI cases and its MPI+SHMEM cases, one distruntime
// program per case, written from what each case does. Barriers are the RFC
// allreduce of one i32; MPI_Reduce and MPI_Allreduce are all_reduce,
// MPI_Gather and MPI_Allgather all_gather, MPI_Scatter and MPI_Alltoall
// all_to_all, MPI_Reduce_scatter_block reduce_scatter; MPI_Scan and
// MPI_Exscan (no distruntime op) gather with all_gather and add up
// locally. A communicator split by color is replica_groups; a second
// programming model (SHMEM, NCCL) is a second team; its MPI+SHMEM cases
// and its two MPI+NCCL cases (003, 004: the branch on NCCL's rank, a
// reduce_scatter of no elements as NCCL's barrier) are written out each.
// docs/verification.md tabulates the cases.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd -verify-diagnostics

// 001 (error): only member 0 broadcasts; every member barriers.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %tok = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    %v = arith.constant 42 : i32
    memref.store %v, %data[%c0] : memref<1xi32>
    // expected-error @below {{'distruntime.collective_broadcast' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 002 (correct): member 0 and the others broadcast at different sites.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %tok = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  scf.if %root {
    %v = arith.constant 42 : i32
    memref.store %v, %data[%c0] : memref<1xi32>
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 003 (correct): broadcast then reduce on both sides.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %tok = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  %send = memref.alloc() : memref<1xi32>
  %recv = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  scf.if %root {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%send : memref<1xi32>) outs(%recv : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%send : memref<1xi32>) outs(%recv : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 004 (error): member 0 reduces then broadcasts, the others broadcast then
// reduce.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %data = memref.alloc() : memref<1xi32>
  %send = memref.alloc() : memref<1xi32>
  %recv = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    // expected-error @below {{op 'distruntime.all_reduce' here, 'distruntime.collective_broadcast' on the other side}}
    distruntime.all_reduce ins(%send : memref<1xi32>) outs(%recv : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.collective_broadcast'}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%send : memref<1xi32>) outs(%recv : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 005 (correct): the branch depends on the result of an allreduce, which
// every member holds alike; both sides broadcast then reduce.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c21 = arith.constant 21 : i32
  %local = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  %eight = arith.constant 8 : i32
  %fortytwo = arith.constant 42 : i32
  memref.store %eight, %local[%c0] : memref<1xi32>
  memref.store %fortytwo, %data[%c0] : memref<1xi32>
  distruntime.all_reduce ins(%data : memref<1xi32>) outs(%local : memref<1xi32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %v = memref.load %local[%c0] : memref<1xi32>
  %is21 = arith.cmpi eq, %v, %c21 : i32
  scf.if %is21 {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 006 (correct): as 005, with the two sides in different orders: every
// member takes the same side.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c21 = arith.constant 21 : i32
  %local = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  %eight = arith.constant 8 : i32
  memref.store %eight, %local[%c0] : memref<1xi32>
  distruntime.all_reduce ins(%data : memref<1xi32>) outs(%local : memref<1xi32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %v = memref.load %local[%c0] : memref<1xi32>
  %is21 = arith.cmpi eq, %v, %c21 : i32
  scf.if %is21 {
    distruntime.all_reduce ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 007 (error): member 0 broadcasts; of the others only odd members do.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  // Both reports point here (the verifier matches identical notes once).
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    // expected-warning @below {{'distruntime.collective_broadcast' on team 0 may run on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %r = arith.remui %me, %c2 : index
    %odd = arith.cmpi ne, %r, %c0 : index
    // expected-note @below {{the 'scf.if' that decides}}
    scf.if %odd {
      // expected-error @below {{'distruntime.collective_broadcast' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
      distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
          {replica_groups = dense<> : tensor<0x0xi64>}
    }
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 008 (error): member 0 broadcasts; the others broadcast only if the
// result of an allreduce is 21.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c21 = arith.constant 21 : i32
  %tok = memref.alloc() : memref<1xi32>
  %local = memref.alloc() : memref<1xi32>
  %data = memref.alloc() : memref<1xi32>
  distruntime.all_reduce ins(%data : memref<1xi32>) outs(%local : memref<1xi32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    // expected-warning @below {{'distruntime.collective_broadcast' on team 0 may run on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %v = memref.load %local[%c0] : memref<1xi32>
    %is21 = arith.cmpi eq, %v, %c21 : i32
    scf.if %is21 {
      distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
          {replica_groups = dense<> : tensor<0x0xi64>}
    }
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 009 field-sensitive-extended (correct): f fills a "struct" with the
// member id and the team size through a pointer and barriers if the size
// is above 1; the caller prints both fields.
func.func private @f(%h: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tok = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %n = distruntime.team_size team(0)
  memref.store %me, %h[%c0] : memref<2xindex>
  memref.store %n, %h[%c1] : memref<2xindex>
  %np = memref.load %h[%c1] : memref<2xindex>
  %many = arith.cmpi ugt, %np, %c1 : index
  scf.if %many {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  return
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloca() : memref<2xindex>
  func.call @f(%h) : (memref<2xindex>) -> ()
  %pe = memref.load %h[%c0] : memref<2xindex>
  %np = memref.load %h[%c1] : memref<2xindex>
  %pe64 = arith.index_cast %pe : index to i64
  %np64 = arith.index_cast %np : index to i64
  vector.print %pe64 : i64
  vector.print %np64 : i64
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 010 splittedComm (correct, 4 members): odd members reduce in their
// parity's group then barrier, even members barrier then reduce; the
// groups never mix parities.
module attributes {distruntime.num_replicas = 4 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  scf.if %odd {
    distruntime.all_reduce ins(%x : memref<1xi32>) outs(%x : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  } else {
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
    distruntime.all_reduce ins(%x : memref<1xi32>) outs(%x : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

// -----

// 011 splittedComm (error, 4 members): members not divisible by 4 barrier
// then reduce in their parity's group, the others reduce then barrier:
// member 0 waits in the reduce for member 2, which waits in the barrier.
module attributes {distruntime.num_replicas = 4 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %tok = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c4 : index
  %rest = arith.cmpi ne, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %rest {
    // expected-note @below {{the other side's 'distruntime.allreduce'}}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
    distruntime.all_reduce ins(%x : memref<1xi32>) outs(%x : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
  } else {
    // expected-error @below {{op 'distruntime.all_reduce' here, 'distruntime.allreduce' on the other side (members 0 and 2 of one group take different sides)}}
    distruntime.all_reduce ins(%x : memref<1xi32>) outs(%x : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
    distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

// -----

// 012 deadlock-wait-nb (error, 8 members): a nonblocking barrier on the
// team and one within groups; odd members wait for the first, even
// members for the second.
module attributes {distruntime.num_replicas = 8 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tok = memref.alloc() : memref<1xi32>
  %tok2 = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  // expected-error @below {{the async handle of 'distruntime.allreduce' is not waited on every path}}
  %h1 = distruntime.allreduce <max> %tok team(0) : memref<1xi32> -> !distruntime.async_handle
  // expected-error @below {{the async handle of 'distruntime.all_reduce' is not waited on every path}}
  %h2 = distruntime.all_reduce ins(%tok2 : memref<1xi32>) outs(%tok2 : memref<1xi32>) async
      {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>}
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  // Both reports point here (the verifier matches identical notes once).
  // expected-note @below {{when this 'scf.if' runs the region of the wait}}
  scf.if %odd {
    // expected-note @below {{it is waited here only}}
    distruntime.wait %h1
  } else {
    // expected-note @below {{it is waited here only}}
    distruntime.wait %h2
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

// -----

// 013 loop_barrier (correct): odd and even members barrier 9 times each, in
// two loops.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %tok = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  scf.if %odd {
    scf.for %i = %c1 to %c10 step %c1 {
      distruntime.allreduce <max> %tok team(0) : memref<1xi32>
    }
  } else {
    scf.for %j = %c1 to %c10 step %c1 {
      distruntime.allreduce <max> %tok team(0) : memref<1xi32>
    }
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 014 static (correct, 4 members): members 0 and 1 allreduce at one site,
// members 2 and 3 at another.
module attributes {distruntime.num_replicas = 4 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %send = memref.alloc() : memref<1xi32>
  %recv = memref.alloc() : memref<1xi32>
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %low = arith.ori %is0, %is1 : i1
  scf.if %low {
    %ten = arith.constant 10 : i32
    memref.store %ten, %send[%c0] : memref<1xi32>
    distruntime.all_reduce ins(%recv : memref<1xi32>) outs(%send : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %is2 = arith.cmpi eq, %me, %c2 : index
  %is3 = arith.cmpi eq, %me, %c3 : index
  %high = arith.ori %is2, %is3 : i1
  scf.if %high {
    %twenty = arith.constant 20 : i32
    memref.store %twenty, %send[%c0] : memref<1xi32>
    distruntime.all_reduce ins(%recv : memref<1xi32>) outs(%send : memref<1xi32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

// -----

// 015 mismatch_bcast_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Bcast: collective_broadcast).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.collective_broadcast ins(%d : memref<1xi32>) outs(%d : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.collective_broadcast'}}
    %h = distruntime.collective_broadcast ins(%d : memref<1xi32>) outs(%d : memref<1xi32>) async
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 016 mismatch_allgather_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Allgather: all_gather).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<2xf32>
  %r = memref.alloc() : memref<8xf32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_gather ins(%s : memref<2xf32>) outs(%r : memref<8xf32>)
        {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_gather'}}
    %h = distruntime.all_gather ins(%s : memref<2xf32>) outs(%r : memref<8xf32>) async
        {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 017 mismatch_gather_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Gather: all_gather of rows).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<2x3xi64>
  %r = memref.alloc() : memref<2x12xi64>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_gather ins(%s : memref<2x3xi64>) outs(%r : memref<2x12xi64>)
        {all_gather_dim = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_gather'}}
    %h = distruntime.all_gather ins(%s : memref<2x3xi64>) outs(%r : memref<2x12xi64>) async
        {all_gather_dim = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 018 mismatch_scatter_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Scatter: all_to_all).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<8xf32>
  %r = memref.alloc() : memref<8xf32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_to_all ins(%s : memref<8xf32>) outs(%r : memref<8xf32>)
        {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_to_all'}}
    %h = distruntime.all_to_all ins(%s : memref<8xf32>) outs(%r : memref<8xf32>) async
        {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 019 mismatch_reduce_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Reduce: all_reduce).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<4xf64>
  %r = memref.alloc() : memref<4xf64>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_reduce ins(%s : memref<4xf64>) outs(%r : memref<4xf64>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    %h = distruntime.all_reduce ins(%s : memref<4xf64>) outs(%r : memref<4xf64>) async
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 020 mismatch_allreduce_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Allreduce: all_reduce).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_reduce ins(%d : memref<1xi32>) outs(%d : memref<1xi32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    %h = distruntime.all_reduce ins(%d : memref<1xi32>) outs(%d : memref<1xi32>) async
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 021 mismatch_scan_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Scan: all_gather, then the sum of the first me + 1 values).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<1xi64>
  %r = memref.alloc() : memref<4xi64>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_gather ins(%s : memref<1xi64>) outs(%r : memref<4xi64>)
        {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_gather'}}
    %h = distruntime.all_gather ins(%s : memref<1xi64>) outs(%r : memref<4xi64>) async
        {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  // The prefix, locally.
  %n = arith.addi %me, %c1 : index
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> i64 {
    %x = memref.load %r[%i] : memref<4xi64>
    %next = arith.addi %acc, %x : i64
    scf.yield %next : i64
  }
  vector.print %sum : i64
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 022 mismatch_exscan_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Exscan: all_gather, then the sum of the first me values).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<1xi64>
  %r = memref.alloc() : memref<4xi64>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_gather ins(%s : memref<1xi64>) outs(%r : memref<4xi64>)
        {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_gather'}}
    %h = distruntime.all_gather ins(%s : memref<1xi64>) outs(%r : memref<4xi64>) async
        {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  // The prefix, locally.
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %me step %c1 iter_args(%acc = %zero) -> i64 {
    %x = memref.load %r[%i] : memref<4xi64>
    %next = arith.addi %acc, %x : i64
    scf.yield %next : i64
  }
  vector.print %sum : i64
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 023 mismatch_alltoall_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Alltoall: all_to_all).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<4x2xi32>
  %r = memref.alloc() : memref<4x2xi32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.all_to_all ins(%s : memref<4x2xi32>) outs(%r : memref<4x2xi32>)
        {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_to_all'}}
    %h = distruntime.all_to_all ins(%s : memref<4x2xi32>) outs(%r : memref<4x2xi32>) async
        {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// 024 mismatch_reduceScatterBlock_nb (error): odd members run the blocking
// collective, the others start it and wait (MPI_Reduce_scatter_block: reduce_scatter).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.alloc() : memref<8xf32>
  %r = memref.alloc() : memref<2xf32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %rem = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.reduce_scatter ins(%s : memref<8xf32>) outs(%r : memref<2xf32>)
        {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.reduce_scatter'}}
    %h = distruntime.reduce_scatter ins(%s : memref<8xf32>) outs(%r : memref<2xf32>) async
        {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MPI+SHMEM 003-a (correct): the MPI world is team 0, SHMEM's team 1. The
// branch depends on a PE number and a value gathered over team 1; both
// sides broadcast on team 0, then reduce on team 1.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c0i = arith.constant 0 : i64
  %data = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  %tok = memref.alloc() : memref<1xi32>
  %rank = distruntime.team_member team(0)
  %pe = distruntime.team_member team(1)
  %mine = memref.alloc() : memref<1xi64>
  %ranks = memref.alloc() : memref<4xi64>
  %rank64 = arith.index_cast %rank : index to i64
  memref.store %rank64, %mine[%c0] : memref<1xi64>
  distruntime.all_gather ins(%mine : memref<1xi64>) outs(%ranks : memref<4xi64>)
      {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, team = 1 : i64}
  %r = memref.load %ranks[%rank] : memref<4xi64>
  %pe0 = arith.cmpi eq, %pe, %c0 : index
  %r0 = arith.cmpi eq, %r, %c0i : i64
  %c = arith.ori %pe0, %r0 : i1
  scf.if %c {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  distruntime.allreduce <max> %tok team(1) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MPI+SHMEM 003-b (correct): team 0 ordered by PE number; the member 0 of
// team 0 and the others broadcast on team 0 then reduce on team 1.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %data = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  %tok = memref.alloc() : memref<1xi32>
  %rank = distruntime.team_member team(0)
  %root = arith.cmpi eq, %rank, %c0 : index
  scf.if %root {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  }
  distruntime.allreduce <max> %tok team(0) : memref<1xi32>
  distruntime.allreduce <max> %tok team(1) : memref<1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MPI+SHMEM 004-a (error): as 003-a, but one side reduces on team 1 before
// it broadcasts on team 0: members of both teams wait for each other.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c0i = arith.constant 0 : i64
  %data = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  %rank = distruntime.team_member team(0)
  // expected-note @below {{it derives from the member id here}}
  %pe = distruntime.team_member team(1)
  %mine = memref.alloc() : memref<1xi64>
  %ranks = memref.alloc() : memref<4xi64>
  %rank64 = arith.index_cast %rank : index to i64
  memref.store %rank64, %mine[%c0] : memref<1xi64>
  distruntime.all_gather ins(%mine : memref<1xi64>) outs(%ranks : memref<4xi64>)
      {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, team = 1 : i64}
  %r = memref.load %ranks[%pe] : memref<4xi64>
  %pe0 = arith.cmpi eq, %pe, %c0 : index
  %r0 = arith.cmpi eq, %r, %c0i : i64
  %c = arith.ori %pe0, %r0 : i1
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %c {
    // expected-warning @below {{'distruntime.allreduce' runs on one side of a branch whose condition may differ between members, in another order with the collectives of other teams than on the other side: members of several teams may wait for each other}}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.collective_broadcast'}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MPI+SHMEM 004-b (error): as 003-b, with the reduce on team 1 first on
// member 0 of team 0.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %data = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  // expected-note @below {{it derives from the member id here}}
  %rank = distruntime.team_member team(0)
  %root = arith.cmpi eq, %rank, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    // expected-warning @below {{in another order with the collectives of other teams than on the other side}}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.collective_broadcast'}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MPI+NCCL 003 (correct): NCCL's communicator is team 1, its rank the
// member id of team 1. Both sides broadcast on team 0, then reduce on team
// 1; a reduce_scatter of no elements on team 1 is the barrier.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %data = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  %none = memref.alloc() : memref<0xi32>
  %nrank = distruntime.team_member team(1)
  %root = arith.cmpi eq, %nrank, %c0 : index
  scf.if %root {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  } else {
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  }
  distruntime.reduce_scatter ins(%none : memref<0xi32>) outs(%none : memref<0xi32>)
      {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, team = 1 : i64}
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MPI+NCCL 004 (error): as NCCL 003, but NCCL's rank 0 reduces on team 1
// before it broadcasts on team 0.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %data = memref.alloc() : memref<1xi32>
  %x = memref.alloc() : memref<1xi32>
  %none = memref.alloc() : memref<0xi32>
  // expected-note @below {{it derives from the member id here}}
  %nrank = distruntime.team_member team(1)
  %root = arith.cmpi eq, %nrank, %c0 : index
  // expected-note @below {{the 'scf.if' that decides}}
  scf.if %root {
    // expected-warning @below {{in another order with the collectives of other teams than on the other side}}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.collective_broadcast'}}
    distruntime.collective_broadcast ins(%data : memref<1xi32>) outs(%data : memref<1xi32>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.allreduce <sum> %x team(1) : memref<1xi32>
  }
  distruntime.reduce_scatter ins(%none : memref<0xi32>) outs(%none : memref<0xi32>)
      {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, team = 1 : i64}
  %ok = arith.constant 0 : i32
  return %ok : i32
}
