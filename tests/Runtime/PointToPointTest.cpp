//===- PointToPointTest.cpp - collective_permute, send, recv ----*- C++ -*-===//
//
// Rings, partial chains (zeros for processes that are nobody's target),
// self-pairs, cross_partition / cross_replica pairs on a 2x2 grid, several
// send/recv channels with interleaved messages, host-transfer queues (async
// receives posted before their sends), async forms and errors. Input of process
// f at index i: 1000 * f + i (+ 100 * m for the m-th message of a channel).
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

using Table = std::vector<std::vector<int64_t>>;

Table ring(int64_t N) {
  Table pairs;
  for (int64_t i = 0; i < N; ++i)
    pairs.push_back({i, (i + 1) % N});
  return pairs;
}

/// The source of `f` in `pairs`, or -1.
int64_t sourceOf(const Table &pairs, int64_t f) {
  for (const auto &pair : pairs)
    if (pair[1] == f)
      return pair[0];
  return -1;
}

} // namespace

TEST_CASE("collective_permute: rings, partial chains, self-pairs", "[p2p]") {
  const int64_t N = worldSize(), f = worldRank();
  std::vector<Table> tables{ring(N), {{0, 0}}};
  if (N >= 2)
    tables.push_back({{N - 1, 0}});
  if (N >= 3) {
    tables.push_back({{0, 1}, {1, 2}});         // 0 and others get zeros
    tables.push_back({{0, 0}, {2, 1}, {1, 2}}); // self-pair and a swap
  }
  for (const Table &table : tables)
    for (int async = 0; async < 2; ++async)
      for (int variant = 0; variant < 3; ++variant) {
        // 0: dense i32; 1: strided f64; 2: both plus bf16, one message.
        const GroupTable pairs(DISTRT_CROSS_REPLICA, table);
        std::vector<Array> ins, outs;
        if (variant != 1) {
          ins.emplace_back(Dtype::I32, std::vector<int64_t>{3});
          outs.emplace_back(Dtype::I32, std::vector<int64_t>{3});
        }
        if (variant != 0) {
          ins.emplace_back(Dtype::F64, std::vector<int64_t>{2, 2}, true);
          outs.emplace_back(Dtype::F64, std::vector<int64_t>{2, 2}, true);
        }
        if (variant == 2) {
          ins.emplace_back(Dtype::BF16, std::vector<int64_t>{2});
          outs.emplace_back(Dtype::BF16, std::vector<int64_t>{2});
        }
        std::vector<Operand> inOps, outOps;
        for (size_t k = 0; k < ins.size(); ++k) {
          ins[k].fill([&](int64_t i) {
            return ins[k].dtype == Dtype::BF16 ? 16 * f + i : 1000 * f + i;
          });
          outs[k].fill([](int64_t) { return 7; });
          inOps.push_back(ins[k].operand());
          outOps.push_back(outs[k].operand());
        }
        if (async)
          collectivePermuteAsync(world(), pairs, inOps, outOps).wait();
        else
          collectivePermute(world(), pairs, inOps, outOps);
        const int64_t source = sourceOf(table, f);
        for (size_t k = 0; k < outs.size(); ++k)
          for (int64_t i = 0; i < outs[k].count(); ++i) {
            INFO("rank " << f << " " << pairs.str() << " async " << async
                         << " operand " << k << " index " << i);
            const int64_t expected = source < 0 ? 0
                                     : outs[k].dtype == Dtype::BF16
                                         ? 16 * source + i
                                         : 1000 * source + i;
            CHECK(outs[k].get(i) == expected);
          }
      }
  // In place: the output aliases the input.
  Array data(Dtype::I64, {4});
  data.fill([&](int64_t i) { return 1000 * f + i; });
  collectivePermute(world(), GroupTable(DISTRT_CROSS_REPLICA, ring(N)),
                    {{data.operand()}}, {{data.operand()}});
  for (int64_t i = 0; i < 4; ++i)
    CHECK(data.get(i) == 1000 * ((f + N - 1) % N) + i);
}

