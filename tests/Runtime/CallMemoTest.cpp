//===- CallMemoTest.cpp - The memo of each call site ------------*- C++ -*-===//
//
// Each call site reuses the plan of its last valid call when the next call
// is the same (CallMemo.h). These tests alternate valid calls and change
// one thing at a time in place (pointer, offset, strides, dtype, sizes,
// groups content, the team behind an id): results must follow the change
// and an input made invalid must raise the same error as without a memo.
//
//===----------------------------------------------------------------------===//

#include "CallMemo.h"
#include "ArrayUtil.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <map>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

/// MLIR's rank-2 memref descriptor, as compiled code passes it.
struct Desc2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

Desc2 dense2(void *data, int64_t rows, int64_t cols) {
  return {data, data, 0, {rows, cols}, {cols, 1}};
}

const distrt_groups_t kWorld{DISTRT_FLATTENED_IDS, -1, -1, 0, 0, nullptr};

/// The site of the C call on `line`, as compiled code has one per op.
distrt_site_t *site(int line) {
  static std::map<int, distrt_site_t> sites;
  return &sites[line];
}

/// The Site of the C++ call on `line`.
Site *cxxSite(int line) {
  static std::map<int, Site> sites;
  return &sites[line];
}

/// The message of the Error `call` throws ("" if none).
template <class Call> std::string errorOf(Call &&call) {
  try {
    call();
  } catch (const Error &error) {
    return error.what();
  }
  return "";
}

std::vector<std::vector<int64_t>> identity(int64_t n) {
  std::vector<int64_t> ids(static_cast<size_t>(n));
  std::iota(ids.begin(), ids.end(), int64_t{0});
  return {ids};
}

} // namespace

TEST_CASE("memo: all_gather follows changed pointers, offsets, strides, dtype",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  std::vector<double> inA(6), inB(8), outA(static_cast<size_t>(6 * N)),
      outB(static_cast<size_t>(6 * N)), wide(static_cast<size_t>(12 * N + 1));
  Desc2 in = dense2(inA.data(), 2, 3), out = dense2(outA.data(), 2 * N, 3);
  distrt_operand_t i{2, &in, DISTRT_F64}, o{2, &out, DISTRT_F64};
  // out[(m * 2 + r) * rowStride + c * colStride + offset] holds member m's
  // element (r, c).
  auto check = [&](const double *data, int64_t rowStride, int64_t colStride,
                   int64_t offset, double base) {
    for (int64_t m = 0; m < N; ++m)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t c = 0; c < 3; ++c) {
          INFO("rank " << f << " member " << m << " (" << r << ", " << c
                       << ")");
          CHECK(data[offset + (m * 2 + r) * rowStride + c * colStride] ==
                base + 100 * m + 3 * r + c);
        }
  };
  auto gather = [&] {
    distrt_all_gather(0, &kWorld, 0, 1, &i, &o, 0, site(__LINE__), "t");
  };
  auto fill = [&](double *data, int64_t offset, double base) {
    for (int64_t k = 0; k < 6; ++k)
      data[offset + k] = base + 100 * f + k;
  };
  fill(inA.data(), 0, 0);
  gather();
  check(outA.data(), 3, 1, 0, 0);
  fill(inA.data(), 0, 7); // same call, new values
  gather();
  check(outA.data(), 3, 1, 0, 7);
  in.aligned = inB.data(); // same descriptor address, new pointers
  out.aligned = outB.data();
  fill(inB.data(), 0, 20);
  gather();
  check(outB.data(), 3, 1, 0, 20);
  in.offset = 2; // offset
  fill(inB.data(), 2, 30);
  gather();
  check(outB.data(), 3, 1, 0, 30);
  out.aligned = wide.data(); // strided output
  out.offset = 1;
  out.strides[0] = 6;
  out.strides[1] = 2;
  gather();
  check(wide.data(), 6, 2, 1, 30);
  // Another valid call in between, then the first one again.
  Desc2 in2 = dense2(inA.data(), 2, 3), out2 = dense2(outA.data(), 2 * N, 3);
  distrt_operand_t i2{2, &in2, DISTRT_F64}, o2{2, &out2, DISTRT_F64};
  fill(inA.data(), 0, 40);
  distrt_all_gather(0, &kWorld, 0, 1, &i2, &o2, 0, site(__LINE__), "t");
  check(outA.data(), 3, 1, 0, 40);
  std::fill(wide.begin(), wide.end(), -1.0);
  gather();
  check(wide.data(), 6, 2, 1, 30);
  // dtype: i32 elements are half as wide.
  std::vector<int32_t> in32(6), out32(static_cast<size_t>(6 * N), -1);
  in = dense2(in32.data(), 2, 3);
  out = dense2(out32.data(), 2 * N, 3);
  i.dtype = o.dtype = DISTRT_I32;
  for (int64_t k = 0; k < 6; ++k)
    in32[static_cast<size_t>(k)] = static_cast<int32_t>(50 + 100 * f + k);
  gather();
  for (int64_t m = 0; m < N; ++m)
    for (int64_t k = 0; k < 6; ++k)
      CHECK(out32[static_cast<size_t>(6 * m + k)] == 50 + 100 * m + k);
}

