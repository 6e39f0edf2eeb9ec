// distruntime.check becomes the relation's negation guarding a call of
// distrt_check_failed(op name, what, have, want, location), which prints
// "<op name> at <location>: rank <r>: <what>: <have> vs <want>" and ends
// the job (tests/lit/Integration/errors.mlir runs it).
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:__distrt_str_0x[0-9a-f]+]]("gather\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WHAT:__distrt_str_0x[0-9a-f]+]]("result dimension 0 against indices dimension 0\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[LOC:__distrt_str_0x[0-9a-f]+]]("{{.*}}check.mlir:21:3\00")
// CHECK-DAG: func.func private @distrt_check_failed(!llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr)

// CHECK-LABEL: func @check(
// CHECK-SAME: %[[HAVE:[^:]*]]: index, %[[WANT:[^:]*]]: index)
// CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[HAVE]], %[[WANT]] : index
// CHECK: scf.if %[[BAD]] {
// CHECK: %[[H:.*]] = arith.index_cast %[[HAVE]] : index to i64
// CHECK: %[[W:.*]] = arith.index_cast %[[WANT]] : index to i64
// CHECK: func.call @distrt_check_failed(%{{.*}}, %{{.*}}, %[[H]], %[[W]], %{{.*}})
// CHECK-NOT: distruntime.check
func.func @check(%have: index, %want: index) {
  distruntime.check eq %have, %want, "gather", "result dimension 0 against indices dimension 0"
  return
}

// A violated sle fails where have > want.
// CHECK-LABEL: func @check_sle(
// CHECK: arith.cmpi sgt
// CHECK: func.call @distrt_check_failed
func.func @check_sle(%have: index, %want: index) {
  distruntime.check sle %have, %want, "scatter", "update window dimension 0 against input dimension 0"
  return
}
