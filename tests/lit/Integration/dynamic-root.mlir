// collective_broadcast with dynamic roots (StableHLO's has_dynamic_root),
// compiled and run. The source of result k in process group i is
// process_groups[i, roots[k]].
// interpreter.mlir reproduces the StableHLO interpreter's cases
// has_dynamic_root and has_dynamic_root_variadic
// (stablehlo/tests/interpret/collective_broadcast.mlir) with their expected
// values, with constant roots and with roots known only at run time, and in
// checked mode (which agrees on the roots within each group).
// RUN: split-file %s %t
// RUN: %compile %t/interpreter.mlir -o %t/interpreter
// RUN: %mpirun 2 %t/interpreter | sort | FileCheck %s --check-prefix=INTERP
// RUN: env DISTRT_CHECK=1 %mpirun 2 %t/interpreter | sort | FileCheck %s --check-prefix=INTERP
// RUN: %compile %t/np3.mlir -o %t/np3
// RUN: %mpirun 3 %t/np3 | sort | FileCheck %s --check-prefix=NP3
// RUN: %compile %t/grid.mlir -o %t/grid
// RUN: %mpirun 4 %t/grid | sort | FileCheck %s --check-prefix=GRID
// RUN: env DISTRT_CHECK=1 %mpirun 4 %t/grid | sort | FileCheck %s --check-prefix=GRID

// interpreter.mlir, 2 replicas, replica_groups [[0, 1]].
// has_dynamic_root: %operand@0 = [[1, 2]], %operand@1 = [[3, 4]], root [1]:
//   both receive process 1's [[3, 4]] (c: constant roots, r: run time).
// has_dynamic_root_variadic: data0@0 = [[1, 2]], data1@0 = [[5, 6]],
//   data0@1 = [[3, 4]], data1@1 = [[7, 8]], roots [0, 1]: both receive
//   [[1, 2]] (data0 from process 0) and [[7, 8]] (data1 from process 1).
// INTERP: has_dynamic_root c rank 0: 3 4
// INTERP-NEXT: has_dynamic_root c rank 1: 3 4
// INTERP-NEXT: has_dynamic_root r rank 0: 3 4
// INTERP-NEXT: has_dynamic_root r rank 1: 3 4
// INTERP-NEXT: has_dynamic_root_variadic c rank 0: 1 2 7 8
// INTERP-NEXT: has_dynamic_root_variadic c rank 1: 1 2 7 8
// INTERP-NEXT: has_dynamic_root_variadic r rank 0: 1 2 7 8
// INTERP-NEXT: has_dynamic_root_variadic r rank 1: 1 2 7 8

// np3.mlir, 3 replicas (from the team size), x@q = [10 q, 10 q + 1],
// y@q = [100 q + 5, 100 q + 6], roots computed at run time.
// b1: memref form, async, groups [[2, 0, 1]], roots [size - 1, 1] = [2, 1]:
//   x from position 2 (process 1), y from position 1 (process 0).
// b2: tensor form, groups [[1, 2]] (process 0 in none: zeros), roots
//   [size - 2] = [1]: from process 2.
// NP3: b1 rank 0: 10 11 5 6
// NP3-NEXT: b1 rank 1: 10 11 5 6
// NP3-NEXT: b1 rank 2: 10 11 5 6
// NP3-NEXT: b2 rank 0: 0 0 0 0
// NP3-NEXT: b2 rank 1: 20 21 205 206
// NP3-NEXT: b2 rank 2: 20 21 205 206

// grid.mlir, 2 replicas x 2 partitions, q = 2 r + p; x, y as above.
// b1: channel_id 1 (cross_partition), replica_groups [[1, 0]]: groups
//   {1, 0} (replica 0) and {3, 2} (replica 1); each group's root is its
//   replica, so the groups differ: [0] from process 1, [1] from process 2.
// b2: memref form, channel_id 0 (cross_replica), replica_groups [[1, 0]]:
//   groups {2, 0} (partition 0) and {3, 1} (partition 1); roots [1, 0]:
//   x from position 1 (processes 0 and 1), y from position 0 (2 and 3).
// GRID: b1 rank 0: 10 11 105 106
// GRID-NEXT: b1 rank 1: 10 11 105 106
// GRID-NEXT: b1 rank 2: 20 21 205 206
// GRID-NEXT: b1 rank 3: 20 21 205 206
// GRID-NEXT: b2 rank 0: 0 1 205 206
// GRID-NEXT: b2 rank 1: 10 11 305 306
// GRID-NEXT: b2 rank 2: 0 1 205 206
// GRID-NEXT: b2 rank 3: 10 11 305 306

