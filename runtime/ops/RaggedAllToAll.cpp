//===- RaggedAllToAll.cpp - ragged_all_to_all -------------------*- C++ -*-===//
//
// StableHLO's ragged_all_to_all: the member at position i of a group sends
// rows [input_offsets[j], + send_sizes[j]) of its input to member j, which
// writes them at rows [output_offsets[j], + send_sizes[j]) of its output.
// The four tables are this member's own, read when the op runs. A
// receiver learns where each block goes from its sender, so a call is two
// MPI calls: an MPI_Alltoall of (output offset, rows) per peer, which every
// member checks against its own recv_sizes and output (naming both sides
// when they differ: one size mismatch would otherwise truncate or hang),
// then one MPI_(I)alltoallv of the rows. Counts are bytes while the
// buffers fit an MPI count, else rows of a wide type (LargeCount.h). A
// strided or overlapping input is sent from a packed copy; a strided output
// is received in a packed copy of itself (rows nothing lands in keep their
// value) and unpacked. An async call makes the first exchange at issue and
// keeps its counts in its slot, since MPI reads them until the wait.
//
//===----------------------------------------------------------------------===//

#include "../LargeCount.h"
#include "../OpCall.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace distrt::detail {
namespace {

struct RaggedPlan {
  MPI_Comm comm;
  /// The group size G and this member's team-rank peers, for errors.
  int members;
  std::vector<int> teamRanks;
  /// MPI_BYTE, or a row (LargeCount.h), and the units per row.
  MPI_Datatype type;
  int64_t unit;
  /// Per peer j: (output offset, rows) this member sends j; what it
  /// expects from j; send counts and displacements in units.
  std::vector<int64_t> outgoing, recvSizes;
  std::vector<int> sendCounts, sendDispls;
  /// The output's rows.
  int64_t outputRows;
  /// The input is sent from a packed copy (strided, or overlapping the
  /// output); the output is received in a packed copy (strided).
  bool stageInput, stageOutput;
};

constexpr std::array<const char *, 4> kSizeNames{
    "input_offsets", "send_sizes", "output_offsets", "recv_sizes"};

struct RaggedAllToAll : OpKind<RaggedAllToAll, RaggedPlan> {
  static constexpr std::array kParams = kSizeNames;
  /// Each member's tables are its own: checked mode agrees on their sizes.
  static constexpr size_t kOwnTables = 4;
  /// Members' inputs and outputs differ in dimension 0.
  static constexpr bool kShapesAgree = false;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const GroupLayout &layout = resolveGroupCall(c, /*sameShape=*/false);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    layout.requireUniform();
    if (s.ins.size() != 1) [[unlikely]]
      raise("takes one input and one output, got {}", s.ins.size());
    const Buffer &in = s.ins[0], &out = s.outs[0];
    checkShapes(in, out);
    const int g = layout.size();
    const int64_t *tables[4];
    for (size_t k = 0; k < 4; ++k)
      tables[k] = sizeTable(c, k, g);
    Plan &p = m.plan;
    p.comm = layout.comm;
    p.members = g;
    p.teamRanks = layout.members;
    p.outputRows = out.sizes()[0];
    const int64_t inRows = in.sizes()[0];
    const int64_t rows = std::max(inRows, p.outputRows);
    const size_t rowBytes =
        rows == 0 ? 0 : std::max(in.byteCount, out.byteCount) / rows;
    // Bytes while the buffers fit an MPI count, else rows of a wide type.
    const bool inBytes =
        std::max(in.byteCount, out.byteCount) <= size_t(gMaxCount);
    if (!inBytes && rows > gMaxCount) [[unlikely]]
      raise("{} rows are more than an MPI count holds", rows);
    p.type = inBytes ? MPI_BYTE : wideBytesType(rowBytes);
    p.unit = inBytes ? static_cast<int64_t>(rowBytes) : 1;
    p.outgoing.resize(2 * g);
    p.recvSizes.assign(tables[3], tables[3] + g);
    p.sendCounts.resize(g);
    p.sendDispls.resize(g);
    for (int j = 0; j < g; ++j) {
      const int64_t offset = tables[0][j], size = tables[1][j];
      if (offset > inRows || size > inRows - offset) [[unlikely]]
        raise("sends rows [{}, {}) to member {} (team rank {}; input_offsets "
              "and send_sizes at {}) but the input has {} rows",
              offset, offset + size, j, p.teamRanks[j], j, inRows);
      p.sendCounts[j] = static_cast<int>(size * p.unit);
      p.sendDispls[j] = static_cast<int>(offset * p.unit);
      p.outgoing[2 * j] = tables[2][j];
      p.outgoing[2 * j + 1] = size;
    }
    p.stageInput = !in.dense || overlaps(in.bytes, out.bytes);
    p.stageOutput = !out.dense;
    return &layout.key;
  }

