// Stock mlir-opt-22 parses, verifies and lowers the dialect through the
// plugin (one library for --load-dialect-plugin and --load-pass-plugin).
// RUN: %mlir-opt --load-dialect-plugin=%plugin %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline="builtin.module(convert-distruntime-to-runtime)" | FileCheck %s --check-prefix=RUNTIME
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline="builtin.module(distruntime-to-llvm)" | FileCheck %s --check-prefix=LLVM
// The remarks, by the pipeline's option and by mlir-opt's own flag.
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline="builtin.module(distruntime-to-llvm{remarks=1})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline="builtin.module(distruntime-to-llvm)" --remarks-filter='distruntime.*' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// ROUNDTRIP: distruntime.allreduce <sum> %{{.*}} team(0) : memref<16xf64>
// RUNTIME: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// RUNTIME: %[[N:.*]] = arith.constant 1 : i64
// RUNTIME: %[[ARR:.*]] = llvm.alloca
// RUNTIME: call @distrt_all_reduce(%{{.*}}, %[[NULL]], %{{.*}}, %[[N]], %[[ARR]], %[[ARR]],
// LLVM: %[[ARR:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr, i64)>
// LLVM: llvm.call @distrt_all_reduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ARR]], %[[ARR]],
// LLVM-NOT: distruntime.
// REMARKS: plugin.mlir:[[@LINE+2]]:3: remark: [Missed] NotProven | Category:distruntime-verify-spmd | Function=sum | Reason="its function @sum is public
func.func @sum(%buf: memref<16xf64>) {
  distruntime.allreduce <sum> %buf team(0) : memref<16xf64>
  return
}
