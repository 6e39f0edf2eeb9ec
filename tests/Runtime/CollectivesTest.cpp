//===- CollectivesTest.cpp - the group collectives --------------*- C++ -*-===//
//
// The group collectives over the whole team (one group of every process, so
// position == rank) with non-leading dimensions on 3-D arrays, strided
// inputs and outputs, several operands of different element types in one
// call, every element type, aliasing, zero-size operands and async forms.
// Input of process f at flat index i: value(dtype, f, i), exact in the type.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

constexpr Dtype kAllDtypes[] = {
    Dtype::I1,   Dtype::I8,   Dtype::I16,  Dtype::I32,  Dtype::I64,
    Dtype::UI8,  Dtype::UI16, Dtype::UI32, Dtype::UI64, Dtype::F16,
    Dtype::BF16, Dtype::F32,  Dtype::F64};

int64_t value(Dtype dtype, int64_t f, int64_t i) {
  switch (dtype) {
  case Dtype::I1:
    return (f + i) % 2;
  case Dtype::I8:
  case Dtype::UI8:
    return (f * 13 + i) % 100;
  case Dtype::BF16:
    return f * 16 + i % 16;
  case Dtype::F16:
    return f * 100 + i % 100;
  default:
    return 1000 * f + i;
  }
}

} // namespace

TEST_CASE("all_gather: every dim of 3-D operands, strided, mixed types",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  struct Spec {
    Dtype dtype;
    std::vector<int64_t> shape;
    bool stridedIn, stridedOut;
  };
  // Small operands travel packed in one message; large ones (over 2 KiB
  // together) in one MPI call each.
  const std::vector<Spec> small{{Dtype::F32, {2, 3, 2}, false, false},
                                {Dtype::I16, {3, 2, 2}, true, false},
                                {Dtype::BF16, {2, 2, 3}, false, true},
                                {Dtype::UI8, {1, 2, 1}, true, true}},
      large{{Dtype::F32, {8, 10, 6}, false, false},
            {Dtype::I16, {10, 8, 6}, true, false},
            {Dtype::BF16, {6, 8, 10}, false, true},
            {Dtype::UI8, {4, 3, 2}, true, true}};
  for (const std::vector<Spec> &specs : {small, large})
    for (int async = 0; async < 2; ++async)
      for (int64_t dim = 0; dim < 3; ++dim)
        for (size_t alone = 0; alone <= specs.size(); ++alone) {
          // alone < size: that operand by itself; else all in one call.
          std::vector<Array> ins, outs;
          for (size_t k = 0; k < specs.size(); ++k) {
            if (alone < specs.size() && k != alone)
              continue;
            const Spec &s = specs[k];
            ins.emplace_back(s.dtype, s.shape, s.stridedIn);
            ins.back().fill([&](int64_t i) { return value(s.dtype, f, i); });
            outs.emplace_back(s.dtype, scaled(s.shape, dim, N), s.stridedOut);
          }
          std::vector<Operand> inOps, outOps;
          for (size_t k = 0; k < ins.size(); ++k) {
            inOps.push_back(ins[k].operand());
            outOps.push_back(outs[k].operand());
          }
          if (async)
            allGatherAsync(world(), everyone(), dim, inOps, outOps).wait();
          else
            allGather(world(), everyone(), dim, inOps, outOps);
          for (size_t k = 0; k < ins.size(); ++k) {
            const Array &out = outs[k];
            for (int64_t o = 0; o < out.count(); ++o) {
              auto index = unflatten(out.sizes, o);
              const int64_t member = index[dim] / ins[k].sizes[dim];
              index[dim] %= ins[k].sizes[dim];
              INFO("rank " << f << " async " << async << " dim " << dim
                           << " operand " << k << " (" << dtypeName(out.dtype)
                           << ") flat index " << o);
              CHECK(out.get(o) ==
                    value(out.dtype, member, flatten(ins[k].sizes, index)));
            }
            CHECK(out.touchedPadding() == 0);
          }
        }
}