TEST_CASE("memo: all_reduce follows dtype and redop, reduce_scatter and "
          "all_to_all follow shapes",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  std::vector<int64_t> in(6), out(6);
  Desc2 inD = dense2(in.data(), 2, 3), outD = dense2(out.data(), 2, 3);
  distrt_operand_t i{2, &inD, DISTRT_F64}, o{2, &outD, DISTRT_F64};
  auto reduce = [&](int32_t op) {
    distrt_all_reduce(0, &kWorld, op, 1, &i, &o, 0, site(__LINE__), "t");
  };
  auto asDouble = [&](int64_t k) {
    double d;
    std::memcpy(&d, &out[static_cast<size_t>(k)], sizeof d);
    return d;
  };
  for (int64_t k = 0; k < 6; ++k) {
    const double value = 2;
    std::memcpy(&in[static_cast<size_t>(k)], &value, sizeof value);
  }
  reduce(DISTRT_PROD);
  reduce(DISTRT_PROD);
  CHECK(asDouble(5) == static_cast<double>(int64_t{1} << N));
  // The same bytes read as i64: a product of 2s, not of tiny doubles.
  i.dtype = o.dtype = DISTRT_I64;
  std::fill(in.begin(), in.end(), 2);
  reduce(DISTRT_PROD);
  CHECK(out[5] == int64_t{1} << N);
  reduce(DISTRT_SUM);
  CHECK(out[5] == 2 * N);
  reduce(DISTRT_MAX);
  CHECK(out[5] == 2);
  // The output shape changes in place: the input sizes follow.
  inD.sizes[0] = outD.sizes[0] = 1;
  std::fill(out.begin(), out.end(), -1);
  reduce(DISTRT_SUM);
  CHECK(out[2] == 2 * N);
  CHECK(out[3] == -1);

  // reduce_scatter of [N * 2, 3] -> [2, 3], then of [N, 3] -> [1, 3].
  std::vector<int64_t> rsIn(static_cast<size_t>(6 * N)), rsOut(6, -1);
  for (size_t k = 0; k < rsIn.size(); ++k)
    rsIn[k] = static_cast<int64_t>(k) + 1000 * f;
  Desc2 rsInD = dense2(rsIn.data(), 2 * N, 3),
        rsOutD = dense2(rsOut.data(), 2, 3);
  distrt_operand_t ri{2, &rsInD, DISTRT_I64}, ro{2, &rsOutD, DISTRT_I64};
  const int64_t ranks = N * (N - 1) / 2;
  for (int pass = 0; pass < 2; ++pass) {
    distrt_reduce_scatter(0, &kWorld, DISTRT_SUM, 0, 1, &ri, &ro, 0,
                          site(__LINE__), "t");
    for (int64_t k = 0; k < 6; ++k)
      CHECK(rsOut[static_cast<size_t>(k)] == N * (6 * f + k) + 1000 * ranks);
  }
  rsInD.sizes[0] = N;
  rsOutD.sizes[0] = 1;
  std::fill(rsOut.begin(), rsOut.end(), -1);
  distrt_reduce_scatter(0, &kWorld, DISTRT_SUM, 0, 1, &ri, &ro, 0,
                        site(__LINE__), "t");
  for (int64_t k = 0; k < 3; ++k)
    CHECK(rsOut[static_cast<size_t>(k)] == N * (3 * f + k) + 1000 * ranks);
  CHECK(rsOut[3] == -1);

  // all_to_all along dim 0 of [N, 3], then of [2 * N, 3] (blocks of 2 rows).
  std::vector<int64_t> aIn(static_cast<size_t>(6 * N)),
      aOut(static_cast<size_t>(6 * N), -1);
  for (size_t k = 0; k < aIn.size(); ++k)
    aIn[k] = static_cast<int64_t>(k) + 1000 * f;
  Desc2 aInD = dense2(aIn.data(), N, 3), aOutD = dense2(aOut.data(), N, 3);
  distrt_operand_t ai{2, &aInD, DISTRT_I64}, ao{2, &aOutD, DISTRT_I64};
  for (int64_t rows : {int64_t{1}, int64_t{1}, int64_t{2}}) {
    aInD.sizes[0] = aOutD.sizes[0] = rows * N;
    distrt_all_to_all(0, &kWorld, 0, 0, N, 1, &ai, &ao, 0, site(__LINE__), "t");
    // Block m of the output: member m's block f.
    for (int64_t m = 0; m < N; ++m)
      for (int64_t k = 0; k < 3 * rows; ++k)
        CHECK(aOut[static_cast<size_t>(3 * rows * m + k)] ==
              1000 * m + 3 * rows * f + k);
  }
}

