//===- SiteTest.cpp - Calls through a distrt_site_t -------------*- C++ -*-===//
//
// Compiled code passes each op's own site (CallMemo.h), where the runtime
// keeps the plan of its last call. A site without flags matches a call in
// full: a call that differs in anything the plan depends on plans again. A
// static site (DISTRT_SITE_STATIC: constant shapes) compares only the team
// and the buffers' addresses. These tests move the buffers, change shapes,
// offsets and strides at one site, alternate sites of several op kinds,
// and check every result against its closed form.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;

namespace {

/// MLIR's rank-1 memref descriptor, as compiled code passes it.
struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};

Desc1 dense1(void *data, int64_t size) { return {data, data, 0, {size}, {1}}; }

const distrt_groups_t kWorld{DISTRT_FLATTENED_IDS, -1, -1, 0, 0, nullptr};

distrt_site_t staticSite() { return {DISTRT_SITE_STATIC, nullptr, nullptr}; }

} // namespace

TEST_CASE("sites: a static all_gather follows its buffers' addresses",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  // Two pairs of buffers of the same shape, used in turn by one site, as a
  // double-buffered loop does.
  std::vector<double> inA(3), inB(3), outA(static_cast<size_t>(3 * N)),
      outB(static_cast<size_t>(3 * N));
  distrt_site_t site = staticSite();
  for (int round = 0; round < 6; ++round) {
    const bool useA = round % 3 != 2; // A, A, B, A, A, B
    std::vector<double> &in = useA ? inA : inB, &out = useA ? outA : outB;
    std::vector<double> &other = useA ? outB : outA;
    const std::vector<double> otherBefore = other;
    for (int64_t k = 0; k < 3; ++k)
      in[static_cast<size_t>(k)] = 1000.0 * round + 10.0 * f + k;
    Desc1 inDesc = dense1(in.data(), 3), outDesc = dense1(out.data(), 3 * N);
    const distrt_operand_t i{1, &inDesc, DISTRT_F64},
        o{1, &outDesc, DISTRT_F64};
    const int32_t async = round % 2;
    const distrt_handle_t handle =
        distrt_all_gather(0, &kWorld, 0, 1, &i, &o, async, &site, "site");
    if (async)
      distrt_wait(handle, "site");
    for (int64_t m = 0; m < N; ++m)
      for (int64_t k = 0; k < 3; ++k) {
        INFO("round " << round << " rank " << f << " member " << m);
        CHECK(out[static_cast<size_t>(3 * m + k)] ==
              1000.0 * round + 10.0 * m + k);
      }
    CHECK(other == otherBefore); // the other pair's output is untouched
  }
  CHECK(site.memo != nullptr); // the runtime keeps the site's entry there
}

TEST_CASE("sites: one site object taken by two op kinds stays correct",
          "[collectives]") {
  // Not what compiled code does (each op has its own), but a site handed to
  // another op kind must only cost a re-plan.
  const int64_t N = worldSize(), f = worldRank();
  std::vector<int64_t> in(4), gathered(static_cast<size_t>(4 * N)), sum(4);
  Desc1 inDesc = dense1(in.data(), 4),
        gatheredDesc = dense1(gathered.data(), 4 * N),
        sumDesc = dense1(sum.data(), 4);
  const distrt_operand_t i{1, &inDesc, DISTRT_I64},
      g{1, &gatheredDesc, DISTRT_I64}, s{1, &sumDesc, DISTRT_I64};
  distrt_site_t site = staticSite();
  for (int round = 0; round < 4; ++round) {
    for (int64_t k = 0; k < 4; ++k)
      in[static_cast<size_t>(k)] = 100 * round + 10 * f + k;
    distrt_all_gather(0, &kWorld, 0, 1, &i, &g, 0, &site, "shared");
    distrt_all_reduce(0, &kWorld, DISTRT_SUM, 1, &i, &s, 0, &site, "shared");
    for (int64_t k = 0; k < 4; ++k) {
      INFO("round " << round << " element " << k);
      for (int64_t m = 0; m < N; ++m)
        CHECK(gathered[static_cast<size_t>(4 * m + k)] ==
              100 * round + 10 * m + k);
      // Sum over the ranks m of 100 round + 10 m + k.
      CHECK(sum[static_cast<size_t>(k)] ==
            N * (100 * round + k) + 10 * N * (N - 1) / 2);
    }
  }
}