TEST_CASE("all_to_all: every split/concat pair, strided, mixed types",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  // Small blocks travel packed in one message; large ones (over 2 KiB per
  // member together) in one MPI call per operand.
  for (const std::vector<int64_t> &block :
       {std::vector<int64_t>{2, 3, 2}, std::vector<int64_t>{8, 10, 6}})
    for (int async = 0; async < 2; ++async)
      for (int64_t split = 0; split < 3; ++split)
        for (int64_t concat = 0; concat < 3; ++concat)
          for (int variant = 0; variant < 3; ++variant) {
            // 0: one dense i32; 1: one strided f64; 2: both in one call.
            std::vector<Array> ins, outs;
            if (variant != 1) {
              ins.emplace_back(Dtype::I32, scaled(block, split, N));
              outs.emplace_back(Dtype::I32, scaled(block, concat, N));
            }
            if (variant != 0) {
              ins.emplace_back(Dtype::F64, scaled(block, split, N), true);
              outs.emplace_back(Dtype::F64, scaled(block, concat, N), true);
            }
            std::vector<Operand> inOps, outOps;
            for (size_t k = 0; k < ins.size(); ++k) {
              ins[k].fill([&](int64_t i) { return value(ins[k].dtype, f, i); });
              inOps.push_back(ins[k].operand());
              outOps.push_back(outs[k].operand());
            }
            if (async)
              allToAllAsync(world(), everyone(), split, concat, N, inOps,
                            outOps)
                  .wait();
            else
              allToAll(world(), everyone(), split, concat, N, inOps, outOps);
            for (size_t k = 0; k < ins.size(); ++k) {
              const Array &out = outs[k];
              for (int64_t o = 0; o < out.count(); ++o) {
                auto index = unflatten(out.sizes, o);
                const int64_t member = index[concat] / block[concat];
                index[concat] %= block[concat];
                index[split] += f * block[split];
                INFO("rank " << f << " async " << async << " split " << split
                             << " concat " << concat << " operand " << k
                             << " flat index " << o);
                CHECK(out.get(o) ==
                      value(out.dtype, member, flatten(ins[k].sizes, index)));
              }
              CHECK(out.touchedPadding() == 0);
            }
          }
}

TEST_CASE("reduce_scatter: every scatter dim, strided, mixed types",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  const std::vector<int64_t> block{2, 3, 2};
  const Dtype types[] = {Dtype::I32, Dtype::F32, Dtype::BF16};
  for (int async = 0; async < 2; ++async)
    for (int64_t dim = 0; dim < 3; ++dim)
      for (int variant = 0; variant < 5; ++variant) {
        // 0..2: that type alone (1 strided); 3: all three in one call; 4:
        // the first two, dense (at dim 0, one blocking call each on the
        // operands' own buffers).
        const bool dense = variant == 4;
        std::vector<Array> ins, outs;
        for (int k = 0; k < (dense ? 2 : 3); ++k) {
          if (variant < 3 && k != variant)
            continue;
          ins.emplace_back(types[k], scaled(block, dim, N), !dense && k == 1);
          outs.emplace_back(types[k], block, !dense && k == 2);
        }
        std::vector<Operand> inOps, outOps;
        for (size_t k = 0; k < ins.size(); ++k) {
          ins[k].fill([&](int64_t i) { return (f + 1) + i % 4; });
          inOps.push_back(ins[k].operand());
          outOps.push_back(outs[k].operand());
        }
        if (async)
          reduceScatterAsync(world(), everyone(), RedOp::Sum, dim, inOps,
                             outOps)
              .wait();
        else
          reduceScatter(world(), everyone(), RedOp::Sum, dim, inOps, outOps);
        for (size_t k = 0; k < ins.size(); ++k) {
          for (int64_t o = 0; o < outs[k].count(); ++o) {
            auto index = unflatten(block, o);
            index[dim] += f * block[dim];
            const int64_t i = flatten(ins[k].sizes, index);
            INFO("rank " << f << " async " << async << " dim " << dim
                         << " operand " << k << " flat index " << o);
            CHECK(outs[k].get(o) == N * (N + 1) / 2 + N * (i % 4));
          }
          CHECK(outs[k].touchedPadding() == 0);
        }
      }
}

