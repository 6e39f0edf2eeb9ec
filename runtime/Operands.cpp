//===- Operands.cpp - Operands of the variadic collectives ------*- C++ -*-===//

#include "Operands.h"
#include "Error.h"

#include <climits>

namespace distrt::detail {

OpScratch &opScratch() {
  // Leaked on purpose, like the other runtime tables.
  static OpScratch *scratch = new OpScratch;
  return *scratch;
}

void resolve(Operands operands, std::vector<Buffer> &buffers,
             const char *what) {
  buffers.resize(operands.size());
  for (size_t k = 0; k < operands.size(); ++k) {
    const Operand &operand = operands[k];
    const int32_t dtype = static_cast<int32_t>(operand.dtype);
    if (dtype < 0 || dtype >= DISTRT_NUM_DTYPES) [[unlikely]]
      raise("{} {}: invalid element type {} (expected 0..{})", what, k, dtype,
            DISTRT_NUM_DTYPES - 1);
    const MemrefView &view = operand.view;
    if (view.rank < 0 || (view.rank > 0 && (!view.sizes || !view.strides)))
        [[unlikely]]
      raise("{} {}: invalid memref (rank {})", what, k, view.rank);
    const DtypeInfo &type = kDtypes[dtype];
    const int64_t count = numElements(view);
    buffers[k] = {stridedBytes(view, type.size),
                  &type,
                  dtype,
                  count,
                  static_cast<size_t>(count) * type.size,
                  isContiguous(view)};
  }
}

void resolvePairs(Operands inputs, Operands outputs, OpScratch &scratch,
                  bool sameShape) {
  if (inputs.size() != outputs.size()) [[unlikely]]
    raise("{} inputs but {} outputs", inputs.size(), outputs.size());
  resolve(inputs, scratch.ins, "input");
  resolve(outputs, scratch.outs, "output");
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Buffer &in = scratch.ins[k], &out = scratch.outs[k];
    if (in.dtype != out.dtype) [[unlikely]]
      raise("operand {}: the input has element type {} but the output {}", k,
            in.type->name, out.type->name);
    bool same = in.rank() == out.rank();
    for (int64_t d = 0; same && sameShape && d < in.rank(); ++d)
      same = in.sizes()[d] == out.sizes()[d];
    if (!same) [[unlikely]]
      raise("operand {}: the output has {} {} but the input {}", k,
            sameShape ? "shape" : "rank",
            sameShape ? shapeText(out.rank(), out.sizes())
                      : std::to_string(out.rank()),
            sameShape ? shapeText(in.rank(), in.sizes())
                      : std::to_string(in.rank()));
  }
}

int mpiCount(int64_t count, const char *what) {
  if (count > INT_MAX) [[unlikely]]
    raise("{} of {} exceed MPI's int count", what, count);
  return static_cast<int>(count);
}

bool anyOverlap(const OpScratch &scratch) {
  for (const Buffer &in : scratch.ins)
    for (const Buffer &out : scratch.outs)
      if (overlaps(in.bytes, out.bytes))
        return true;
  return false;
}

} // namespace distrt::detail
