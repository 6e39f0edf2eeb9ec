// scatter whose update_computation computes in wider types than the inputs'
// (seed 004 (C23)/(C25), is_promotable): i8 inputs and updates summed as
// i32, bf16 ones replaced as f32, in one variadic op with a batching
// dimension; both the loop lowering and decompose-batching-dims=1.
// in@[b][r] = 100 + 10 b + r (i8) and 0.5 + r (bf16); indices per batch
// [0, 2] and [2, 2]; every update is 50 (i8) and 1.25 (bf16):
//   sum: batch 0 [150, 101, 152], batch 1 [110, 111, 212] (past i8);
//   replace: batch 0 [1.25, 1.5, 1.25], batch 1 [0.5, 1.5, 1.25].
// RUN: %compile %s -o %t.direct
// RUN: %mpirun 1 %t.direct | FileCheck %s
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %s -o %t.decomposed
// RUN: %mpirun 1 %t.decomposed | FileCheck %s
// CHECK: 150 101 152 110 111 212
// CHECK-NEXT: 1.25 1.5 1.25 0.5 1.5 1.25
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %e8 = tensor.empty() : tensor<2x3xi8>
  %eb = tensor.empty() : tensor<2x3xbf16>
  %in:2 = scf.for %b = %c0 to %c2 step %c1 iter_args(%x = %e8, %y = %eb) -> (tensor<2x3xi8>, tensor<2x3xbf16>) {
    %row:2 = scf.for %r = %c0 to %c3 step %c1 iter_args(%xa = %x, %ya = %y) -> (tensor<2x3xi8>, tensor<2x3xbf16>) {
      %ten = arith.constant 10 : index
      %hundred = arith.constant 100 : index
      %tb = arith.muli %b, %ten : index
      %v = arith.addi %hundred, %tb : index
      %v2 = arith.addi %v, %r : index
      %v8 = arith.index_cast %v2 : index to i8
      %xn = tensor.insert %v8 into %xa[%b, %r] : tensor<2x3xi8>
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %half = arith.constant 0.5 : f32
      %w = arith.addf %rf, %half : f32
      %wb = arith.truncf %w : f32 to bf16
      %yn = tensor.insert %wb into %ya[%b, %r] : tensor<2x3xbf16>
      scf.yield %xn, %yn : tensor<2x3xi8>, tensor<2x3xbf16>
    }
    scf.yield %row#0, %row#1 : tensor<2x3xi8>, tensor<2x3xbf16>
  }
  %idx = arith.constant dense<[[0, 2], [2, 2]]> : tensor<2x2xi32>
  %u8 = arith.constant dense<50> : tensor<2x2xi8>
  %ub = arith.constant dense<1.25> : tensor<2x2xbf16>
  %r:2 = distruntime.scatter ins(%in#0, %in#1 : tensor<2x3xi8>, tensor<2x3xbf16>) indices(%idx : tensor<2x2xi32>) updates(%u8, %ub : tensor<2x2xi8>, tensor<2x2xbf16>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
  } update_computation {
  ^bb0(%a: i32, %b: f32, %c: i32, %d: f32):
    %s = arith.addi %a, %c : i32
    distruntime.yield %s, %d : i32, f32
  } -> tensor<2x3xi32>, tensor<2x3xf32>

  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %v = tensor.extract %r#0[%b, %k] : tensor<2x3xi32>
      vector.print %v : i32 punctuation <no_punctuation>
      vector.print str " "
    }
  }
  vector.print punctuation <newline>
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %v = tensor.extract %r#1[%b, %k] : tensor<2x3xf32>
      vector.print %v : f32 punctuation <no_punctuation>
      vector.print str " "
    }
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
