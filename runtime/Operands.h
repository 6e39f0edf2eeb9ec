//===- Operands.h - Operands of the variadic collectives --------*- C++ -*-===//
//
// The operands of one call resolved once: element type, byte view, element
// count, density. They are read straight from what the caller passed (the C
// ABI's descriptors or the C++ API's views), with no intermediate copy. The
// storage is reused from call to call (the runtime is single-threaded), so a
// steady stream of operations allocates nothing.
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

/// The operands of a call as passed: an array of C descriptors (n not yet
/// validated) or C++ views.
class OperandList {
public:
  OperandList(Operands views)
      : views_(views.data()), size_(static_cast<int64_t>(views.size())) {}
  OperandList(const distrt_operand_t *array, int64_t n)
      : array_(array), size_(n), c_(true) {}
  /// The list of an op that has no such operands (size -1).
  static OperandList none() { return {nullptr, -1}; }

  int64_t size() const { return size_; }
  bool isC() const { return c_; }
  const distrt_operand_t *array() const { return array_; }
  const Operand *views() const { return views_; }
  /// The size, with C++ views told apart from C arrays (for call memos).
  int64_t countWord() const { return size_ | (c_ ? 0 : int64_t{1} << 62); }

private:
  const distrt_operand_t *array_ = nullptr;
  const Operand *views_ = nullptr;
  int64_t size_ = 0;
  bool c_ = false;
};

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

/// Per-call scratch: resolved inputs and outputs, copy space.
struct OpScratch {
  std::vector<Buffer> ins, outs;
  std::vector<std::byte> copy;
};

/// Leaked on purpose, like the other runtime tables; a global rather than a
/// function-local static so that the hot path needs no call or guard.
inline OpScratch &gOpScratch = *new OpScratch;
inline OpScratch &opScratch() { return gOpScratch; }

/// Packing several operands into one message pays off while the message is
/// small (one rendezvous instead of several); past this many bytes per
/// member each operand travels on its own. Kept under the eager limit of
/// shared-memory transports (Open MPI's vader: 4 KiB with its headers), past
/// which a packed message costs several times the separate ones.
inline constexpr size_t kPackLimit = 2048;

/// Resolves `operands` into `buffers`; `what` names them in errors.
void resolve(const OperandList &operands, std::vector<Buffer> &buffers,
             const char *what);

/// Rounds a staging offset up to 64 bytes.
inline size_t alignUp(size_t bytes) { return (bytes + 63) & ~size_t{63}; }

/// The buffers' bytes together.
inline size_t totalBytes(const std::vector<Buffer> &buffers) {
  size_t bytes = 0;
  for (const Buffer &buffer : buffers)
    bytes += buffer.byteCount;
  return bytes;
}

/// The staging bytes of the buffers that are not dense, each aligned.
inline size_t stagedBytes(const std::vector<Buffer> &buffers) {
  size_t bytes = 0;
  for (const Buffer &buffer : buffers)
    bytes += buffer.dense ? 0 : alignUp(buffer.byteCount);
  return bytes;
}

/// Packs every buffer, one after another, at `dst`.
inline void packAll(const std::vector<Buffer> &buffers, std::byte *dst) {
  for (const Buffer &buffer : buffers) {
    pack(buffer.bytes, dst);
    dst += buffer.byteCount;
  }
}

/// Resolves inputs and outputs, as many of each.
void resolveLists(const OperandList &inputs, const OperandList &outputs,
                  OpScratch &scratch);

/// Resolves inputs and outputs and checks that operand k has the same
/// element type and rank on both sides (and, with `sameShape`, the same
/// shape). With `promote` (the reductions), the output's element type may
/// be one the input's promotes to.
void resolvePairs(const OperandList &inputs, const OperandList &outputs,
                  OpScratch &scratch, bool sameShape, bool promote = false);

/// pack() as another element type: `src` holds elements of type `from`,
/// `dst` gets them as type `to` (from == to, or promotes(from, to)).
/// `scratch` stages strided or overlapping data.
void packPromoted(const StridedBytes &src, int32_t from, std::byte *dst,
                  int32_t to, std::vector<std::byte> &scratch);

/// Copies operand `in` into the dense `out`, converted to its element type
/// (nothing to do when they are the same elements).
void copyPromoted(const Buffer &in, const Buffer &out);

/// `in` is `out`'s elements in `out`'s element type (an op in place): there
/// is nothing to copy from one to the other.
inline bool sameBuffer(const Buffer &in, const Buffer &out) {
  return in.dtype == out.dtype && sameElements(in.bytes, out.bytes);
}

/// The byte ranges of two operands intersect. A dense operand occupies
/// exactly [base, base + byteCount), so two dense ones need no extent walk.
inline bool overlaps(const Buffer &a, const Buffer &b) {
  if (a.dense && b.dense) [[likely]]
    return a.byteCount && b.byteCount &&
           a.bytes.base < b.bytes.base + b.byteCount &&
           b.bytes.base < a.bytes.base + a.byteCount;
  return overlaps(a.bytes, b.bytes);
}

/// Checks that `dim` indexes operand k's dimensions; `name` is the op's
/// attribute.
void checkDim(size_t k, const char *name, int64_t dim, int64_t rank);

/// Checks that operand k's output has the input's shape with dimension
/// `dim` divided by `divide` and multiplied by `times`; `rule` says so in
/// the error.
void checkShape(size_t k, const Buffer &in, const Buffer &out, int64_t dim,
                int64_t times, int64_t divide, const char *rule);

/// What each peer j says it sends this member, sent[j * stride], is what
/// this member expects from it, expected[j]; else throws, naming both
/// (peer j is team rank teamRanks[j]; `sendName` and `recvName` name the
/// two counts: send_sizes and recv_sizes, send_counts and recv_counts).
void checkPeerCounts(const int64_t *sent, size_t stride,
                     const std::vector<int64_t> &expected,
                     const std::vector<int> &teamRanks, const char *sendName,
                     const char *recvName);

/// Checks that dimension `dim` (`dimName`) of operand k's input divides into
/// `parts` (`partsName`).
void checkDivisible(size_t k, const Buffer &in, int64_t dim,
                    const char *dimName, int64_t parts, const char *partsName);

/// True if any input's bytes overlap any output's.
bool anyOverlap(const OpScratch &scratch);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_OPERANDS_H
