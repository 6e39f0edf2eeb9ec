//===- BufferizableOpInterfaceImpl.h - Bufferize tensor forms ---*- C++ -*-===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_BUFFERIZABLEOPINTERFACEIMPL_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace distruntime {
/// Lets one-shot-bufferize turn tensor-form distruntime ops into memref form.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace distruntime
} // namespace mlir

#endif
