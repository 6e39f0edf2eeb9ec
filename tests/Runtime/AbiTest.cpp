//===- AbiTest.cpp - The lowering's runtime table matches distrt.h --------===//
//
// lowering/RuntimeAPI/RuntimeAPI.cpp declares the runtime functions from
// RuntimeFunctions.def. Here each entry's type codes are compared with the
// prototype in distrt.h, and taking each function's address links it against
// the built library: a drift between the three fails this test.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.h"

#include <cstdio>
#include <string>
#include <type_traits>

namespace {

template <typename T> char code() {
  if constexpr (std::is_same_v<T, int64_t>)
    return 'l';
  else if constexpr (std::is_same_v<T, int32_t>)
    return 'i';
  else if constexpr (std::is_pointer_v<T>)
    return 'p';
  else if constexpr (std::is_void_v<T>)
    return 'v';
  else
    return '?';
}

template <typename R, typename... A> std::string codesOf(R (*)(A...)) {
  return std::string(1, code<R>()) + ":" + std::string{code<A>()...};
}

/// Expands the table's compound codes into C parameters: `m` (unranked
/// memref) is (rank, descriptor), `g` a groups pointer, `t` a table
/// pointer, `s` a site pointer, `o` (n, operands), `O` (n, inputs, outputs).
std::string expand(const char *result, const char *arguments) {
  std::string codes = std::string(result) + ":";
  for (const char *c = arguments; *c; ++c) {
    switch (*c) {
    case 'm':
    case 'o':
      codes += "lp";
      break;
    case 'g':
    case 't':
    case 's':
      codes += "p";
      break;
    case 'O':
      codes += "lpp";
      break;
    default:
      codes += *c;
    }
  }
  return codes;
}

} // namespace

int main() {
  int failures = 0, checked = 0;
#define DISTRT_FUNCTION(Enum, symbol, result, arguments)                       \
  {                                                                            \
    ++checked;                                                                 \
    std::string header = codesOf(&symbol);                                     \
    std::string table = expand(result, arguments);                             \
    if (header != table || &symbol == nullptr) {                               \
      std::printf("FAIL %s: distrt.h has %s, RuntimeFunctions.def %s\n",       \
                  #symbol, header.c_str(), table.c_str());                     \
      ++failures;                                                              \
    }                                                                          \
  }
#include "distruntime/Runtime/RuntimeFunctions.def"
  std::printf("%d passed, %d failed\n", checked - failures, failures);
  return failures == 0 && checked > 0 ? 0 : 1;
}