TEST_CASE("sites: a site follows changed layouts", "[collectives]") {
  // The descriptors are compared in full: the same buffers with other
  // sizes, offsets or strides are planned again.
  const int64_t N = worldSize(), f = worldRank();
  std::vector<float> in(24), out(static_cast<size_t>(8 * N));
  distrt_site_t site{};
  struct Layout {
    int64_t length, offset, stride;
  };
  for (Layout l :
       {Layout{2, 0, 1}, Layout{5, 0, 1}, Layout{5, 0, 1}, Layout{5, 3, 1},
        Layout{5, 3, 2}, Layout{8, 0, 1}, Layout{8, 0, 3}, Layout{2, 0, 1}}) {
    std::fill(in.begin(), in.end(), -2.0f);
    for (int64_t k = 0; k < l.length; ++k)
      in[static_cast<size_t>(l.offset + k * l.stride)] =
          static_cast<float>(100 * l.length + 10 * f + k);
    std::fill(out.begin(), out.end(), -1.0f);
    Desc1 inDesc{in.data(), in.data(), l.offset, {l.length}, {l.stride}},
        outDesc = dense1(out.data(), l.length * N);
    const distrt_operand_t i{1, &inDesc, DISTRT_F32},
        o{1, &outDesc, DISTRT_F32};
    distrt_all_gather(0, &kWorld, 0, 1, &i, &o, 0, &site, "dynamic");
    for (int64_t m = 0; m < N; ++m)
      for (int64_t k = 0; k < l.length; ++k) {
        INFO("length " << l.length << " offset " << l.offset << " stride "
                       << l.stride << " member " << m << " element " << k);
        CHECK(out[static_cast<size_t>(l.length * m + k)] ==
              static_cast<float>(100 * l.length + 10 * m + k));
      }
    if (l.length < 8) // nothing written past the gathered elements
      CHECK(out[static_cast<size_t>(l.length * N)] == -1.0f);
  }
}

TEST_CASE("sites: static send/recv and permute in a ring, moving buffers",
          "[p2p]") {
  const int64_t N = worldSize(), f = worldRank();
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < N; ++i)
    ids.insert(ids.end(), {i, (i + 1) % N});
  const distrt_groups_t ring{DISTRT_CROSS_REPLICA, -1, -1, N, 2, ids.data()};
  const int64_t from = (f - 1 + N) % N; // the rank whose data arrives here
  std::vector<int32_t> a(5), b(5), got(5), gotToo(5);
  distrt_site_t sendSite = staticSite(), recvSite = staticSite(),
                permuteSite = staticSite();
  for (int round = 0; round < 6; ++round) {
    std::vector<int32_t> &in = round % 2 ? b : a;
    std::vector<int32_t> &out = round % 3 ? got : gotToo;
    for (int64_t k = 0; k < 5; ++k)
      in[static_cast<size_t>(k)] =
          static_cast<int32_t>(1000 * round + 10 * f + k);
    Desc1 inDesc = dense1(in.data(), 5), outDesc = dense1(out.data(), 5);
    const distrt_operand_t i{1, &inDesc, DISTRT_I32},
        o{1, &outDesc, DISTRT_I32};
    // Async send, sync recv, wait: the benchmark's loop.
    const distrt_handle_t sent =
        distrt_send(0, &ring, 4, 0, 1, &i, 1, &sendSite, "ring");
    distrt_recv(0, &ring, 4, 0, 1, &o, 0, &recvSite, "ring");
    distrt_wait(sent, "ring");
    for (int64_t k = 0; k < 5; ++k) {
      INFO("round " << round << " rank " << f << " element " << k);
      CHECK(out[static_cast<size_t>(k)] == 1000 * round + 10 * from + k);
    }
    std::fill(out.begin(), out.end(), -1);
    distrt_collective_permute(0, &ring, 1, &i, &o, 0, &permuteSite, "ring");
    for (int64_t k = 0; k < 5; ++k) {
      INFO("permute round " << round << " rank " << f << " element " << k);
      CHECK(out[static_cast<size_t>(k)] == 1000 * round + 10 * from + k);
    }
  }
}