TEST_CASE("reduce_scatter past 256 KiB (rooted reductions) and in pairs "
          "(exchanged), sync and async",
          "[collectives]") {
  // Rank q contributes (q + 1) + i % 7 at flat index i: position f keeps
  // rows [f R, (f + 1) R) of sum_q, N (N + 1) / 2 + N (i % 7). Inputs of
  // 2^15 rows of 2 f64 (512 KiB per member) take the rooted path past
  // 256 KiB; in groups of two a sync call exchanges, also for strided
  // inputs (packed first) and a max of i32.
  const int64_t N = worldSize(), f = worldRank();
  for (int64_t rows : {int64_t{1} << 15, int64_t{3}})
    for (bool strided : {false, true})
      for (bool async : {false, true}) {
        Array in(Dtype::F64, {rows * N, 2}, strided),
            out(Dtype::F64, {rows, 2});
        Array mx(Dtype::I32, {rows * N, 2}), mxOut(Dtype::I32, {rows, 2});
        in.fill([&](int64_t i) { return (f + 1) + i % 7; });
        mx.fill([&](int64_t i) { return f * (i % 5) - 3; });
        const std::vector<Operand> ins = {in.operand()}, outs = {out.operand()},
                                   mxIns = {mx.operand()},
                                   mxOuts = {mxOut.operand()};
        if (async) {
          reduceScatterAsync(world(), everyone(), RedOp::Sum, 0, ins, outs)
              .wait();
          reduceScatterAsync(world(), everyone(), RedOp::Max, 0, mxIns, mxOuts)
              .wait();
        } else {
          reduceScatter(world(), everyone(), RedOp::Sum, 0, ins, outs);
          reduceScatter(world(), everyone(), RedOp::Max, 0, mxIns, mxOuts);
        }
        int64_t wrong = 0, wrongMax = 0;
        for (int64_t o = 0; o < out.count(); ++o) {
          const int64_t i = f * rows * 2 + o;
          wrong +=
              out.get(o) != static_cast<double>(N * (N + 1) / 2 + N * (i % 7));
          wrongMax +=
              mxOut.get(o) != static_cast<double>((N - 1) * (i % 5) - 3);
        }
        INFO("rank " << f << " rows " << rows << (strided ? " strided" : "")
                     << (async ? " async" : ""));
        CHECK(wrong == 0);
        CHECK(wrongMax == 0);
      }
}

TEST_CASE("all_reduce: every element type in one call, in place, strided",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  auto sumOf = [&](Dtype dtype, int64_t i) -> int64_t {
    if (dtype == Dtype::I1) { // sum on i1 is xor
      int64_t parity = 0;
      for (int64_t p = 0; p < N; ++p)
        parity ^= (p + i) % 2;
      return parity;
    }
    const int64_t sum = N * (N + 1) / 2 + N * (i % 4);
    // Past 127 (16 ranks, under SMPI) an i8 sum wraps, as MPI's does.
    return dtype == Dtype::I8 ? static_cast<int8_t>(sum) : sum;
  };
  auto input = [&](Dtype dtype, int64_t i) {
    return dtype == Dtype::I1 ? (f + i) % 2 : (f + 1) + i % 4;
  };
  for (int mode = 0; mode < 3; ++mode) { // 0 dense, 1 strided out, 2 aliased
    for (int async = 0; async < 2; ++async) {
      std::vector<Array> ins, outs;
      std::vector<Operand> inOps, outOps;
      for (Dtype dtype : kAllDtypes) {
        ins.emplace_back(dtype, std::vector<int64_t>{5, 2}, mode == 2);
        ins.back().fill([&](int64_t i) { return input(dtype, i); });
        outs.emplace_back(dtype, std::vector<int64_t>{5, 2}, mode == 1);
      }
      for (size_t k = 0; k < ins.size(); ++k) {
        inOps.push_back(ins[k].operand());
        outOps.push_back(mode == 2 ? ins[k].operand() : outs[k].operand());
      }
      if (async)
        allReduceAsync(world(), everyone(), RedOp::Sum, inOps, outOps).wait();
      else
        allReduce(world(), everyone(), RedOp::Sum, inOps, outOps);
      for (size_t k = 0; k < ins.size(); ++k) {
        const Array &out = mode == 2 ? ins[k] : outs[k];
        for (int64_t i = 0; i < out.count(); ++i) {
          INFO("rank " << f << " mode " << mode << " async " << async << " "
                       << dtypeName(out.dtype) << " index " << i);
          CHECK(out.get(i) == sumOf(out.dtype, i));
        }
        CHECK(out.touchedPadding() == 0);
        if (mode != 2)
          CHECK(ins[k].get(3) == input(ins[k].dtype, 3));
      }
    }
  }
  // One operand, max, each type on its own (the single-operand fast path).
  for (Dtype dtype : kAllDtypes) {
    Array in(dtype, {7}), out(dtype, {7});
    in.fill([&](int64_t i) {
      return dtype == Dtype::I1 ? f == i % (N + 1) : (f + i) % N + i % 3;
    });
    allReduce(world(), everyone(), RedOp::Max, {{in.operand()}},
              {{out.operand()}});
    for (int64_t i = 0; i < 7; ++i) {
      INFO("rank " << f << " max " << dtypeName(dtype) << " index " << i);
      CHECK(out.get(i) ==
            (dtype == Dtype::I1 ? i % (N + 1) < N : N - 1 + i % 3));
    }
  }
}

