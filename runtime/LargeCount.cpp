//===- LargeCount.cpp - Messages past MPI's int count -----------*- C++ -*-===//

#include "LargeCount.h"
#include "Environment.h"
#include "Error.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace distrt::detail {

namespace {

/// The chunk of a wide type (capped by gMaxCount, so that the test knob
/// exercises every part of it).
constexpr size_t kChunk = size_t{1} << 20;

/// Leaked on purpose, like the other runtime tables: it must outlive the
/// atexit hook that tears the runtime down.
std::unordered_map<size_t, MPI_Datatype> &gWideTypes =
    *new std::unordered_map<size_t, MPI_Datatype>;

} // namespace

/// Reads DISTRT_TEST_MAX_COUNT (once, at initialization); throws Failure
/// for a value that is not a count in [1, INT_MAX].
static void configureLargeCounts() {
  static bool configured = false;
  if (configured)
    return;
  configured = true;
  const char *value = std::getenv("DISTRT_TEST_MAX_COUNT");
  if (!value || !*value)
    return;
  char *end = nullptr;
  const long long count = std::strtoll(value, &end, 10);
  if (*end || count < 1 || count > INT_MAX)
    raise("DISTRT_TEST_MAX_COUNT={} in the environment: expected a count in "
          "[1, {}] (a test-only limit on the counts of MPI calls)",
          value, INT_MAX);
  gMaxCount = static_cast<int>(count);
}

/// Builds the committed type of `bytes` bytes.
static MPI_Datatype makeWideType(size_t bytes) {
  const size_t chunk = std::min(kChunk, static_cast<size_t>(gMaxCount));
  const size_t chunks = bytes / chunk, rest = bytes % chunk;
  // Past 2^51 bytes (1 MiB chunks): no memory holds such a message.
  if (chunks > static_cast<size_t>(INT_MAX))
    raise("a message of {} bytes is too long even for MPI datatypes of {} "
          "byte chunks",
          bytes, chunk);
  MPI_Datatype chunkType = MPI_DATATYPE_NULL, body = MPI_DATATYPE_NULL,
               whole = MPI_DATATYPE_NULL;
  checkMpi(MPI_Type_contiguous(static_cast<int>(chunk), MPI_BYTE, &chunkType),
           "MPI_Type_contiguous");
  int code = MPI_Type_contiguous(static_cast<int>(chunks), chunkType, &body);
  MPI_Type_free(&chunkType);
  checkMpi(code, "MPI_Type_contiguous");
  if (rest == 0) {
    whole = body;
  } else {
    // The chunks, then the rest; resized so that the extent is exactly
    // `bytes` whatever alignment padding MPI would give a struct.
    int lengths[] = {1, static_cast<int>(rest)};
    MPI_Aint displacements[] = {0, static_cast<MPI_Aint>(chunks * chunk)};
    MPI_Datatype types[] = {body, MPI_BYTE};
    MPI_Datatype joined = MPI_DATATYPE_NULL;
    code = MPI_Type_create_struct(2, lengths, displacements, types, &joined);
    MPI_Type_free(&body);
    checkMpi(code, "MPI_Type_create_struct");
    code = MPI_Type_create_resized(joined, 0, static_cast<MPI_Aint>(bytes),
                                   &whole);
    MPI_Type_free(&joined);
    checkMpi(code, "MPI_Type_create_resized");
  }
  code = MPI_Type_commit(&whole);
  if (code != MPI_SUCCESS) {
    MPI_Type_free(&whole);
    raiseMpi(code, "MPI_Type_commit");
  }
  return whole;
}

MPI_Datatype wideBytesType(size_t bytes) {
  if (const auto found = gWideTypes.find(bytes); found != gWideTypes.end())
    return found->second;
  MPI_Datatype type = makeWideType(bytes);
  gWideTypes.emplace(bytes, type);
  return type;
}

/// Frees the wide types (at teardown, with the runtime's other MPI state).
static void freeWideTypes() noexcept {
  for (auto &[bytes, type] : gWideTypes)
    MPI_Type_free(&type);
  gWideTypes.clear();
}

[[maybe_unused]] static const bool kHooked = addRuntimeHooks(
    RuntimeStage::kLargeCounts,
    {.initialize = configureLargeCounts, .release = freeWideTypes});

} // namespace distrt::detail
