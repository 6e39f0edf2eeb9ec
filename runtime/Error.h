//===- Error.h - Errors inside the runtime ----------------------*- C++ -*-===//
//
// Code below the API layer throws Failure (message and MPI code only); the API
// layer knows the op, location and team and turns it into distrt::Error. The C
// ABI turns any exception into fail(): one line on stderr, then the job ends.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_ERROR_H
#define DISTRUNTIME_RUNTIME_ERROR_H

#include "distruntime/Runtime/distrt.hpp"

#include <fmt/format.h>

#include <exception>
#include <string>
#include <utility>

namespace distrt::detail {

/// An error without its call context yet.
class Failure : public std::exception {
public:
  explicit Failure(std::string message, int code = MPI_SUCCESS)
      : message_(std::move(message)), code_(code) {}
  const char *what() const noexcept override { return message_.c_str(); }
  const std::string &message() const noexcept { return message_; }
  int code() const noexcept { return code_; }

private:
  std::string message_;
  int code_;
};

/// Cold and out of line: error formatting stays off the callers' hot paths.
template <class... Args>
[[noreturn, gnu::cold, gnu::noinline]] void
raise(fmt::format_string<Args...> format, Args &&...args) {
  throw Failure(fmt::format(format, std::forward<Args>(args)...));
}

/// MPI's own description of an error code.
std::string mpiErrorString(int code);

[[noreturn]] void raiseMpi(int code, const char *call);

/// Throws a Failure naming `call` and MPI's message unless `code` is success.
inline void checkMpi(int code, const char *call) {
  if (code != MPI_SUCCESS) [[unlikely]]
    raiseMpi(code, call);
}

/// The caller's rank in `team`, else its world rank, else -1.
int callerRank(int64_t team) noexcept;

/// Builds the Error for the exception being handled (call only in a catch).
Error currentError(const char *op, int64_t team, const SourceLoc &loc);

/// Runs `body`, turning any exception other than Error into an Error that
/// names `op`, `loc` and `team`.
template <class Body>
decltype(auto) guarded(const char *op, int64_t team, const SourceLoc &loc,
                       Body &&body) {
  try {
    return body();
  } catch (...) {
    throw currentError(op, team, loc);
  }
}

/// Prints "distrt: error: <what>" to stderr and aborts the job.
[[noreturn]] void fail(const Error &error) noexcept;

/// Ends the job after this process printed its error: exits 1 without
/// finalizing MPI, once the other ranks have had a moment to print theirs.
[[noreturn]] void exitFailing() noexcept;

/// fail() for the exception being handled (call only in a catch).
[[noreturn]] void failCurrent(const char *op, int64_t team,
                              const char *loc) noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_ERROR_H