TEST_CASE("collective_broadcast: reordered root, non-members, mixed types",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  // One group of every process but 0 (when N > 1), last rank first.
  std::vector<int64_t> group;
  for (int64_t p = N - 1; p >= (N > 1 ? 1 : 0); --p)
    group.push_back(p);
  const GroupTable groups(DISTRT_FLATTENED_IDS, {group});
  const int64_t root = N - 1;
  const bool member = N == 1 || f != 0;
  for (int async = 0; async < 2; ++async)
    for (int variant = 0; variant < 4; ++variant) {
      // 0: one dense; 1: one strided; 2: f32 + strided i16 + bf16; 3: the
      // same over 2 KiB together (one MPI call each).
      std::vector<Array> ins, outs;
      if (variant == 3) {
        ins.emplace_back(Dtype::F32, std::vector<int64_t>{30, 20});
        outs.emplace_back(Dtype::F32, std::vector<int64_t>{30, 20});
        ins.emplace_back(Dtype::I16, std::vector<int64_t>{40, 20}, true);
        outs.emplace_back(Dtype::I16, std::vector<int64_t>{40, 20});
        ins.emplace_back(Dtype::BF16, std::vector<int64_t>{300});
        outs.emplace_back(Dtype::BF16, std::vector<int64_t>{300}, true);
      }
      if (variant != 1 && variant != 3) {
        ins.emplace_back(Dtype::F32, std::vector<int64_t>{3, 2});
        outs.emplace_back(Dtype::F32, std::vector<int64_t>{3, 2});
      }
      if (variant == 1 || variant == 2) {
        ins.emplace_back(Dtype::I16, std::vector<int64_t>{2, 3}, true);
        outs.emplace_back(Dtype::I16, std::vector<int64_t>{2, 3}, true);
      }
      if (variant == 2) {
        ins.emplace_back(Dtype::BF16, std::vector<int64_t>{4});
        outs.emplace_back(Dtype::BF16, std::vector<int64_t>{4}, true);
      }
      std::vector<Operand> inOps, outOps;
      for (size_t k = 0; k < ins.size(); ++k) {
        ins[k].fill([&](int64_t i) { return value(ins[k].dtype, f, i); });
        outs[k].fill([](int64_t) { return 1; });
        inOps.push_back(ins[k].operand());
        outOps.push_back(outs[k].operand());
      }
      if (async)
        collectiveBroadcastAsync(world(), groups, inOps, outOps).wait();
      else
        collectiveBroadcast(world(), groups, inOps, outOps);
      for (size_t k = 0; k < ins.size(); ++k)
        for (int64_t i = 0; i < outs[k].count(); ++i) {
          INFO("rank " << f << " async " << async << " variant " << variant
                       << " operand " << k << " index " << i);
          CHECK(outs[k].get(i) == (member ? value(outs[k].dtype, root, i) : 0));
        }
    }
  // In place (output aliases input).
  Array data(Dtype::I64, {5});
  data.fill([&](int64_t i) { return 1000 * f + i; });
  collectiveBroadcast(world(), groups, {{data.operand()}}, {{data.operand()}});
  for (int64_t i = 0; i < 5; ++i)
    CHECK(data.get(i) == (member ? 1000 * root + i : 0));
}

TEST_CASE("collective_broadcast in a group of two: a size mismatch is an "
          "error on the receiving member",
          "[collectives]") {
  // Ranks 0 and 1 form the group (root 0); rank 1 expects fewer elements
  // than rank 0 sends, sync (one message) and async (MPI_Ibcast). Ranks >= 2
  // are in no group and get zeros.
  const int64_t N = worldSize(), f = worldRank();
  if (N < 2)
    return;
  const GroupTable pair(DISTRT_FLATTENED_IDS, {{0, 1}});
  Array in(Dtype::F64, {f == 1 ? 1 : 2}), out(Dtype::F64, {f == 1 ? 1 : 2});
  in.fill([&](int64_t i) { return 10 * f + i; });
  auto call = [&] {
    collectiveBroadcast(world(), pair, {{in.operand()}}, {{out.operand()}});
  };
  if (f == 1)
    CHECK_THROWS_WITH(call(), Contains("collective_broadcast") &&
                                  Contains("rank 0 sent more than the 8 "
                                           "bytes expected"));
  else
    CHECK_NOTHROW(call());
  if (f == 0)
    CHECK(out.get(1) == 1);
  // Then matching sizes work again, sync and async.
  Array in2(Dtype::F64, {3}), out2(Dtype::F64, {3});
  in2.fill([&](int64_t i) { return 10 * f + i; });
  collectiveBroadcast(world(), pair, {{in2.operand()}}, {{out2.operand()}});
  CHECK(out2.get(2) == (f < 2 ? 2 : 0));
  in2.fill([&](int64_t i) { return 20 * f + i + 1; });
  collectiveBroadcastAsync(world(), pair, {{in2.operand()}}, {{out2.operand()}})
      .wait();
  CHECK(out2.get(2) == (f < 2 ? 3 : 0));
}

