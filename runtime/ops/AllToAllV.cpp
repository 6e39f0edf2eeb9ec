//===- AllToAllV.cpp - all_to_all_v -----------------------------*- C++ -*-===//
//
// The member at position i of a group sends send_counts[i][j] rows (slices
// along dimension 0) of each input to member j, in group order from row 0,
// and receives recv_counts[i][j] rows from member j into its output's
// leading rows, in group order; output rows past them become zeros. The two
// tables (Params.h) are G x G, the same on every member, and transposes of
// each other. Each operand is one MPI_(I)alltoallv: counted in bytes, or
// past gMaxCount bytes in rows of a wide type (LargeCount.h). A single
// dense operand, sync, is one MPI_Alltoallv on its own buffers; strided or
// overlapping operands go through staging. An async call keeps its counts
// in its slot, since MPI reads them until the wait.
//
// distrt_all_to_all_v_rows takes this member's rows of the tables only, as
// MPI_Alltoallv does (counts computed from data): nothing can be checked
// against the other members locally, so checked mode exchanges the send
// rows at every call and compares them with the receive rows.
//
//===----------------------------------------------------------------------===//

#include "../LargeCount.h"
#include "../OpCall.h"

#include <algorithm>
#include <cstring>

namespace distrt::detail {
namespace {

struct AllToAllVPlan {
  MPI_Comm comm;
  /// The group size G.
  int members;
  /// Per operand k: its MPI datatype (MPI_BYTE, or a row: LargeCount.h)
  /// and at counts[4 * G * k] its send counts, send displacements, receive
  /// counts and receive displacements, G each.
  std::vector<MPI_Datatype> types;
  std::vector<int> counts;
  /// This member's rows sent and received (its rows of the tables' sums).
  int64_t sentRows, receivedRows;
  /// Nothing to exchange anywhere: every count of the table is zero.
  bool empty;
  /// Some input overlaps some output: the inputs are sent from staging.
  bool overlap;
  /// A sync call is one MPI_Alltoallv from `send` to `recv`, of `type`.
  bool direct;
  const void *send;
  void *recv;
  MPI_Datatype type;
  /// Some output has rows past the received ones, to be zeroed.
  bool zeroTail;
  /// The rows form: this member's rows, and its group's team ranks.
  std::vector<int64_t> sendRow, recvRow;
  std::vector<int> teamRanks;
};

} // namespace

/// Writes the shape of `rows` rows of `b` to `sizes` (b's rank values).
static void rowShape(const Buffer &b, int64_t rows, int64_t *sizes) {
  std::copy(b.sizes(), b.sizes() + b.rank(), sizes);
  sizes[0] = rows;
}

namespace {

/// all_to_all_v with the whole tables (`kRows` false, every member's rows)
/// or this member's rows only.
template <bool kRows>
struct AllToAllVOf : OpKind<AllToAllVOf<kRows>, AllToAllVPlan> {
  using Plan = AllToAllVPlan;
  static constexpr std::array kParams{"send_counts", "recv_counts"};
  /// The rows are each member's own: checked mode agrees on their sizes.
  static constexpr size_t kOwnTables = kRows ? 2 : 0;
  /// With rows, the members' buffers may differ in dimension 0.
  static constexpr bool kShapesAgree = !kRows;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const GroupLayout &layout = resolveGroupCall(c, /*sameShape=*/false);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    layout.requireUniform();
    const int64_t g = layout.size();
    const int64_t *sendRow, *recvRow;
    Plan &p = m.plan;
    if constexpr (kRows) {
      sendRow = countTable(c, 0, g, 1);
      recvRow = countTable(c, 1, g, 1);
      p.sendRow.assign(sendRow, sendRow + g);
      p.recvRow.assign(recvRow, recvRow + g);
      p.teamRanks = layout.members;
      // Whether every member's rows are zero is not known here.
      p.empty = false;
    } else {
      const int64_t *send = countTable(c, 0, g, g),
                    *recv = countTable(c, 1, g, g);
      for (int64_t i = 0; i < g; ++i)
        for (int64_t j = 0; j < g; ++j)
          if (recv[i * g + j] != send[j * g + i]) [[unlikely]]
            raise("recv_counts [{}, {}] is {} but send_counts [{}, {}] is {}: "
                  "member {} receives from member {} what {} sends it",
                  i, j, recv[i * g + j], j, i, send[j * g + i], i, j, j);
      sendRow = send + layout.position * g;
      recvRow = recv + layout.position * g;
      p.empty = std::all_of(send, send + g * g, [](int64_t n) { return !n; });
    }
    p.comm = layout.comm;
    p.members = layout.size();
    p.sentRows = rowSum(sendRow, g);
    p.receivedRows = rowSum(recvRow, g);
    p.overlap = anyOverlap(s);
    p.zeroTail = false;
    p.types.clear();
    p.counts.clear();
    m.shapes.clear();
    for (size_t k = 0; k < s.ins.size(); ++k)
      planOperand(m, k, s.ins[k], s.outs[k], sendRow, recvRow);
    p.direct = s.ins.size() == 1 && s.ins[0].dense && s.outs[0].dense &&
               !p.overlap && !p.empty;
    p.send = p.direct ? s.ins[0].bytes.base : nullptr;
    p.recv = p.direct ? s.outs[0].bytes.base : nullptr;
    p.type = p.direct ? p.types[0] : MPI_DATATYPE_NULL;
    return &layout.key;
  }

