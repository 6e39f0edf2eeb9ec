//===- OverlapHalo.h - splits of distruntime-overlap-halo ------*- C++ -*-===//
//
// distruntime-overlap-halo splits stencils into an interior that needs no
// halo and boundary parts. OverlapHalo.cpp splits scf row loops after
// get_halo; OverlapHaloLinalg.cpp splits linalg ops after update_halo.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_TRANSFORMS_OVERLAPHALO_H
#define DISTRUNTIME_DIALECT_TRANSFORMS_OVERLAPHALO_H

#include "BufferAccess.h"

namespace mlir::distruntime {

/// Splits the linalg op that first reads the block of each update_halo on
/// memrefs in `root` into an interior part, run before the exchange's wait,
/// and boundary parts after it, where that is legal (see the file comment
/// of OverlapHaloLinalg.cpp); whether it split any.
bool overlapLinalgStencils(Operation *root, AliasAnalysis &aliases);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_TRANSFORMS_OVERLAPHALO_H