TEST_CASE("zero-size operands and calls with nothing to send",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  Array empty(Dtype::F32, {0, 3}), emptyOut(Dtype::F32, {0, 3});
  Array gatheredEmpty(Dtype::F32, {0, 3 * N});
  Array one(Dtype::I32, {1, 2}), gathered(Dtype::I32, {1, 2 * N});
  one.fill([&](int64_t i) { return 1000 * f + i; });
  for (int async = 0; async < 2; ++async) {
    // A zero-size operand next to a real one.
    std::vector<Operand> in{empty.operand(), one.operand()},
        out{gatheredEmpty.operand(), gathered.operand()};
    if (async)
      allGatherAsync(world(), everyone(), 1, in, out).wait();
    else
      allGather(world(), everyone(), 1, in, out);
    CHECK(gathered.get(2 * N - 1) == 1000 * (N - 1) + 1);
    // Only zero-size operands: every op completes (and async hands back a
    // handle to wait).
    std::vector<Operand> e{empty.operand()}, eo{emptyOut.operand()};
    if (async) {
      allReduceAsync(world(), everyone(), RedOp::Sum, e, eo).wait();
      collectiveBroadcastAsync(world(), everyone(), e, eo).wait();
      allToAllAsync(world(), everyone(), 0, 0, N, e, eo).wait();
    } else {
      allReduce(world(), everyone(), RedOp::Sum, e, eo);
      collectiveBroadcast(world(), everyone(), e, eo);
      allToAll(world(), everyone(), 0, 0, N, e, eo);
      allGather(world(), everyone(), 0, {}, {});
    }
  }
}

TEST_CASE("bad shapes and counts are clear errors naming the operand",
          "[collectives]") {
  const int64_t N = worldSize();
  Array a(Dtype::F32, {2, 3}), b(Dtype::F32, {2, 3}), c(Dtype::I32, {2, 3});
  Array wide(Dtype::F32, {2, 3 * N + 1});
  CHECK_THROWS_WITH(
      allGather(world(), everyone(), 1, {{a.operand(), a.operand()}},
                {{a.operand(), wide.operand()}}),
      Contains("all_gather at ") &&
          (N == 1 ? Contains("operand 1: the output has shape [2, 4], "
                             "expected [2, 3]")
                  : Contains("operand 0: the output has shape [2, 3], "
                             "expected [2, " +
                             std::to_string(3 * N) + "]")));
  CHECK_THROWS_WITH(
      allGather(world(), everyone(), 2, {{a.operand()}}, {{b.operand()}}),
      Contains("operand 0: all_gather_dim 2 is out of range "
               "for rank 2"));
  CHECK_THROWS_WITH(allReduce(world(), everyone(), RedOp::Sum, {{a.operand()}},
                              {{c.operand()}}),
                    Contains("operand 0: the input has element type f32 but "
                             "the output i32"));
  CHECK_THROWS_WITH(allReduce(world(), everyone(), RedOp::Xor, {{a.operand()}},
                              {{b.operand()}}),
                    Contains("reduction 'xor' is not defined on "
                             "floating-point type f32"));
  CHECK_THROWS_WITH(allToAll(world(), everyone(), 0, 0, N + 1, {{a.operand()}},
                             {{b.operand()}}),
                    Contains("all_to_all at ") &&
                        Contains("split_count " + std::to_string(N + 1) +
                                 " differs from the group size " +
                                 std::to_string(N)));
  if (N == 2 || N == 4) {
    CHECK_THROWS_WITH(allToAll(world(), everyone(), 1, 0, N, {{a.operand()}},
                               {{b.operand()}}),
                      Contains("operand 0: dimension 1 (split_dimension) has "
                               "size 3, not divisible by split_count"));
    CHECK_THROWS_WITH(
        reduceScatter(world(), everyone(), RedOp::Sum, 1, {{a.operand()}},
                      {{b.operand()}}),
        Contains("reduce_scatter at ") &&
            Contains("operand 0: dimension 1 (scatter_dimension) has size 3, "
                     "not divisible by the group size"));
  }
}