TEST_CASE("memo: a call made invalid after a valid one raises the same error",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  Array a(Dtype::F32, {2, 3}), gathered(Dtype::F32, {2, 3 * N});
  a.fill([&](int64_t k) { return 100 * f + k; });
  const GroupTable everyone(DISTRT_FLATTENED_IDS, {});
  auto gather = [&] {
    allGather(world(), everyone, 1, {{a.operand()}}, {{gathered.operand()}},
              cxxSite(__LINE__));
  };
  // The output's sizes change in place (same pointer): wrong shape.
  gathered.sizes[1] += 1;
  const std::string cold = errorOf(gather);
  gathered.sizes[1] -= 1;
  CHECK(errorOf(gather).empty());
  gathered.sizes[1] += 1;
  const std::string hot = errorOf(gather);
  CHECK_THAT(hot, Contains("operand 0: the output has shape"));
  CHECK(hot == cold);
  gathered.sizes[1] -= 1;
  CHECK(errorOf(gather).empty());
  CHECK(gathered.get(3 * N * 2 - 1) == 100 * (N - 1) + 5);
  // The output's row stride changes in place (its rows padded): another
  // plan; then its rank.
  gathered.strides[0] = 3 * N + 1;
  CHECK(errorOf(gather).empty());
  CHECK(gathered.get(3 * N * 2 - 1) == 100 * (N - 1) + 5);
  gathered.sizes.pop_back();
  gathered.strides.pop_back();
  CHECK_THAT(errorOf(gather), Contains("operand 0: the output has rank 1 but "
                                       "the input 2"));

  // dtype and redop after a valid all_reduce.
  Array x(Dtype::F32, {2, 3}), y(Dtype::F32, {2, 3});
  x.fill([](int64_t k) { return k; });
  Operand out = y.operand();
  auto reduce = [&](RedOp op) {
    allReduce(world(), everyone, op, {{x.operand()}}, {{out}},
              cxxSite(__LINE__));
  };
  CHECK(errorOf([&] { reduce(RedOp::Sum); }).empty());
  CHECK(y.get(4) == 4 * N);
  out.dtype = Dtype::I32;
  CHECK_THAT(errorOf([&] { reduce(RedOp::Sum); }),
             Contains("operand 0: the input has element type f32 but the "
                      "output i32"));
  out.dtype = Dtype::F32;
  CHECK(errorOf([&] { reduce(RedOp::Sum); }).empty());
  CHECK_THAT(errorOf([&] { reduce(RedOp::Xor); }),
             Contains("reduction 'xor' is not defined on floating-point type "
                      "f32"));
  CHECK(errorOf([&] { reduce(RedOp::Max); }).empty());
  CHECK(y.get(4) == 4);

  // split_count after a valid all_to_all.
  Array s(Dtype::I32, {N, 2}), t(Dtype::I32, {N, 2});
  s.fill([&](int64_t k) { return 100 * f + k; });
  auto split = [&](int64_t count) {
    allToAll(world(), everyone, 0, 0, count, {{s.operand()}}, {{t.operand()}},
             cxxSite(__LINE__));
  };
  CHECK(errorOf([&] { split(N); }).empty());
  CHECK_THAT(errorOf([&] { split(N + 1); }),
             Contains("split_count " + std::to_string(N + 1) +
                      " differs from the group size " + std::to_string(N)));
  if (N > 1) { // no longer divisible by the group size
    s.sizes[0] = t.sizes[0] = N + 1;
    CHECK_THAT(errorOf([&] { split(N); }),
               Contains("operand 0: dimension 0 (split_dimension) has size " +
                        std::to_string(N + 1)));
  }
}

