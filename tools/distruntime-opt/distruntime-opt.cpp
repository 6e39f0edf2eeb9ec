//===- distruntime-opt.cpp - mlir-opt with the distruntime dialect --------===//

#include "distruntime/Conversion/Passes.h"
#include "distruntime/Dialect/DistRuntime/IR/BufferizableOpInterfaceImpl.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::distruntime::registerDistRuntimePasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::distruntime::DistRuntimeDialect>();
  mlir::distruntime::registerBufferizableOpInterfaceExternalModels(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "distruntime optimizer driver\n", registry));
}
