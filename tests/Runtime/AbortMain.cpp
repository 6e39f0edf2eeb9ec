//===- AbortMain.cpp - The C ABI reports an error and aborts ----*- C++ -*-===//
//
// Each mode makes one bad call; the test passes when its one error line
// appears (the job is expected to abort).
//   (none)       the RFC allreduce on an unregistered team
//   static-null  a static site's valid all_gather, then the same site with
//                a null input array (the site's match must not read it)
//   null-pairs   a send whose source_target_pairs pointer is null
//   static-broken  (run with DISTRT_CHECK=1) a static site's call whose
//                output shape changed at the same address
//   static-broken-proven  (run with DISTRT_CHECK=all) the same at a site
//                also marked DISTRT_SITE_PROVEN, which DISTRT_CHECK=1 would
//                not check
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.h"

#include <cstdio>
#include <cstring>

namespace {

struct Desc1 {
  double *allocated, *aligned;
  long long offset, sizes[1], strides[1];
};

void staticNull() {
  double in = 1.0, out[64] = {};
  const long long size = distrt_team_size(0, "abort.mlir:1:1");
  Desc1 inDesc{&in, &in, 0, {1}, {1}}, outDesc{out, out, 0, {size}, {1}};
  const distrt_operand_t i{1, &inDesc, DISTRT_F64}, o{1, &outDesc, DISTRT_F64};
  const distrt_groups_t world{DISTRT_FLATTENED_IDS, -1, -1, 0, 0, nullptr};
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  distrt_all_gather(0, &world, 0, 1, &i, &o, 0, &site, "abort.mlir:4:5");
  distrt_all_gather(0, &world, 0, 1, nullptr, &o, 0, &site, "abort.mlir:4:5");
  std::puts("distrt_all_gather returned instead of aborting");
}

void staticBroken(unsigned long long flags) {
  double in[2] = {1.0, 2.0}, out[256] = {};
  const long long size = distrt_team_size(0, "abort.mlir:1:1");
  Desc1 inDesc{in, in, 0, {1}, {1}}, outDesc{out, out, 0, {size}, {1}};
  const distrt_operand_t i{1, &inDesc, DISTRT_F64}, o{1, &outDesc, DISTRT_F64};
  const distrt_groups_t world{DISTRT_FLATTENED_IDS, -1, -1, 0, 0, nullptr};
  distrt_site_t site{flags, nullptr, nullptr};
  distrt_all_gather(0, &world, 0, 1, &i, &o, 0, &site, "abort.mlir:8:9");
  inDesc.sizes[0] = 2; // same buffers, another shape: not static
  outDesc.sizes[0] = 2 * size;
  distrt_all_gather(0, &world, 0, 1, &i, &o, 0, &site, "abort.mlir:8:9");
  std::puts("distrt_all_gather returned instead of aborting");
}

void nullPairs() {
  double in = 1.0;
  Desc1 desc{&in, &in, 0, {1}, {1}};
  const distrt_operand_t i{1, &desc, DISTRT_F64};
  distrt_send(0, nullptr, 1, 0, 1, &i, 0, nullptr, "abort.mlir:6:7");
  std::puts("distrt_send returned instead of aborting");
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "static-broken") == 0) {
    staticBroken(DISTRT_SITE_STATIC);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "static-broken-proven") == 0) {
    staticBroken(DISTRT_SITE_STATIC | DISTRT_SITE_PROVEN);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "null-pairs") == 0) {
    nullPairs();
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "static-null") == 0) {
    staticNull();
    return 0;
  }
  double value = 1.0;
  Desc1 desc{&value, &value, 0, {1}, {1}};
  const distrt_operand_t operand{1, &desc, DISTRT_F64};
  distrt_all_reduce(7, nullptr, DISTRT_SUM, 1, &operand, &operand, 0, nullptr,
                    "abort.mlir:3:5");
  std::puts("the allreduce returned instead of aborting");
  return 0;
}
