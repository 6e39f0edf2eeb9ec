// Exact reductions give the same bits at any number of members (tests/smpi:
// P = 4 to 1,024 simulated ranks; tests/lit/Integration/repro.mlir: np 4 on
// a real MPI). Member 0 prints the bits of:
//  - global_reduce: the exact sum of 4,096 values of magnitudes 2^-40 to
//    2^90, block-split over the members (empty blocks past 4,096);
//  - all_reduce, 16 elements: members 0-3 hold small values, the others
//    large ones that cancel in pairs (member 4 + q's +c against member
//    4 + h + q's -c, h = (P - 4) / 2; a last odd one holds 0), so the exact
//    sum is that of the four small values at every P, while sums in any
//    fixed order of the members lose them. Past 64 KiB of all members'
//    elements (at 1,024: 128 KiB) the runtime adds exact accumulators by
//    MPI_Allreduce instead of gathering the elements.
// repro_reference.py prints the correctly rounded sums (math.fsum).
module {
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.mlir.global internal constant @fmt_sum("global_reduce 0x%016llx\0A\00")
      {addr_space = 0 : i32}
  llvm.mlir.global internal constant @fmt_elem("all_reduce %lld 0x%016llx\0A\00")
      {addr_space = 0 : i32}

  // 2^e as an f64, e in [-1022, 1023]: its bits, exactly.
  func.func private @pow2(%e: i64) -> f64 {
    %bias = arith.constant 1023 : i64
    %c52 = arith.constant 52 : i64
    %b = arith.addi %e, %bias : i64
    %bits = arith.shli %b, %c52 : i64
    %v = arith.bitcast %bits : i64 to f64
    return %v : f64
  }

  // value(i) = k 2^e, k = i * 7919 mod 1000 + 1, e = i * 31 mod 81 - 40,
  // negative where i mod 3 = 2: every step exact.
  func.func private @value(%i: i64) -> f64 {
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %c3 = arith.constant 3 : i64
    %c31 = arith.constant 31 : i64
    %c40 = arith.constant 40 : i64
    %c81 = arith.constant 81 : i64
    %c1000 = arith.constant 1000 : i64
    %c7919 = arith.constant 7919 : i64
    %ik = arith.muli %i, %c7919 : i64
    %km = arith.remui %ik, %c1000 : i64
    %k = arith.addi %km, %c1 : i64
    %ie = arith.muli %i, %c31 : i64
    %em = arith.remui %ie, %c81 : i64
    %e = arith.subi %em, %c40 : i64
    %kf = arith.uitofp %k : i64 to f64
    %s = func.call @pow2(%e) : (i64) -> f64
    %v = arith.mulf %kf, %s : f64
    %r = arith.remui %i, %c3 : i64
    %neg = arith.cmpi eq, %r, %c2 : i64
    %nv = arith.negf %v : f64
    %out = arith.select %neg, %nv, %v : f64
    return %out : f64
  }

  // Member p's value of element j: value(4 j + p) for p < 4, else a large
  // c = value(1000 + 1024 j + q) 2^60 that another member cancels.
  func.func private @element(%j: i64, %p: i64, %P: i64) -> f64 {
    %c0 = arith.constant 0 : i64
    %c2 = arith.constant 2 : i64
    %c4 = arith.constant 4 : i64
    %c60 = arith.constant 60 : i64
    %c1000 = arith.constant 1000 : i64
    %c1024 = arith.constant 1024 : i64
    %zero = arith.constant 0.0 : f64
    %small = arith.cmpi slt, %p, %c4 : i64
    %r = scf.if %small -> f64 {
      %j4 = arith.muli %j, %c4 : i64
      %i = arith.addi %j4, %p : i64
      %v = func.call @value(%i) : (i64) -> f64
      scf.yield %v : f64
    } else {
      %rest = arith.subi %P, %c4 : i64
      %h = arith.divui %rest, %c2 : i64
      %q = arith.subi %p, %c4 : i64
      %first = arith.cmpi slt, %q, %h : i64
      %h2 = arith.muli %h, %c2 : i64
      %paired = arith.cmpi slt, %q, %h2 : i64
      %qh = arith.subi %q, %h : i64
      %k = arith.select %first, %q, %qh : i64
      %jb = arith.muli %j, %c1024 : i64
      %base = arith.addi %jb, %c1000 : i64
      %i = arith.addi %base, %k : i64
      %v = func.call @value(%i) : (i64) -> f64
      %s = func.call @pow2(%c60) : (i64) -> f64
      %big = arith.mulf %v, %s : f64
      %nbig = arith.negf %big : f64
      %signed = arith.select %first, %big, %nbig : f64
      %out = arith.select %paired, %signed, %zero : f64
      scf.yield %out : f64
    }
    return %r : f64
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %total = arith.constant 4096 : index
    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    %P64 = arith.index_cast %P : index to i64
    %me64 = arith.index_cast %me : index to i64

    // This member's block of the 4,096 values (P - 4096 % P ... as even as
    // can be; members past 4,096 hold none).
    %q = arith.divui %total, %P : index
    %rem = arith.remui %total, %P : index
    %extra = arith.cmpi ult, %me, %rem : index
    %one = arith.select %extra, %c1, %c0 : index
    %n = arith.addi %q, %one : index
    %qme = arith.muli %q, %me : index
    %before = arith.minui %me, %rem : index
    %first = arith.addi %qme, %before : index
    %block = memref.alloc(%n) : memref<?xf64>
    scf.for %li = %c0 to %n step %c1 {
      %gi = arith.addi %first, %li : index
      %i = arith.index_cast %gi : index to i64
      %v = func.call @value(%i) : (i64) -> f64
      memref.store %v, %block[%li] : memref<?xf64>
    }
    %sum = distruntime.global_reduce <sum> %block team(0)
        {reproducibility = #distruntime.reproducibility<exact>}
        : memref<?xf64> -> f64

    %data = memref.alloc() : memref<16xf64>
    scf.for %jj = %c0 to %c16 step %c1 {
      %j = arith.index_cast %jj : index to i64
      %v = func.call @element(%j, %me64, %P64) : (i64, i64, i64) -> f64
      memref.store %v, %data[%jj] : memref<16xf64>
    }
    distruntime.all_reduce ins(%data : memref<16xf64>) outs(%data : memref<16xf64>)
        {reduction = #distruntime.reduction<sum>,
         reproducibility = #distruntime.reproducibility<exact>,
         replica_groups = dense<> : tensor<0x0xi64>}

    %is0 = arith.cmpi eq, %me, %c0 : index
    scf.if %is0 {
      %fs = llvm.mlir.addressof @fmt_sum : !llvm.ptr
      %fe = llvm.mlir.addressof @fmt_elem : !llvm.ptr
      %sb = arith.bitcast %sum : f64 to i64
      %w = llvm.call @printf(%fs, %sb)
          vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
      scf.for %jj = %c0 to %c16 step %c1 {
        %j = arith.index_cast %jj : index to i64
        %x = memref.load %data[%jj] : memref<16xf64>
        %xb = arith.bitcast %x : f64 to i64
        %we = llvm.call @printf(%fe, %j, %xb)
            vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64) -> i32
      }
    }
    memref.dealloc %block : memref<?xf64>
    memref.dealloc %data : memref<16xf64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