//--- interpreter.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
  // The interpreter's functions: the roots are arguments, read at run time.
  func.func @collective_broadcast(%operand: tensor<1x2xi64>, %root: tensor<1xi32>) -> tensor<1x2xi64> {
    %result = distruntime.collective_broadcast ins(%operand : tensor<1x2xi64>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
    return %result : tensor<1x2xi64>
  }
  func.func @collective_broadcast_variadic(%data0: tensor<1x2xi64>, %data1: tensor<1x2xi64>, %root: tensor<2xi32>) -> (tensor<1x2xi64>, tensor<1x2xi64>) {
    %result:2 = distruntime.collective_broadcast ins(%data0, %data1 : tensor<1x2xi64>, tensor<1x2xi64>) roots(%root : tensor<2xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>, tensor<1x2xi64>
    return %result#0, %result#1 : tensor<1x2xi64>, tensor<1x2xi64>
  }

  func.func @main() -> i32 {
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    %c0 = arith.constant 0 : i64
    %is0 = arith.cmpi eq, %q, %c0 : i64
    // has_dynamic_root.
    %operand0 = arith.constant dense<[[1, 2]]> : tensor<1x2xi64>
    %operand1 = arith.constant dense<[[3, 4]]> : tensor<1x2xi64>
    %operand = arith.select %is0, %operand0, %operand1 : tensor<1x2xi64>
    %root = arith.constant dense<[1]> : tensor<1xi32>
    %c = distruntime.collective_broadcast ins(%operand : tensor<1x2xi64>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
    %fc = arith.constant 0 : i64
    call @show(%fc, %q, %c, %c) : (i64, i64, tensor<1x2xi64>, tensor<1x2xi64>) -> ()
    %r = call @collective_broadcast(%operand, %root) : (tensor<1x2xi64>, tensor<1xi32>) -> tensor<1x2xi64>
    %fr = arith.constant 1 : i64
    call @show(%fr, %q, %r, %r) : (i64, i64, tensor<1x2xi64>, tensor<1x2xi64>) -> ()
    // has_dynamic_root_variadic.
    %p0_data0 = arith.constant dense<[[1, 2]]> : tensor<1x2xi64>
    %p0_data1 = arith.constant dense<[[5, 6]]> : tensor<1x2xi64>
    %p1_data0 = arith.constant dense<[[3, 4]]> : tensor<1x2xi64>
    %p1_data1 = arith.constant dense<[[7, 8]]> : tensor<1x2xi64>
    %data0 = arith.select %is0, %p0_data0, %p1_data0 : tensor<1x2xi64>
    %data1 = arith.select %is0, %p0_data1, %p1_data1 : tensor<1x2xi64>
    %roots = arith.constant dense<[0, 1]> : tensor<2xi32>
    %vc:2 = distruntime.collective_broadcast ins(%data0, %data1 : tensor<1x2xi64>, tensor<1x2xi64>) roots(%roots : tensor<2xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>, tensor<1x2xi64>
    %fvc = arith.constant 2 : i64
    call @show(%fvc, %q, %vc#0, %vc#1) : (i64, i64, tensor<1x2xi64>, tensor<1x2xi64>) -> ()
    %vr:2 = call @collective_broadcast_variadic(%data0, %data1, %roots) : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<2xi32>) -> (tensor<1x2xi64>, tensor<1x2xi64>)
    %fvr = arith.constant 3 : i64
    call @show(%fvr, %q, %vr#0, %vr#1) : (i64, i64, tensor<1x2xi64>, tensor<1x2xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  // Prints "<case> rank <q>: <a> <b>[ <c> <d>]" (case 0, 1 show one result).
  func.func @show(%case: i64, %q: i64, %a: tensor<1x2xi64>, %b: tensor<1x2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %two = arith.constant 2 : i64
    %a0 = tensor.extract %a[%c0, %c0] : tensor<1x2xi64>
    %a1 = tensor.extract %a[%c0, %c1] : tensor<1x2xi64>
    %b0 = tensor.extract %b[%c0, %c0] : tensor<1x2xi64>
    %b1 = tensor.extract %b[%c0, %c1] : tensor<1x2xi64>
    %variadic = arith.cmpi sge, %case, %two : i64
    scf.if %variadic {
      vector.print str "has_dynamic_root_variadic "
    } else {
      vector.print str "has_dynamic_root "
    }
    %one = arith.constant 1 : i64
    %bit = arith.andi %case, %one : i64
    %runtime = arith.cmpi eq, %bit, %one : i64
    scf.if %runtime {
      vector.print str "r rank "
    } else {
      vector.print str "c rank "
    }
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %a0 : i64 punctuation <no_punctuation>
    vector.print str " "
    scf.if %variadic {
      vector.print %a1 : i64 punctuation <no_punctuation>
      vector.print str " "
      vector.print %b0 : i64 punctuation <no_punctuation>
      vector.print str " "
      vector.print %b1 : i64
    } else {
      vector.print %a1 : i64
    }
    return
  }
}

//--- np3.mlir
module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %size = distruntime.team_size team(0)
    %q = arith.index_cast %me : index to i64
    %x = call @x(%q) : (i64) -> memref<2xi64>
    %y = call @y(%q) : (i64) -> memref<2xi64>
    // b1: memref form, async, roots [size - 1, 1].
    %n = arith.index_cast %size : index to i32
    %one = arith.constant 1 : i32
    %last = arith.subi %n, %one : i32
    %roots = memref.alloc() : memref<2xi32>
    memref.store %last, %roots[%c0] : memref<2xi32>
    memref.store %one, %roots[%c1] : memref<2xi32>
    %ox = memref.alloc() : memref<2xi64>
    %oy = memref.alloc() : memref<2xi64>
    %h = distruntime.collective_broadcast ins(%x, %y : memref<2xi64>, memref<2xi64>) roots(%roots : memref<2xi32>) outs(%ox, %oy : memref<2xi64>, memref<2xi64>) async {replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>}
    distruntime.wait %h
    %t1 = arith.constant 1 : i64
    call @show(%t1, %q, %ox, %oy) : (i64, i64, memref<2xi64>, memref<2xi64>) -> ()
    // b2: tensor form, process 0 in no group, roots [size - 2].
    %two = arith.constant 2 : i32
    %second = arith.subi %n, %two : i32
    %root = tensor.from_elements %second, %second : tensor<2xi32>
    %tx = bufferization.to_tensor %x restrict : memref<2xi64> to tensor<2xi64>
    %ty = bufferization.to_tensor %y restrict : memref<2xi64> to tensor<2xi64>
    %r:2 = distruntime.collective_broadcast ins(%tx, %ty : tensor<2xi64>, tensor<2xi64>) roots(%root : tensor<2xi32>) {replica_groups = dense<[[1, 2]]> : tensor<1x2xi64>} -> tensor<2xi64>, tensor<2xi64>
    %rx = bufferization.to_buffer %r#0 : tensor<2xi64> to memref<2xi64>
    %ry = bufferization.to_buffer %r#1 : tensor<2xi64> to memref<2xi64>
    %t2 = arith.constant 2 : i64
    call @show(%t2, %q, %rx, %ry) : (i64, i64, memref<2xi64>, memref<2xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  // x@q = [10 q, 10 q + 1].
  func.func @x(%q: i64) -> memref<2xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %a = arith.muli %q, %ten : i64
    %b = arith.addi %a, %one : i64
    %m = memref.alloc() : memref<2xi64>
    memref.store %a, %m[%c0] : memref<2xi64>
    memref.store %b, %m[%c1] : memref<2xi64>
    return %m : memref<2xi64>
  }

  // y@q = [100 q + 5, 100 q + 6].
  func.func @y(%q: i64) -> memref<2xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %hundred = arith.constant 100 : i64
    %five = arith.constant 5 : i64
    %six = arith.constant 6 : i64
    %h = arith.muli %q, %hundred : i64
    %a = arith.addi %h, %five : i64
    %b = arith.addi %h, %six : i64
    %m = memref.alloc() : memref<2xi64>
    memref.store %a, %m[%c0] : memref<2xi64>
    memref.store %b, %m[%c1] : memref<2xi64>
    return %m : memref<2xi64>
  }

  // Prints "b<tag> rank <q>: <x0> <x1> <y0> <y1>".
  func.func @show(%tag: i64, %q: i64, %x: memref<2xi64>, %y: memref<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x0 = memref.load %x[%c0] : memref<2xi64>
    %x1 = memref.load %x[%c1] : memref<2xi64>
    %y0 = memref.load %y[%c0] : memref<2xi64>
    %y1 = memref.load %y[%c1] : memref<2xi64>
    vector.print str "b"
    vector.print %tag : i64 punctuation <no_punctuation>
    vector.print str " rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %x0 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %x1 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %y0 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %y1 : i64
    return
  }
}

//--- grid.mlir
module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    %x = call @x(%q) : (i64) -> memref<2xi64>
    %y = call @y(%q) : (i64) -> memref<2xi64>
    // b1: cross_partition, each group's root its replica r = q / 2.
    %two = arith.constant 2 : i64
    %r64 = arith.divsi %q, %two : i64
    %r = arith.trunci %r64 : i64 to i32
    %root = tensor.from_elements %r : tensor<1xi32>
    %tx = bufferization.to_tensor %x restrict : memref<2xi64> to tensor<2xi64>
    %ty = bufferization.to_tensor %y restrict : memref<2xi64> to tensor<2xi64>
    // One root per input: the same root for both.
    %roots1 = tensor.from_elements %r, %r : tensor<2xi32>
    %b:2 = distruntime.collective_broadcast ins(%tx, %ty : tensor<2xi64>, tensor<2xi64>) roots(%roots1 : tensor<2xi32>) {channel_id = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<2xi64>, tensor<2xi64>
    %bx = bufferization.to_buffer %b#0 : tensor<2xi64> to memref<2xi64>
    %by = bufferization.to_buffer %b#1 : tensor<2xi64> to memref<2xi64>
    %t1 = arith.constant 1 : i64
    call @show(%t1, %q, %bx, %by) : (i64, i64, memref<2xi64>, memref<2xi64>) -> ()
    // b2: memref form, cross_replica, roots [1, 0].
    %i1 = arith.constant 1 : i32
    %i0 = arith.constant 0 : i32
    %roots2 = memref.alloc() : memref<2xi32>
    memref.store %i1, %roots2[%c0] : memref<2xi32>
    memref.store %i0, %roots2[%c1] : memref<2xi32>
    %ox = memref.alloc() : memref<2xi64>
    %oy = memref.alloc() : memref<2xi64>
    distruntime.collective_broadcast ins(%x, %y : memref<2xi64>, memref<2xi64>) roots(%roots2 : memref<2xi32>) outs(%ox, %oy : memref<2xi64>, memref<2xi64>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    %t2 = arith.constant 2 : i64
    call @show(%t2, %q, %ox, %oy) : (i64, i64, memref<2xi64>, memref<2xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  // x@q = [10 q, 10 q + 1].
  func.func @x(%q: i64) -> memref<2xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %a = arith.muli %q, %ten : i64
    %b = arith.addi %a, %one : i64
    %m = memref.alloc() : memref<2xi64>
    memref.store %a, %m[%c0] : memref<2xi64>
    memref.store %b, %m[%c1] : memref<2xi64>
    return %m : memref<2xi64>
  }

  // y@q = [100 q + 5, 100 q + 6].
  func.func @y(%q: i64) -> memref<2xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %hundred = arith.constant 100 : i64
    %five = arith.constant 5 : i64
    %six = arith.constant 6 : i64
    %h = arith.muli %q, %hundred : i64
    %a = arith.addi %h, %five : i64
    %b = arith.addi %h, %six : i64
    %m = memref.alloc() : memref<2xi64>
    memref.store %a, %m[%c0] : memref<2xi64>
    memref.store %b, %m[%c1] : memref<2xi64>
    return %m : memref<2xi64>
  }

  // Prints "b<tag> rank <q>: <x0> <x1> <y0> <y1>".
  func.func @show(%tag: i64, %q: i64, %x: memref<2xi64>, %y: memref<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x0 = memref.load %x[%c0] : memref<2xi64>
    %x1 = memref.load %x[%c1] : memref<2xi64>
    %y0 = memref.load %y[%c0] : memref<2xi64>
    %y1 = memref.load %y[%c1] : memref<2xi64>
    vector.print str "b"
    vector.print %tag : i64 punctuation <no_punctuation>
    vector.print str " rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %x0 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %x1 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %y0 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %y1 : i64
    return
  }
}
