//===- AllReduce.cpp - all_reduce and the RFC allreduce ---------*- C++ -*-===//
//
// results[k] = the reduction of inputs[k] over the group, in the output's
// element type (an input may promote to it). One typed MPI reduction per
// operand; a dense output receives it directly (the input copied or
// converted into it first unless sent as is), a strided one through
// staging. An operand of more than gMaxCount elements (LargeCount.h) is
// reduced by several calls, each on the next gMaxCount elements at most.
// Small operands of one output element type are packed into one reduction
// where that gives the same bits (ReducePlan.h, packingExact); in a group of
// two a sync pack up to kReduceExchangeLimit bytes is exchanged with the
// peer: through a shared window when both are on one node (SharedPair.h),
// else in eager-sized messages over persistent requests the plan keeps,
// each reduced locally as it arrives (a layout's communicator carries no
// other point-to-point traffic, as for collective_broadcast). An async pack
// there goes through the shared window too (published at the start, the
// peer's read at the wait), else by MPI_Iallreduce. The RFC's `allreduce`
// is this op over the whole team, in place.
//
//===----------------------------------------------------------------------===//

#include "../Channels.h"
#include "../OpCall.h"
#include "../PackLimit.h"
#include "../ReducePlan.h"
#include "../SharedPair.h"
#include "../SpinWait.h"

#include <cstring>

namespace distrt::detail {
namespace {

// SimGrid's SMPI (3.32) gives an MPI_Iallreduce in place (MPI_IN_PLACE) a
// temporary send buffer that it frees before returning, while the sends it
// started may read it later: a send of smpi/send-is-detached-thresh bytes or
// more (64 KiB by default) is not copied when started. The peers then
// reduce freed memory (seen: an async all_reduce of a 17,000-element i32
// operand gave other sums than the sync one). Under SMPI an async reduction
// in place therefore sends from a copy of its own, kept in the slot's
// staging until the wait.
#ifdef DISTRT_SMPI
constexpr bool kCopyInPlaceSends = true;
#else
constexpr bool kCopyInPlaceSends = false;
#endif

static_assert(SharedPair::kSegmentBytes >= kReduceExchangeLimit);

struct AllReduce : OpKind<AllReduce, ReducePlan> {
  static constexpr std::array kParams{"reduction", "reproducibility"};

  /// The MPI_Op of `red` on `dtype`.
  static MPI_Op opOf(Reduction red, int32_t dtype) {
    return reductionOp(levelRedop(red.redop, dtype, red.level), dtype);
  }
  /// An own reduction (Reproducible.h) of `dtype` over the plan's group.
  static bool own(const Plan &p, Reduction red, int32_t dtype) {
    return ownReduction(p.layout->size(), red.redop, dtype, red.level);
  }

  /// Operand k's own reduction (calls, or run()'s staging).
  static void addAlone(Plan &p, size_t k, const Buffer &in, const Buffer &out,
                       MPI_Op op, bool own) {
    // A strided output is staged and an own reduction is not one MPI call:
    // only run() serves them.
    const bool inPlace =
        !in.dense || in.dtype != out.dtype || overlaps(in, out);
    // The RFC's allreduce: the input is the output, nothing to copy.
    p.add(k, out.dense && !own, inPlace ? MPI_IN_PLACE : in.bytes.base, out,
          in.count, op, !sameBuffer(in, out));
  }

