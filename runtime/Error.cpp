//===- Error.cpp - Error reporting ------------------------------*- C++ -*-===//

#include "Error.h"
#include "Environment.h"
#include "Team.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <thread>

namespace distrt {

std::string SourceLoc::str() const {
  if (text_)
    return text_;
  if (file_)
    return fmt::format("{}:{}", file_, line_);
  return "<unknown location>";
}

static std::string formatWhat(const std::string &op, const std::string &loc,
                              int64_t team, int rank,
                              const std::string &message) {
  // Checks outside any team (of generated code, of the API) name the rank.
  std::string teamText = team == kNoTeam ? "" : fmt::format("team {}, ", team);
  std::string rankText = rank < 0 ? "?" : std::to_string(rank);
  return fmt::format("{} at {}: {}rank {}: {}", op, loc, teamText, rankText,
                     message);
}

Error::Error(std::string op, std::string loc, int64_t team, int rank,
             std::string message, int code)
    : std::runtime_error(formatWhat(op, loc, team, rank, message)),
      op_(std::move(op)), loc_(std::move(loc)), team_(team), rank_(rank),
      message_(std::move(message)), code_(code) {}

namespace detail {

std::string mpiErrorString(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return fmt::format("MPI error code {}", code);
  // One line per rank: MPICH appends its error stack on further lines.
  std::string message(text, static_cast<size_t>(length));
  message = message.substr(0, message.find('\n'));
  const std::string stack = ", error stack:";
  if (message.size() >= stack.size() &&
      message.compare(message.size() - stack.size(), stack.size(), stack) == 0)
    message.resize(message.size() - stack.size());
  return message;
}

void raiseMpi(int code, const char *call) {
  throw Failure(fmt::format("{} failed: {}", call, mpiErrorString(code)), code);
}

int callerRank(int64_t team) noexcept {
  if (!mpiActive()) {
    // MPI is not (or no longer) running, e.g. a check failed before the
    // program's first communication: the launcher still knows the rank.
    for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
      if (const char *value = std::getenv(name))
        return std::atoi(value);
    return -1;
  }
  if (const TeamState *state = findTeam(team))
    return state->rank;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

Error currentError(const char *op, int64_t team, const SourceLoc &loc) {
  try {
    throw;
  } catch (const Error &error) {
    return error;
  } catch (const Failure &failure) {
    return Error(op, loc.str(), team, callerRank(team), failure.message(),
                 failure.code());
  } catch (const std::bad_alloc &) {
    return Error(op, loc.str(), team, callerRank(team), "out of memory");
  } catch (const std::exception &error) {
    return Error(op, loc.str(), team, callerRank(team), error.what());
  } catch (...) {
    return Error(op, loc.str(), team, callerRank(team), "unknown exception");
  }
}

void fail(const Error &error) noexcept {
  std::fprintf(stderr, "distrt: error: %s\n", error.what());
  exitFailing();
}

void exitFailing() noexcept {
  std::fflush(nullptr);
  if (mpiActive()) {
    // Usually every rank fails on the same call: give the others a moment
    // to print their own line before the job goes down, staggered by rank
    // so that one rank ends it while the others still wait. A rank that
    // exits non-zero without finalizing makes the launcher abort the job;
    // MPI_Abort would too, but Open MPI 4.1's mpirun then often prints
    // ORTE_ERROR_LOG noise from its help-message relay.
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::this_thread::sleep_for(
        std::chrono::milliseconds(300 + 500 * std::min(rank, 8)));
  }
  std::_Exit(1);
}

void failCurrent(const char *op, int64_t team, const char *loc) noexcept {
  try {
    fail(currentError(op, team, SourceLoc(loc)));
  } catch (...) {
    // Building the error itself failed (out of memory): still say something.
    std::fprintf(stderr, "distrt: error: %s: team %lld: unreportable error\n",
                 op, static_cast<long long>(team));
    std::_Exit(1);
  }
}

} // namespace detail
} // namespace distrt
