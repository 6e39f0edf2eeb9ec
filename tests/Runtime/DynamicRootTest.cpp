//===- DynamicRootTest.cpp - broadcast from dynamic roots -------*- C++ -*-===//
//
// collective_broadcast with a root index per operand (StableHLO's
// has_dynamic_root) over odd layouts: groups listed out of rank order, of
// different sizes, a group of one and a process in no group, every group
// with roots of its own. Operand k of group g comes from the member at
// position (k + g + shift) % size(g); one operand (MPI's own buffer), one
// strided, several with one root (one packed message) and with different
// roots (one call each), past the pack limit, in place; sync, async and
// through a Site whose roots change. Roots out of range are errors naming
// the root and the group; in checked mode members of a group that disagree
// are named. Input of process f, operand k, flat index i: 1000 f + 100 k + i.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

/// Process groups in flattened ids and where this process is in them.
struct Layout {
  std::vector<std::vector<int64_t>> groups;
  /// This process's group, -1 if in none.
  int64_t group = -1;

  explicit Layout(std::vector<std::vector<int64_t>> ids)
      : groups(std::move(ids)) {
    for (size_t g = 0; g < groups.size(); ++g)
      for (int64_t id : groups[g])
        if (id == worldRank())
          group = static_cast<int64_t>(g);
  }
  Groups spec() const {
    return Groups::replicas(groups, GroupMode::FlattenedIds);
  }
  /// The position operand k comes from in this process's group.
  int64_t root(int64_t k, int64_t shift) const {
    const auto size = static_cast<int64_t>(groups[group].size());
    return (k + group + shift) % size;
  }
};

/// Even ranks in decreasing order, then the odd ranks from 3 on: groups of
/// different sizes, rank 1 in none (np 2: [[0]]; np 4: [[2, 0], [3]]).
Layout oddGroups() {
  std::vector<int64_t> even, odd;
  for (int64_t p = worldSize() - 1; p >= 0; --p)
    if (p % 2 == 0)
      even.push_back(p);
  for (int64_t p = 3; p < worldSize(); p += 2)
    odd.push_back(p);
  std::vector<std::vector<int64_t>> groups{even};
  if (!odd.empty())
    groups.push_back(odd);
  return Layout(groups);
}

/// One group of every process, rotated: [1, 2, ..., N - 1, 0].
Layout rotated() {
  std::vector<int64_t> group;
  for (int64_t p = 0; p < worldSize(); ++p)
    group.push_back((p + 1) % worldSize());
  return Layout({group});
}

int64_t input(int64_t f, int64_t k, int64_t i) {
  return 1000 * f + 100 * k + i;
}

/// The operands of one variant: 0 one dense i32; 1 one strided f64; 2 three
/// (i32, strided i16, f64) with one root; 3 the same with a root each; 4
/// three past the pack limit (2 KiB) with a root each.
void makeOperands(int variant, std::vector<Array> &ins,
                  std::vector<Array> &outs) {
  auto add = [&](Dtype dtype, std::vector<int64_t> shape, bool strided) {
    ins.emplace_back(dtype, shape, strided);
    outs.emplace_back(dtype, shape, strided && variant == 1);
  };
  const int64_t n = variant == 4 ? 90 : 3;
  if (variant != 1)
    add(Dtype::I32, {n, 2}, false);
  if (variant != 0)
    add(Dtype::F64, {2, n}, true);
  if (variant >= 2) {
    add(Dtype::I16, {n, 3}, true);
    add(Dtype::F64, {n}, false);
  }
}