  /// Packs the operands `candidates` (in operand order; each has elements
  /// and may be packed) by output element type, each pack up to
  /// kReducePackLimit bytes and maxReduceCount() elements. An operand that
  /// would be alone in its pack is reduced alone.
  static void addPacks(Plan &p, const std::vector<uint32_t> &candidates,
                       const OpScratch &s, Reduction red) {
    for (int32_t dtype = 0; dtype < DISTRT_NUM_DTYPES; ++dtype) {
      ReducePack pack{};
      auto close = [&] {
        if (pack.end - pack.first == 1) {
          const uint32_t k = p.members.back().operand;
          p.members.pop_back();
          p.packed[k] = false;
          addAlone(p, k, s.ins[k], s.outs[k], pack.op, own(p, red, dtype));
        } else if (pack.end > pack.first) {
          p.packs.push_back(pack);
          p.packBytes += alignUp(pack.bytes);
          p.active += pack.end - pack.first;
        }
        pack = {};
      };
      for (uint32_t k : candidates) {
        const Buffer &out = s.outs[k];
        if (out.dtype != dtype)
          continue;
        if (pack.end > pack.first &&
            (pack.bytes + out.byteCount > kReducePackLimit ||
             pack.count + out.count > maxReduceCount()))
          close();
        if (pack.end == pack.first) {
          const auto first = static_cast<uint32_t>(p.members.size());
          pack = {.first = first,
                  .end = first,
                  .offset = p.packBytes,
                  .bytes = 0,
                  .count = 0,
                  .type = out.type->mpi,
                  .op = opOf(red, dtype),
                  .firstRequest = 0};
        }
        p.members.push_back(
            {k, pack.offset + pack.bytes, sameBuffer(s.ins[k], out)});
        p.packed[k] = true;
        ++pack.end;
        pack.bytes += out.byteCount;
        pack.count += out.count;
      }
      close();
    }
  }

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const Reduction red = reductionOf(c.params);
    const GroupLayout &layout =
        resolveGroupCall(c, /*sameShape=*/true, /*promote=*/true);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    Plan &p = m.plan;
    p.start(layout);
    p.packed.assign(s.ins.size(), false);
    // Reused from plan to plan (the runtime is single-threaded).
    static std::vector<uint32_t> candidates;
    candidates.clear();
    // A group of two exchanges its packs: its copies are the messages'.
    const size_t operandLimit = layout.size() == 2
                                    ? kReducePackOperandLimit
                                    : packOperandLimit(lookupTeam(c.team));
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      // The reduction runs in the output's (possibly promoted) type.
      MPI_Op op = opOf(red, out.dtype); // before any MPI call
      if (in.count == 0)
        continue;
      if (s.ins.size() > 1 && out.byteCount <= operandLimit &&
          out.count <= maxReduceCount() &&
          packingExact(layout.size(), red.redop, out.dtype, red.level)) {
        candidates.push_back(static_cast<uint32_t>(k));
        continue;
      }
      addAlone(p, k, in, out, op, own(p, red, out.dtype));
    }
    addPacks(p, candidates, s, red);
    for (const ReducePack &pack : p.packs)
      p.blocking &= !own(p, red, s.outs[p.members[pack.first].operand].dtype);
    p.shareable.assign(s.ins.size(), false);
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &out = s.outs[k];
      p.shareable[k] =
          out.count > 0 && !p.packed[k] &&
          sharedReduction(layout.size(), red.redop, out.dtype, red.level,
                          own(p, red, out.dtype), out.byteCount, out.count);
    }
    for (ReduceCall &call : p.calls)
      call.shared = p.shareable[call.operand];
    const bool exchange = layout.size() == 2;
    p.staging.resize(exchange ? 2 * p.packBytes : p.packBytes);
    if (exchange)
      placeExchangeRequests(p);
    return &layout.key;
  }

  /// A pack exchanged in a group of two (exchangePack).
  static bool exchanged(const Plan &p, const ReducePack &pack) {
    return p.layout->size() == 2 && pack.bytes <= kReduceExchangeLimit;
  }

  /// What the exchange requests of `p` depend on: the team generation and
  /// group (so the communicator), the staging and each exchanged pack.
  static void exchangeKey(const Plan &p, std::vector<uint64_t> &key) {
    key.assign({gTeamGeneration, reinterpret_cast<uintptr_t>(p.layout),
                reinterpret_cast<uintptr_t>(p.staging.data()), p.packBytes});
    for (const ReducePack &pack : p.packs)
      if (exchanged(p, pack))
        key.insert(key.end(), {pack.offset, pack.bytes});
  }

  /// Where each exchanged pack's requests start in p.exchange.
  static void placeExchangeRequests(Plan &p) {
    size_t requests = 0;
    for (ReducePack &pack : p.packs)
      if (exchanged(p, pack)) {
        pack.firstRequest = requests;
        requests += 2 * chunksOf(pack.bytes);
      }
  }

  /// Makes the persistent requests of `p`'s exchanges unless it has them
  /// (a new plan that would make the same keeps them).
  static void makeExchangeRequests(const Plan &p) {
    p.exchangeReady = true;
    static std::vector<uint64_t> key; // reused (single-threaded)
    exchangeKey(p, key);
    ExchangeRequests &e = p.exchange;
    if (key == e.key)
      return;
    e.release();
    size_t requests = 0;
    for (const ReducePack &pack : p.packs)
      if (exchanged(p, pack))
        requests = pack.firstRequest + 2 * chunksOf(pack.bytes);
    e.requests.assign(requests, MPI_REQUEST_NULL);
    const int peer = 1 - p.layout->position;
    for (const ReducePack &pack : p.packs) {
      if (!exchanged(p, pack))
        continue;
      std::byte *mine = p.staging.data() + pack.offset;
      const size_t chunks = chunksOf(pack.bytes);
      MPI_Request *receives = e.requests.data() + pack.firstRequest;
      for (size_t i = 0; i < chunks; ++i) {
        const size_t at = i * kReduceChunkBytes;
        const int length = chunkLength(pack, i);
        checkMpi(MPI_Recv_init(mine + p.packBytes + at, length, MPI_BYTE, peer,
                               kOwnTag, p.comm, &receives[i]),
                 "MPI_Recv_init");
        checkMpi(MPI_Send_init(mine + at, length, MPI_BYTE, peer, kOwnTag,
                               p.comm, &receives[chunks + i]),
                 "MPI_Send_init");
      }
    }
    e.key.swap(key);
  }

  /// Packs the inputs of `pack` into `staging` (at the pack's offset).
  static void packInputs(const Memo<Plan> &m, const ReducePack &pack,
                         std::byte *staging) {
    for (uint32_t i = pack.first; i < pack.end; ++i) {
      const PackMember &member = m.plan.members[i];
      const Buffer &in = m.ins[member.operand], &out = m.outs[member.operand];
      if (in.dense && in.dtype == out.dtype)
        std::memcpy(staging + member.offset, in.bytes.base, in.byteCount);
      else
        packPromoted(in.bytes, in.dtype, staging + member.offset, out.dtype,
                     opScratch().copy);
    }
  }

  /// The messages of a pack of `bytes` exchanged in a group of two.
  static size_t chunksOf(size_t bytes) {
    return (bytes + kReduceChunkBytes - 1) / kReduceChunkBytes;
  }

  /// The bytes of message `i` of `pack`'s exchange.
  static int chunkLength(const ReducePack &pack, size_t i) {
    return static_cast<int>(
        std::min(kReduceChunkBytes, pack.bytes - i * kReduceChunkBytes));
  }

  /// inout = op(in, inout) on `bytes` of `pack`'s elements.
  static void reduceLocal(const ReducePack &pack, const std::byte *in,
                          std::byte *inout, size_t bytes) {
    if (bytes == 0)
      return;
    const size_t elementSize = pack.bytes / static_cast<size_t>(pack.count);
    detail::reduceLocal(in, inout, static_cast<int64_t>(bytes / elementSize),
                        pack.type, pack.op);
  }

  /// Reduces bytes [from, to) of `pack`'s exchange, received in `theirs`,
  /// there (op(mine, theirs)) and copies them into the dense outputs they
  /// cover. `next` is the first member whose output is not yet complete.
  static void reduceChunk(const Memo<Plan> &m, const ReducePack &pack,
                          size_t from, size_t to, uint32_t &next,
                          const std::byte *mine, std::byte *theirs) {
    reduceLocal(pack, mine + from, theirs + from, to - from);
    for (; next < pack.end; ++next) {
      const PackMember &member = m.plan.members[next];
      const Buffer &out = m.outs[member.operand];
      const size_t begin = member.offset - pack.offset;
      const size_t end = begin + out.byteCount;
      if (out.dense) {
        const size_t first = std::max(begin, from);
        std::memcpy(out.bytes.base + (first - begin), theirs + first,
                    std::min(end, to) - first);
      }
      if (end > to)
        break;
    }
  }

  /// A sync pack in a group of two: its packed inputs at `mine` go to the
  /// peer, and the peer's come back, in messages of kReduceChunkBytes at
  /// most; each received message is reduced in the receive buffer as it
  /// arrives (`mine` is still being sent) and copied into the dense outputs
  /// it covers, the strided outputs unpacked at the end. Each member
  /// computes op(mine, theirs): one application of a commutative op
  /// (packingExact), the bits MPI_Allreduce gives.
  static void exchangePack(const Memo<Plan> &m, const ReducePack &pack,
                           std::byte *mine) {
    const Plan &p = m.plan;
    std::byte *theirs = mine + p.packBytes;
    const int peer = 1 - p.layout->position;
    const size_t chunks = chunksOf(pack.bytes);
    if (!p.exchangeReady)
      makeExchangeRequests(p);
    MPI_Request *receives = p.exchange.requests.data() + pack.firstRequest;
    MPI_Request *sends = receives + chunks;
    const auto length = [&](size_t i) { return chunkLength(pack, i); };
    const int n = static_cast<int>(chunks);
    // After an error the requests may still be active: made anew next time.
    struct Guard {
      const Plan &plan;
      bool failed = true;
      ~Guard() {
        if (failed) {
          plan.exchange.release();
          plan.exchangeReady = false;
        }
      }
    } guard{p};
    checkMpi(MPI_Startall(n, receives), "MPI_Startall");
    packInputs(m, pack, p.staging.data());
    checkMpi(MPI_Startall(n, sends), "MPI_Startall");
    // The first member whose dense output is not yet complete.
    uint32_t next = pack.first;
    for (size_t i = 0; i < chunks; ++i) {
      MPI_Status status;
      const int code = MPI_Wait(&receives[i], &status);
      checkBlockingReceive("all_reduce", code, status, length(i), peer,
                           "all_reduce operands");
      const size_t from = i * kReduceChunkBytes;
      reduceChunk(m, pack, from, from + static_cast<size_t>(length(i)), next,
                  mine, theirs);
    }
    checkMpi(MPI_Waitall(n, sends, MPI_STATUSES_IGNORE), "MPI_Waitall");
    guard.failed = false;
    for (uint32_t i = pack.first; i < pack.end; ++i) {
      const PackMember &member = p.members[i];
      const Buffer &out = m.outs[member.operand];
      if (!out.dense)
        unpack(theirs + (member.offset - pack.offset), out.bytes);
    }
  }

  /// Streams the inputs of `pack` into `segment` (streamCopy where they
  /// are dense elements of the output's type, else packed).
  static void streamInputs(const Memo<Plan> &m, const ReducePack &pack,
                           std::byte *segment) {
    for (uint32_t i = pack.first; i < pack.end; ++i) {
      const PackMember &member = m.plan.members[i];
      const Buffer &in = m.ins[member.operand], &out = m.outs[member.operand];
      std::byte *at = segment + (member.offset - pack.offset);
      if (in.dense && in.dtype == out.dtype)
        streamCopy(at, in.bytes.base, in.byteCount);
      else
        packPromoted(in.bytes, in.dtype, at, out.dtype, opScratch().copy);
    }
    streamFence();
  }

  /// Member `i` of `pack`: its output gets op(theirs, mine), `theirs` the
  /// peer's packed input in its segment. A dense output holds `mine` first
  /// (its input, copied or converted unless it is the output); a strided
  /// one is reduced in the staging and unpacked.
  static void reduceFromPeer(const Memo<Plan> &m, const ReducePack &pack,
                             uint32_t i, const std::byte *theirs) {
    const PackMember &member = m.plan.members[i];
    const Buffer &in = m.ins[member.operand], &out = m.outs[member.operand];
    const std::byte *from = theirs + (member.offset - pack.offset);
    if (out.dense) {
      if (!member.inPlace)
        copyPromoted(in, out);
      reduceLocal(pack, from, out.bytes.base, out.byteCount);
      return;
    }
    std::byte *staged = m.plan.staging.data() + member.offset;
    packPromoted(in.bytes, in.dtype, staged, out.dtype, opScratch().copy);
    reduceLocal(pack, from, staged, out.byteCount);
    unpack(staged, out.bytes);
  }

  /// A sync pack in a group of two sharing a node (SharedPair.h): each
  /// member writes its inputs into its segment and publishes the round,
  /// then reduces the other's from there into its outputs. Each member
  /// computes op(theirs, mine): one application of an op commutative bit
  /// for bit (packingExact), the bits MPI_Allreduce gives. The pack's
  /// bytes cross cores once, in one round instead of one message per
  /// kReduceChunkBytes.
  static void sharePack(const Memo<Plan> &m, const ReducePack &pack,
                        SharedPair &pair) {
    const uint64_t r = pair.round;
    pair.beginRound(r);
    ++pair.round;
    streamInputs(m, pack, SharedPair::bytes(pair.mine, r));
    pair.publish(r, pack.bytes);
    const uint64_t theirBytes = pair.awaitPeer(r);
    if (theirBytes != pack.bytes) [[unlikely]]
      raise("all_reduce: team rank {} packed {} bytes of operands where this "
            "process packed {}: the operands' shapes or element types differ",
            peerRank(m.plan), theirBytes, pack.bytes);
    for (uint32_t i = pack.first; i < pack.end; ++i)
      reduceFromPeer(m, pack, i, SharedPair::bytes(pair.theirs, r));
    pair.markRead(r);
  }

  /// An async pack in a group of two sharing a node, packed at `mine` in
  /// the slot's staging: published in the pair's window at once, and at the
  /// wait (or when the pair needs the segment again) the peer's round is
  /// reduced into it, op(theirs, mine) as sharePack does, and unpacked.
  static void sharePackAsync(const Plan &p, const ReducePack &pack,
                             SharedPair &pair, std::byte *mine,
                             RequestSlot &slot) {
    const uint64_t r = pair.round;
    pair.beginRound(r);
    ++pair.round;
    streamCopy(SharedPair::bytes(pair.mine, r), mine, pack.bytes);
    streamFence();
    pair.publish(r, pack.bytes);
    pair.pending.push_back({r, mine, pack.bytes, pack.count, pack.type, pack.op,
                            peerRank(p), &slot, slot.generation});
    SharedPair *shared = &pair;
    slot.completions.emplace_back([shared, r] {
      shared->complete(r);
      shared->raiseIfFailed(r);
    });
  }

  /// The other member's team rank in a group of two.
  static int peerRank(const Plan &p) {
    return p.layout->members[1 - p.layout->position];
  }

  /// The shared window of a group of two (found on first use), or null.
  static SharedPair *pairOf(const Memo<Plan> &m) {
    const Plan &p = m.plan;
    if (!p.sharedKnown) {
      p.shared = sharedPair(lookupTeam(m.head[0]), p.comm); // its team
      p.sharedKnown = true;
    }
    return p.shared;
  }

  /// A sync pack: exchanged in a group of two (up to kReduceExchangeLimit
  /// bytes) through shared memory or messages, else packed, reduced by
  /// MPI_Allreduce and unpacked.
  static void reducePack(const Memo<Plan> &m, const ReducePack &pack) {
    const Plan &p = m.plan;
    std::byte *staging = p.staging.data();
    std::byte *mine = staging + pack.offset;
    if (exchanged(p, pack)) {
      if (SharedPair *pair = pairOf(m))
        sharePack(m, pack, *pair);
      else
        exchangePack(m, pack, mine);
      return;
    }
    packInputs(m, pack, staging);
    checkMpi(allreduceCount(MPI_IN_PLACE, mine, pack.count, pack.type, pack.op,
                            p.comm),
             "MPI_Allreduce");
    for (uint32_t i = pack.first; i < pack.end; ++i) {
      const PackMember &member = p.members[i];
      const Buffer &out = m.outs[member.operand];
      if (out.dense)
        std::memcpy(out.bytes.base, staging + member.offset, out.byteCount);
      else
        unpack(staging + member.offset, out.bytes);
    }
  }

  /// Operand k of a sync call, reduced in shared memory into `target` (its
  /// dense output, or staging) if its group shares a node and allows its
  /// bytes (SharedGroup.h): the same on every member.
  static bool reduceInGroup(const Memo<Plan> &m, size_t k, std::byte *target,
                            MPI_Op op) {
    const Buffer &in = m.ins[k], &out = m.outs[k];
    const auto fill = [&](std::byte *slot) {
      if (in.dense && in.dtype == out.dtype)
        std::memcpy(slot, in.bytes.base, out.byteCount);
      else
        packPromoted(in.bytes, in.dtype, slot, out.dtype, opScratch().copy);
    };
    return foldInGroup(m.plan, m.head[0], out.byteCount, fill, 0, target, out,
                       op, "all_reduce operand");
  }

  static bool direct(const Plan &p, bool async) { return p.direct(async); }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &) {
    for (const ReduceCall &r : m.plan.calls) {
      if (r.shared &&
          reduceInGroup(m, r.operand, static_cast<std::byte *>(r.recv), r.op))
        continue;
      if (r.copyInput)
        copyPromoted(m.ins[r.operand], m.outs[r.operand]);
      checkMpi(
          allreduceCount(r.send, r.recv, r.count, r.type, r.op, m.plan.comm),
          "MPI_Allreduce");
    }
    for (const ReducePack &pack : m.plan.packs)
      reducePack(m, pack);
    return 0;
  }

  /// The staging bytes of an async call's send copies under SMPI
  /// (kCopyInPlaceSends): each operand reduced alone, at most its output's
  /// bytes, and the packs.
  static size_t sendCopyBytes(const Memo<Plan> &m, bool async) {
    if (!kCopyInPlaceSends || !async)
      return 0;
    size_t bytes = m.plan.packBytes;
    for (size_t k = 0; k < m.outs.size(); ++k)
      if (m.outs[k].count > 0 && !m.plan.packed[k])
        bytes += alignUp(m.outs[k].byteCount);
    return bytes;
  }

  /// An async reduction's send buffer: `from`, or under SMPI, for one in
  /// place, a copy of the `bytes` at `to` at `at` in the slot's staging
  /// (`at` then moves past it).
  static const void *sendFrom(RequestSlot &slot, size_t &at, const void *from,
                              const void *to, size_t bytes) {
    if (!kCopyInPlaceSends || from != MPI_IN_PLACE)
      return from;
    std::byte *copy = slot.staging.data() + at;
    std::memcpy(copy, to, bytes);
    at += bytes;
    return copy;
  }

  /// An own reduction of `count` elements in place at `data`.
  static void reduceOwn(RequestSlot &slot, const OwnReduce &r, std::byte *data,
                        int64_t count, bool async) {
    if (async)
      ownIallreduce(r, slot, data, count);
    else
      ownAllreduce(r, data, count);
  }

  /// `count` elements from `send` (or in place) into `recv` by MPI calls
  /// of at most maxReduceCount() elements: one unless the operand is
  /// longer.
  static void reduceByMpi(RequestSlot &slot, size_t &copyAt, const void *send,
                          void *recv, int64_t count, const DtypeInfo &type,
                          MPI_Op op, MPI_Comm comm, bool async) {
    const int64_t most = maxReduceCount();
    for (int64_t first = 0; first < count; first += most) {
      const auto offset = static_cast<size_t>(first) * type.size;
      const void *from = send == MPI_IN_PLACE
                             ? MPI_IN_PLACE
                             : static_cast<const std::byte *>(send) + offset;
      void *to = static_cast<std::byte *>(recv) + offset;
      const int64_t n = std::min(count - first, most);
      if (async)
        postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
          const void *sent = sendFrom(slot, copyAt, from, to,
                                      static_cast<size_t>(n) * type.size);
          return iallreduceCount(sent, to, n, type.mpi, op, comm, request);
        });
      else
        checkMpi(allreduceCount(from, to, n, type.mpi, op, comm),
                 "MPI_Allreduce");
    }
    copyAt = alignUp(copyAt);
  }

  /// run()'s packs: a sync one as runDirect reduces it, an async one (or an
  /// own reduction's) in the slot's staging at `packsAt`, unpacked at the
  /// wait.
  static void reducePacks(const Memo<Plan> &m, bool async, Reduction red,
                          RequestSlot &slot, size_t packsAt, size_t &copyAt) {
    std::byte *staging = slot.staging.data() + packsAt;
    for (const ReducePack &pack : m.plan.packs) {
      const int32_t dtype = m.outs[m.plan.members[pack.first].operand].dtype;
      // A sync pack takes runDirect's path: a member whose outputs are laid
      // out otherwise (a strided one, so not direct) still meets its peer
      // in the same exchange.
      if (!async && !own(m.plan, red, dtype)) {
        reducePack(m, pack);
        continue;
      }
      packInputs(m, pack, staging);
      void *data = staging + pack.offset;
      SharedPair *pair = nullptr;
      if (own(m.plan, red, dtype))
        reduceOwn(slot, ownReduceOver(*m.plan.layout, red, dtype),
                  static_cast<std::byte *>(data), pack.count, async);
      else if (exchanged(m.plan, pack) && (pair = pairOf(m)))
        sharePackAsync(m.plan, pack, *pair, static_cast<std::byte *>(data),
                       slot);
      else
        postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
          const void *sent =
              sendFrom(slot, copyAt, MPI_IN_PLACE, data, pack.bytes);
          copyAt = alignUp(copyAt);
          return iallreduceCount(sent, data, pack.count, pack.type, pack.op,
                                 m.plan.comm, request);
        });
      for (uint32_t i = pack.first; i < pack.end; ++i) {
        const PackMember &member = m.plan.members[i];
        const Buffer &out = m.outs[member.operand];
        slot.addUnpack(packsAt + member.offset, out.bytes.base, out.rank(),
                       out.sizes(), out.strides(), out.bytes.elementSize);
      }
    }
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    if (m.plan.active == 0)
      return done(c.op, c.team, c.loc, c.async);
    const Reduction red = reductionOf(c.params);
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      const size_t packsAt = stagedBytes(m.outs);
      size_t copyAt = packsAt + m.plan.packBytes;
      slot.stage(copyAt + sendCopyBytes(m, c.async));
      size_t offset = 0;
      for (size_t k = 0; k < m.ins.size(); ++k) {
        const Buffer &in = m.ins[k], &out = m.outs[k];
        if (out.count == 0 || m.plan.packed[k])
          continue;
        if (!c.async && m.plan.shareable[k]) {
          std::byte *target = out.bytes.base;
          if (!out.dense)
            target = slot.staging.data() + offset;
          if (reduceInGroup(m, k, target, opOf(red, out.dtype))) {
            if (!out.dense) {
              slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                             out.strides(), out.bytes.elementSize);
              offset += alignUp(out.byteCount);
            }
            continue;
          }
        }
        const void *send = MPI_IN_PLACE;
        void *recv = out.bytes.base;
        if (!out.dense) {
          recv = slot.staging.data() + offset;
          packPromoted(in.bytes, in.dtype, static_cast<std::byte *>(recv),
                       out.dtype, opScratch().copy);
          slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                         out.strides(), out.bytes.elementSize);
          offset += alignUp(out.byteCount);
        } else if (!c.async && in.dtype == out.dtype && in.dense &&
                   !overlaps(in, out) && !own(m.plan, red, out.dtype)) {
          // Async: always in place (the input copied first). Whether a
          // member stages is its own layout's choice, and MPI requires
          // MPI_IN_PLACE at all processes or none: Open MPI 4.1's
          // MPI_Iallreduce given both at np 4 sums half the elements and
          // corrupts the heap.
          send = in.bytes.base;
        } else {
          copyPromoted(in, out);
        }
        if (own(m.plan, red, out.dtype)) {
          reduceOwn(slot, ownReduceOver(*m.plan.layout, red, out.dtype),
                    static_cast<std::byte *>(recv), in.count, c.async);
          continue;
        }
        reduceByMpi(slot, copyAt, send, recv, in.count, *out.type,
                    opOf(red, out.dtype), m.plan.comm, c.async);
      }
      reducePacks(m, c.async, red, slot, packsAt, copyAt);
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_reduce(int64_t team,
                                  const distrt_groups_t *groups, // null: RFC
                                  int32_t op, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  // Without groups: the RFC allreduce, named so in errors.
  const char *name = groups ? "all_reduce" : "allreduce";
  const int64_t scalars[] = {redopOf(op), requestedLevel(op)};
  return cEntry<AllReduce>(name, team, groups, Params(scalars), n, inputs, n,
                           outputs, async, site, loc);
}

