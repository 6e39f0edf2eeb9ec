// An opt-like tool built against the installed package: registers the
// distruntime dialect, its bufferization models and every distruntime pass
// (and the upstream ones the pipelines use) and runs MlirOptMain.
#include "distruntime/Dialect/DistRuntime/IR/BufferizableOpInterfaceImpl.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Pipelines/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::distruntime::registerDistRuntimePasses();

  mlir::DialectRegistry registry;
  registry
      .insert<mlir::distruntime::DistRuntimeDialect, mlir::arith::ArithDialect,
              mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
              mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  mlir::distruntime::registerBufferizableOpInterfaceExternalModels(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "distruntime install test tool\n", registry));
}