TEST_CASE("memo: groups and pairs changed in place, teams re-registered",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  GroupTable groups(DISTRT_FLATTENED_IDS, identity(N));
  Array in(Dtype::I32, {1}), out(Dtype::I32, {N});
  in.fill([&](int64_t) { return 10 * f; });
  auto gather = [&](const Team &team) {
    allGather(team, groups, 0, {{in.operand()}}, {{out.operand()}},
              cxxSite(__LINE__));
  };
  gather(world());
  gather(world());
  CHECK(out.get(N - 1) == 10 * (N - 1));
  // Reversed group order, same address: member m is rank N - 1 - m.
  std::reverse(groups.ids.begin(), groups.ids.end());
  gather(world());
  CHECK(out.get(0) == 10 * (N - 1));
  CHECK(out.get(N - 1) == 0);
  // An id out of range, same address: the layout's error, not a stale plan.
  groups.ids[0] = N;
  CHECK_THAT(errorOf([&] { gather(world()); }),
             Contains("process id " + std::to_string(N) + " in "));
  std::reverse(groups.ids.begin(), groups.ids.end());
  groups.ids.back() = N - 1;
  std::sort(groups.ids.begin(), groups.ids.end());
  gather(world());
  CHECK(out.get(N - 1) == 10 * (N - 1));
  // The ids pointer nulled after a memoized call: the spec's error, not a
  // read through it.
  groups.spec.ids = nullptr;
  CHECK_THAT(errorOf([&] { gather(world()); }),
             Contains("ids pointer is null"));
  groups.spec.ids = groups.ids.data();
  gather(world());
  CHECK(out.get(N - 1) == 10 * (N - 1));

  // A team id bound to another communicator after a memoized call.
  constexpr int64_t kId = 77;
  Team owner = Team::registerComm(kId, MPI_COMM_WORLD);
  const Team alias(kId); // not owning: names the id whatever it is bound to
  gather(alias);
  gather(alias);
  CHECK(out.get(N - 1) == 10 * (N - 1));
  owner = Team(); // unregisters kId
  CHECK_THAT(errorOf([&] { gather(alias); }), Contains("unknown team 77"));
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, static_cast<int>(N - 1 - f), &reversed);
  owner = Team::registerComm(kId, reversed);
  gather(alias);
  // Team rank m is world rank N - 1 - m.
  CHECK(out.get(0) == 10 * (N - 1));
  owner = Team();
  MPI_Comm_free(&reversed);

  // Pairs changed in place: the ring turns around.
  GroupTable pairs(DISTRT_FLATTENED_IDS, {});
  auto ring = [&](int64_t step) {
    std::vector<std::vector<int64_t>> rows;
    for (int64_t r = 0; r < N; ++r)
      rows.push_back({r, (r + step + N) % N});
    GroupTable made(DISTRT_FLATTENED_IDS, rows);
    pairs.ids = made.ids; // same size: the address stays
    pairs.spec.num_groups = made.spec.num_groups;
    pairs.spec.group_size = made.spec.group_size;
    pairs.spec.ids = pairs.ids.data();
  };
  Array p(Dtype::I64, {2}), q(Dtype::I64, {2});
  p.fill([&](int64_t k) { return 100 * f + k; });
  for (int64_t step : {1, 1, -1, 1}) {
    ring(step);
    collectivePermute(world(), pairs, {{p.operand()}}, {{q.operand()}},
                      cxxSite(__LINE__));
    CHECK(q.get(1) == 100 * ((f - step + N) % N) + 1);
    send(world(), pairs, 3, false, {{p.operand()}}, cxxSite(__LINE__));
    q.fill([](int64_t) { return -1; });
    recv(world(), pairs, 3, false, {{q.operand()}}, cxxSite(__LINE__));
    CHECK(q.get(1) == 100 * ((f - step + N) % N) + 1);
  }
}