TEST_CASE("collective_permute: pairs per partition and per replica (2x2)",
          "[p2p]") {
  if (worldSize() != 4) {
    SUCCEED("needs the 2x2 grid; runs at np 4");
    return;
  }
  const int64_t f = worldRank();
  Array in(Dtype::I32, {2}), out(Dtype::I32, {2});
  in.fill([&](int64_t i) { return 1000 * f + i; });
  // cross_partition [[0, 1]]: (r, 0) -> (r, 1): 0 -> 1, 2 -> 3.
  collectivePermute(world(), GroupTable(DISTRT_CROSS_PARTITION, {{0, 1}}, 2, 2),
                    {{in.operand()}}, {{out.operand()}});
  const int64_t fromPartition[] = {-1, 0, -1, 2};
  INFO("rank " << f);
  CHECK(out.get(1) == (fromPartition[f] < 0 ? 0 : 1000 * fromPartition[f] + 1));
  // cross_replica [[1, 0]]: (1, p) -> (0, p): 2 -> 0, 3 -> 1.
  collectivePermute(world(), GroupTable(DISTRT_CROSS_REPLICA, {{1, 0}}, 2, 2),
                    {{in.operand()}}, {{out.operand()}});
  const int64_t fromReplica[] = {2, 3, -1, -1};
  CHECK(out.get(1) == (fromReplica[f] < 0 ? 0 : 1000 * fromReplica[f] + 1));
}

TEST_CASE("send/recv: several channels, interleaved, in order", "[p2p]") {
  const int64_t N = worldSize(), f = worldRank();
  const GroupTable pairs(DISTRT_CROSS_REPLICA, ring(N));
  const int64_t source = (f + N - 1) % N;
  const int64_t channels[] = {1, 2, -1};
  const int messages[] = {3, 2, 1};
  // Interleaved sends: round m sends message m of every channel that has
  // one (sync sends are buffered: they do not wait for the receiver).
  std::vector<Array> sent;
  for (int m = 0; m < 3; ++m)
    for (int c = 0; c < 3; ++c)
      if (m < messages[c]) {
        Array data(Dtype::I32, {3});
        data.fill([&](int64_t i) { return 1000 * f + 100 * m + 10 * c + i; });
        send(world(), pairs, channels[c], false, {{data.operand()}});
      }
  // Received channel by channel, in reverse channel order.
  for (int c = 2; c >= 0; --c)
    for (int m = 0; m < messages[c]; ++m) {
      Array data(Dtype::I32, {3}, /*strided=*/m == 1);
      recv(world(), pairs, channels[c], false, {{data.operand()}});
      for (int64_t i = 0; i < 3; ++i) {
        INFO("rank " << f << " channel " << channels[c] << " message " << m
                     << " index " << i);
        CHECK(data.get(i) == 1000 * source + 100 * m + 10 * c + i);
      }
    }
  // Async: posted receive, async send of two operands, then both waited.
  Array a(Dtype::F32, {2}), b(Dtype::I16, {2, 2}, true);
  a.fill([&](int64_t i) { return 1000 * f + i; });
  b.fill([&](int64_t i) { return 100 * f + i; });
  Array ra(Dtype::F32, {2}), rb(Dtype::I16, {2, 2});
  Request received =
      recvAsync(world(), pairs, 9, false, {{ra.operand(), rb.operand()}});
  Request sentAsync =
      sendAsync(world(), pairs, 9, false, {{a.operand(), b.operand()}});
  received.wait();
  sentAsync.wait();
  CHECK(ra.get(1) == 1000 * source + 1);
  CHECK(rb.get(3) == 100 * source + 3);
}

TEST_CASE("send/recv: a channel_id MPI cannot tell apart is an error",
          "[p2p]") {
  // 2^40 would wrap onto another channel's tag: refused, on every rank.
  const GroupTable pairs(DISTRT_CROSS_REPLICA, ring(worldSize()));
  Array data(Dtype::I32, {1});
  CHECK_THROWS_WITH(
      send(world(), pairs, int64_t{1} << 40, false, {{data.operand()}}),
      Contains("channel_id 1099511627776 is outside the channels MPI can "
               "keep apart"));
  CHECK_THROWS_WITH(
      recv(world(), pairs, -(int64_t{1} << 40), false, {{data.operand()}}),
      Contains("channel_id -1099511627776 is outside"));
  // Refused on the ranks outside every pair too (only 0 -> 0 here).
  const GroupTable self(DISTRT_FLATTENED_IDS, {{0, 0}});
  CHECK_THROWS_WITH(
      send(world(), self, int64_t{1} << 40, false, {{data.operand()}}),
      Contains("is outside the channels MPI can keep apart"));
  CHECK_THROWS_WITH(
      recv(world(), self, int64_t{1} << 40, false, {{data.operand()}}),
      Contains("is outside the channels MPI can keep apart"));
}

