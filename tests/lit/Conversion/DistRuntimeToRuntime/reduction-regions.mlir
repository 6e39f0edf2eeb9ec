// A StableHLO-style `computation` region lowers to the distrt_redop_t of its
// body (distrt.h): sum 0, prod 1, min 2, max 3, and 4, or 5, xor 6, umin 7,
// umax 8, minimum 9, maximum 10, minnum 11, maxnum 12. Signless integers
// compare as signed in minsi/maxsi and as unsigned in minui/maxui; on i1,
// where true is -1 when signed, minsi is `or` and maxsi is `and`.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s

// CHECK-LABEL: func @addi
// CHECK: %[[OP:.*]] = arith.constant 0 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @addi(%a: memref<4xi32>) {
  distruntime.all_reduce ins(%a : memref<4xi32>) outs(%a : memref<4xi32>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %m = arith.addi %l, %r : i32
    distruntime.yield %m : i32
  }
  return
}

// CHECK-LABEL: func @addf_swapped
// CHECK: %[[OP:.*]] = arith.constant 0 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @addf_swapped(%a: memref<4xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %r, %l : f32
    distruntime.yield %m : f32
  }
  return
}

// CHECK-LABEL: func @muli
// CHECK: %[[OP:.*]] = arith.constant 1 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @muli(%a: memref<4xi16>) {
  distruntime.all_reduce ins(%a : memref<4xi16>) outs(%a : memref<4xi16>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i16, %r: i16):
    %m = arith.muli %l, %r : i16
    distruntime.yield %m : i16
  }
  return
}

// CHECK-LABEL: func @mulf
// CHECK: %[[OP:.*]] = arith.constant 1 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @mulf(%a: memref<4xf64>) {
  distruntime.all_reduce ins(%a : memref<4xf64>) outs(%a : memref<4xf64>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: f64, %r: f64):
    %m = arith.mulf %l, %r : f64
    distruntime.yield %m : f64
  }
  return
}

// CHECK-LABEL: func @minsi
// CHECK: %[[OP:.*]] = arith.constant 2 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @minsi(%a: memref<4xi64>) {
  distruntime.all_reduce ins(%a : memref<4xi64>) outs(%a : memref<4xi64>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i64, %r: i64):
    %m = arith.minsi %l, %r : i64
    distruntime.yield %m : i64
  }
  return
}

// CHECK-LABEL: func @maxsi
// CHECK: %[[OP:.*]] = arith.constant 3 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @maxsi(%a: memref<4xi8>) {
  distruntime.all_reduce ins(%a : memref<4xi8>) outs(%a : memref<4xi8>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i8, %r: i8):
    %m = arith.maxsi %l, %r : i8
    distruntime.yield %m : i8
  }
  return
}

// CHECK-LABEL: func @andi
// CHECK: %[[OP:.*]] = arith.constant 4 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @andi(%a: memref<4xi32>) {
  distruntime.all_reduce ins(%a : memref<4xi32>) outs(%a : memref<4xi32>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %m = arith.andi %l, %r : i32
    distruntime.yield %m : i32
  }
  return
}

// CHECK-LABEL: func @ori
// CHECK: %[[OP:.*]] = arith.constant 5 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @ori(%a: memref<4xi32>) {
  distruntime.all_reduce ins(%a : memref<4xi32>) outs(%a : memref<4xi32>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %m = arith.ori %l, %r : i32
    distruntime.yield %m : i32
  }
  return
}

// CHECK-LABEL: func @xori
// CHECK: %[[OP:.*]] = arith.constant 6 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @xori(%a: memref<4xi1>) {
  distruntime.all_reduce ins(%a : memref<4xi1>) outs(%a : memref<4xi1>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i1, %r: i1):
    %m = arith.xori %l, %r : i1
    distruntime.yield %m : i1
  }
  return
}

// CHECK-LABEL: func @minui
// CHECK: %[[OP:.*]] = arith.constant 7 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @minui(%a: memref<4xi32>) {
  distruntime.all_reduce ins(%a : memref<4xi32>) outs(%a : memref<4xi32>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %m = arith.minui %l, %r : i32
    distruntime.yield %m : i32
  }
  return
}

// CHECK-LABEL: func @maxui
// CHECK: %[[OP:.*]] = arith.constant 8 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @maxui(%a: memref<4xi64>) {
  distruntime.all_reduce ins(%a : memref<4xi64>) outs(%a : memref<4xi64>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i64, %r: i64):
    %m = arith.maxui %l, %r : i64
    distruntime.yield %m : i64
  }
  return
}

// CHECK-LABEL: func @minimumf
// CHECK: %[[OP:.*]] = arith.constant 9 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @minimumf(%a: memref<4xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: f32, %r: f32):
    %m = arith.minimumf %l, %r : f32
    distruntime.yield %m : f32
  }
  return
}

// CHECK-LABEL: func @maximumf
// CHECK: %[[OP:.*]] = arith.constant 10 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @maximumf(%a: memref<4xf16>) {
  distruntime.all_reduce ins(%a : memref<4xf16>) outs(%a : memref<4xf16>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: f16, %r: f16):
    %m = arith.maximumf %l, %r : f16
    distruntime.yield %m : f16
  }
  return
}

// CHECK-LABEL: func @minnumf
// CHECK: %[[OP:.*]] = arith.constant 11 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @minnumf(%a: memref<4xf64>) {
  distruntime.all_reduce ins(%a : memref<4xf64>) outs(%a : memref<4xf64>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: f64, %r: f64):
    %m = arith.minnumf %l, %r : f64
    distruntime.yield %m : f64
  }
  return
}

// CHECK-LABEL: func @maxnumf
// CHECK: %[[OP:.*]] = arith.constant 12 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @maxnumf(%a: memref<4xbf16>) {
  distruntime.all_reduce ins(%a : memref<4xbf16>) outs(%a : memref<4xbf16>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: bf16, %r: bf16):
    %m = arith.maxnumf %l, %r : bf16
    distruntime.yield %m : bf16
  }
  return
}

// CHECK-LABEL: func @minsi_i1
// CHECK: %[[OP:.*]] = arith.constant 5 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @minsi_i1(%a: memref<4xi1>) {
  distruntime.all_reduce ins(%a : memref<4xi1>) outs(%a : memref<4xi1>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i1, %r: i1):
    %m = arith.minsi %l, %r : i1
    distruntime.yield %m : i1
  }
  return
}

// CHECK-LABEL: func @maxsi_i1
// CHECK: %[[OP:.*]] = arith.constant 4 : i32
// CHECK: call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
func.func @maxsi_i1(%a: memref<4xi1>) {
  distruntime.all_reduce ins(%a : memref<4xi1>) outs(%a : memref<4xi1>) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i1, %r: i1):
    %m = arith.maxsi %l, %r : i1
    distruntime.yield %m : i1
  }
  return
}

// CHECK-LABEL: func @reduce_scatter_minui
// CHECK: %[[OP:.*]] = arith.constant 7 : i32
// CHECK: call @distrt_reduce_scatter(%{{.*}}, %{{.*}}, %[[OP]],
func.func @reduce_scatter_minui(%a: memref<4xi32>, %b: memref<4xi32>) {
  distruntime.reduce_scatter ins(%a : memref<4xi32>) outs(%b : memref<4xi32>) {scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} computation {
  ^bb0(%l: i32, %r: i32):
    %m = arith.minui %l, %r : i32
    distruntime.yield %m : i32
  }
  return
}