  /// Checked, the rows form checks its counts first (run).
  static bool direct(const Plan &p, bool async) {
    return !async && p.direct && !(kRows && gChecked);
  }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &) {
    const Plan &p = m.plan;
    const int g = p.members;
    const int *n = p.counts.data();
    checkMpi(MPI_Alltoallv(p.send, n, n + g, p.type, p.recv, n + 2 * g,
                           n + 3 * g, p.type, p.comm),
             "MPI_Alltoallv");
    if (p.zeroTail)
      zeroTails(m);
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    if (kRows && gChecked)
      checkRows(m.plan);
    if (m.plan.empty) {
      zeroTails(m);
      return done(c.op, c.team, c.loc, c.async);
    }
    return runInSlot(c.op, c.team, c.loc, c.async,
                     [&](RequestSlot &slot) { exchange(slot, m, c.async); });
  }

private:
  /// Count table `k`: `rows` x g values, none negative (readable:
  /// checkTables).
  static const int64_t *countTable(const Call &c, size_t k, int64_t g,
                                   int64_t rows) {
    const distrt_table_t &t = *c.params.table(k);
    const char *name = kParams[k];
    if (t.size != rows * g) [[unlikely]] {
      if constexpr (kRows)
        raise("{} has {} values, expected {} (this member's row: one per "
              "group member)",
              name, t.size, g);
      raise("{} has {} values, expected {} x {} (a row and a column per "
            "group member)",
            name, t.size, g, g);
    }
    for (int64_t i = 0; i < t.size; ++i)
      if (t.values[i] < 0) [[unlikely]] {
        if constexpr (kRows)
          raise("{} has a negative count {} at {}", name, t.values[i], i);
        raise("{} has a negative count {} at [{}, {}]", name, t.values[i],
              i / g, i % g);
      }
    return t.values;
  }

  /// Checked mode, rows form: what each member sends this one is what it
  /// expects (every member checks, so every member of a wrong pair says
  /// so).
  static void checkRows(const Plan &p) {
    const int g = p.members;
    std::vector<int64_t> sent(static_cast<size_t>(g));
    checkMpi(MPI_Alltoall(p.sendRow.data(), 1, MPI_INT64_T, sent.data(), 1,
                          MPI_INT64_T, p.comm),
             "MPI_Alltoall");
    checkPeerCounts(sent.data(), 1, p.recvRow, p.teamRanks, "send_counts",
                    "recv_counts");
  }

  /// The sum of `g` counts (not negative), saturated at INT64_MAX.
  static int64_t rowSum(const int64_t *row, int64_t g) {
    int64_t sum = 0;
    for (int64_t j = 0; j < g; ++j)
      if (__builtin_add_overflow(sum, row[j], &sum))
        return INT64_MAX;
    return sum;
  }

