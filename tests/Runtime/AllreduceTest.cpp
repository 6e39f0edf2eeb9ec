//===- AllreduceTest.cpp - allreduce over every type and layout -*- C++ -*-===//
//
// Rank p of P contributes values whose reduction has a closed form (e.g. the
// sum of p + 1 is P(P+1)/2). Elements outside the memref view must keep their
// sentinel bytes.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace distrt;
using namespace distrt::test;

namespace {

constexpr Dtype kDtypes[] = {Dtype::I1,   Dtype::I8,  Dtype::I16,  Dtype::I32,
                             Dtype::I64,  Dtype::UI8, Dtype::UI16, Dtype::UI32,
                             Dtype::UI64, Dtype::F16, Dtype::BF16, Dtype::F32,
                             Dtype::F64};
constexpr RedOp kRedOps[] = {RedOp::Sum, RedOp::Prod, RedOp::Min, RedOp::Max,
                             RedOp::And, RedOp::Or,   RedOp::Xor};
const char *redOpName(RedOp op) {
  static const char *names[] = {"sum", "prod", "min", "max",
                                "and", "or",   "xor"};
  return names[static_cast<int>(op)];
}

struct Layout {
  const char *name;
  std::vector<int64_t> sizes, strides;
  int64_t offset;
  int64_t bufferElements;
};

const std::vector<Layout> &layouts() {
  static const std::vector<Layout> all = {
      {"contiguous 1-D", {37}, {1}, 0, 37},
      {"rank 0", {}, {}, 2, 3},
      {"contiguous 3-D", {2, 3, 4}, {12, 4, 1}, 1, 25},
      {"column of a 5x4 array", {5}, {4}, 2, 20},
      {"transposed 3x4 array", {4, 3}, {1, 4}, 0, 12},
      {"strided 3-D", {2, 2, 3}, {20, 6, 2}, 1, 40},
      {"empty", {0, 4}, {4, 1}, 0, 1},
  };
  return all;
}

/// Element offsets of the view in row-major order of its indices.
std::vector<int64_t> elementOffsets(const Layout &layout) {
  const size_t rank = layout.sizes.size();
  int64_t count = 1;
  for (int64_t size : layout.sizes)
    count *= size;
  std::vector<int64_t> offsets;
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = layout.offset;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * layout.strides[d];
    offsets.push_back(offset);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < layout.sizes[d])
        break;
      index[d] = 0;
    }
  }
  return offsets;
}

bool isBitwise(RedOp op) {
  return op == RedOp::And || op == RedOp::Or || op == RedOp::Xor;
}