TEST_CASE("memo: call sites keep their own plans", "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  // Eight sites, each with its own length, called round-robin with new
  // values.
  constexpr int kSites = 8;
  distrt_site_t sites[kSites] = {};
  const char *locs[kSites] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
  std::vector<std::vector<double>> ins(kSites), outs(kSites);
  std::vector<Desc2> inDescs(kSites), outDescs(kSites);
  std::vector<distrt_operand_t> inOps(kSites), outOps(kSites);
  for (int s = 0; s < kSites; ++s) {
    const int64_t cols = s + 1;
    ins[s].resize(static_cast<size_t>(2 * cols));
    outs[s].resize(static_cast<size_t>(2 * cols));
    inDescs[s] = dense2(ins[s].data(), 2, cols);
    outDescs[s] = dense2(outs[s].data(), 2, cols);
    inOps[s] = {2, &inDescs[s], DISTRT_F64};
    outOps[s] = {2, &outDescs[s], DISTRT_F64};
  }
  for (int round = 0; round < 3; ++round)
    for (int s = 0; s < kSites; ++s) {
      const double base = 1000.0 * round + 10.0 * s;
      for (size_t k = 0; k < ins[s].size(); ++k)
        ins[s][k] = base + static_cast<double>(k) + static_cast<double>(f);
      distrt_all_reduce(0, &kWorld, DISTRT_SUM, 1, &inOps[s], &outOps[s], 0,
                        &sites[s], locs[s]);
      // Sum over the ranks r of base + k + r.
      for (size_t k = 0; k < outs[s].size(); ++k) {
        INFO("round " << round << " site " << s << " element " << k);
        CHECK(outs[s][k] ==
              static_cast<double>(N) * (base + static_cast<double>(k)) +
                  static_cast<double>(N * (N - 1) / 2));
      }
    }
  // Through the C++ API (a Site per call): one site's call turns invalid
  // and raises its error, the other site keeps its results.
  Array x(Dtype::F64, {2, 3}), y(Dtype::F64, {2, 3}), z(Dtype::F64, {2, 3});
  x.fill([&](int64_t k) { return k + f; });
  const GroupTable everyone(DISTRT_FLATTENED_IDS, {});
  auto first = [&] {
    allReduce(world(), everyone, RedOp::Sum, {{x.operand()}}, {{y.operand()}},
              cxxSite(__LINE__));
  };
  auto second = [&] {
    allReduce(world(), everyone, RedOp::Max, {{x.operand()}}, {{z.operand()}},
              cxxSite(__LINE__));
  };
  for (int round = 0; round < 2; ++round) {
    CHECK(errorOf(first).empty());
    CHECK(errorOf(second).empty());
    CHECK(y.get(5) == N * 5 + N * (N - 1) / 2);
    CHECK(z.get(5) == 5 + (N - 1));
  }
  y.sizes[1] += 1;
  CHECK_THAT(errorOf(first), Contains("operand 0: the output has shape"));
  z.set(5, -1);
  CHECK(errorOf(second).empty());
  CHECK(z.get(5) == 5 + (N - 1));
}

