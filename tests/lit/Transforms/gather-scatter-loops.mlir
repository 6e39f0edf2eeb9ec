// distruntime-lower-gather-scatter turns memref-form gather and scatter into
// scf.for nests: outer loops over the batch (scatter) dims load the start
// index vector, gather clamps it to [0, dim - slice_size] (signed: minsi then
// maxsi with 0; unsigned: minui only), the inner loops over the offset
// (window) dims move elements with memref.load / memref.store. Scatter
// copies its inputs to outs (not when in place), checks 0 <= index < dim in
// every dimension with arith.cmpi sge / slt and runs the inlined
// update_computation inside scf.if.
// RUN: %distruntime-opt %s --distruntime-lower-gather-scatter | FileCheck %s

// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[OPERAND:[^:]*]]: memref<3x7x5xi32>, %[[INDICES:[^:]*]]: memref<2x3x4xi64>, %[[OUT:[^:]*]]: memref<3x3x4x2xi32>)
// CHECK-NOT: distruntime.gather
// CHECK: scf.for %[[B0:[a-z0-9_]+]] =
// CHECK-NEXT: scf.for %[[B1:[a-z0-9_]+]] =
// CHECK: %[[I0:.*]] = memref.load %[[INDICES]][%{{.*}}, %[[B0]], %[[B1]]] : memref<2x3x4xi64>
// CHECK-NEXT: %[[X0:.*]] = arith.index_cast %[[I0]] : i64 to index
// CHECK: %[[I1:.*]] = memref.load %[[INDICES]][%{{.*}}, %[[B0]], %[[B1]]] : memref<2x3x4xi64>
// CHECK-NEXT: %[[X1:.*]] = arith.index_cast %[[I1]] : i64 to index
// CHECK: %[[UP0:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[MIN0:.*]] = arith.minsi %[[X0]], %[[UP0]] : index
// CHECK-NEXT: %[[CL0:.*]] = arith.maxsi %[[MIN0]], %{{.*}} : index
// CHECK: %[[UP1:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[MIN1:.*]] = arith.minsi %[[X1]], %[[UP1]] : index
// CHECK-NEXT: %[[CL1:.*]] = arith.maxsi %[[MIN1]], %{{.*}} : index
// CHECK: scf.for %[[O0:[a-z0-9_]+]] =
// CHECK-NEXT: scf.for %[[O1:[a-z0-9_]+]] =
// CHECK-NEXT: %[[P1:.*]] = arith.addi %[[CL1]], %[[O0]] : index
// CHECK-NEXT: %[[P2:.*]] = arith.addi %[[CL0]], %[[O1]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[OPERAND]][%[[B0]], %[[P1]], %[[P2]]] : memref<3x7x5xi32>
// CHECK-NEXT: memref.store %[[V]], %[[OUT]][%[[B0]], %[[O0]], %[[B1]], %[[O1]]] : memref<3x3x4x2xi32>
// CHECK: return
func.func @gather(%operand: memref<3x7x5xi32>, %indices: memref<2x3x4xi64>, %out: memref<3x3x4x2xi32>) {
  distruntime.gather ins(%operand, %indices : memref<3x7x5xi32>, memref<2x3x4xi64>) outs(%out : memref<3x3x4x2xi32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1, 3], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 0>,
    slice_sizes = array<i64: 1, 3, 2>
  }
  return
}

// Unsigned start indices zero-extend and only need the upper clamp.
// CHECK-LABEL: func.func @gather_unsigned(
// CHECK: scf.for
// CHECK: %[[U:.*]] = memref.load %{{.*}} : memref<3x4xui32>
// CHECK: %[[S:.*]] = builtin.unrealized_conversion_cast %[[U]] : ui32 to i32
// CHECK: %[[X:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK: arith.minui %[[X]], %{{.*}} : index
// CHECK-NOT: arith.maxsi
// CHECK: memref.load
// CHECK: memref.store
// CHECK: return
func.func @gather_unsigned(%operand: memref<3x8xi32>, %indices: memref<3x4xui32>, %out: memref<3x4x3xi32>) {
  distruntime.gather ins(%operand, %indices : memref<3x8xi32>, memref<3x4xui32>) outs(%out : memref<3x4x3xi32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 3>
  }
  return
}

