// Process groups and pairs read at run time, built from the team's size: one
// source runs at np 1-4 (and 6). dims_create picks a pr x pc grid; rank
// r = row * pc + col holds x = 10 r + 1 and y = r + 1.
//  - collective_broadcast over the grid's rows (group i = [i pc, ..., i pc +
//    pc - 1]) from position row mod pc: 10 (row pc + row mod pc) + 1;
//  - all_reduce sum of y over the grid's columns (group j = [j, pc + j,
//    ...]): pc pr (pr - 1) / 2 + pr (col + 1);
//  - collective_permute of 100 + r on the ring [[i, i + 1 mod P]]: 100 +
//    (r - 1 mod P); async send/recv on the same ring: the same;
//  - all_reduce sum of y in tensor form, one group of every rank given as a
//    tensor table (bufferized to a strided memref, copied when lowered):
//    P (P + 1) / 2.
// RUN: split-file %s %t
// RUN: %compile %t/main.mlir -o %t/main
// RUN: %mpirun 1 %t/main | sort | FileCheck %s --check-prefix=NP1
// RUN: %mpirun 2 %t/main | sort | FileCheck %s --check-prefix=NP2
// RUN: %mpirun 3 %t/main | sort | FileCheck %s --check-prefix=NP3
// RUN: %mpirun 4 %t/main | sort | FileCheck %s --check-prefix=NP4
// RUN: %mpirun 6 %t/main | sort | FileCheck %s --check-prefix=NP6
// Checked mode agrees (the tables are the same on every member).
// RUN: env DISTRT_CHECK=1 %mpirun 4 %t/main | sort | FileCheck %s --check-prefix=NP4
// NP1: rank 0: bcast 1 colsum 1 permute 100 sendrecv 100 all 1
// NP2: rank 0: bcast 1 colsum 3 permute 101 sendrecv 101 all 3
// NP2-NEXT: rank 1: bcast 11 colsum 3 permute 100 sendrecv 100 all 3
// NP3: rank 0: bcast 1 colsum 6 permute 102 sendrecv 102 all 6
// NP3-NEXT: rank 1: bcast 11 colsum 6 permute 100 sendrecv 100 all 6
// NP3-NEXT: rank 2: bcast 21 colsum 6 permute 101 sendrecv 101 all 6
// NP4: rank 0: bcast 1 colsum 4 permute 103 sendrecv 103 all 10
// NP4-NEXT: rank 1: bcast 1 colsum 6 permute 100 sendrecv 100 all 10
// NP4-NEXT: rank 2: bcast 31 colsum 4 permute 101 sendrecv 101 all 10
// NP4-NEXT: rank 3: bcast 31 colsum 6 permute 102 sendrecv 102 all 10
// np 6: a 3 x 2 grid; rows from positions 0, 1, 0.
// NP6: rank 0: bcast 1 colsum 9 permute 105 sendrecv 105 all 21
// NP6-NEXT: rank 1: bcast 1 colsum 12 permute 100 sendrecv 100 all 21
// NP6-NEXT: rank 2: bcast 31 colsum 9 permute 101 sendrecv 101 all 21
// NP6-NEXT: rank 3: bcast 31 colsum 12 permute 102 sendrecv 102 all 21
// NP6-NEXT: rank 4: bcast 41 colsum 9 permute 103 sendrecv 103 all 21
// NP6-NEXT: rank 5: bcast 41 colsum 12 permute 104 sendrecv 104 all 21
//
// A table whose members differ: under DISTRT_CHECK=1 an error naming the op
// and both tables, before any rank splits the team by it.
// RUN: %compile %t/differ.mlir -o %t/differ
// RUN: env DISTRT_CHECK=1 not %mpirun 3 %t/differ 2>&1 | FileCheck %s --check-prefix=DIFFER
// Unchecked, the first split by the table compares it.
// RUN: not %mpirun 3 %t/differ 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: distrt: error: all_reduce at {{.*}}differ.mlir:{{[0-9]+}}:{{[0-9]+}}: team 0, rank {{[0-9]}}: the members split the team into different process groups
// DIFFER: distrt: error: all_reduce at {{.*}}differ.mlir:{{[0-9]+}}:{{[0-9]+}}: team 0, rank {{[0-9]}}: {{.*}}replica_groups
// A table naming a process the grid lacks: a run-time error naming the op.
// RUN: %compile %t/range.mlir -o %t/range
// RUN: not %mpirun 2 %t/range 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: distrt: error: collective_permute at {{.*}}range.mlir:{{[0-9]+}}:{{[0-9]+}}: team 0, rank {{[0-9]}}: {{.*}}source_target_pairs{{.*}} 2