TEST_CASE("all_reduce and reduce_scatter promote to the output's type",
          "[collectives]") {
  // StableHLO's is_promotable: the inputs convert to the output's element
  // type, which the reduction computes in. Rank p contributes 100 + p + i
  // (i8: the sum over 2+ ranks no longer fits), -(p + 1) * i (i16 -> i64:
  // signless integers sign-extend), 250 (ui8 -> ui32: zero-extend) and
  // (p + 1) / 4 + i (bf16 -> f32, exact in both).
  const int64_t P = worldSize(), p = worldRank();
  for (bool strided : {false, true})
    for (bool async : {false, true}) {
      Array a(Dtype::I8, {3}, strided), b(Dtype::I16, {2, 2}, strided),
          c(Dtype::UI8, {2}, strided), d(Dtype::BF16, {3}, strided);
      a.fill([&](int64_t i) { return 100 + p + i; });
      b.fill([&](int64_t i) { return -(p + 1) * i; });
      c.fill([](int64_t) { return 250; });
      for (int64_t i = 0; i < 3; ++i) {
        const float v =
            static_cast<float>(p + 1) / 4.0f + static_cast<float>(i);
        const uint16_t bits = detail::floatToBfloat16(v);
        std::memcpy(d.element(i), &bits, sizeof bits);
      }
      Array ra(Dtype::I32, {3}, strided), rb(Dtype::I64, {2, 2}),
          rc(Dtype::UI32, {2}), rd(Dtype::F32, {3}, strided);
      // Owned: an Operands span over a braced list would dangle.
      const std::vector<Operand> ins = {a.operand(), b.operand(), c.operand(),
                                        d.operand()},
                                 outs = {ra.operand(), rb.operand(),
                                         rc.operand(), rd.operand()};
      if (async)
        allReduceAsync(world(), everyone().spec, RedOp::Sum, ins, outs).wait();
      else
        allReduce(world(), everyone().spec, RedOp::Sum, ins, outs);
      INFO("rank " << p << (strided ? ", strided" : ", dense")
                   << (async ? ", async" : ", sync"));
      const int64_t ranks = P * (P - 1) / 2; // sum of p
      for (int64_t i = 0; i < 3; ++i) {
        CHECK(ra.get(i) == static_cast<double>(P * (100 + i) + ranks));
        CHECK(rd.get(i) == static_cast<double>(P * (P + 1)) / 8.0 +
                               static_cast<double>(P * i));
      }
      for (int64_t i = 0; i < 4; ++i)
        CHECK(rb.get(i) == static_cast<double>(-(ranks + P) * i));
      for (int64_t i = 0; i < 2; ++i)
        CHECK(rc.get(i) == static_cast<double>(250 * P));

      // reduce_scatter of i8 into i32 along a non-leading dimension: block
      // j of dimension 1 goes to position j.
      Array x(Dtype::I8, {2, 2 * P}, strided), y(Dtype::I32, {2, 2});
      x.fill([&](int64_t i) { return 100 + p + i % 7; });
      if (async)
        reduceScatterAsync(world(), everyone().spec, RedOp::Sum, 1,
                           {{x.operand()}}, {{y.operand()}})
            .wait();
      else
        reduceScatter(world(), everyone().spec, RedOp::Sum, 1, {{x.operand()}},
                      {{y.operand()}});
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t k = 0; k < 2; ++k) {
          const int64_t flat = r * 2 * P + 2 * p + k;
          CHECK(y.get(r * 2 + k) ==
                static_cast<double>(P * (100 + flat % 7) + ranks));
        }
    }
}

TEST_CASE("an output type the input does not promote to is an error",
          "[collectives]") {
  Array in(Dtype::F32, {2}), out(Dtype::I64, {2}), narrow(Dtype::F16, {2});
  CHECK_THROWS_WITH(allReduce(world(), everyone().spec, RedOp::Sum,
                              {{in.operand()}}, {{out.operand()}}),
                    Catch::Contains("operand 0: the input has element type "
                                    "f32 but the output i64, which it does "
                                    "not promote to"));
  CHECK_THROWS_WITH(allReduce(world(), everyone().spec, RedOp::Sum,
                              {{in.operand()}}, {{narrow.operand()}}),
                    Catch::Contains("which it does not promote to"));
}