int64_t factorial(int64_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

/// Rank p's value at logical index i.
int64_t contribution(RedOp op, Dtype dtype, int64_t p, int64_t i, int64_t P) {
  if (dtype == Dtype::I1) {
    switch (op) {
    case RedOp::Sum:
    case RedOp::Xor:
      return (p + i) % 2;
    case RedOp::Prod:
    case RedOp::Min:
    case RedOp::And:
      return p != i % (P + 1);
    default:
      return p == i % (P + 1);
    }
  }
  const int64_t shift = isSigned(dtype) ? -3 : 0;
  switch (op) {
  case RedOp::Sum:
    return p + 1 + i % 5;
  case RedOp::Prod:
    return i % 3 != 0 ? 1 : isSigned(dtype) ? -(p + 1) : p + 1;
  case RedOp::Min:
  case RedOp::Max:
    return (p + i) % P + i % 7 + shift;
  case RedOp::And:
    return i % 2 == 0 ? 0x7F & ~(int64_t{1} << p) : 0x7F;
  case RedOp::Or:
    return (int64_t{1} << p) | ((i % 2) << 6);
  case RedOp::Xor:
    return (int64_t{1} << p) | ((i % 2) << 6);
  }
  return 0;
}

/// The reduction of contribution() over p = 0..P-1, in closed form.
int64_t expected(RedOp op, Dtype dtype, int64_t i, int64_t P) {
  if (dtype == Dtype::I1) {
    switch (op) {
    case RedOp::Sum:
    case RedOp::Xor: // parity of the number of odd p + i
      return (i % 2 == 0 ? P / 2 : (P + 1) / 2) % 2;
    case RedOp::Prod:
    case RedOp::Min:
    case RedOp::And: // some p equals i % (P + 1) unless that is P
      return i % (P + 1) == P;
    default:
      return i % (P + 1) < P;
    }
  }
  const int64_t shift = isSigned(dtype) ? -3 : 0;
  const int64_t allBits = (int64_t{1} << P) - 1;
  switch (op) {
  case RedOp::Sum:
    return P * (P + 1) / 2 + P * (i % 5);
  case RedOp::Prod:
    return i % 3 != 0                 ? 1
           : isSigned(dtype) && P % 2 ? -factorial(P)
                                      : factorial(P);
  case RedOp::Min:
    return i % 7 + shift;
  case RedOp::Max:
    return P - 1 + i % 7 + shift;
  case RedOp::And:
    return i % 2 == 0 ? 0x7F & ~allBits : 0x7F;
  case RedOp::Or:
    return allBits | ((i % 2) << 6);
  case RedOp::Xor:
    return allBits | (((i % 2) & (P % 2)) << 6);
  }
  return 0;
}

/// Fills a buffer for `layout`, reduces it and checks every element and the
/// untouched sentinel bytes. Returns a description of the first problem.
std::string runCase(Dtype dtype, RedOp op, const Layout &layout, bool async) {
  const int64_t P = worldSize(), p = worldRank();
  const size_t size = dtypeSize(dtype);
  constexpr std::byte kSentinel{0xA5};
  std::vector<std::byte> buffer(
      static_cast<size_t>(layout.bufferElements) * size, kSentinel);
  const std::vector<int64_t> offsets = elementOffsets(layout);
  for (size_t i = 0; i < offsets.size(); ++i)
    store(dtype, buffer.data() + offsets[i] * static_cast<int64_t>(size),
          contribution(op, dtype, p, static_cast<int64_t>(i), P));

  const MemrefView view(buffer.data(), layout.sizes, layout.strides,
                        layout.offset);
  Team world;
  if (async) {
    Request request = allreduceAsync(world, op, dtype, view);
    request.wait();
  } else {
    allreduce(world, op, dtype, view);
  }

  for (size_t i = 0; i < offsets.size(); ++i) {
    const double got =
        load(dtype, buffer.data() + offsets[i] * static_cast<int64_t>(size));
    const auto want =
        static_cast<double>(expected(op, dtype, static_cast<int64_t>(i), P));
    if (got != want)
      return fmt::format("rank {}: element {} is {}, expected {}", p, i, got,
                         want);
  }
  std::vector<bool> inView(static_cast<size_t>(layout.bufferElements), false);
  for (int64_t offset : offsets)
    inView[static_cast<size_t>(offset)] = true;
  for (size_t e = 0; e < inView.size(); ++e)
    for (size_t b = 0; !inView[e] && b < size; ++b)
      if (buffer[e * size + b] != kSentinel)
        return fmt::format("rank {}: buffer element {} outside the view was "
                           "overwritten",
                           p, e);
  return {};
}

} // namespace

TEST_CASE("allreduce computes every reduction on every type and layout",
          "[allreduce]") {
  const int P = worldSize();
  if (P > 6) {
    WARN("the bitwise closed forms need at most 6 ranks; skipped");
    return;
  }
  for (Dtype dtype : kDtypes)
    for (RedOp op : kRedOps) {
      const bool undefined = isFloat(dtype) && isBitwise(op);
      for (const Layout &layout : layouts())
        for (bool async : {false, true}) {
          INFO("rank " << worldRank() << ", " << dtypeName(dtype) << " "
                       << redOpName(op) << " on " << layout.name
                       << (async ? ", async" : ", sync"));
          if (undefined) {
            std::vector<std::byte> buffer(64);
            const MemrefView view(buffer.data(), layout.sizes, layout.strides,
                                  layout.offset);
            CHECK_THROWS_WITH(allreduce(Team(), op, dtype, view),
                              Catch::Contains("is not defined on "
                                              "floating-point type"));
            continue;
          }
          CHECK(runCase(dtype, op, layout, async) == "");
        }
    }
}