//--- main.mlir
module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %P = distruntime.team_size team(0)
    %r = distruntime.team_member team(0)
    %g:2 = distruntime.dims_create team(0) : index, index
    %row = arith.divui %r, %g#1 : index
    %col = arith.remui %r, %g#1 : index
    %r64 = arith.index_cast %r : index to i64
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %hundred = arith.constant 100 : i64

    // Rows: pr groups of pc; columns: pc groups of pr; the ring: P pairs.
    %rows = memref.alloc(%g#0, %g#1) : memref<?x?xi64>
    %cols = memref.alloc(%g#1, %g#0) : memref<?x?xi64>
    scf.for %i = %c0 to %g#0 step %c1 {
      scf.for %j = %c0 to %g#1 step %c1 {
        %q0 = arith.muli %i, %g#1 : index
        %q = arith.addi %q0, %j : index
        %q64 = arith.index_cast %q : index to i64
        memref.store %q64, %rows[%i, %j] : memref<?x?xi64>
        memref.store %q64, %cols[%j, %i] : memref<?x?xi64>
      }
    }
    %ring = memref.alloc(%P) : memref<?x2xi64>
    scf.for %i = %c0 to %P step %c1 {
      %i1 = arith.addi %i, %c1 : index
      %n = arith.remui %i1, %P : index
      %a = arith.index_cast %i : index to i64
      %b = arith.index_cast %n : index to i64
      memref.store %a, %ring[%i, %c0] : memref<?x2xi64>
      memref.store %b, %ring[%i, %c1] : memref<?x2xi64>
    }

    // Broadcast along the row from position row mod pc.
    %x = memref.alloca() : memref<1xi64>
    %bx = memref.alloca() : memref<1xi64>
    %x0 = arith.muli %r64, %ten : i64
    %xv = arith.addi %x0, %one : i64
    memref.store %xv, %x[%c0] : memref<1xi64>
    %roots = memref.alloca() : memref<1xi32>
    %pos = arith.remui %row, %g#1 : index
    %pos32 = arith.index_cast %pos : index to i32
    memref.store %pos32, %roots[%c0] : memref<1xi32>
    %hb = distruntime.collective_broadcast ins(%x : memref<1xi64>)
        roots(%roots : memref<1xi32>) outs(%bx : memref<1xi64>)
        replica_groups(%rows : memref<?x?xi64>) async
    distruntime.wait %hb

    // Sum along the column.
    %y = memref.alloca() : memref<1xi64>
    %sy = memref.alloca() : memref<1xi64>
    %yv = arith.addi %r64, %one : i64
    memref.store %yv, %y[%c0] : memref<1xi64>
    distruntime.all_reduce ins(%y : memref<1xi64>) outs(%sy : memref<1xi64>)
        replica_groups(%cols : memref<?x?xi64>)
        {reduction = #distruntime.reduction<sum>}

    // The ring, by collective_permute and by send/recv.
    %z = memref.alloca() : memref<1xi64>
    %pz = memref.alloca() : memref<1xi64>
    %rz = memref.alloca() : memref<1xi64>
    %zv = arith.addi %r64, %hundred : i64
    memref.store %zv, %z[%c0] : memref<1xi64>
    distruntime.collective_permute ins(%z : memref<1xi64>) outs(%pz : memref<1xi64>)
        source_target_pairs(%ring : memref<?x2xi64>)
    %hr = distruntime.recv outs(%rz : memref<1xi64>)
        source_target_pairs(%ring : memref<?x2xi64>) async {channel_id = 0 : i64}
    %hs = distruntime.send ins(%z : memref<1xi64>)
        source_target_pairs(%ring : memref<?x2xi64>) async {channel_id = 0 : i64}
    distruntime.wait %hr
    distruntime.wait %hs

    // Tensor form: one group of every rank, as a tensor table.
    %all = tensor.generate %c1, %P {
    ^bb0(%i: index, %j: index):
      %j64 = arith.index_cast %j : index to i64
      tensor.yield %j64 : i64
    } : tensor<?x?xi64>
    %t = tensor.from_elements %yv : tensor<1xi64>
    %st = distruntime.all_reduce ins(%t : tensor<1xi64>)
        replica_groups(%all : tensor<?x?xi64>)
        {reduction = #distruntime.reduction<sum>} -> tensor<1xi64>
    %allsum = tensor.extract %st[%c0] : tensor<1xi64>

    %b = memref.load %bx[%c0] : memref<1xi64>
    %s = memref.load %sy[%c0] : memref<1xi64>
    %p = memref.load %pz[%c0] : memref<1xi64>
    %q = memref.load %rz[%c0] : memref<1xi64>
    vector.print str "rank "
    vector.print %r64 : i64 punctuation <no_punctuation>
    vector.print str ": bcast "
    vector.print %b : i64 punctuation <no_punctuation>
    vector.print str " colsum "
    vector.print %s : i64 punctuation <no_punctuation>
    vector.print str " permute "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " sendrecv "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str " all "
    vector.print %allsum : i64
    memref.dealloc %rows : memref<?x?xi64>
    memref.dealloc %cols : memref<?x?xi64>
    memref.dealloc %ring : memref<?x2xi64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- differ.mlir
// Rank 0 passes [[0, 1, 2]], the others [[0], [1], [2]].
module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = distruntime.team_member team(0)
    %first = arith.cmpi eq, %r, %c0 : index
    %rows = arith.select %first, %c1, %c3 : index
    %cols = arith.select %first, %c3, %c1 : index
    %g = memref.alloc(%rows, %cols) : memref<?x?xi64>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %k = arith.addi %i, %j : index
        %k64 = arith.index_cast %k : index to i64
        memref.store %k64, %g[%i, %j] : memref<?x?xi64>
      }
    }
    %y = memref.alloca() : memref<1xi64>
    %one = arith.constant 1 : i64
    memref.store %one, %y[%c0] : memref<1xi64>
    distruntime.all_reduce ins(%y : memref<1xi64>) outs(%y : memref<1xi64>)
        replica_groups(%g : memref<?x?xi64>)
        {reduction = #distruntime.reduction<sum>}
    memref.dealloc %g : memref<?x?xi64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- range.mlir
// The pair (1, 2) names process 2 of a team of 2.
module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = memref.alloca() : memref<1x2xi64>
    %a = arith.constant 1 : i64
    %b = arith.constant 2 : i64
    memref.store %a, %p[%c0, %c0] : memref<1x2xi64>
    memref.store %b, %p[%c0, %c1] : memref<1x2xi64>
    %x = memref.alloca() : memref<1xi64>
    memref.store %a, %x[%c0] : memref<1xi64>
    distruntime.collective_permute ins(%x : memref<1xi64>) outs(%x : memref<1xi64>)
        source_target_pairs(%p : memref<1x2xi64>)
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