TEST_CASE("send/recv: a process that is nobody's target gets zeros", "[p2p]") {
  const int64_t N = worldSize(), f = worldRank();
  // One pair, N - 1 -> 0 (a self-pair at np 1).
  const GroupTable pairs(DISTRT_FLATTENED_IDS, {{N - 1, 0}});
  Array in(Dtype::F64, {2}), out(Dtype::F64, {2});
  in.fill([&](int64_t i) { return 1000 * f + i; });
  out.fill([](int64_t) { return 5; });
  send(world(), pairs, 4, false, {{in.operand()}});
  recv(world(), pairs, 4, false, {{out.operand()}});
  INFO("rank " << f);
  CHECK(out.get(1) == (f == 0 ? 1000 * (N - 1) + 1 : 0));
}

TEST_CASE("send/recv: host-transfer queues are FIFO per channel", "[p2p]") {
  const int64_t f = worldRank();
  Array a(Dtype::I32, {2}), h(Dtype::F16, {3}, true);
  for (int m = 0; m < 2; ++m) {
    a.fill([&](int64_t i) { return 1000 * f + 100 * m + i; });
    h.fill([&](int64_t i) { return 10 * m + i; });
    send(world(), Groups::pairs({}), 5, true, {{a.operand(), h.operand()}});
  }
  a.fill([&](int64_t i) { return 7 + i; });
  sendAsync(world(), Groups::pairs({}), 6, true, {{a.operand()}}).wait();
  Array r(Dtype::I32, {2}), rh(Dtype::F16, {3});
  recv(world(), Groups::pairs({}), 6, true, {{r.operand()}});
  CHECK(r.get(1) == 8);
  for (int m = 0; m < 2; ++m) {
    recvAsync(world(), Groups::pairs({}), 5, true,
              {{r.operand(), rh.operand()}})
        .wait();
    INFO("rank " << f << " message " << m);
    CHECK(r.get(1) == 1000 * f + 100 * m + 1);
    CHECK(rh.get(2) == 10 * m + 2);
  }
  CHECK_THROWS_WITH(recv(world(), Groups::pairs({}), 5, true, {{r.operand()}}),
                    Contains("recv at ") &&
                        Contains("the host queue of channel 5 is empty"));
  send(world(), Groups::pairs({}), 5, true, {{h.operand()}});
  CHECK_THROWS_WITH(recv(world(), Groups::pairs({}), 5, true, {{r.operand()}}),
                    Contains("operand 0: the oldest host-transfer message of "
                             "channel 5 holds [3] f16, the output is [2] "
                             "i32"));
  recv(world(), Groups::pairs({}), 5, true, {{rh.operand()}});
}

TEST_CASE("send/recv: async host-transfer recvs wait for later sends",
          "[p2p]") {
  // Posted before their sends, served in posting order (not wait order).
  const int64_t f = worldRank();
  Array first(Dtype::I32, {3}, true), second(Dtype::I32, {3});
  Request a =
      recvAsync(world(), Groups::pairs({}), 8, true, {{first.operand()}});
  Request b =
      recvAsync(world(), Groups::pairs({}), 8, true, {{second.operand()}});
  // The runtime kept the shapes: the descriptors may change before the send.
  const std::vector<int64_t> sizes = first.sizes, strides = first.strides;
  first.sizes[0] = 99;
  first.strides[0] = 77;
  Array in(Dtype::I32, {3});
  for (int m = 0; m < 2; ++m) {
    in.fill([&](int64_t i) { return 1000 * f + 100 * m + i; });
    send(world(), Groups::pairs({}), 8, true, {{in.operand()}});
  }
  first.sizes = sizes;
  first.strides = strides;
  b.wait();
  a.wait();
  for (int64_t i = 0; i < 3; ++i) {
    INFO("rank " << f << " element " << i);
    CHECK(first.get(i) == 1000 * f + i);
    CHECK(second.get(i) == 1000 * f + 100 + i);
  }
  CHECK(first.touchedPadding() == 0);

  // A receiver whose outputs do not fit gets the error at its wait; the
  // message stays for the next recv.
  Array wrong(Dtype::F32, {3});
  Request c =
      recvAsync(world(), Groups::pairs({}), 8, true, {{wrong.operand()}});
  send(world(), Groups::pairs({}), 8, true, {{in.operand()}});
  CHECK_THROWS_WITH(c.wait(), Contains("wait at ") &&
                                  Contains("recv: operand 0: the oldest "
                                           "host-transfer message of channel "
                                           "8 holds [3] i32, the output is "
                                           "[3] f32"));
  Array late(Dtype::I32, {3});
  recv(world(), Groups::pairs({}), 8, true, {{late.operand()}});
  CHECK(late.get(2) == 1000 * f + 100 + 2);

  // Waited before any send: an error, and the receiver takes no later
  // message.
  Request d =
      recvAsync(world(), Groups::pairs({}), 9, true, {{late.operand()}});
  CHECK_THROWS_WITH(d.wait(),
                    Contains("recv: no host-transfer send on channel 9 came "
                             "in this process before the wait of this recv"));
  in.fill([&](int64_t i) { return 5 + i; });
  send(world(), Groups::pairs({}), 9, true, {{in.operand()}});
  recv(world(), Groups::pairs({}), 9, true, {{second.operand()}});
  CHECK(second.get(1) == 6);
  CHECK(late.get(2) == 1000 * f + 100 + 2); // untouched by the dead receiver
}

