// allreduce across element types, reductions, strided and async forms.
// Member r contributes x[k] = r + k + 1; expected values are closed forms in
// P = number of ranks.
// RUN: %compile %s -o %t
// RUN: %mpirun 1 %t | FileCheck %s --check-prefix=NP1
// RUN: %mpirun 2 %t | FileCheck %s --check-prefix=NP2
// RUN: %mpirun 3 %t | FileCheck %s --check-prefix=NP3
// RUN: %mpirun 4 %t | FileCheck %s --check-prefix=NP4

// sum f64 over k = 0..3: P*(k+1) + P(P-1)/2
// NP1: f64 sum: 1 2 3 4
// NP2: f64 sum: 3 5 7 9
// NP3: f64 sum: 6 9 12 15
// NP4: f64 sum: 10 14 18 22
// max i32 (negated contributions): -(k+1)
// NP3: i32 max: -1 -2 -3 -4
// min ui8: k+1
// NP3: ui8 min: 1 2 3 4
// prod f16: prod_r (r+k+1) = (k+P)!/k!
// NP3: f16 prod: 6 24 60 120
// NP4: f16 prod: 24 120 360 840
// sum bf16: same as f64
// NP3: bf16 sum: 6 9 12 15
// xor i1 of (r+k+1) mod 2: parity of the number of odd contributions
// NP1: i1 xor: 1 0 1 0
// NP2: i1 xor: 1 1 1 1
// NP3: i1 xor: 0 1 0 1
// NP4: i1 xor: 0 0 0 0
// column 1 of a 4x3 i64 matrix (stride 3), async sum; other columns untouched
// NP1: strided async: 1 2 3 4 untouched 0
// NP2: strided async: 3 5 7 9 untouched 0
// NP3: strided async: 6 9 12 15 untouched 0
// NP4: strided async: 10 14 18 22 untouched 0

module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %me = distruntime.team_member team(0)
    %is_root = arith.cmpi eq, %me, %c0 : index

    %f = memref.alloc() : memref<4xf64>
    %i = memref.alloc() : memref<4xi32>
    %u = memref.alloc() : memref<4xui8>
    %h = memref.alloc() : memref<4xf16>
    %b = memref.alloc() : memref<4xbf16>
    %p = memref.alloc() : memref<4xi1>
    %m = memref.alloc() : memref<4x3xi64>
    %zero = arith.constant 0 : i64
    linalg.fill ins(%zero : i64) outs(%m : memref<4x3xi64>)
    %col = memref.subview %m[0, 1] [4, 1] [1, 1] : memref<4x3xi64> to memref<4xi64, strided<[3], offset: 1>>
    scf.for %k = %c0 to %c4 step %c1 {
      %s0 = arith.addi %me, %k : index
      %s = arith.addi %s0, %c1 : index
      %s64 = arith.index_cast %s : index to i64
      %sf = arith.sitofp %s64 : i64 to f64
      memref.store %sf, %f[%k] : memref<4xf64>
      %s32 = arith.trunci %s64 : i64 to i32
      %zero32 = arith.constant 0 : i32
      %neg = arith.subi %zero32, %s32 : i32
      memref.store %neg, %i[%k] : memref<4xi32>
      %s8 = arith.trunci %s64 : i64 to i8
      %s8u = builtin.unrealized_conversion_cast %s8 : i8 to ui8
      memref.store %s8u, %u[%k] : memref<4xui8>
      %sh = arith.truncf %sf : f64 to f16
      memref.store %sh, %h[%k] : memref<4xf16>
      %sb = arith.truncf %sf : f64 to bf16
      memref.store %sb, %b[%k] : memref<4xbf16>
      %s1 = arith.trunci %s64 : i64 to i1
      memref.store %s1, %p[%k] : memref<4xi1>
      memref.store %s64, %col[%k] : memref<4xi64, strided<[3], offset: 1>>
    }

    %hc = distruntime.allreduce <sum> %col team(0) : memref<4xi64, strided<[3], offset: 1>> -> !distruntime.async_handle
    distruntime.allreduce <sum> %f team(0) : memref<4xf64>
    distruntime.allreduce <max> %i team(0) : memref<4xi32>
    distruntime.allreduce <min> %u team(0) : memref<4xui8>
    distruntime.allreduce <prod> %h team(0) : memref<4xf16>
    distruntime.allreduce <sum> %b team(0) : memref<4xbf16>
    distruntime.allreduce <xor> %p team(0) : memref<4xi1>
    distruntime.wait %hc

    scf.if %is_root {
      vector.print str "f64 sum:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %f[%k] : memref<4xf64>
        vector.print str " "
        vector.print %x : f64 punctuation <no_punctuation>
      }
      vector.print str "\ni32 max:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %i[%k] : memref<4xi32>
        vector.print str " "
        vector.print %x : i32 punctuation <no_punctuation>
      }
      vector.print str "\nui8 min:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %u[%k] : memref<4xui8>
        %xs = builtin.unrealized_conversion_cast %x : ui8 to i8
        %xi = arith.extui %xs : i8 to i32
        vector.print str " "
        vector.print %xi : i32 punctuation <no_punctuation>
      }
      vector.print str "\nf16 prod:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %h[%k] : memref<4xf16>
        %xf = arith.extf %x : f16 to f64
        vector.print str " "
        vector.print %xf : f64 punctuation <no_punctuation>
      }
      vector.print str "\nbf16 sum:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %b[%k] : memref<4xbf16>
        %xf = arith.extf %x : bf16 to f64
        vector.print str " "
        vector.print %xf : f64 punctuation <no_punctuation>
      }
      vector.print str "\ni1 xor:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %p[%k] : memref<4xi1>
        %xi = arith.extui %x : i1 to i32
        vector.print str " "
        vector.print %xi : i32 punctuation <no_punctuation>
      }
      vector.print str "\nstrided async:"
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %col[%k] : memref<4xi64, strided<[3], offset: 1>>
        vector.print str " "
        vector.print %x : i64 punctuation <no_punctuation>
      }
      // Columns 0 and 2 were never touched by the strided reduction.
      %t0 = memref.load %m[%c0, %c0] : memref<4x3xi64>
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t1 = memref.load %m[%c3, %c2] : memref<4x3xi64>
      %t = arith.addi %t0, %t1 : i64
      vector.print str " untouched "
      vector.print %t : i64
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
