//===- DistRuntimePlugin.cpp - distruntime as an mlir-opt plugin ----------===//
//
//   mlir-opt-22 --load-dialect-plugin=DistRuntimePlugin.so \
//               --load-pass-plugin=DistRuntimePlugin.so ...
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/BufferizableOpInterfaceImpl.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"
#include "distruntime/Pipelines/Passes.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DistRuntime", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            registry->insert<distruntime::DistRuntimeDialect>();
            distruntime::registerBufferizableOpInterfaceExternalModels(
                *registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DistRuntimePasses", LLVM_VERSION_STRING,
          []() { distruntime::registerDistRuntimePasses(); }};
}