TEST_CASE("send/recv: a message of another size than the outputs is an error",
          "[p2p]") {
  // A ring: every process receives [2] i32 while its source sends [1] (too
  // short) or [3] (too long), sync (one blocking receive) and async (a
  // posted receive checked at its wait). At np 1 a process is its own
  // source.
  const int64_t N = worldSize(), f = worldRank();
  const int64_t source = (f + N - 1) % N;
  const GroupTable pairs(DISTRT_CROSS_REPLICA, ring(N));
  Array out(Dtype::I32, {2});
  for (int async = 0; async < 2; ++async)
    for (const int64_t sent : {1, 3}) {
      Array in(Dtype::I32, {sent});
      in.fill([&](int64_t i) { return 1000 * f + i; });
      send(world(), pairs, 3, false, {{in.operand()}});
      auto receive = [&] {
        if (async)
          recvAsync(world(), pairs, 3, false, {{out.operand()}}).wait();
        else
          recv(world(), pairs, 3, false, {{out.operand()}});
      };
      INFO("rank " << f << " async " << async << " sent " << sent);
      if (sent < 2)
        CHECK_THROWS_WITH(receive(),
                          // An async receive's error surfaces at its wait.
                          Contains(async ? "wait at " : "recv at ") &&
                              Contains(fmt::format("received 4 bytes from rank "
                                                   "{} for the recv operands",
                                                   source)) &&
                              Contains("expected 8 bytes"));
      else
        CHECK_THROWS_WITH(receive(),
                          Contains(fmt::format("rank {} sent more than the 8 "
                                               "bytes expected for the "
                                               "recv operands",
                                               source)));
    }
  // The same call with the right size still works after the errors.
  Array in(Dtype::I32, {2});
  in.fill([&](int64_t i) { return 1000 * f + i; });
  send(world(), pairs, 3, false, {{in.operand()}});
  recv(world(), pairs, 3, false, {{out.operand()}});
  CHECK(out.get(1) == 1000 * source + 1);
}

TEST_CASE("bad pairs are clear errors", "[p2p]") {
  const int64_t N = worldSize();
  Array in(Dtype::I32, {2}), out(Dtype::I32, {2});
  auto permute = [&](const GroupTable &pairs) {
    collectivePermute(world(), pairs, {{in.operand()}}, {{out.operand()}});
  };
  CHECK_THROWS_WITH(permute(GroupTable(DISTRT_CROSS_REPLICA, {{0, 0, 0}})),
                    Contains("collective_permute at ") &&
                        Contains("must have 2 ids per pair, got 3"));
  if (N >= 2)
    CHECK_THROWS_WITH(
        permute(GroupTable(DISTRT_CROSS_REPLICA, {{0, 1}, {1, 1}})),
        Contains("replica id 1 is the target of two pairs (0 and 1)"));
  CHECK_THROWS_WITH(
      permute(GroupTable(DISTRT_CROSS_REPLICA_AND_PARTITION, {{0, 0}})),
      Contains("cannot use mode cross_replica_and_partition"));
  // A null table, which only the C ABI can pass: runtime.abort.null_pairs.
}