TEST_CASE("memo: a static site matches the team and each buffer's address",
          "[collectives]") {
  // White box: the quick words as CallMemo::store writes them for a call of
  // one input at `a` and one output at `b` on team 7.
  using namespace distrt::detail;
  double a[4] = {}, b[4] = {}, c[4] = {};
  Desc2 in = dense2(a, 2, 2), out = dense2(b, 2, 2);
  const distrt_operand_t i{2, &in, DISTRT_F64}, o{2, &out, DISTRT_F64};
  CallMemo m;
  m.valid = true;
  m.quick[0] = 7;
  m.quick[1] = static_cast<int64_t>(gTeamGeneration);
  m.quick[2] = reinterpret_cast<intptr_t>(a);
  m.quick[3] = reinterpret_cast<intptr_t>(b);
  m.quickIns = m.quickOuts = 1;
  auto call = [&](int64_t team, int64_t nIns) {
    return Call{
        "all_gather",       team,  nullptr,       {}, OperandList(&i, nIns),
        OperandList(&o, 1), false, SourceLoc("t")};
  };
  CHECK(m.matchesStatic(call(7, 1)));
  // Shapes are the flag's promise, not compared: other sizes still match.
  in.sizes[0] = 1;
  CHECK(m.matchesStatic(call(7, 1)));
  CHECK_FALSE(m.matchesStatic(call(8, 1))); // another team
  CHECK_FALSE(m.matchesStatic(call(7, 0))); // another operand count
  out.aligned = c;                          // the output moved
  CHECK_FALSE(m.matchesStatic(call(7, 1)));
  out.aligned = b;
  in.aligned = c; // the input moved
  CHECK_FALSE(m.matchesStatic(call(7, 1)));
  in.aligned = a;
  m.valid = false;
  CHECK_FALSE(m.matchesStatic(call(7, 1)));
}

TEST_CASE("memo: a static site of many operands follows each buffer's address",
          "[collectives]") {
  // 40 operands in place (past CallMemo::kQuickOperands: the addresses are
  // kept out of line), summed from a DISTRT_SITE_STATIC site: the calls
  // after the first match by address; moving one operand's buffer makes
  // the next call plan again, and the sum lands in the new buffer.
  constexpr int kOperands = 40;
  const int64_t N = worldSize(), r = worldRank();
  std::vector<std::vector<float>> bufs(kOperands), moved(kOperands);
  std::vector<Desc2> descs(kOperands);
  std::vector<distrt_operand_t> ops(kOperands);
  for (int k = 0; k < kOperands; ++k) {
    bufs[k].resize(static_cast<size_t>(2 * (k + 1)));
    moved[k].resize(bufs[k].size());
    descs[k] = dense2(bufs[k].data(), 2, k + 1);
    ops[k] = {2, &descs[k], DISTRT_F32};
  }
  distrt_site_t s{DISTRT_SITE_STATIC, nullptr, nullptr};
  auto fill = [&](std::vector<float> &b, int k) {
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = static_cast<float>(r + k + static_cast<int64_t>(i));
  };
  // Over the ranks q of q + k + i.
  auto expected = [&](int k, size_t i) {
    return static_cast<float>(N * (k + static_cast<int64_t>(i)) +
                              N * (N - 1) / 2);
  };
  for (int round = 0; round < 4; ++round) {
    // Round 2 moves operand 37 to another buffer, round 3 operand 0 too.
    if (round == 2)
      descs[37].aligned = moved[37].data();
    if (round == 3)
      descs[0].aligned = moved[0].data();
    for (int k = 0; k < kOperands; ++k) {
      fill(bufs[k], k);
      fill(moved[k], k);
    }
    distrt_all_reduce(0, &kWorld, DISTRT_SUM, kOperands, ops.data(), ops.data(),
                      0, &s, "memo_many");
    for (int k = 0; k < kOperands; ++k) {
      const bool isMoved = (round >= 2 && k == 37) || (round == 3 && k == 0);
      const std::vector<float> &got = isMoved ? moved[k] : bufs[k];
      const std::vector<float> &untouched = isMoved ? bufs[k] : moved[k];
      for (size_t i = 0; i < got.size(); ++i) {
        INFO("rank " << r << " round " << round << " operand " << k
                     << " element " << i);
        CHECK(got[i] == expected(k, i));
        CHECK(untouched[i] ==
              static_cast<float>(r + k + static_cast<int64_t>(i)));
      }
    }
  }
}