TEST_CASE("allreduce of typed spans and many elements", "[allreduce]") {
  const int64_t P = worldSize(), p = worldRank();
  Team world;
  std::vector<double> values(100000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>(p + 1) * static_cast<double>(i % 1000);
  allreduce(world, RedOp::Sum, std::span<double>(values));
  const double ranks = static_cast<double>(P * (P + 1) / 2);
  size_t wrong = 0;
  for (size_t i = 0; i < values.size(); ++i)
    wrong += values[i] != ranks * static_cast<double>(i % 1000);
  INFO("rank " << p);
  CHECK(wrong == 0);

  std::vector<int32_t> ints(7, static_cast<int32_t>(p));
  Request request = allreduceAsync(world, RedOp::Max, std::span<int32_t>(ints));
  request.wait();
  CHECK(std::all_of(ints.begin(), ints.end(),
                    [&](int32_t v) { return v == P - 1; }));
}

TEST_CASE("several async allreduces in flight complete independently",
          "[allreduce]") {
  const int64_t P = worldSize(), p = worldRank();
  Team world;
  std::vector<std::vector<int64_t>> data(5);
  std::vector<Request> requests;
  for (size_t k = 0; k < data.size(); ++k) {
    data[k].assign(3 + k, static_cast<int64_t>(k) * (p + 1));
    requests.push_back(
        allreduceAsync(world, RedOp::Sum, std::span<int64_t>(data[k])));
  }
  // Waited in reverse order of issue.
  for (size_t k = data.size(); k-- > 0;)
    requests[k].wait();
  for (size_t k = 0; k < data.size(); ++k)
    for (int64_t v : data[k]) {
      INFO("rank " << p << ", operation " << k);
      CHECK(v == static_cast<int64_t>(k) * P * (P + 1) / 2);
    }
}

TEST_CASE("the C ABI reduces a strided memref through its descriptor",
          "[allreduce][abi]") {
  const int64_t P = worldSize(), p = worldRank();
  // A 3x2 view of every other column of a 3x4 f32 array.
  struct Descriptor2D {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  };
  std::vector<float> storage(12, -1.0f);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      storage[static_cast<size_t>(i * 4 + 2 * j + 1)] =
          static_cast<float>((p + 1) * (i * 2 + j));
  Descriptor2D desc{storage.data(), storage.data(), 1, {3, 2}, {4, 2}};
  for (int32_t async : {0, 1}) {
    // The RFC allreduce as compiled code calls it: all_reduce over the
    // whole team (null groups), in place.
    const distrt_operand_t operand{2, &desc, DISTRT_F32};
    const distrt_handle_t handle =
        distrt_all_reduce(0, nullptr, DISTRT_MAX, 1, &operand, &operand, async,
                          nullptr, "AllreduceTest:abi");
    INFO("rank " << p << ", async " << async);
    CHECK((handle != 0) == (async != 0));
    if (handle)
      distrt_wait(handle, "AllreduceTest:abi");
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        const float want =
            j % 2 == 1 ? static_cast<float>(P * (i * 2 + j / 2)) : -1.0f;
        INFO("element (" << i << ", " << j << ")");
        CHECK(storage[static_cast<size_t>(i * 4 + j)] == want);
      }
  }
}