namespace distrt {

void allReduce(const Team &team, const Groups &groups, RedOp op,
               Operands inputs, Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {redopOf(static_cast<int32_t>(op)),
                             requestedLevel(static_cast<int32_t>(op))};
  cxxSync<AllReduce>("all_reduce", team, &groups.spec(), Params(scalars),
                     inputs, outputs, site, loc);
}
Request allReduceAsync(const Team &team, const Groups &groups, RedOp op,
                       Operands inputs, Operands outputs, Site *site,
                       SourceLoc loc) {
  const int64_t scalars[] = {redopOf(static_cast<int32_t>(op)),
                             requestedLevel(static_cast<int32_t>(op))};
  return cxxAsync<AllReduce>("all_reduce", team, &groups.spec(),
                             Params(scalars), inputs, outputs, site, loc);
}

// The RFC allreduce: one operand, in place, one group of the whole team.

void allreduce(const Team &team, RedOp op, Dtype dtype, const MemrefView &data,
               Site *site, SourceLoc loc) {
  const Operand operand[] = {{data, dtype}};
  const int64_t scalars[] = {redopOf(static_cast<int32_t>(op)),
                             requestedLevel(static_cast<int32_t>(op))};
  cxxSync<AllReduce>("allreduce", team, nullptr, Params(scalars),
                     Operands(operand), Operands(operand), site, loc);
}
Request allreduceAsync(const Team &team, RedOp op, Dtype dtype,
                       const MemrefView &data, Site *site, SourceLoc loc) {
  const Operand operand[] = {{data, dtype}};
  const int64_t scalars[] = {redopOf(static_cast<int32_t>(op)),
                             requestedLevel(static_cast<int32_t>(op))};
  return cxxAsync<AllReduce>("allreduce", team, nullptr, Params(scalars),
                             Operands(operand), Operands(operand), site, loc);
}

} // namespace distrt
