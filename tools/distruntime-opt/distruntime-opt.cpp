//===- distruntime-opt.cpp - mlir-opt with the distruntime dialect --------===//

#include "distruntime/InitAllDistRuntime.h"
#include "distruntime/Pipelines/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#ifndef DISTRUNTIME_VERSION
#define DISTRUNTIME_VERSION "unknown"
#endif
#ifndef DISTRUNTIME_GIT_DESCRIBE
#define DISTRUNTIME_GIT_DESCRIBE ""
#endif

// `--version`: distruntime's version after LLVM's own lines.
static void printDistRuntimeVersion(llvm::raw_ostream &os) {
  os << "distruntime version " << DISTRUNTIME_VERSION;
  if (DISTRUNTIME_GIT_DESCRIBE[0] != '\0')
    os << " (git " << DISTRUNTIME_GIT_DESCRIBE << ")";
  os << "\n  built against MLIR " << LLVM_VERSION_STRING << "\n";
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::distruntime::registerDistRuntimePasses();
  llvm::cl::AddExtraVersionPrinter(printDistRuntimeVersion);

  mlir::DialectRegistry registry;
  mlir::distruntime::registerAllDistRuntimeDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "distruntime optimizer driver\n", registry));
}
