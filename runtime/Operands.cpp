//===- Operands.cpp - Operands of the variadic collectives ------*- C++ -*-===//

#include "Operands.h"
#include "Error.h"

#include <algorithm>

namespace distrt::detail {

// The error paths, out of line so that the resolving loop stays small.

[[noreturn, gnu::cold, gnu::noinline]] static void
raiseBadArray(const char *what, int64_t n, const void *array) {
  raise("the {} array is invalid (n = {}, pointer {})", what, n,
        array ? "set" : "null");
}

[[noreturn, gnu::cold, gnu::noinline]] static void
raiseBadDescriptor(const char *what, size_t k, const distrt_operand_t &op) {
  raise("{} {}: invalid memref (rank {}, descriptor {})", what, k, op.rank,
        op.desc ? "set" : "null");
}

[[noreturn, gnu::cold, gnu::noinline]] static void
raiseBadView(const char *what, size_t k, int64_t rank) {
  raise("{} {}: invalid memref (rank {})", what, k, rank);
}

[[noreturn, gnu::cold, gnu::noinline]] static void
raiseBadDtype(const char *what, size_t k, int64_t dtype) {
  raise("{} {}: invalid element type {} (expected 0..{})", what, k, dtype,
        DISTRT_NUM_DTYPES - 1);
}

[[noreturn, gnu::cold, gnu::noinline]] static void
raiseMismatch(const Buffer &in, const Buffer &out, size_t k, bool sameShape,
              bool promote) {
  if (in.dtype != out.dtype)
    raise("operand {}: the input has element type {} but the output {}{}", k,
          in.type->name, out.type->name,
          promote ? ", which it does not promote to" : "");
  raise("operand {}: the output has {} {} but the input {}", k,
        sameShape ? "shape" : "rank",
        sameShape ? shapeText(out.rank(), out.sizes())
                  : std::to_string(out.rank()),
        sameShape ? shapeText(in.rank(), in.sizes())
                  : std::to_string(in.rank()));
}

[[noreturn, gnu::cold, gnu::noinline]] static void
raiseCounts(int64_t inputs, int64_t outputs) {
  raise("{} inputs but {} outputs", inputs, outputs);
}

static inline void fill(Buffer &buffer, void *aligned, int64_t offset,
                        int64_t rank, const int64_t *sizes,
                        const int64_t *strides, int64_t dtype) {
  const DtypeInfo &type = kDtypes[dtype];
  const int64_t count = numElements(rank, sizes);
  // A byte count that wrapped would move nothing and report success.
  int64_t bytes = 0;
  if (__builtin_mul_overflow(count, static_cast<int64_t>(type.size), &bytes))
      [[unlikely]]
    raise("a memref of {} {} elements has more bytes than an int64 counts",
          count, type.name);
  buffer = {{static_cast<std::byte *>(aligned) +
                 offset * static_cast<int64_t>(type.size),
             rank, sizes, strides, type.size},
            &type,
            static_cast<int32_t>(dtype),
            count,
            static_cast<size_t>(bytes),
            isContiguous(rank, sizes, strides)};
}

void resolve(const OperandList &operands, std::vector<Buffer> &buffers,
             const char *what) {
  const int64_t n = operands.size();
  if (operands.isC()) {
    // The C ABI's descriptors are read here directly, checked as they go.
    const distrt_operand_t *array = operands.array();
    if (n < 0 || (n > 0 && !array)) [[unlikely]]
      raiseBadArray(what, n, array);
    buffers.resize(static_cast<size_t>(n));
    for (size_t k = 0; k < buffers.size(); ++k) {
      const distrt_operand_t &op = array[k];
      if (!op.desc || op.rank < 0) [[unlikely]]
        raiseBadDescriptor(what, k, op);
      if (op.dtype < 0 || op.dtype >= DISTRT_NUM_DTYPES) [[unlikely]]
        raiseBadDtype(what, k, op.dtype);
      const MemrefView view = MemrefView::fromUnranked(op.rank, op.desc);
      fill(buffers[k], view.aligned, view.offset, view.rank, view.sizes,
           view.strides, op.dtype);
    }
    return;
  }
  buffers.resize(static_cast<size_t>(n));
  for (size_t k = 0; k < buffers.size(); ++k) {
    const Operand &operand = operands.views()[k];
    const auto dtype = static_cast<int64_t>(operand.dtype);
    if (dtype < 0 || dtype >= DISTRT_NUM_DTYPES) [[unlikely]]
      raiseBadDtype(what, k, dtype);
    const MemrefView &view = operand.view;
    if (view.rank < 0 || (view.rank > 0 && (!view.sizes || !view.strides)))
        [[unlikely]]
      raiseBadView(what, k, view.rank);
    fill(buffers[k], view.aligned, view.offset, view.rank, view.sizes,
         view.strides, dtype);
  }
}

void resolveLists(const OperandList &inputs, const OperandList &outputs,
                  OpScratch &scratch) {
  if (inputs.size() != outputs.size()) [[unlikely]]
    raiseCounts(inputs.size(), outputs.size());
  resolve(inputs, scratch.ins, "input");
  resolve(outputs, scratch.outs, "output");
}

void resolvePairs(const OperandList &inputs, const OperandList &outputs,
                  OpScratch &scratch, bool sameShape, bool promote) {
  resolveLists(inputs, outputs, scratch);
  const size_t n = scratch.ins.size();
  for (size_t k = 0; k < n; ++k) {
    const Buffer &in = scratch.ins[k], &out = scratch.outs[k];
    bool same =
        (in.dtype == out.dtype || (promote && promotes(in.dtype, out.dtype))) &&
        in.rank() == out.rank();
    for (int64_t d = 0; same && sameShape && d < in.rank(); ++d)
      same = in.sizes()[d] == out.sizes()[d];
    if (!same) [[unlikely]]
      raiseMismatch(in, out, k, sameShape, promote);
  }
}

void packPromoted(const StridedBytes &src, int32_t from, std::byte *dst,
                  int32_t to, std::vector<std::byte> &scratch) {
  if (from == to)
    return pack(src, dst);
  const int64_t count = numElements(src.rank, src.sizes);
  const std::byte *dense = src.base;
  const size_t inBytes = static_cast<size_t>(count) * src.elementSize;
  const size_t outBytes = static_cast<size_t>(count) * kDtypes[to].size;
  // Staged when strided, or when converting in place would overwrite
  // elements not read yet.
  const bool overlapping =
      count > 0 && src.base < dst + outBytes && dst < src.base + inBytes;
  if (!isContiguous(src) || overlapping) {
    scratch.resize(inBytes);
    pack(src, scratch.data());
    dense = scratch.data();
  }
  convertDense(dense, from, dst, to, count);
}

void copyPromoted(const Buffer &in, const Buffer &out) {
  if (in.dtype == out.dtype)
    copy(in.bytes, out.bytes, opScratch().copy);
  else
    packPromoted(in.bytes, in.dtype, out.bytes.base, out.dtype,
                 opScratch().copy);
}

void checkDim(size_t k, const char *name, int64_t dim, int64_t rank) {
  if (dim < 0 || dim >= rank) [[unlikely]]
    raise("operand {}: {} {} is out of range for rank {}", k, name, dim, rank);
}

void checkShape(size_t k, const Buffer &in, const Buffer &out, int64_t dim,
                int64_t times, int64_t divide, const char *rule) {
  bool ok = true;
  for (int64_t d = 0; d < out.rank(); ++d)
    ok &= out.sizes()[d] ==
          (d == dim ? in.sizes()[d] / divide * times : in.sizes()[d]);
  if (ok) [[likely]]
    return;
  std::vector<int64_t> expected(in.sizes(), in.sizes() + in.rank());
  expected[static_cast<size_t>(dim)] =
      expected[static_cast<size_t>(dim)] / divide * times;
  raise("operand {}: the output has shape {}, expected {} ({})", k,
        shapeText(out.rank(), out.sizes()), shapeText(expected), rule);
}

void checkPeerCounts(const int64_t *sent, size_t stride,
                     const std::vector<int64_t> &expected,
                     const std::vector<int> &teamRanks, const char *sendName,
                     const char *recvName) {
  for (size_t j = 0; j < expected.size(); ++j)
    if (sent[j * stride] != expected[j]) [[unlikely]]
      raise("member {} (team rank {}) sends this member {} rows (its {}) but "
            "this member's {} at {} is {}",
            j, teamRanks[j], sent[j * stride], sendName, recvName, j,
            expected[j]);
}

void checkDivisible(size_t k, const Buffer &in, int64_t dim,
                    const char *dimName, int64_t parts, const char *partsName) {
  const int64_t size = in.sizes()[dim];
  if (size % parts != 0) [[unlikely]]
    raise("operand {}: dimension {} ({}) has size {}, not divisible by {} {}",
          k, dim, dimName, size, partsName, parts);
}

bool anyOverlap(const OpScratch &scratch) {
  for (const Buffer &in : scratch.ins)
    for (const Buffer &out : scratch.outs)
      if (overlaps(in, out))
        return true;
  return false;
}

} // namespace distrt::detail