  /// Checks operand k and appends its type, counts and shapes: those of the
  /// output's received rows and zeroed tail, and of the input's sent rows
  /// (rank values each).
  static void planOperand(Memo<Plan> &m, size_t k, const Buffer &in,
                          const Buffer &out, const int64_t *sendRow,
                          const int64_t *recvRow) {
    Plan &p = m.plan;
    if (in.rank() == 0) [[unlikely]]
      raise("operand {}: the input has rank 0, but all_to_all_v exchanges "
            "rows (dimension 0)",
            k);
    if (!std::equal(in.sizes() + 1, in.sizes() + in.rank(), out.sizes() + 1))
        [[unlikely]] {
      std::vector<int64_t> expected(in.sizes(), in.sizes() + in.rank());
      expected[0] = out.sizes()[0];
      raise("operand {}: the output has shape {}, expected {} (the input's "
            "but in dimension 0)",
            k, shapeText(out.rank(), out.sizes()), shapeText(expected));
    }
    if (p.sentRows > in.sizes()[0]) [[unlikely]]
      raise("operand {}: this member sends {} rows in all (its send_counts "
            "row) but the input has {}",
            k, p.sentRows, in.sizes()[0]);
    if (p.receivedRows > out.sizes()[0]) [[unlikely]]
      raise("operand {}: this member receives {} rows in all (its "
            "recv_counts row) but the output has {}",
            k, p.receivedRows, out.sizes()[0]);
    const int64_t rows = std::max(in.sizes()[0], out.sizes()[0]);
    const size_t rowBytes =
        rows == 0 ? 0 : std::max(in.byteCount, out.byteCount) / rows;
    // Bytes while the buffers fit an MPI count, else rows of a wide type.
    const bool inBytes =
        std::max(in.byteCount, out.byteCount) <= size_t(gMaxCount);
    if (!inBytes && rows > gMaxCount) [[unlikely]]
      raise("operand {}: {} rows are more than an MPI count holds", k, rows);
    p.types.push_back(inBytes ? MPI_BYTE : wideBytesType(rowBytes));
    const int64_t unit = inBytes ? static_cast<int64_t>(rowBytes) : 1;
    const int g = p.members;
    for (const int64_t *row : {sendRow, recvRow}) {
      const size_t at = p.counts.size();
      p.counts.resize(at + 2 * g);
      int64_t displ = 0;
      for (int j = 0; j < g; ++j) {
        p.counts[at + j] = static_cast<int>(row[j] * unit);
        p.counts[at + g + j] = static_cast<int>(displ * unit);
        displ += row[j];
      }
    }
    std::vector<int64_t> &shapes = m.shapes;
    const size_t at = shapes.size();
    const int64_t rank = out.rank();
    shapes.resize(at + 3 * rank);
    rowShape(out, p.receivedRows, shapes.data() + at);
    rowShape(out, out.sizes()[0] - p.receivedRows, shapes.data() + at + rank);
    rowShape(in, p.sentRows, shapes.data() + at + 2 * rank);
    p.zeroTail |= p.receivedRows < out.sizes()[0];
  }

  /// Zeroes the output rows past the received ones.
  static void zeroTails(const Memo<Plan> &m) {
    const int64_t *shapes = m.shapes.data();
    for (const Buffer &out : m.outs) {
      const int64_t received = m.plan.receivedRows;
      if (received < out.sizes()[0])
        zero(out.slice(0, received, 1, shapes + out.rank()));
      shapes += 3 * out.rank();
    }
  }

  /// Every call but a direct one: each operand one MPI call, from and into
  /// its own buffers where they allow it, else staging.
  static void exchange(RequestSlot &slot, const Memo<Plan> &m, bool async) {
    const Plan &p = m.plan;
    const int g = p.members;
    // The counts first (an async call's: MPI reads them until the wait),
    // then per operand its packed input and its received rows.
    const size_t countBytes = async ? p.counts.size() * sizeof(int) : 0;
    size_t total = alignUp(countBytes);
    for (size_t k = 0; k < m.ins.size(); ++k)
      total += stagedBytes(m, k, false) + stagedBytes(m, k, true);
    slot.stage(total);
    std::byte *staging = slot.staging.data();
    const int *counts = p.counts.data();
    if (async) {
      std::memcpy(staging, counts, countBytes);
      counts = reinterpret_cast<const int *>(staging);
    }
    size_t offset = alignUp(countBytes);
    const int64_t *shapes = m.shapes.data();
    for (size_t k = 0; k < m.ins.size(); ++k, counts += 4 * g) {
      const Buffer &in = m.ins[k], &out = m.outs[k];
      const void *send = in.bytes.base;
      if (const size_t bytes = stagedBytes(m, k, false)) {
        pack(in.slice(0, 0, 1, shapes + 2 * in.rank()), staging + offset);
        send = staging + offset;
        offset += bytes;
      }
      void *recv = out.bytes.base;
      if (const size_t bytes = stagedBytes(m, k, true)) {
        recv = staging + offset;
        slot.addUnpack(offset, out.bytes.base, out.rank(), shapes,
                       out.strides(), out.bytes.elementSize);
        offset += bytes;
      }
      shapes += 3 * out.rank();
      exchangeOne(slot, p, k, send, recv, counts, async);
    }
    // After the inputs are packed: a tail may overlap an input.
    if (p.zeroTail)
      zeroTails(m);
  }