// CHECK-LABEL: func.func @scatter(
// CHECK-SAME: %[[INPUT:[^:]*]]: memref<3x6x4xi32>, %[[INDICES:[^:]*]]: memref<2x3x5xi64>, %[[UPDATES:[^:]*]]: memref<3x2x5x3xi32>, %[[OUT:[^:]*]]: memref<3x6x4xi32>)
// CHECK-NOT: distruntime.scatter
// CHECK: memref.copy %[[INPUT]], %[[OUT]]
// CHECK: scf.for %[[S0:[a-z0-9_]+]] =
// CHECK-NEXT: scf.for %[[S1:[a-z0-9_]+]] =
// CHECK: %[[I0:.*]] = memref.load %[[INDICES]][%{{.*}}, %[[S0]], %[[S1]]] : memref<2x3x5xi64>
// CHECK-NEXT: %[[X0:.*]] = arith.index_cast %[[I0]] : i64 to index
// CHECK: %[[I1:.*]] = memref.load %[[INDICES]][%{{.*}}, %[[S0]], %[[S1]]] : memref<2x3x5xi64>
// CHECK-NEXT: %[[X1:.*]] = arith.index_cast %[[I1]] : i64 to index
// The batch dimension (no window) is checked once per start index.
// CHECK: arith.cmpi sge, %[[S0]], %{{.*}} : index
// CHECK: arith.cmpi slt, %[[S0]], %{{.*}} : index
// CHECK: %[[INB:.*]] = arith.andi %true,
// Each window dimension's loop runs over the offsets w with
// 0 <= start + w < dim: from -start if start < 0 (dim(updates) if that is
// all of them), up to min(dim(updates), dim - start) if start >= 0.
// CHECK: %[[NEG0:.*]] = arith.cmpi slt, %[[X0]], %{{.*}} : index
// CHECK: %[[SKIP0:.*]] = arith.subi %{{.*}}, %[[X0]] : index
// CHECK: %[[FROM0:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SKIP0]] : index
// CHECK: %[[LB0:.*]] = arith.select %[[NEG0]], %[[FROM0]], %{{.*}} : index
// CHECK: %[[ROOM0:.*]] = arith.subi %{{.*}}, %[[X0]] : index
// CHECK: %[[MIN0:.*]] = arith.minsi %{{.*}}, %[[ROOM0]] : index
// CHECK: %[[UB0:.*]] = arith.select %[[NEG0]], %{{.*}}, %[[MIN0]] : index
// CHECK: %[[NEG1:.*]] = arith.cmpi slt, %[[X1]], %{{.*}} : index
// CHECK: %[[LB1:.*]] = arith.select %[[NEG1]], %{{.*}}, %{{.*}} : index
// CHECK: %[[UB1:.*]] = arith.select %[[NEG1]], %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[INB]] {
// CHECK-NEXT: scf.for %[[W0:[a-z0-9_]+]] = %[[LB0]] to %[[UB0]]
// CHECK-NEXT: scf.for %[[W1:[a-z0-9_]+]] = %[[LB1]] to %[[UB1]]
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[X0]], %[[W0]] : index
// CHECK-NEXT: %[[R2:.*]] = arith.addi %[[X1]], %[[W1]] : index
// CHECK-NEXT: %[[CUR:.*]] = memref.load %[[OUT]][%[[S0]], %[[R1]], %[[R2]]] : memref<3x6x4xi32>
// CHECK-NEXT: %[[UPD:.*]] = memref.load %[[UPDATES]][%[[S0]], %[[W0]], %[[S1]], %[[W1]]] : memref<3x2x5x3xi32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[CUR]], %[[UPD]] : i32
// CHECK-NEXT: memref.store %[[SUM]], %[[OUT]][%[[S0]], %[[R1]], %[[R2]]] : memref<3x6x4xi32>
// CHECK-NEXT: }
// CHECK: return
func.func @scatter(%input: memref<3x6x4xi32>, %indices: memref<2x3x5xi64>, %updates: memref<3x2x5x3xi32>, %out: memref<3x6x4xi32>) {
  distruntime.scatter ins(%input : memref<3x6x4xi32>) indices(%indices : memref<2x3x5xi64>) updates(%updates : memref<3x2x5x3xi32>) outs(%out : memref<3x6x4xi32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [1, 3], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 0>
  } update_computation {
  ^bb0(%cur: i32, %upd: i32):
    %sum = arith.addi %cur, %upd : i32
    distruntime.yield %sum : i32
  }
  return
}

