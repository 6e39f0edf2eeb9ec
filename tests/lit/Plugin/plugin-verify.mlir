// The plugin's verifiers run in stock mlir-opt too.
// RUN: %mlir-opt --load-dialect-plugin=%plugin %s -verify-diagnostics

func.func @bitwise_on_float(%buf: memref<4xf32>) {
  // expected-error @+1 {{reduction 'and' needs integer elements}}
  distruntime.allreduce <and> %buf team(0) : memref<4xf32>
  return
}