  static bool direct(const Plan &, bool) { return false; }
  static distrt_handle_t runDirect(const Memo<Plan> &, const DirectCall &) {
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    // What each peer sends this member, where: checked before any row
    // moves, on every member.
    const Plan &p = m.plan;
    const int g = p.members;
    std::vector<int64_t> &incoming = scratchIncoming(g);
    checkMpi(MPI_Alltoall(p.outgoing.data(), 2, MPI_INT64_T, incoming.data(), 2,
                          MPI_INT64_T, p.comm),
             "MPI_Alltoall");
    checkIncoming(p, incoming);
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      exchange(slot, m, incoming, c.async);
    });
  }

private:
  /// Table k: g values, none negative (readable: checkTables).
  static const int64_t *sizeTable(const Call &c, size_t k, int g) {
    const distrt_table_t &t = *c.params.table(k);
    if (t.size != g) [[unlikely]]
      raise("{} has {} values, expected {} (one per group member)",
            kSizeNames[k], t.size, g);
    for (int64_t j = 0; j < t.size; ++j)
      if (t.values[j] < 0) [[unlikely]]
        raise("{} has a negative value {} at index {}", kSizeNames[k],
              t.values[j], j);
    return t.values;
  }

  static void checkShapes(const Buffer &in, const Buffer &out) {
    if (in.rank() == 0) [[unlikely]]
      raise("the input has rank 0, but ragged_all_to_all exchanges rows "
            "(dimension 0)");
    if (in.rank() != out.rank() ||
        !std::equal(in.sizes() + 1, in.sizes() + in.rank(), out.sizes() + 1))
        [[unlikely]]
      raise("the output has shape {} but the input has {}: they must agree "
            "past dimension 0",
            shapeText(out.rank(), out.sizes()),
            shapeText(in.rank(), in.sizes()));
    if (in.dtype != out.dtype) [[unlikely]]
      raise("the output's element type differs from the input's");
  }

  static std::vector<int64_t> &scratchIncoming(int g) {
    static std::vector<int64_t> incoming;
    incoming.resize(2 * static_cast<size_t>(g));
    return incoming;
  }

  /// Every peer's block fits this member's recv_sizes and output, and no
  /// two blocks overlap.
  static void checkIncoming(const Plan &p,
                            const std::vector<int64_t> &incoming) {
    const int g = p.members;
    checkPeerCounts(incoming.data() + 1, 2, p.recvSizes, p.teamRanks,
                    "send_sizes", "recv_sizes");
    std::vector<int> order;
    for (int j = 0; j < g; ++j) {
      const int64_t offset = incoming[2 * j], rows = incoming[2 * j + 1];
      if (offset < 0 || offset > p.outputRows || rows > p.outputRows - offset)
          [[unlikely]]
        raise("member {} (team rank {}) writes rows [{}, {}) of this "
              "member's output (its output_offsets) but the output has {} "
              "rows",
              j, p.teamRanks[j], offset, offset + rows, p.outputRows);
      if (rows > 0)
        order.push_back(j);
    }
    std::ranges::sort(order, {}, [&](int j) { return incoming[2 * j]; });
    for (size_t k = 1; k < order.size(); ++k) {
      const int a = order[k - 1], b = order[k];
      if (incoming[2 * a] + incoming[2 * a + 1] > incoming[2 * b]) [[unlikely]]
        raise("members {} and {} (team ranks {} and {}) both write row {} of "
              "this member's output (their output_offsets)",
              a, b, p.teamRanks[a], p.teamRanks[b], incoming[2 * b]);
    }
  }

  /// The rows: one MPI_(I)alltoallv, through packed copies where needed.
  static void exchange(RequestSlot &slot, const Memo<Plan> &m,
                       const std::vector<int64_t> &incoming, bool async) {
    const Plan &p = m.plan;
    const int g = p.members;
    const Buffer &in = m.ins[0], &out = m.outs[0];
    // counts: send counts, send displacements, receive counts and
    // displacements, G each; in the slot when async.
    const size_t countBytes = 4 * static_cast<size_t>(g) * sizeof(int);
    const size_t inBytes = p.stageInput ? alignUp(in.byteCount) : 0;
    const size_t outBytes = p.stageOutput ? alignUp(out.byteCount) : 0;
    std::byte *staging = slot.stage(alignUp(countBytes) + inBytes + outBytes);
    int *n = reinterpret_cast<int *>(staging);
    std::ranges::copy(p.sendCounts, n);
    std::ranges::copy(p.sendDispls, n + g);
    for (int j = 0; j < g; ++j) {
      n[2 * g + j] = static_cast<int>(incoming[2 * j + 1] * p.unit);
      n[3 * g + j] = static_cast<int>(incoming[2 * j] * p.unit);
    }
    size_t offset = alignUp(countBytes);
    const void *send = in.bytes.base;
    if (p.stageInput) {
      pack(in.bytes, staging + offset);
      send = staging + offset;
      offset += inBytes;
    }
    void *recv = out.bytes.base;
    if (p.stageOutput) {
      // Rows nothing lands in are unpacked as they were.
      pack(out.bytes, staging + offset);
      recv = staging + offset;
      slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                     out.strides(), out.bytes.elementSize);
    }
    if (!async)
      return checkMpi(MPI_Alltoallv(send, n, n + g, p.type, recv, n + 2 * g,
                                    n + 3 * g, p.type, p.comm),
                      "MPI_Alltoallv");
    postRequest(slot, "MPI_Ialltoallv", [&](MPI_Request *request) {
      return MPI_Ialltoallv(send, n, n + g, p.type, recv, n + 2 * g, n + 3 * g,
                            p.type, p.comm, request);
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_ragged_all_to_all(
    int64_t team, const distrt_groups_t *groups,
    const distrt_table_t *inputOffsets, const distrt_table_t *sendSizes,
    const distrt_table_t *outputOffsets, const distrt_table_t *recvSizes,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc) {
  const distrt_table_t *tables[] = {inputOffsets, sendSizes, outputOffsets,
                                    recvSizes};
  return cEntry<RaggedAllToAll>("ragged_all_to_all", team, groups,
                                Params({}, tables), n, inputs, n, outputs,
                                async, site, loc);
}

namespace distrt {

static distrt_table_t tableOf(std::span<const int64_t> values) {
  return {static_cast<int64_t>(values.size()), values.data()};
}

namespace {
/// The four sizes as the generic path takes them.
struct SizeTables {
  std::array<distrt_table_t, 4> t;
  const distrt_table_t *tables[4] = {&t[0], &t[1], &t[2], &t[3]};

  explicit SizeTables(const RaggedSizes &s)
      : t{tableOf(s.inputOffsets), tableOf(s.sendSizes),
          tableOf(s.outputOffsets), tableOf(s.recvSizes)} {}
  detail::Params params() const { return detail::Params({}, tables); }
};
} // namespace

void raggedAllToAll(const Team &team, const Groups &groups,
                    const RaggedSizes &sizes, Operands input, Operands output,
                    Site *site, SourceLoc loc) {
  const SizeTables tables(sizes);
  cxxSync<RaggedAllToAll>("ragged_all_to_all", team, &groups.spec(),
                          tables.params(), input, output, site, loc);
}
Request raggedAllToAllAsync(const Team &team, const Groups &groups,
                            const RaggedSizes &sizes, Operands input,
                            Operands output, Site *site, SourceLoc loc) {
  const SizeTables tables(sizes);
  return cxxAsync<RaggedAllToAll>("ragged_all_to_all", team, &groups.spec(),
                                  tables.params(), input, output, site, loc);
}

} // namespace distrt
