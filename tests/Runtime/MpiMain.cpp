//===- MpiMain.cpp - Catch2 main for multi-rank tests -----------*- C++ -*-===//
//
// Every rank runs the whole session (test cases in declaration order, so the
// collectives line up). A listener prints each failed assertion with the
// rank; the failure count is summed so every rank exits non-zero if any rank
// failed.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstdio>

namespace {

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

class RankListener : public Catch::TestEventListenerBase {
public:
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo &info) override {
    testCase_ = info.name;
  }

  bool assertionEnded(const Catch::AssertionStats &stats) override {
    const Catch::AssertionResult &result = stats.assertionResult;
    if (!result.isOk()) {
      std::string messages;
      for (const Catch::MessageInfo &info : stats.infoMessages)
        messages += " [" + info.message + "]";
      std::fprintf(stderr, "rank %d: FAILED in \"%s\" at %s:%zu: %s%s%s\n",
                   worldRank(), testCase_.c_str(), result.getSourceInfo().file,
                   result.getSourceInfo().line, result.getExpression().c_str(),
                   result.hasExpandedExpression()
                       ? (" with " + result.getExpandedExpression()).c_str()
                       : "",
                   messages.c_str());
    }
    return true;
  }

private:
  std::string testCase_;
};

} // namespace

CATCH_REGISTER_LISTENER(RankListener)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int failed = 0;
  {
    Catch::Session session;
    // Interleaved output of several ranks: keep the console to failures.
    session.configData().showSuccessfulTests = false;
    const int status = session.applyCommandLine(argc, argv);
    failed = status != 0 ? 1 : session.run();
  }
  int total = 0;
  MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (total && worldRank() == 0)
    std::fprintf(stderr, "%d failed test case(s) summed over all ranks\n",
                 total);
  // Free the runtime's communicators before MPI goes away.
  distrt_finalize();
  MPI_Finalize();
  return total ? 1 : 0;
}
