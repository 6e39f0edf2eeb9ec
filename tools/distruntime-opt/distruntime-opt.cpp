//===- distruntime-opt.cpp - mlir-opt with the distruntime dialect --------===//

#include "distruntime/Conversion/Passes.h"
#include "distruntime/InitAllDistRuntime.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::distruntime::registerDistRuntimePasses();

  mlir::DialectRegistry registry;
  mlir::distruntime::registerAllDistRuntimeDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "distruntime optimizer driver\n", registry));
}