/// Runs the broadcast of `variant` over `layout`, roots shifted by `shift`,
/// and checks the outputs against the closed form.
void checkVariant(const Layout &layout, int variant, int64_t shift, bool async,
                  Site *site = nullptr) {
  const int64_t f = worldRank();
  std::vector<Array> ins, outs;
  makeOperands(variant, ins, outs);
  std::vector<Operand> inOps, outOps;
  std::vector<int64_t> roots;
  for (size_t k = 0; k < ins.size(); ++k) {
    const auto kk = static_cast<int64_t>(k);
    ins[k].fill([&](int64_t i) { return input(f, kk, i); });
    outs[k].fill([](int64_t) { return -1; });
    inOps.push_back(ins[k].operand());
    outOps.push_back(outs[k].operand());
    // Variant 2 gives every operand the root of operand 0.
    if (layout.group >= 0)
      roots.push_back(layout.root(variant == 2 ? 0 : kk, shift));
    else
      roots.push_back(static_cast<int64_t>(k % 2)); // ignored
  }
  const Groups groups = layout.spec();
  if (async)
    collectiveBroadcastAsync(world(), groups, roots, inOps, outOps, site)
        .wait();
  else
    collectiveBroadcast(world(), groups, roots, inOps, outOps, site);
  for (size_t k = 0; k < ins.size(); ++k) {
    const int64_t from =
        layout.group < 0
            ? -1
            : layout.groups[layout.group][static_cast<size_t>(roots[k])];
    for (int64_t i = 0; i < outs[k].count(); ++i) {
      INFO("rank " << f << " variant " << variant << " shift " << shift
                   << " async " << async << " operand " << k << " index " << i
                   << " source " << from);
      const int64_t want =
          from < 0 ? 0 : input(from, static_cast<int64_t>(k), i);
      CHECK(outs[k].get(i) == static_cast<double>(want));
    }
    CHECK(outs[k].touchedPadding() == 0);
  }
}

} // namespace

TEST_CASE("collective_broadcast with dynamic roots: odd groups, a root per "
          "group and operand",
          "[collectives]") {
  for (const Layout &layout : {oddGroups(), rotated()})
    for (int64_t shift = 0; shift < 3; ++shift)
      for (int async = 0; async < 2; ++async)
        for (int variant = 0; variant < 5; ++variant)
          checkVariant(layout, variant, shift, async != 0);
}

TEST_CASE("collective_broadcast with dynamic roots: a site replans when the "
          "roots change",
          "[collectives]") {
  const Layout layout = rotated();
  for (int variant : {0, 3}) {
    Site site;
    for (int64_t round = 0; round < 6; ++round)
      checkVariant(layout, variant, round % 4, round % 3 == 2, &site);
  }
}

TEST_CASE("collective_broadcast with dynamic roots: in place, and the "
          "interpreter's has_dynamic_root cases",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  // In place: every member's buffer becomes the last member's.
  Array data(Dtype::I64, {5});
  data.fill([&](int64_t i) { return input(f, 0, i); });
  const int64_t last[] = {N - 1};
  collectiveBroadcast(world(), Groups::world(), last, {{data.operand()}},
                      {{data.operand()}});
  for (int64_t i = 0; i < 5; ++i)
    CHECK(data.get(i) == static_cast<double>(input(N - 1, 0, i)));
  if (N != 2)
    return;
  // stablehlo/tests/interpret/collective_broadcast.mlir, has_dynamic_root:
  // groups [[0, 1]], root [1]; both get process 1's [[3, 4]].
  const std::vector<int64_t> operand = {f == 0 ? 1 : 3, f == 0 ? 2 : 4};
  Array x(Dtype::I64, {1, 2}), r(Dtype::I64, {1, 2});
  x.fill([&](int64_t i) { return operand[static_cast<size_t>(i)]; });
  const Groups pair = Groups::replicas({{0, 1}});
  const int64_t one[] = {1};
  collectiveBroadcast(world(), pair, one, {{x.operand()}}, {{r.operand()}});
  CHECK(r.get(0) == 3);
  CHECK(r.get(1) == 4);
  // has_dynamic_root_variadic: roots [0, 1]; data0 from process 0 ([[1, 2]]),
  // data1 from process 1 ([[7, 8]]).
  Array d0(Dtype::I64, {1, 2}), d1(Dtype::I64, {1, 2});
  Array r0(Dtype::I64, {1, 2}), r1(Dtype::I64, {1, 2});
  d0.fill([&](int64_t i) { return f == 0 ? 1 + i : 3 + i; });
  d1.fill([&](int64_t i) { return f == 0 ? 5 + i : 7 + i; });
  const int64_t roots[] = {0, 1};
  collectiveBroadcastAsync(world(), pair, roots, {{d0.operand(), d1.operand()}},
                           {{r0.operand(), r1.operand()}})
      .wait();
  CHECK(r0.get(0) == 1);
  CHECK(r0.get(1) == 2);
  CHECK(r1.get(0) == 7);
  CHECK(r1.get(1) == 8);
}

