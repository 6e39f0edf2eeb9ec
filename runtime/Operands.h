//===- Operands.h - Operands of the variadic collectives --------*- C++ -*-===//
//
// The operands of one call resolved once: element type, byte view, element
// count, density. The storage is reused from call to call (the runtime is
// single-threaded), so a steady stream of operations allocates nothing.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_OPERANDS_H
#define DISTRUNTIME_RUNTIME_OPERANDS_H

#include "Dtype.h"
#include "Memref.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace distrt::detail {

struct Buffer {
  StridedBytes bytes;
  const DtypeInfo *type;
  int32_t dtype;
  int64_t count;
  size_t byteCount;
  bool dense;

  const int64_t *sizes() const { return bytes.sizes; }
  const int64_t *strides() const { return bytes.strides; }
  int64_t rank() const { return bytes.rank; }
  /// The view of the elements whose index in `dim` is in
  /// [block * blockSize, (block + 1) * blockSize), with sizes `blockSizes`.
  StridedBytes slice(int64_t dim, int64_t block, int64_t blockSize,
                     const int64_t *blockSizes) const {
    return {bytes.base + block * blockSize * bytes.strides[dim] *
                             static_cast<int64_t>(bytes.elementSize),
            bytes.rank, blockSizes, bytes.strides, bytes.elementSize};
  }
};

/// Per-call scratch: resolved inputs and outputs, block shapes, copy space.
struct OpScratch {
  std::vector<Buffer> ins, outs;
  std::vector<int64_t> shapes;
  std::vector<std::byte> copy;
};
OpScratch &opScratch();

/// Resolves `operands` into `buffers`; `what` names them in errors.
void resolve(Operands operands, std::vector<Buffer> &buffers, const char *what);

/// Resolves inputs and outputs and checks that operand k has the same
/// element type and rank on both sides (and, with `sameShape`, the same
/// shape).
void resolvePairs(Operands inputs, Operands outputs, OpScratch &scratch,
                  bool sameShape);

/// `count` as an MPI int count; throws naming `what` if it does not fit.
int mpiCount(int64_t count, const char *what);

/// Rounds a staging offset up to 64 bytes.
inline size_t alignUp(size_t bytes) { return (bytes + 63) & ~size_t{63}; }

/// True if any input's bytes overlap any output's.
bool anyOverlap(const OpScratch &scratch);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_OPERANDS_H