  /// The staging bytes of operand k's input (`output` false: the rows it
  /// sends) or output (the rows it receives); 0 when used as it is.
  static size_t stagedBytes(const Memo<Plan> &m, size_t k, bool output) {
    const Buffer &b = output ? m.outs[k] : m.ins[k];
    const bool asIs = b.dense && (output || !m.plan.overlap);
    if (asIs || b.sizes()[0] == 0)
      return 0;
    const int64_t rows = output ? m.plan.receivedRows : m.plan.sentRows;
    return alignUp(b.byteCount / static_cast<size_t>(b.sizes()[0]) *
                   static_cast<size_t>(rows));
  }

  static void exchangeOne(RequestSlot &slot, const Plan &p, size_t k,
                          const void *send, void *recv, const int *n,
                          bool async) {
    const int g = p.members;
    MPI_Datatype type = p.types[k];
    if (!async)
      return checkMpi(MPI_Alltoallv(send, n, n + g, type, recv, n + 2 * g,
                                    n + 3 * g, type, p.comm),
                      "MPI_Alltoallv");
    postRequest(slot, "MPI_Ialltoallv", [&](MPI_Request *request) {
      return MPI_Ialltoallv(send, n, n + g, type, recv, n + 2 * g, n + 3 * g,
                            type, p.comm, request);
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_to_all_v(int64_t team, const distrt_groups_t *groups,
                                    const distrt_table_t *sendCounts,
                                    const distrt_table_t *recvCounts, int64_t n,
                                    const distrt_operand_t *inputs,
                                    const distrt_operand_t *outputs,
                                    int32_t async, distrt_site_t *site,
                                    const char *loc) {
  const distrt_table_t *tables[] = {sendCounts, recvCounts};
  return cEntry<AllToAllVOf<false>>("all_to_all_v", team, groups,
                                    Params({}, tables), n, inputs, n, outputs,
                                    async, site, loc);
}

distrt_handle_t distrt_all_to_all_v_rows(
    int64_t team, const distrt_groups_t *groups,
    const distrt_table_t *sendCounts, const distrt_table_t *recvCounts,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc) {
  const distrt_table_t *tables[] = {sendCounts, recvCounts};
  return cEntry<AllToAllVOf<true>>("all_to_all_v", team, groups,
                                   Params({}, tables), n, inputs, n, outputs,
                                   async, site, loc);
}

namespace distrt {

namespace {
/// all_to_all_v's two tables as the generic path takes them.
struct CountTables {
  distrt_table_t send, recv;
  const distrt_table_t *tables[2] = {&send, &recv};

  CountTables(std::span<const int64_t> sendCounts,
              std::span<const int64_t> recvCounts)
      : send{static_cast<int64_t>(sendCounts.size()), sendCounts.data()},
        recv{static_cast<int64_t>(recvCounts.size()), recvCounts.data()} {}
  detail::Params params() const { return detail::Params({}, tables); }
};
} // namespace

void allToAllV(const Team &team, const Groups &groups,
               std::span<const int64_t> sendCounts,
               std::span<const int64_t> recvCounts, Operands inputs,
               Operands outputs, Site *site, SourceLoc loc) {
  const CountTables tables(sendCounts, recvCounts);
  cxxSync<AllToAllVOf<false>>("all_to_all_v", team, &groups.spec(),
                              tables.params(), inputs, outputs, site, loc);
}
Request allToAllVAsync(const Team &team, const Groups &groups,
                       std::span<const int64_t> sendCounts,
                       std::span<const int64_t> recvCounts, Operands inputs,
                       Operands outputs, Site *site, SourceLoc loc) {
  const CountTables tables(sendCounts, recvCounts);
  return cxxAsync<AllToAllVOf<false>>("all_to_all_v", team, &groups.spec(),
                                      tables.params(), inputs, outputs, site,
                                      loc);
}

} // namespace distrt
