// The dialect is illegal after the conversion: a tensor-form op that was not
// bufferized is reported, and the tool fails.
// RUN: not %distruntime-opt %s --convert-distruntime-to-runtime 2>&1 | FileCheck %s

func.func @tensor_halo(%local: tensor<?xf64>, %i: index) -> tensor<?xf64> {
  // CHECK: unbufferized.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'distruntime.get_halo' op on tensors must be bufferized before convert-distruntime-to-runtime
  %h, %l, %r = distruntime.get_halo %local gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%i] team(0)
      : tensor<?xf64> -> tensor<?xf64>, tensor<?xf64>
  distruntime.wait %h
  return %l : tensor<?xf64>
}