TEST_CASE("a small sync all_reduce in shared memory gives MPI's bits",
          "[allreduce]") {
  // Sync calls of up to 4 KiB in a group on one node fold every member's
  // operand in shared memory (runtime/SharedGroup.h) where that gives the
  // bits MPI gives: floating-point sums in groups of two, integers in any.
  // The async calls of the same values go through MPI: each round's two
  // results must be equal bit for bit, over many rounds of mixed sizes (the
  // limit's edge too), in groups of two and of the whole team, with a
  // strided output (the general path) and a site (the direct one).
  const int64_t P = worldSize(), p = worldRank();
  Team world;
  std::vector<std::vector<int64_t>> pairs;
  for (int64_t first = 0; first + 1 < P; first += 2)
    pairs.push_back({first, first + 1});
  if (P % 2)
    pairs.push_back({P - 1});
  // The pairs pad an odd team's last member alone (-1 as distrt.h says).
  if (P % 2)
    pairs.back().push_back(-1);
  const Groups groupings[] = {Groups::replicas(pairs), Groups::world()};
  Site site;
  uint64_t seed = 12345 + static_cast<uint64_t>(p);
  auto next = [&] {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return seed >> 11;
  };
  // MPI's own sync and async sums of floats may differ past two members.
  const bool floatsAgree[] = {true, P <= 2};
  for (int grouping = 0; grouping < 2; ++grouping)
    for (int round = 0; round < 24; ++round) {
      const Groups &groups = groupings[grouping];
      const int64_t n =
          std::array<int64_t, 6>{1, 7, 64, 512, 513, 3}[round % 6];
      const bool strided = round % 4 == 3;
      std::vector<double> in(static_cast<size_t>(n)), syncOut(2 * in.size()),
          asyncOut(in.size());
      std::vector<int32_t> ints(static_cast<size_t>(n)), intsOut(ints.size());
      for (int64_t i = 0; i < n; ++i) {
        in[static_cast<size_t>(i)] =
            static_cast<double>(next()) / 3e15 - 1000.0;
        ints[static_cast<size_t>(i)] = static_cast<int32_t>(next());
      }
      const std::vector<int64_t> sizes{n}, dense{1}, every2{2};
      const Operand inputs[] = {
          {MemrefView(in.data(), sizes, dense), Dtype::F64},
          {MemrefView(ints.data(), sizes, dense), Dtype::I32}};
      const Operand syncOuts[] = {
          {MemrefView(syncOut.data(), sizes, strided ? every2 : dense),
           Dtype::F64},
          {MemrefView(intsOut.data(), sizes, dense), Dtype::I32}};
      allReduce(world, groups, RedOp::Sum, inputs, syncOuts,
                round % 2 ? &site : nullptr);
      std::vector<int32_t> intsAsync(ints.size());
      const Operand asyncOuts[] = {
          {MemrefView(asyncOut.data(), sizes, dense), Dtype::F64},
          {MemrefView(intsAsync.data(), sizes, dense), Dtype::I32}};
      allReduceAsync(world, groups, RedOp::Sum, inputs, asyncOuts).wait();
      size_t differ = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double s = syncOut[static_cast<size_t>(i * (strided ? 2 : 1))];
        differ +=
            floatsAgree[grouping] &&
            std::memcmp(&s, &asyncOut[static_cast<size_t>(i)], sizeof s) != 0;
        differ += intsOut[static_cast<size_t>(i)] !=
                  intsAsync[static_cast<size_t>(i)];
      }
      INFO("rank " << p << ", round " << round << ", " << n << " elements"
                   << (strided ? ", strided" : ""));
      CHECK(differ == 0);
    }
}

TEST_CASE("members that disagree on a small all_reduce's size get an error",
          "[allreduce]") {
  // Through shared memory every member reads how many bytes each wrote:
  // rank 0 reduces two i32 where the others reduce one, and every member
  // says which rank disagrees instead of reducing past the operand. (On
  // MPI, DISTRT_REDUCE_SHM=0, the mismatch is an error MPI need not catch.)
  const int64_t P = worldSize(), p = worldRank();
  const char *shm = std::getenv("DISTRT_REDUCE_SHM");
  if (P < 2 || (shm && std::string(shm) == "0"))
    return;
  Team world;
  std::vector<int32_t> data(p == 0 ? 2 : 1, 1);
  const std::vector<int64_t> sizes{static_cast<int64_t>(data.size())},
      strides{1};
  const Operand operand[] = {
      {MemrefView(data.data(), sizes, strides), Dtype::I32}};
  INFO("rank " << p);
  CHECK_THROWS_WITH(
      allReduce(world, Groups::world(), RedOp::Sum, operand, operand),
      Catch::Contains("all_reduce operand") &&
          Catch::Contains(p == 0 ? "received 4 bytes from rank"
                                 : "rank 0 sent more than the 4 bytes") &&
          Catch::Contains("disagree"));
  // The group goes on: a call the members agree on.
  std::vector<int32_t> one{static_cast<int32_t>(p)};
  allreduce(world, RedOp::Sum, std::span<int32_t>(one));
  CHECK(one[0] == P * (P - 1) / 2);
}