TEST_CASE("api: Groups factories give the spec they name", "[collectives]") {
  const distrt::Groups world = distrt::Groups::world();
  CHECK(world.spec().mode == DISTRT_FLATTENED_IDS);
  CHECK(world.spec().num_groups == 0);
  const distrt::Groups rows = distrt::Groups::replicas(
      {{0, 1}, {2, 3}}, distrt::GroupMode::CrossPartition, 2, 2);
  const distrt_groups_t &r = rows.spec();
  CHECK(r.mode == DISTRT_CROSS_PARTITION);
  CHECK(r.num_replicas == 2);
  CHECK(r.num_partitions == 2);
  CHECK(r.num_groups == 2);
  CHECK(r.group_size == 2);
  CHECK(std::vector<int64_t>(r.ids, r.ids + 4) ==
        std::vector<int64_t>{0, 1, 2, 3});
  CHECK(rows.str() == "mode 1 grid 2x2 [[0, 1], [2, 3]]");
  const distrt::Groups ring = distrt::Groups::pairs({{0, 1}, {1, 0}});
  CHECK(ring.spec().mode == DISTRT_CROSS_REPLICA);
  CHECK(ring.spec().group_size == 2);
  CHECK(ring.str() == "mode 0 grid -1x-1 [[0, 1], [1, 0]]");
  // A copy owns its ids: the original may go.
  const distrt::Groups copy = [] {
    const distrt::Groups local = distrt::Groups::replicas({{1, 0}});
    return local;
  }();
  CHECK(copy.spec().ids[0] == 1);
  // Groups of different sizes (ragged) are padded with -1, as in the C
  // table (distrt.h).
  const distrt::Groups ragged = distrt::Groups::replicas({{0, 1}, {2}});
  CHECK(ragged.spec().num_groups == 2);
  CHECK(ragged.spec().group_size == 2);
  CHECK(std::vector<int64_t>(ragged.spec().ids, ragged.spec().ids + 4) ==
        std::vector<int64_t>{0, 1, 2, -1});
  CHECK(ragged.str() == "mode 0 grid -1x-1 [[0, 1], [2, -1]]");
}

TEST_CASE("api: one Site over Groups that change from call to call",
          "[collectives]") {
  // A new Groups per iteration, likely at the same address: the site's
  // memo compares the groups' content, so each call gathers in its own
  // order.
  const int64_t N = worldSize(), f = worldRank();
  Array in(Dtype::I64, {1}), out(Dtype::I64, {N});
  in.fill([&](int64_t) { return 100 + f; });
  distrt::Site site;
  for (int round = 0; round < 4; ++round) {
    std::vector<int64_t> order(static_cast<size_t>(N));
    for (int64_t j = 0; j < N; ++j)
      order[static_cast<size_t>(j)] = round % 2 ? N - 1 - j : j;
    const distrt::Groups groups(DISTRT_FLATTENED_IDS, {order});
    allGather(world(), groups, 0, {{in.operand()}}, {{out.operand()}}, &site);
    for (int64_t j = 0; j < N; ++j) {
      INFO("rank " << f << " round " << round << " member " << j);
      CHECK(out.get(j) == 100 + order[static_cast<size_t>(j)]);
    }
  }
  // A Site moved keeps its memo; the moved-from one starts afresh.
  distrt::Site moved = std::move(site);
  CHECK(site.get()->memo == nullptr);
  CHECK(moved.get()->memo != nullptr);
  allGather(world(), distrt::Groups::world(), 0, {{in.operand()}},
            {{out.operand()}}, &moved);
  CHECK(out.get(N - 1) == 100 + N - 1);
}
