//===- Params.cpp - An op's scalars and constant tables -------------------===//

#include "Params.h"
#include "Error.h"

#include <string>

namespace distrt::detail {

void checkTables(const Params &p, ParamNames names) {
  const std::span<const distrt_table_t *const> tables = p.tables();
  for (size_t k = 0; k < tables.size(); ++k) {
    const distrt_table_t *t = tables[k];
    if (tableReadable(t)) [[likely]]
      continue;
    const size_t at = p.scalars().size() + k;
    const std::string name = at < names.size() ? std::string(names[at])
                                               : "table #" + std::to_string(k);
    if (!t)
      raise("the {} table pointer is null", name);
    raise("the {} table is invalid (size {}, values {})", name, t->size,
          t->values ? "set" : "null");
  }
}

void appendParamWords(const Params &p, std::vector<int64_t> &words) {
  words.insert(words.end(), p.scalars().begin(), p.scalars().end());
  for (const distrt_table_t *t : p.tables()) {
    words.push_back(t->size);
    words.insert(words.end(), t->values, t->values + t->size);
  }
}

} // namespace distrt::detail