TEST_CASE("memo: dense operands past the pack limit, one blocking call each, "
          "from a static site",
          "[collectives]") {
  // all_gather and all_to_all of an f64 and an i32 operand (3 KiB per
  // member together: one MPI call each, on the operands' own buffers, the
  // C entry's direct path once the site matched). Each round writes new
  // input values; round 2 moves the i32 output, which plans again.
  const int64_t N = worldSize(), r = worldRank();
  constexpr int64_t kRows = 16, kF64Cols = 16, kI32Cols = 32;
  std::vector<double> f64In(static_cast<size_t>(N * kRows * kF64Cols)),
      f64Out(f64In.size());
  std::vector<int32_t> i32In(static_cast<size_t>(N * kRows * kI32Cols)),
      i32Out(i32In.size()), i32Moved(i32In.size());
  distrt_site_t gatherSite{DISTRT_SITE_STATIC, nullptr, nullptr},
      toAllSite{DISTRT_SITE_STATIC, nullptr, nullptr};
  // Element i of process q's input in `round`.
  auto value = [](int64_t q, int64_t i, int round) {
    return 100000 * round + 1000 * q + i;
  };
  for (int round = 0; round < 4; ++round) {
    int32_t *i32Target = round >= 2 ? i32Moved.data() : i32Out.data();
    for (bool gather : {true, false}) {
      // all_gather sends its first kRows rows; all_to_all all N * kRows.
      const int64_t inRows = gather ? kRows : N * kRows;
      for (size_t i = 0; i < f64In.size(); ++i)
        f64In[i] =
            static_cast<double>(value(r, static_cast<int64_t>(i), round));
      for (size_t i = 0; i < i32In.size(); ++i)
        i32In[i] =
            static_cast<int32_t>(value(r, static_cast<int64_t>(i), round));
      Desc2 descs[4] = {dense2(f64In.data(), inRows, kF64Cols),
                        dense2(i32In.data(), inRows, kI32Cols),
                        dense2(f64Out.data(), N * kRows, kF64Cols),
                        dense2(i32Target, N * kRows, kI32Cols)};
      const distrt_operand_t ins[2] = {{2, &descs[0], DISTRT_F64},
                                       {2, &descs[1], DISTRT_I32}},
                             outs[2] = {{2, &descs[2], DISTRT_F64},
                                        {2, &descs[3], DISTRT_I32}};
      if (gather)
        distrt_all_gather(0, &kWorld, 0, 2, ins, outs, 0, &gatherSite, "each");
      else
        distrt_all_to_all(0, &kWorld, 0, 0, N, 2, ins, outs, 0, &toAllSite,
                          "each");
      // Row j of the output: row j % kRows of process j / kRows's block
      // (all_to_all: its block for this process).
      auto expected = [&](int64_t row, int64_t col, int64_t cols) {
        const int64_t q = row / kRows,
                      sent = (gather ? 0 : r * kRows) + row % kRows;
        return value(q, sent * cols + col, round);
      };
      for (int64_t row = 0; row < N * kRows; ++row) {
        INFO("rank " << r << " round " << round << " gather " << gather
                     << " row " << row);
        for (int64_t col = 0; col < kF64Cols; ++col)
          CHECK(f64Out[static_cast<size_t>(row * kF64Cols + col)] ==
                static_cast<double>(expected(row, col, kF64Cols)));
        for (int64_t col = 0; col < kI32Cols; ++col)
          CHECK(i32Target[row * kI32Cols + col] ==
                expected(row, col, kI32Cols));
      }
    }
  }
}
