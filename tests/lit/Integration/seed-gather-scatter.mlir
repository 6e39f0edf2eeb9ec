// Both examples of the gather/scatter seed (004), compiled and run, through
// the direct loop lowering and through distruntime-decompose-batching-dims;
// both must print the seed's results. The start index [0, 9] is clamped by
// gather and makes scatter skip its (out-of-bounds) update elements.
// RUN: %compile %s -o %t.direct
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=decompose-batching-dims=1 %compile %s -o %t.decomposed
// RUN: %mpirun 1 %t.direct > %t.direct.out
// RUN: %mpirun 2 %t.decomposed > %t.decomposed.out
// RUN: FileCheck %s < %t.direct.out
// RUN: diff %t.direct.out %t.decomposed.out

// CHECK: gather: 1 2 3 4 3 4 5 6 13 14 15 16 33 34 35 36 35 36 37 38 41 42 43 44 1 2 3 4 13 14 15 16 21 22 23 24 43 44 45 46 33 34 35 36 27 28 29 30
// CHECK-NEXT: scatter: 3 4 6 7 6 7 7 8 9 10 11 12 15 16 17 18 17 18 19 20 22 23 24 25 25 26 28 29 30 31 31 32 35 36 38 39 38 39 39 40 41 42 44 45 46 47 47 48
// CHECK-NEXT: input unchanged: 1 2 3 4 5 6 7 8 9 10

func.func @main() -> i32 {
  %operand = arith.constant dense<[
    [[[1, 2], [3, 4], [5, 6], [7, 8]],
     [[9, 10], [11, 12], [13, 14], [15, 16]],
     [[17, 18], [19, 20], [21, 22], [23, 24]]],
    [[[25, 26], [27, 28], [29, 30], [31, 32]],
     [[33, 34], [35, 36], [37, 38], [39, 40]],
     [[41, 42], [43, 44], [45, 46], [47, 48]]]]> : tensor<2x3x4x2xi32>
  %start_indices = arith.constant dense<[
    [[[0, 0], [1, 0], [2, 1]],
     [[0, 1], [1, 1], [0, 9]]],
    [[[0, 0], [2, 1], [2, 2]],
     [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>
  %result = distruntime.gather ins(%operand, %start_indices : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {
    dimension_numbers = #distruntime.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } -> tensor<2x2x3x2x2xi32>
  %g = tensor.collapse_shape %result [[0, 1, 2, 3, 4]] : tensor<2x2x3x2x2xi32> into tensor<48xi32>

  %input = arith.constant dense<[
    [[[1, 2], [3, 4], [5, 6], [7, 8]],
     [[9, 10], [11, 12], [13, 14], [15, 16]],
     [[17, 18], [19, 20], [21, 22], [23, 24]]],
    [[[25, 26], [27, 28], [29, 30], [31, 32]],
     [[33, 34], [35, 36], [37, 38], [39, 40]],
     [[41, 42], [43, 44], [45, 46], [47, 48]]]]> : tensor<2x3x4x2xi64>
  %update = arith.constant dense<1> : tensor<2x2x3x2x2xi64>
  %scattered = distruntime.scatter ins(%input : tensor<2x3x4x2xi64>)
      indices(%start_indices : tensor<2x2x3x2xi64>)
      updates(%update : tensor<2x2x3x2x2xi64>) {
    scatter_dimension_numbers = #distruntime.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } update_computation {
  ^bb0(%arg0: i64, %arg1: i64):
    %0 = arith.addi %arg0, %arg1 : i64
    distruntime.yield %0 : i64
  } -> tensor<2x3x4x2xi64>
  %s = tensor.collapse_shape %scattered [[0, 1, 2, 3]] : tensor<2x3x4x2xi64> into tensor<48xi64>
  %in = tensor.collapse_shape %input [[0, 1, 2, 3]] : tensor<2x3x4x2xi64> into tensor<48xi64>

  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c48 = arith.constant 48 : index
  %me = distruntime.team_member team(0)
  %root = arith.cmpi eq, %me, %c0 : index
  scf.if %root {
    vector.print str "gather:"
    func.call @print32(%g) : (tensor<48xi32>) -> ()
    vector.print str "scatter:"
    func.call @print(%s, %c48) : (tensor<48xi64>, index) -> ()
    vector.print str "input unchanged:"
    func.call @print(%in, %c10) : (tensor<48xi64>, index) -> ()
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

func.func @print32(%values: tensor<48xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  scf.for %i = %c0 to %c48 step %c1 {
    %v = tensor.extract %values[%i] : tensor<48xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  return
}

func.func @print(%values: tensor<48xi64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = tensor.extract %values[%i] : tensor<48xi64>
    vector.print str " "
    vector.print %v : i64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  return
}
