// Sample sort (parallel sorting by regular sampling) of 10^6 integers over
// the members of team 0, one source for every np. Member p holds a block of
// the sequence v(g) = (g * 6364136223846793005 + 1442695040888963407) >> 33
// (mod 2^64, 31 bits) and:
//   1. sorts it (LSD radix sort, 4 passes of 8 bits);
//   2. picks P regular samples, all_gathers them, sorts them and takes
//      samples P, 2P, ... (P - 1 splitters);
//   3. cuts its sorted block at the splitters: bucket j goes to member j;
//   4. all_gathers the bucket sizes (a P x P table) from which it computes
//      what it receives and where its blocks land on their receivers;
//   5. exchanges the buckets with ragged_all_to_all (sizes from data);
//   6. sorts what it received.
// It prints the count, the sum, the smallest, the median (global index
// N / 2) and the largest value, and whether the result is sorted across
// the members, all combined with global_reduce and all_gather.
//
// Run:      ./scripts/run.sh examples/sample_sort.mlir -np 4
// Check:    python3 examples/sample_sort_reference.py  (the same lines)

module {
  // Sorts a[0, n) (values in [0, 2^31)) through tmp, 8 bits a pass.
  func.func @radix_sort(%a: memref<?xi32>, %tmp: memref<?xi32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c8 = arith.constant 8 : i32
    %mask = arith.constant 255 : i32
    %counts = memref.alloca() : memref<256xindex>
    scf.for %pass = %c0 to %c4 step %c1 {
      // Even passes read a, odd ones tmp: after 4, a is sorted.
      %pi = arith.index_cast %pass : index to i32
      %shift = arith.muli %pi, %c8 : i32
      %two = arith.constant 2 : index
      %parity = arith.remui %pass, %two : index
      %fromA = arith.cmpi eq, %parity, %c0 : index
      %src = arith.select %fromA, %a, %tmp : memref<?xi32>
      %dst = arith.select %fromA, %tmp, %a : memref<?xi32>
      scf.for %d = %c0 to %c256 step %c1 {
        memref.store %c0, %counts[%d] : memref<256xindex>
      }
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %src[%i] : memref<?xi32>
        %s = arith.shrui %v, %shift : i32
        %digit = arith.andi %s, %mask : i32
        %d = arith.index_cast %digit : i32 to index
        %c = memref.load %counts[%d] : memref<256xindex>
        %c2 = arith.addi %c, %c1 : index
        memref.store %c2, %counts[%d] : memref<256xindex>
      }
      // Counts become each digit's first position.
      scf.for %d = %c0 to %c256 step %c1 iter_args(%at = %c0) -> (index) {
        %c = memref.load %counts[%d] : memref<256xindex>
        memref.store %at, %counts[%d] : memref<256xindex>
        %next = arith.addi %at, %c : index
        scf.yield %next : index
      }
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %src[%i] : memref<?xi32>
        %s = arith.shrui %v, %shift : i32
        %digit = arith.andi %s, %mask : i32
        %d = arith.index_cast %digit : i32 to index
        %at = memref.load %counts[%d] : memref<256xindex>
        memref.store %v, %dst[%at] : memref<?xi32>
        %next = arith.addi %at, %c1 : index
        memref.store %next, %counts[%d] : memref<256xindex>
      }
    }
    return
  }

  // A copy of a[0, n) sorted, in a new buffer of n values.
  func.func @sorted_copy(%a: memref<?xi32>, %n: index) -> memref<?xi32> {
    %out = memref.alloc(%n) : memref<?xi32>
    %tmp = memref.alloc(%n) : memref<?xi32>
    %view = memref.subview %a[0] [%n] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
    memref.copy %view, %out : memref<?xi32, strided<[1]>> to memref<?xi32>
    func.call @radix_sort(%out, %tmp, %n) : (memref<?xi32>, memref<?xi32>, index) -> ()
    memref.dealloc %tmp : memref<?xi32>
    return %out : memref<?xi32>
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %N = arith.constant 1000000 : index
    %zero64 = arith.constant 0 : i64
    %one64 = arith.constant 1 : i64
    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)

    // 1. Block distribution: N/P each, the first N%P members one more.
    %q = arith.divui %N, %P : index
    %rem = arith.remui %N, %P : index
    %has_extra = arith.cmpi ult, %me, %rem : index
    %extra = arith.select %has_extra, %c1, %c0 : index
    %n = arith.addi %q, %extra : index
    %before = arith.muli %me, %q : index
    %shift = arith.minui %me, %rem : index
    %start = arith.addi %before, %shift : index
    %data = memref.alloc(%n) : memref<?xi32>
    %mul = arith.constant 6364136223846793005 : i64
    %inc = arith.constant 1442695040888963407 : i64
    %c33 = arith.constant 33 : i64
    %low31 = arith.constant 2147483647 : i64
    scf.for %i = %c0 to %n step %c1 {
      %g = arith.addi %start, %i : index
      %g64 = arith.index_cast %g : index to i64
      %m = arith.muli %g64, %mul : i64
      %s = arith.addi %m, %inc : i64
      %h = arith.shrui %s, %c33 : i64
      %v64 = arith.andi %h, %low31 : i64
      %v = arith.trunci %v64 : i64 to i32
      memref.store %v, %data[%i] : memref<?xi32>
    }
    %tmp = memref.alloc(%n) : memref<?xi32>
    func.call @radix_sort(%data, %tmp, %n) : (memref<?xi32>, memref<?xi32>, index) -> ()

    // 2. P regular samples each (at i n / P), gathered and sorted.
    %samples = memref.alloc(%P) : memref<?xi32>
    scf.for %k = %c0 to %P step %c1 {
      %kn = arith.muli %k, %n : index
      %at = arith.divui %kn, %P : index
      %some = arith.cmpi ult, %at, %n : index
      %v = scf.if %some -> (i32) {
        %x = memref.load %data[%at] : memref<?xi32>
        scf.yield %x : i32
      } else {
        %top = arith.constant 2147483647 : i32
        scf.yield %top : i32
      }
      memref.store %v, %samples[%k] : memref<?xi32>
    }
    %PP = arith.muli %P, %P : index
    %all = memref.alloc(%PP) : memref<?xi32>
    distruntime.all_gather ins(%samples : memref<?xi32>) outs(%all : memref<?xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    %ranked = func.call @sorted_copy(%all, %PP) : (memref<?xi32>, index) -> memref<?xi32>

    // 3. Bucket j: the values v with splitter(j) <= v < splitter(j + 1),
    // where splitter(j) = ranked[j P] (none below the first, above the
    // last): consecutive in the sorted block.
    %sizes = memref.alloc(%P) : memref<?xi64>
    %offsets = memref.alloc(%P) : memref<?xi64>
    %Pm1 = arith.subi %P, %c1 : index
    scf.for %j = %c0 to %P step %c1 iter_args(%from = %c0) -> (index) {
      %last = arith.cmpi eq, %j, %Pm1 : index
      %to = scf.if %last -> (index) {
        scf.yield %n : index
      } else {
        %j1 = arith.addi %j, %c1 : index
        %si = arith.muli %j1, %P : index
        %split = memref.load %ranked[%si] : memref<?xi32>
        %end = scf.while (%i = %from) : (index) -> index {
          %inside = arith.cmpi ult, %i, %n : index
          %below = scf.if %inside -> (i1) {
            %v = memref.load %data[%i] : memref<?xi32>
            %lt = arith.cmpi slt, %v, %split : i32
            scf.yield %lt : i1
          } else {
            %false = arith.constant false
            scf.yield %false : i1
          }
          scf.condition(%below) %i : index
        } do {
        ^bb0(%i: index):
          %i1 = arith.addi %i, %c1 : index
          scf.yield %i1 : index
        }
        scf.yield %end : index
      }
      %size = arith.subi %to, %from : index
      %size64 = arith.index_cast %size : index to i64
      %from64 = arith.index_cast %from : index to i64
      memref.store %size64, %sizes[%j] : memref<?xi64>
      memref.store %from64, %offsets[%j] : memref<?xi64>
      scf.yield %to : index
    }

    // 4. table[p P + j]: what member p sends member j. This member
    // receives table[j P + me] from j; its bucket j lands on j after those
    // of the members before it.
    %table = memref.alloc(%PP) : memref<?xi64>
    distruntime.all_gather ins(%sizes : memref<?xi64>) outs(%table : memref<?xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    %recvSizes = memref.alloc(%P) : memref<?xi64>
    %landAt = memref.alloc(%P) : memref<?xi64>
    %total = scf.for %j = %c0 to %P step %c1 iter_args(%sum = %zero64) -> (i64) {
      %jP = arith.muli %j, %P : index
      %from = arith.addi %jP, %me : index
      %r = memref.load %table[%from] : memref<?xi64>
      memref.store %r, %recvSizes[%j] : memref<?xi64>
      %at = scf.for %p = %c0 to %me step %c1 iter_args(%acc = %zero64) -> (i64) {
        %pP = arith.muli %p, %P : index
        %pj = arith.addi %pP, %j : index
        %t = memref.load %table[%pj] : memref<?xi64>
        %acc1 = arith.addi %acc, %t : i64
        scf.yield %acc1 : i64
      }
      memref.store %at, %landAt[%j] : memref<?xi64>
      %sum1 = arith.addi %sum, %r : i64
      scf.yield %sum1 : i64
    }

    // 5. The exchange, sized by the data.
    %m = arith.index_cast %total : i64 to index
    %mine = memref.alloc(%m) : memref<?xi32>
    distruntime.ragged_all_to_all ins(%data : memref<?xi32>) outs(%mine : memref<?xi32>) input_offsets(%offsets : memref<?xi64>) send_sizes(%sizes : memref<?xi64>) output_offsets(%landAt : memref<?xi64>) recv_sizes(%recvSizes : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}

    // 6. Sorted within; its buckets come in order across the members.
    %tmp2 = memref.alloc(%m) : memref<?xi32>
    func.call @radix_sort(%mine, %tmp2, %m) : (memref<?xi32>, memref<?xi32>, index) -> ()

    // The checks: count, sum and local order over every member; each
    // member's (count, first, last) gathered for the order across them.
    %local = memref.alloc() : memref<3xi64>
    %unsorted = scf.for %i = %c1 to %m step %c1 iter_args(%bad = %zero64) -> (i64) {
      %i0 = arith.subi %i, %c1 : index
      %a = memref.load %mine[%i0] : memref<?xi32>
      %b = memref.load %mine[%i] : memref<?xi32>
      %gt = arith.cmpi sgt, %a, %b : i32
      %flag = arith.extui %gt : i1 to i64
      %bad1 = arith.ori %bad, %flag : i64
      scf.yield %bad1 : i64
    }
    %sum = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero64) -> (i64) {
      %v = memref.load %mine[%i] : memref<?xi32>
      %v64 = arith.extui %v : i32 to i64
      %acc1 = arith.addi %acc, %v64 : i64
      scf.yield %acc1 : i64
    }
    memref.store %total, %local[%c0] : memref<3xi64>
    memref.store %sum, %local[%c1] : memref<3xi64>
    memref.store %unsorted, %local[%c2] : memref<3xi64>
    %count = memref.alloc() : memref<1xi64>
    %sums = memref.alloc() : memref<1xi64>
    %bads = memref.alloc() : memref<1xi64>
    memref.store %total, %count[%c0] : memref<1xi64>
    memref.store %sum, %sums[%c0] : memref<1xi64>
    memref.store %unsorted, %bads[%c0] : memref<1xi64>
    %gcount = distruntime.global_reduce <sum> %count team(0) : memref<1xi64> -> i64
    %gsum = distruntime.global_reduce <sum> %sums team(0) : memref<1xi64> -> i64
    %gbad = distruntime.global_reduce <max> %bads team(0) : memref<1xi64> -> i64

    // Ends: (count, first, last) of every member.
    %ends = memref.alloc() : memref<3xi64>
    %empty = arith.cmpi eq, %m, %c0 : index
    %first, %last = scf.if %empty -> (i64, i64) {
      scf.yield %zero64, %zero64 : i64, i64
    } else {
      %mm1 = arith.subi %m, %c1 : index
      %f = memref.load %mine[%c0] : memref<?xi32>
      %l = memref.load %mine[%mm1] : memref<?xi32>
      %f64 = arith.extui %f : i32 to i64
      %l64 = arith.extui %l : i32 to i64
      scf.yield %f64, %l64 : i64, i64
    }
    memref.store %total, %ends[%c0] : memref<3xi64>
    memref.store %first, %ends[%c1] : memref<3xi64>
    memref.store %last, %ends[%c2] : memref<3xi64>
    %P3 = arith.muli %P, %c3 : index
    %allEnds = memref.alloc(%P3) : memref<?xi64>
    distruntime.all_gather ins(%ends : memref<3xi64>) outs(%allEnds : memref<?xi64>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}

    // The median (global index N / 2): its member puts it in, the others 0.
    %half = arith.divui %N, %c2 : index
    %half64 = arith.index_cast %half : index to i64
    %myStart = scf.for %p = %c0 to %me step %c1 iter_args(%acc = %zero64) -> (i64) {
      %p3 = arith.muli %p, %c3 : index
      %c = memref.load %allEnds[%p3] : memref<?xi64>
      %acc1 = arith.addi %acc, %c : i64
      scf.yield %acc1 : i64
    }
    %myEnd = arith.addi %myStart, %total : i64
    %geStart = arith.cmpi sge, %half64, %myStart : i64
    %ltEnd = arith.cmpi slt, %half64, %myEnd : i64
    %owns = arith.andi %geStart, %ltEnd : i1
    %medianPart = scf.if %owns -> (i64) {
      %off64 = arith.subi %half64, %myStart : i64
      %off = arith.index_cast %off64 : i64 to index
      %v = memref.load %mine[%off] : memref<?xi32>
      %v64 = arith.extui %v : i32 to i64
      scf.yield %v64 : i64
    } else {
      scf.yield %zero64 : i64
    }
    %medianBuf = memref.alloc() : memref<1xi64>
    memref.store %medianPart, %medianBuf[%c0] : memref<1xi64>
    %median = distruntime.global_reduce <sum> %medianBuf team(0) : memref<1xi64> -> i64

    %is0 = arith.cmpi eq, %me, %c0 : index
    scf.if %is0 {
      // Across the members: each non-empty one starts at or above the
      // last value before it.
      %init = arith.constant -1 : i64
      %res:4 = scf.for %p = %c0 to %P step %c1 iter_args(%prev = %init, %bad = %zero64, %lo = %init, %hi = %zero64) -> (i64, i64, i64, i64) {
        %p3 = arith.muli %p, %c3 : index
        %p31 = arith.addi %p3, %c1 : index
        %p32 = arith.addi %p3, %c2 : index
        %c = memref.load %allEnds[%p3] : memref<?xi64>
        %f = memref.load %allEnds[%p31] : memref<?xi64>
        %l = memref.load %allEnds[%p32] : memref<?xi64>
        %none = arith.cmpi eq, %c, %zero64 : i64
        %r:4 = scf.if %none -> (i64, i64, i64, i64) {
          scf.yield %prev, %bad, %lo, %hi : i64, i64, i64, i64
        } else {
          %down = arith.cmpi sgt, %prev, %f : i64
          %flag = arith.extui %down : i1 to i64
          %bad1 = arith.ori %bad, %flag : i64
          %noLo = arith.cmpi slt, %lo, %zero64 : i64
          %lo1 = arith.select %noLo, %f, %lo : i64
          scf.yield %l, %bad1, %lo1, %l : i64, i64, i64, i64
        }
        scf.yield %r#0, %r#1, %r#2, %r#3 : i64, i64, i64, i64
      }
      %badAll = arith.ori %res#1, %gbad : i64
      %ok = arith.cmpi eq, %badAll, %zero64 : i64
      vector.print str "count "
      vector.print %gcount : i64
      vector.print str "sum "
      vector.print %gsum : i64
      vector.print str "min "
      vector.print %res#2 : i64
      vector.print str "median "
      vector.print %median : i64
      vector.print str "max "
      vector.print %res#3 : i64
      scf.if %ok {
        vector.print str "sorted yes\n"
      } else {
        vector.print str "sorted no\n"
      }
    }
    %ret = arith.constant 0 : i32
    return %ret : i32
  }
}