TEST_CASE("collective_broadcast with dynamic roots: a root out of range is "
          "an error naming the root and the group",
          "[collectives]") {
  // Every member passes the same bad roots, so all fail before MPI; a
  // process in no group ignores them.
  const Layout layout = oddGroups();
  const Groups groups = layout.spec();
  Array in(Dtype::F32, {4}), out(Dtype::F32, {4});
  const Operand ins[] = {in.operand()}, outs[] = {out.operand()};
  const int64_t size =
      layout.group < 0
          ? 0
          : static_cast<int64_t>(layout.groups[layout.group].size());
  const int64_t past[] = {size}, negative[] = {-2}, two[] = {0, 0};
  auto call = [&](std::span<const int64_t> roots) {
    collectiveBroadcast(world(), groups, roots, ins, outs);
  };
  if (layout.group < 0) {
    CHECK_NOTHROW(call(past));
    CHECK_NOTHROW(call(negative));
  } else {
    std::string members;
    for (int64_t id : layout.groups[layout.group])
      members += fmt::format("{}{}", members.empty() ? "" : ", ", id);
    CHECK_THROWS_WITH(
        call(past),
        Contains("collective_broadcast at ") &&
            Contains(fmt::format("team 0, rank {}: root index {} of input #0 "
                                 "is out of range [0, {}): its process group "
                                 "(team ranks {}) has {} members",
                                 worldRank(), size, size, members, size)));
    CHECK_THROWS_WITH(call(negative),
                      Contains("root index -2 of input #0 is out of range"));
  }
  // One root per input, on every process.
  CHECK_THROWS_WITH(call(two), Contains("the roots table has 2 entries but "
                                        "the op has 1 inputs"));
  // Then good roots work again.
  const int64_t zero[] = {0};
  CHECK_NOTHROW(call(zero));
}

TEST_CASE("checked mode: members of a group that disagree on the roots are "
          "named; groups may differ",
          "[check]") {
  const CheckedScope checked;
  const int64_t N = worldSize(), f = worldRank();
  // Pairs (0, 1), (2, 3); a last odd rank alone.
  std::vector<std::vector<int64_t>> ids;
  for (int64_t p = 0; p < N; p += 2)
    ids.push_back(p + 1 < N ? std::vector<int64_t>{p, p + 1}
                            : std::vector<int64_t>{p});
  const Layout layout(ids);
  const Groups groups = layout.spec();
  const int64_t position = f % 2;
  Array in(Dtype::I32, {3}), out(Dtype::I32, {3});
  in.fill([&](int64_t i) { return input(f, 0, i); });
  const Operand ins[] = {in.operand()}, outs[] = {out.operand()};
  // Groups with roots of their own: the pair (2, 3) from its second member.
  const bool second = layout.group == 1 && ids[1].size() == 2;
  const int64_t own[] = {second ? 1 : 0};
  collectiveBroadcast(world(), groups, own, ins, outs);
  const int64_t source =
      ids[static_cast<size_t>(layout.group)][static_cast<size_t>(own[0])];
  CHECK(out.get(2) == static_cast<double>(input(source, 0, 2)));
  // Each member of the first pair names itself the root: they disagree;
  // the other groups agree and broadcast.
  const int64_t mine[] = {layout.group == 0 ? position : 0};
  auto call = [&] { collectiveBroadcast(world(), groups, mine, ins, outs); };
  if (N == 1 || layout.group != 0) {
    CHECK_NOTHROW(call());
  } else {
    CHECK_THROWS_WITH(
        call(), Contains(fmt::format("team 0, rank {}: roots [{}] here, [{}] "
                                     "on rank {} of this process group",
                                     f, position, 1 - position, 1 - f)));
  }
}