// Unsigned scatter indices zero-extend and are capped at the dimension
// (minui), so a ui64 start >= 2^63 plus a window offset cannot wrap into
// bounds.
// CHECK-LABEL: func.func @scatter_unsigned(
// CHECK-SAME: %[[OUT:[^:]*]]: memref<2x6xi32>, %[[INDICES:[^:]*]]: memref<2x2xui64>
// CHECK: %[[U:.*]] = memref.load %[[INDICES]]
// CHECK-NEXT: %[[S:.*]] = builtin.unrealized_conversion_cast %[[U]] : ui64 to i64
// CHECK-NEXT: %[[X:.*]] = arith.index_castui %[[S]] : i64 to index
// CHECK: %[[DIM:.*]] = memref.dim %[[OUT]], %{{.*}} : memref<2x6xi32>
// CHECK-NEXT: %[[CAP:.*]] = arith.minui %[[X]], %[[DIM]] : index
// CHECK: %[[ROOM:.*]] = arith.subi %dim{{.*}}, %[[CAP]] : index
// CHECK: %[[UB:.*]] = arith.minsi %{{.*}}, %[[ROOM]] : index
// CHECK: scf.for %[[W:[a-z0-9_]+]] = %{{.*}} to %{{.*}}
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[CAP]], %[[W]] : index
// CHECK-NEXT: memref.load %[[OUT]][%{{.*}}, %[[R]]]
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
func.func @scatter_unsigned(%out: memref<2x6xi32>, %indices: memref<2x2xui64>, %updates: memref<2x2x3xi32>) {
  distruntime.scatter ins(%out : memref<2x6xi32>) indices(%indices : memref<2x2xui64>) updates(%updates : memref<2x2x3xi32>) outs(%out : memref<2x6xi32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [2], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
  } update_computation {
  ^bb0(%cur: i32, %upd: i32):
    %sum = arith.addi %cur, %upd : i32
    distruntime.yield %sum : i32
  }
  return
}

// In place (outs is the input buffer): no copy; two inputs, two stores.
// CHECK-LABEL: func.func @scatter_in_place(
// CHECK-SAME: %[[A:[^:]*]]: memref<4x7xi32>, %[[B:[^:]*]]: memref<4x7xf32>
// CHECK-NOT: memref.copy
// CHECK: scf.if
// CHECK-DAG: %[[CA:.*]] = memref.load %[[A]]
// CHECK-DAG: %[[CB:.*]] = memref.load %[[B]]
// CHECK-DAG: %[[MAX:.*]] = arith.maxsi %[[CA]], %{{.*}} : i32
// CHECK-DAG: %[[ADD:.*]] = arith.addf %[[CB]], %{{.*}} : f32
// CHECK-DAG: memref.store %[[MAX]], %[[A]]
// CHECK-DAG: memref.store %[[ADD]], %[[B]]
// CHECK: return
func.func @scatter_in_place(%a: memref<4x7xi32>, %b: memref<4x7xf32>, %indices: memref<4x3x1xi32>, %ua: memref<4x3x3xi32>, %ub: memref<4x3x3xf32>) {
  distruntime.scatter ins(%a, %b : memref<4x7xi32>, memref<4x7xf32>) indices(%indices : memref<4x3x1xi32>) updates(%ua, %ub : memref<4x3x3xi32>, memref<4x3x3xf32>) outs(%a, %b : memref<4x7xi32>, memref<4x7xf32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [2], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
  } update_computation {
  ^bb0(%ca: i32, %cb: f32, %xa: i32, %xb: f32):
    %m = arith.maxsi %ca, %xa : i32
    %s = arith.addf %cb, %xb : f32
    distruntime.yield %m, %s : i32, f32
  }
  return
}

// Static shapes were checked by the verifier: no run-time size check.
// CHECK-LABEL: func.func @static_sizes_unchecked(
// CHECK-NOT: distruntime.check
// CHECK: return
func.func @static_sizes_unchecked(%operand: memref<8x4xf32>, %indices: memref<3xi32>, %out: memref<3x4xf32>) {
  distruntime.gather ins(%operand, %indices : memref<8x4xf32>, memref<3xi32>) outs(%out : memref<3x4xf32>) {dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}
  return
}

// A dynamic result dimension is compared with the indices' before the loops,
// by distruntime.check (convert-distruntime-to-runtime lowers it).
// CHECK-LABEL: func.func @dynamic_sizes_checked(
// CHECK-SAME: %[[OPERAND:[^:]*]]: memref<?x4xf32>, %[[INDICES:[^:]*]]: memref<3xi32>, %[[OUT:[^:]*]]: memref<?x4xf32>)
// CHECK: %[[ROWS:.*]] = memref.dim %[[OPERAND]], %{{.*}}
// CHECK: distruntime.check sle %{{.*}}, %[[ROWS]], "gather", "slice_sizes[0] against operand dimension 0"
// CHECK: %[[RESULT:.*]] = memref.dim %[[OUT]], %{{.*}}
// CHECK: distruntime.check eq %[[RESULT]], %{{.*}}, "gather", "result dimension 0 against indices dimension 0"
// CHECK-NOT: distrt_check_failed
// CHECK: scf.for
func.func @dynamic_sizes_checked(%operand: memref<?x4xf32>, %indices: memref<3xi32>, %out: memref<?x4xf32>) {
  distruntime.gather ins(%operand, %indices : memref<?x4xf32>, memref<3xi32>) outs(%out : memref<?x4xf32>) {dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}
  return
}
