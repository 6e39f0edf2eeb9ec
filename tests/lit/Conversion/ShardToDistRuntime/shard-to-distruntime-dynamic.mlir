// A grid with one dynamic axis, on team 2 (the pass option): its size is
// team_size / 2, checked at entry to divide evenly; the multi-index divides
// the rank by it. (Collectives on such a grid are refused:
// shard-to-distruntime-invalid.mlir.)
// RUN: %distruntime-opt %s --convert-shard-to-distruntime=team=2 --canonicalize --cse | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal constant @{{.+}}("shard.grid @d (shape 2x?)\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.+}}("processes in team 2 modulo the static axes' 2\00")
// CHECK-LABEL: func.func @dynamic_grid
// CHECK: %[[SIZE:.+]] = distruntime.team_size team(2)
// CHECK: %[[REST:.+]] = arith.remui %[[SIZE]], %c2
// CHECK: %[[BAD:.+]] = arith.cmpi ne, %[[REST]], %c0
// CHECK: scf.if %[[BAD]]
// CHECK: func.call @distrt_check_failed
// CHECK: %[[AXIS1:.+]] = arith.divui %[[SIZE]], %c2
// CHECK: %[[RANK:.+]] = distruntime.team_member team(2)
// CHECK: %[[Q:.+]] = arith.divui %[[RANK]], %[[AXIS1]]
// CHECK: %[[I0:.+]] = arith.remui %[[Q]], %c2
// CHECK: %[[I1:.+]] = arith.remui %[[RANK]], %[[AXIS1]]
// CHECK: return %[[I0]], %[[I1]], %[[AXIS1]]

shard.grid @d(shape = 2x?)
func.func @dynamic_grid() -> (index, index, index) {
  %i:2 = shard.process_multi_index on @d : index, index
  %s = shard.grid_shape @d axes = [1] : index
  return %i#0, %i#1, %s : index, index, index
}
