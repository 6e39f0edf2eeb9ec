//===- Check.cpp - Checked mode: the ranks agree before each call ---------===//

#include "Check.h"
#include "Dtype.h"
#include "Error.h"
#include "ProcessGroups.h"
#include "Reduce.h"
#include "Reproducible.h"
#include "Request.h"
#include "Team.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace distrt::detail {

namespace {

/// A field's name: a property, of an operand when `operand` is set (its
/// index shown when the op has several).
struct Name {
  const char *prop;
  const char *operand = nullptr;
  int64_t index = 0, count = 1;
};

// Every field goes to one of two sinks, so that the hash the ranks compare
// and the text they report on a difference cover the same fields.

/// Hashes the fields: a multiply-xorshift over 64-bit words.
struct Hasher {
  uint64_t h = 0x9e3779b97f4a7c15;

  void word(uint64_t w) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9;
    h ^= h >> 31;
  }
  void str(Name, std::string_view v) {
    size_t i = 0;
    for (; i + 8 <= v.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, v.data() + i, 8);
      word(w);
    }
    uint64_t tail = 0;
    std::memcpy(&tail, v.data() + i, v.size() - i);
    word(tail ^ (v.size() << 56));
  }
  void num(Name, int64_t v) { word(static_cast<uint64_t>(v)); }
  void reduction(Name n, int64_t v) { num(n, v); }
  void reproducibility(Name n, int64_t v) { num(n, v); }
  void dtype(Name n, int64_t v) { num(n, v); }
  void dims(Name, const int64_t *d, int64_t rank) {
    word(static_cast<uint64_t>(rank));
    for (int64_t i = 0; i < rank; ++i)
      word(static_cast<uint64_t>(d[i]));
  }
  // Not hashed: MPI matches calls by what they do, not by where they are
  // written (one all_reduce at two sites, one per side of a branch, is
  // correct). The text still names both sites when something else differs.
  void loc(const SourceLoc &) {}
  void groups(Name, const distrt_groups_t *g) {
    if (!g) {
      word(~uint64_t{0});
      return;
    }
    for (int64_t w : {int64_t{g->mode}, g->num_replicas, g->num_partitions,
                      g->num_groups, g->group_size})
      word(static_cast<uint64_t>(w));
    for (int64_t i = 0; i < g->num_groups * g->group_size; ++i)
      word(static_cast<uint64_t>(g->ids[i]));
  }
  void table(Name, const distrt_table_t &t) {
    word(static_cast<uint64_t>(t.size));
    for (int64_t i = 0; i < t.size; ++i)
      word(static_cast<uint64_t>(t.values[i]));
  }
};

/// Describes the fields as (name, value) text.
struct Describer {
  std::vector<std::pair<std::string, std::string>> fields;

  static std::string nameOf(Name n) {
    if (!n.operand)
      return n.prop;
    if (n.count == 1)
      return std::strcmp(n.operand, "input") == 0
                 ? std::string(n.prop)
                 : fmt::format("{} {}", n.operand, n.prop);
    return fmt::format("{} of {} {}", n.prop, n.operand, n.index);
  }
  void add(Name n, std::string value) {
    fields.emplace_back(nameOf(n), std::move(value));
  }
  void str(Name n, std::string_view v) { add(n, std::string(v)); }
  void num(Name n, int64_t v) { add(n, std::to_string(v)); }
  void reduction(Name n, int64_t v) {
    add(n, v >= 0 && v < DISTRT_NUM_REDOPS
               ? std::string(redopName(static_cast<int32_t>(v)))
               : std::to_string(v));
  }
  void reproducibility(Name n, int64_t v) {
    add(n, v >= DISTRT_REPRO_MPI && v <= DISTRT_REPRO_EXACT
               ? std::string(reproName(static_cast<Repro>(v)))
               : std::to_string(v));
  }
  void dtype(Name n, int64_t v) {
    add(n, v >= 0 && v < DISTRT_NUM_DTYPES
               ? std::string(dtypeInfo(static_cast<int32_t>(v)).name)
               : std::to_string(v));
  }
  void dims(Name n, const int64_t *d, int64_t rank) {
    std::string text = rank ? "" : "scalar";
    for (int64_t i = 0; i < rank; ++i)
      text += fmt::format("{}{}", i ? "x" : "", d[i]);
    add(n, text);
  }
  void loc(const SourceLoc &l) { add({"location"}, l.str()); }
  void groups(Name n, const distrt_groups_t *g) {
    if (!g) {
      add(n, "one group of the whole team");
      return;
    }
    static const char *modes[] = {"cross_replica", "cross_partition",
                                  "cross_replica_and_partition",
                                  "flattened_ids"};
    std::string text = "[";
    for (int64_t i = 0; i < g->num_groups; ++i) {
      text += i ? ", [" : "[";
      for (int64_t j = 0; j < g->group_size; ++j)
        text +=
            fmt::format("{}{}", j ? ", " : "", g->ids[i * g->group_size + j]);
      text += "]";
    }
    text += fmt::format("] ({}", g->mode >= 0 && g->mode < 4
                                     ? modes[g->mode]
                                     : std::to_string(g->mode));
    if (g->num_replicas > 0)
      text += fmt::format(", grid {}x{}", g->num_replicas, g->num_partitions);
    add(n, text + ")");
  }
  void table(Name n, const distrt_table_t &t) {
    std::string text = "[";
    for (int64_t i = 0; i < t.size; ++i)
      text += fmt::format("{}{}", i ? ", " : "", t.values[i]);
    add(n, text + "]");
  }
};

/// An operand's rank, element type and sizes, if its descriptor is
/// readable; planning reports those that are not.
struct OperandInfo {
  int64_t rank, dtype;
  const int64_t *sizes;
};
constexpr int64_t kMaxRank = 64;

} // namespace

static bool operandInfo(const OperandList &list, int64_t k, OperandInfo &info) {
  if (list.isC()) {
    const distrt_operand_t *array = list.array();
    if (!array || !array[k].desc)
      return false;
    info = {array[k].rank, array[k].dtype,
            static_cast<const int64_t *>(array[k].desc) + 3};
  } else {
    const Operand &operand = list.views()[k];
    info = {operand.view.rank, static_cast<int64_t>(operand.dtype),
            operand.view.sizes};
    if (info.rank > 0 && !info.sizes)
      return false;
  }
  return info.rank >= 0 && info.rank <= kMaxRank;
}

/// The groups' ids can be read (planning reports those that cannot).
static bool groupsReadable(const distrt_groups_t *g) {
  if (!g)
    return true;
  constexpr int64_t kMaxIds = int64_t{1} << 24;
  return g->num_groups >= 0 && g->group_size >= 0 &&
         (g->num_groups == 0 || g->group_size <= kMaxIds / g->num_groups) &&
         (g->ids || g->num_groups * g->group_size == 0);
}

template <class Sink>
static bool visitOperands(const char *what, const OperandList &list, Sink &s,
                          bool shapes = true) {
  const int64_t n = list.size();
  if (n < 0)
    return true; // the op has none
  s.num({what == std::string_view("input") ? "inputs" : "results"}, n);
  for (int64_t k = 0; k < n; ++k) {
    OperandInfo info{};
    if (!operandInfo(list, k, info))
      return false;
    s.dtype({"element type", what, k, n}, info.dtype);
    if (shapes)
      s.dims({"shape", what, k, n}, info.sizes, info.rank);
    else
      s.num({"rank", what, k, n}, info.rank);
  }
  return true;
}

/// Visits the call's scalars, then its tables, named by `names` (a
/// generic name past them), of the last `groupTables` only the size; false
/// if a table cannot be read.
template <class Sink>
static bool visitParams(const Params &p, ParamNames names, size_t groupTables,
                        Sink &s) {
  size_t at = 0;
  std::string unnamed;
  auto nameOf = [&](const char *kind, size_t k) -> const char * {
    if (at < names.size() && names[at])
      return names[at++];
    ++at;
    unnamed = fmt::format("{} #{}", kind, k);
    return unnamed.c_str();
  };
  for (size_t i = 0; i < p.scalars().size(); ++i) {
    const char *name = nameOf("scalar", i);
    if (std::string_view(name) == "reduction")
      s.reduction({name}, p.scalar(i));
    else if (std::string_view(name) == "reproducibility")
      s.reproducibility({name}, p.scalar(i));
    else
      s.num({name}, p.scalar(i));
  }
  const size_t tables = p.tables().size();
  for (size_t k = 0; k < tables; ++k) {
    const char *name = nameOf("table", k);
    if (!tableReadable(p.table(k)))
      return false;
    if (k + groupTables < tables) {
      s.table({name}, *p.table(k));
      continue;
    }
    const std::string size = fmt::format("number of {}", name);
    s.num({size.c_str()}, p.table(k)->size);
  }
  return true;
}

/// Visits a collective call's fields; false if some cannot be read.
template <class Sink>
static bool visitCall(const Call &c, ParamNames params, size_t groupTables,
                      const char *groupsName, bool shapesAgree, Sink &s) {
  s.str({"op"}, c.op);
  if (!groupsReadable(c.groups))
    return false;
  s.groups({groupsName}, c.groups);
  if (!visitOperands("input", c.inputs, s, shapesAgree) ||
      !visitOperands("result", c.outputs, s, shapesAgree) ||
      !visitParams(c.params, params, groupTables, s))
    return false;
  s.str({"mode"}, c.async ? "async" : "sync");
  // Last, and for the report only: where each rank's call is written.
  s.loc(c.loc);
  return true;
}

namespace {
struct HaloCall {
  const char *op;
  int64_t key;
  int32_t dtype;
  int64_t rank;
  bool replans;
  const SourceLoc &loc;
};
} // namespace

template <class Sink> static bool visitHalo(const HaloCall &h, Sink &s) {
  s.str({"op"}, h.op);
  s.num({"key"}, h.key);
  s.dtype({"element type"}, h.dtype);
  s.num({"rank of the local block"}, h.rank);
  s.str({"geometry"}, h.replans ? "changed (replanned)" : "unchanged");
  s.loc(h.loc);
  return true;
}

template <class Sink> static bool visitFinalize(Sink &s) {
  s.str({"op"}, "finalize");
  s.loc(SourceLoc("program exit"));
  return true;
}

/// The fields joined into one buffer: name, value, name, value, ... each
/// ended by a NUL.
static std::string serialize(const Describer &d) {
  std::string blob;
  for (const auto &[name, value] : d.fields) {
    blob += name;
    blob += '\0';
    blob += value;
    blob += '\0';
  }
  return blob;
}

static std::vector<std::string> split(std::string_view blob) {
  std::vector<std::string> parts;
  while (!blob.empty()) {
    const size_t end = blob.find('\0');
    parts.emplace_back(blob.substr(0, end));
    blob.remove_prefix(end == std::string_view::npos ? blob.size() : end + 1);
  }
  return parts;
}

/// The team's communicator for agreements, made on first use (collective:
/// every member agrees at the same call).
static MPI_Comm checkComm(TeamState &team) {
  if (team.checkComm == MPI_COMM_NULL) [[unlikely]]
    team.checkComm = dupForRuntime(team.comm);
  return team.checkComm;
}

namespace {
/// The members a call agrees with: the team, or the process group of a
/// grouped collective whose groups the team has split already (their
/// members need not meet the other groups: MPI matches them apart).
struct Agreement {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  /// Team rank of each rank of `comm`; empty when `comm` is the team's.
  std::span<const int> teamRanks;

  int teamRank(int r) const {
    return teamRanks.empty() ? r : teamRanks[static_cast<size_t>(r)];
  }
};
} // namespace

/// Exchanges the fields' text (the hashes differed) and throws the first
/// difference from the lowest rank that differs from this one.
[[noreturn, gnu::cold]] static void reportDifference(const Agreement &with,
                                                     const Describer &mine) {
  MPI_Comm comm = with.comm;
  const int rank = with.rank;
  const std::string blob = serialize(mine);
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<int> lengths(static_cast<size_t>(size)), offsets(lengths);
  const int length = static_cast<int>(blob.size());
  checkMpi(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm),
           "MPI_Allgather");
  int total = 0;
  for (int r = 0; r < size; ++r) {
    offsets[static_cast<size_t>(r)] = total;
    total += lengths[static_cast<size_t>(r)];
  }
  std::string all(static_cast<size_t>(total), '\0');
  checkMpi(MPI_Allgatherv(blob.data(), length, MPI_CHAR, all.data(),
                          lengths.data(), offsets.data(), MPI_CHAR, comm),
           "MPI_Allgatherv");
  const std::vector<std::string> here = split(blob);
  for (int r = 0; r < size; ++r) {
    const std::string_view theirs(all.data() + offsets[static_cast<size_t>(r)],
                                  lengths[static_cast<size_t>(r)]);
    if (r == rank || theirs == blob)
      continue;
    const std::vector<std::string> there = split(theirs);
    for (size_t i = 0; i + 1 < here.size(); i += 2) {
      if (i + 1 >= there.size() || there[i] != here[i])
        raise("{} here, but rank {} is at another kind of call ({} {})",
              here[i], with.teamRank(r), there.size() > i ? there[i] : "",
              there.size() > i + 1 ? there[i + 1] : "");
      // Where a call is written does not decide whether MPI matches it.
      if (there[i + 1] != here[i + 1] && here[i] != "location")
        raise("{} {} here, {} on rank {}{}", here[i], here[i + 1], there[i + 1],
              with.teamRank(r),
              with.teamRanks.empty() ? "" : " of this process group");
    }
    if (there.size() != here.size())
      raise("the call differs from rank {}'s in its number of fields",
            with.teamRank(r));
  }
  raise("the ranks' call signatures differ, but their descriptions agree");
}

/// The team's agreement.
static Agreement teamAgreement(TeamState &team) {
  return {checkComm(team), team.rank, {}};
}

/// Agrees on the fields `visit` produces with `with`'s members, unless
/// some cannot be read (`visit` returns false).
template <class Visit>
static void agree(const Agreement &with, BlockedCall *watch, Visit &&visit) {
  Hasher hasher;
  if (!visit(hasher))
    return;
  const uint64_t mine[2] = {hasher.h, ~hasher.h};
  uint64_t all[2];
  // This phase's description, then the call's again.
  const char *described = watch ? watch->waitsFor : nullptr;
  if (watch)
    watch->waitsFor =
        with.teamRanks.empty()
            ? "the other members of team {team} to reach this op (checked "
              "mode's agreement)"
            : "the other members of its process group in team {team} to "
              "reach this op (checked mode's agreement)";
  checkMpi(MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_BAND, with.comm),
           "MPI_Allreduce");
  if (watch)
    watch->waitsFor = described;
  // Equal hashes everywhere leave h and ~h whole; any difference clears a
  // bit in both.
  if ((all[0] | all[1]) == ~uint64_t{0}) [[likely]]
    return;
  Describer describer;
  visit(describer);
  reportDifference(with, describer);
}

/// DISTRT_CHECK's level: unset, empty or 0 is off, 1 checks the sites the
/// compiler could not prove, all checks every site.
static CheckLevel envCheckLevel() {
  const char *value = std::getenv("DISTRT_CHECK");
  if (!value || !*value || std::string_view(value) == "0")
    return CheckLevel::Off;
  if (std::string_view(value) == "1")
    return CheckLevel::Unproven;
  if (std::string_view(value) == "all")
    return CheckLevel::All;
  raise("DISTRT_CHECK={} in the environment: expected 0, 1 (check the sites "
        "the compiler did not prove) or all (check every site)",
        value);
}

/// The watchdog's timeout was set explicitly (DISTRT_TIMEOUT,
/// distrt_set_timeout), not by checked mode's default.
static bool gTimeoutExplicit = false;
/// Checked mode's default timeout: generous, a collective whose peers
/// compute for minutes is not a hang.
constexpr double kCheckedTimeout = 120;

/// Derives the fast paths' switches from the level and the timeout.
static void updateGuards() {
  const bool watching = gTimeoutNanos.load(std::memory_order_relaxed) != 0;
  gGuarded = gChecked || watching;
  if (!gGuarded)
    gUncheckedFlags = 0;
  else if (gChecked && !gCheckAll && !(watching && gTimeoutExplicit))
    gUncheckedFlags = DISTRT_SITE_PROVEN;
  else
    gUncheckedFlags = kNoSiteFlag;
}

void setChecked(CheckLevel level) {
  gChecked = level != CheckLevel::Off;
  gCheckAll = level == CheckLevel::All;
  if (!gTimeoutExplicit)
    setTimeout(gChecked ? kCheckedTimeout : 0);
  updateGuards();
}

void setWatchTimeout(double seconds) {
  setTimeout(seconds);
  gTimeoutExplicit = true;
  updateGuards();
}

/// Reads DISTRT_CHECK and DISTRT_TIMEOUT (once, at initialization); throws
/// Failure for a value that is neither.
static void configureChecks() {
  static bool configured = false;
  if (configured)
    return;
  configured = true;
  const CheckLevel level = envCheckLevel();
  if (const char *value = std::getenv("DISTRT_TIMEOUT"); value && *value) {
    char *end = nullptr;
    const double timeout = std::strtod(value, &end);
    if (*end || !(timeout >= 0))
      raise("DISTRT_TIMEOUT={} in the environment: expected a number of "
            "seconds (0: no watchdog)",
            value);
    setWatchTimeout(timeout);
  }
  // A handle never waited is an error unless DISTRT_UNWAITED=warn.
  if (const char *value = std::getenv("DISTRT_UNWAITED"); value && *value) {
    const std::string_view v(value);
    if (v != "warn" && v != "error")
      raise("DISTRT_UNWAITED={} in the environment: expected warn or error",
            value);
    gUnwaitedWarns = v == "warn";
  }
  setChecked(level);
}

void rethrowCollectiveFailure(bool agreed) {
  try {
    throw;
  } catch (const Failure &failure) {
    // Checked mode agreed on the call: the ranks do not disagree.
    if (failure.code() == MPI_SUCCESS || agreed)
      throw;
    if (gChecked)
      throw Failure(failure.message() +
                        "; the ranks may disagree on this op, which "
                        "DISTRT_CHECK=1 does not check (the compiler proved "
                        "its agreement): run with DISTRT_CHECK=all to find "
                        "which rank differs, and how",
                    failure.code());
    throw Failure(failure.message() +
                      "; the ranks may disagree on this op: run with "
                      "DISTRT_CHECK=1 to find which rank differs, and how",
                  failure.code());
  }
}

bool agreeOnCall(const Call &c, ParamNames params, size_t groupTables,
                 BlockedCall *watch, const char *groupsName, bool shapesAgree,
                 size_t ownTables) {
  TeamState &team = lookupTeam(c.team);
  bool inNone = false;
  std::optional<Agreement> group;
  if (std::string_view(groupsName) == "replica_groups")
    if (const GroupCheck *check = groupCheck(team, c.groups, inNone))
      group = Agreement{check->comm, check->rank, check->teamRanks};
  if (inNone)
    return true;
  // Within a group, the group tables must agree in full; the members' own
  // tables never do.
  const size_t sizesOnly = (group ? 0 : groupTables) + ownTables;
  agree(group ? *group : teamAgreement(team), watch, [&](auto &sink) {
    return visitCall(c, params, sizesOnly, groupsName, shapesAgree, sink);
  });
  return group.has_value();
}

void checkDistinctOutputs(const std::vector<Buffer> &ins,
                          const std::vector<Buffer> &outs) {
  const size_t n = outs.size();
  const auto name = [](const char *what, size_t k, size_t count) {
    return count == 1 ? fmt::format("its {}", what)
                      : fmt::format("{} #{}", what, k);
  };
  for (size_t j = 0; j < n; ++j) {
    for (size_t k = 0; k < j; ++k)
      if (overlaps(outs[k], outs[j])) [[unlikely]]
        raise("outputs #{} and #{} overlap: the op writes both, and the last "
              "write wins",
              k, j);
    for (size_t k = 0; k < ins.size(); ++k)
      if (k != j && overlaps(ins[k], outs[j])) [[unlikely]]
        raise("{} overlaps {}: the op may write the output before it reads "
              "the input (only an operand's own input and output may share "
              "memory)",
              name("output", j, n), name("input", k, ins.size()));
  }
}

/// The group tables of `c` (its last `count`) as words: its group's slot
/// (the team rank of the group's first member, -1 in no group), then each
/// table's values.
static std::vector<int64_t> groupTableWords(const Call &c, size_t count,
                                            const GroupLayout &layout) {
  std::vector<int64_t> words{layout.position < 0 ? -1 : layout.members[0]};
  for (const distrt_table_t *t : c.params.tables().last(count))
    words.insert(words.end(), t->values, t->values + t->size);
  return words;
}

/// The group tables differ within some group (agreeInGroups): every rank
/// gathers every rank's, and a member of a group that differs throws the
/// first table in which it differs from the lowest rank of its group.
[[gnu::cold]] static void reportGroupDifference(const Call &c, ParamNames names,
                                                size_t count,
                                                const GroupLayout &layout,
                                                TeamState &team) {
  const std::vector<int64_t> mine = groupTableWords(c, count, layout);
  const auto length = static_cast<int>(mine.size()); // agreed team-wide
  std::vector<int64_t> all(mine.size() * static_cast<size_t>(team.size));
  checkMpi(MPI_Allgather(mine.data(), length, MPI_INT64_T, all.data(), length,
                         MPI_INT64_T, team.checkComm),
           "MPI_Allgather");
  for (int r = 0; r < team.size; ++r) {
    const int64_t *theirs = all.data() + static_cast<size_t>(r) * mine.size();
    if (mine[0] < 0 || theirs[0] != mine[0] ||
        std::equal(mine.begin(), mine.end(), theirs))
      continue;
    const std::span tables = c.params.tables().last(count);
    size_t at = 1;
    for (size_t k = 0; k < count; ++k) {
      const distrt_table_t there{tables[k]->size, theirs + at};
      if (!std::equal(tables[k]->values, tables[k]->values + tables[k]->size,
                      there.values)) {
        Describer d;
        d.table({""}, *tables[k]);
        d.table({""}, there);
        const size_t i =
            c.params.scalars().size() + c.params.tables().size() - count + k;
        raise("{} {} here, {} on rank {} of this process group",
              i < names.size() ? names[i] : "table", d.fields[0].second,
              d.fields[1].second, r);
      }
      at += static_cast<size_t>(tables[k]->size);
    }
  }
}

void agreeInGroups(const Call &c, ParamNames params, size_t groupTables,
                   BlockedCall *watch) {
  const std::span tables = c.params.tables();
  if (tables.size() < groupTables ||
      !std::ranges::all_of(tables, tableReadable))
    return; // planning reports it
  TeamState &team = lookupTeam(c.team);
  const GroupLayout &layout = groupLayout(team, c.groups);
  // One hash and its complement per group, at its slot; all ones (no say
  // under MPI_BAND) elsewhere.
  std::vector<uint64_t> mine(2 * static_cast<size_t>(team.size), ~uint64_t{0});
  std::vector<uint64_t> all(mine.size());
  if (layout.position >= 0) {
    Hasher hasher;
    for (const distrt_table_t *t : tables.last(groupTables))
      hasher.table({""}, *t);
    const auto slot = static_cast<size_t>(layout.members[0]);
    mine[2 * slot] = hasher.h;
    mine[2 * slot + 1] = ~hasher.h;
  }
  const char *described = watch ? watch->waitsFor : nullptr;
  if (watch)
    watch->waitsFor = "the other members of team {team} to reach this op "
                      "(checked mode's agreement)";
  checkMpi(MPI_Allreduce(mine.data(), all.data(), static_cast<int>(all.size()),
                         MPI_UINT64_T, MPI_BAND, checkComm(team)),
           "MPI_Allreduce");
  if (watch)
    watch->waitsFor = described;
  for (size_t slot = 0; slot < all.size(); slot += 2)
    if ((all[slot] | all[slot + 1]) != ~uint64_t{0}) [[unlikely]] {
      reportGroupDifference(c, params, groupTables, layout, team);
      return;
    }
}

void agreeOnHalo(const char *op, int64_t team, int64_t key, int32_t dtype,
                 int64_t rank, bool replans, const SourceLoc &loc,
                 BlockedCall *watch) {
  const HaloCall h{op, key, dtype, rank, replans, loc};
  agree(teamAgreement(lookupTeam(team)), watch,
        [&](auto &sink) { return visitHalo(h, sink); });
}

/// Finalization's agreement on team 0, if it exists (checked mode): a rank
/// that skipped a collective meets the others here and is named.
static void findUnreceivedHeaders(TeamState &team);
static void agreeOnFinalize(FinishHow) {
  if (!gChecked || !findTeam(0))
    return;
  Watch watch("finalize", SourceLoc("program exit"), 0,
              "the other members of team 0 to reach program exit");
  agree(teamAgreement(lookupTeam(0)), watch.record(),
        [](auto &sink) { return visitFinalize(sink); });
  findUnreceivedHeaders(lookupTeam(0));
}

/// Agreements and send/recv headers have their own communicator, made with
/// the team in checked mode (else at the first agreement).
static void createCheckComm(TeamState &team) {
  if (gChecked)
    team.checkComm = dupForRuntime(team.comm);
}
static void forgetHeaderCounts(MPI_Comm comm) noexcept;
static void freeCheckComm(TeamState &team) noexcept {
  // A communicator freed now may come back under the same handle.
  forgetHeaderCounts(team.checkComm);
  freeComm(team.checkComm);
}

[[maybe_unused]] static const bool kTeamHooked = addTeamHooks(
    TeamStage::kCheck, {.create = createCheckComm, .release = freeCheckComm});
[[maybe_unused]] static const bool kRuntimeHooked =
    addRuntimeHooks(RuntimeStage::kCheck,
                    {.initialize = configureChecks, .finish = agreeOnFinalize});

namespace {

/// What a point-to-point sender says it sends. Plain bytes on the wire.
struct MessageHeader {
  static constexpr int kTypes = 8;
  char op[24];
  int32_t operands;
  int32_t types[kTypes]; // of the first kTypes operands
  int64_t bytes;
  PairsDigest pairs;
  char loc[128]; // the sender's location, its end if longer
};

/// Headers sent to and received from each rank of a communicator: at
/// finalization the counts tell a receiver which headers no recv took.
struct HeaderCounts {
  std::vector<int64_t> sent, received;
};

} // namespace

/// Per communicator; leaked on purpose, like the other runtime tables.
static std::vector<std::pair<MPI_Comm, HeaderCounts>> &headerCounts() {
  static auto &counts = *new std::vector<std::pair<MPI_Comm, HeaderCounts>>;
  return counts;
}

static void forgetHeaderCounts(MPI_Comm comm) noexcept {
  std::erase_if(headerCounts(),
                [&](const auto &entry) { return entry.first == comm; });
}

/// `comm`'s counters, sized for its ranks.
static HeaderCounts &countsOf(MPI_Comm comm) {
  auto &all = headerCounts();
  for (auto &[key, counts] : all)
    if (key == comm)
      return counts;
  int size = 0;
  MPI_Comm_size(comm, &size);
  const auto n = static_cast<size_t>(size);
  return all
      .emplace_back(
          comm, HeaderCounts{std::vector<int64_t>(n), std::vector<int64_t>(n)})
      .second;
}

PairsDigest digestPairs(const distrt_groups_t *pairs) {
  PairsDigest d;
  Hasher hasher;
  if (!groupsReadable(pairs))
    return d;
  hasher.groups({}, pairs);
  d.hash = hasher.h;
  d.pairs = pairs ? pairs->num_groups : 0;
  const int64_t ids = pairs ? pairs->num_groups * pairs->group_size : 0;
  std::copy_n(pairs ? pairs->ids : nullptr,
              std::min<int64_t>(ids, PairsDigest::kIds), d.ids);
  return d;
}

/// The pairs as text, `...` past the ones the digest keeps.
static std::string pairsText(const PairsDigest &d) {
  std::string text = "[";
  const int64_t shown = std::min<int64_t>(d.pairs, PairsDigest::kIds / 2);
  for (int64_t i = 0; i < shown; ++i)
    text += fmt::format("{}[{}, {}]", i ? ", " : "", d.ids[2 * i],
                        d.ids[2 * i + 1]);
  return text + (shown < d.pairs ? ", ...]" : "]");
}

static MessageHeader headerOf(const char *op,
                              const std::vector<Buffer> &buffers,
                              const PairsDigest &pairs, const SourceLoc &loc) {
  MessageHeader h{};
  std::strncpy(h.op, op, sizeof(h.op) - 1);
  h.operands = static_cast<int32_t>(buffers.size());
  for (size_t k = 0; k < buffers.size(); ++k) {
    if (k < MessageHeader::kTypes)
      h.types[k] = buffers[k].dtype;
    h.bytes += static_cast<int64_t>(buffers[k].byteCount);
  }
  h.pairs = pairs;
  const std::string where = loc.str();
  const size_t keep = std::min(where.size(), sizeof(h.loc) - 1);
  std::memcpy(h.loc, where.data() + where.size() - keep, keep);
  return h;
}

void sendHeader(const char *op, const std::vector<Buffer> &inputs,
                const PairsDigest &pairs, int peer, MPI_Comm comm, int tag,
                const SourceLoc &loc) {
  // Nonblocking: MPI_Send may wait for the receive (MPICH does for a message
  // to the process itself, whose recv comes later). The header lives until
  // its send completes; leaked on purpose, like the other runtime tables.
  struct Pending {
    MessageHeader header;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  static std::vector<std::unique_ptr<Pending>> &pending =
      *new std::vector<std::unique_ptr<Pending>>;
  std::erase_if(pending, [](const std::unique_ptr<Pending> &p) {
    int done = 0;
    return MPI_Test(&p->request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
           done;
  });
  auto p = std::make_unique<Pending>();
  p->header = headerOf(op, inputs, pairs, loc);
  checkMpi(MPI_Isend(&p->header, sizeof p->header, MPI_BYTE, peer, tag, comm,
                     &p->request),
           "MPI_Isend");
  ++countsOf(comm).sent[static_cast<size_t>(peer)];
  pending.push_back(std::move(p));
}

/// Receives the header `peer` sent on `comm` with `tag` (MPI_ANY_TAG: its
/// next one), made safe to print.
static MessageHeader takeHeader(int peer, MPI_Comm comm, int tag) {
  MessageHeader h{};
  checkMpi(MPI_Recv(&h, sizeof h, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE),
           "MPI_Recv");
  ++countsOf(comm).received[static_cast<size_t>(peer)];
  h.op[sizeof(h.op) - 1] = h.loc[sizeof(h.loc) - 1] = '\0';
  h.pairs.pairs = std::max<int64_t>(h.pairs.pairs, 0);
  return h;
}

/// Compares the operands a header announces with `outputs`.
static void compareOperands(const MessageHeader &h,
                            const std::vector<Buffer> &outputs,
                            const std::string &from) {
  const auto n = static_cast<int32_t>(outputs.size());
  if (h.operands != n)
    raise("{} operands here, {} {}", n, h.operands, from);
  for (int32_t k = 0; k < n && k < MessageHeader::kTypes; ++k) {
    const int32_t mine = outputs[static_cast<size_t>(k)].dtype;
    if (h.types[k] != mine)
      raise("element type{} {} here, {} {}",
            n > 1 ? fmt::format(" of operand {}", k) : "", dtypeInfo(mine).name,
            h.types[k] >= 0 && h.types[k] < DISTRT_NUM_DTYPES
                ? dtypeInfo(h.types[k]).name
                : "?",
            from);
  }
  const auto bytes = static_cast<int64_t>(totalBytes(outputs));
  if (h.bytes != bytes)
    raise("{} bytes expected here, {} {}", bytes, h.bytes, from);
}

void receiveHeader(const char *op, const std::vector<Buffer> &outputs,
                   const PairsDigest &pairs, int peer, MPI_Comm comm, int tag) {
  const MessageHeader h = takeHeader(peer, comm, tag);
  const std::string_view expected =
      std::string_view(op) == "recv" ? "send" : std::string_view(op);
  const std::string from =
      fmt::format("from rank {} ({} at {})", peer, h.op, h.loc);
  if (expected != h.op)
    raise("a {} expected here, a message of a {}", expected, from);
  if (h.pairs.hash != pairs.hash)
    raise("source_target_pairs {} here, {} {}", pairsText(pairs),
          pairsText(h.pairs), from);
  compareOperands(h, outputs, from);
}

/// At finalization in checked mode: the headers sent to this rank on
/// `team`'s check communicator that no recv took (a recv whose pairs give
/// this rank no source, or no recv at all). The members exchange their
/// counts, so that a receiver knows what was sent to it, and the first
/// header left is reported with its sender's op, location and pairs.
static void findUnreceivedHeaders(TeamState &team) {
  if (team.checkComm == MPI_COMM_NULL)
    return;
  HeaderCounts &counts = countsOf(team.checkComm);
  std::vector<int64_t> expected(counts.sent.size());
  checkMpi(MPI_Alltoall(counts.sent.data(), 1, MPI_INT64_T, expected.data(), 1,
                        MPI_INT64_T, team.checkComm),
           "MPI_Alltoall");
  for (size_t peer = 0; peer < expected.size(); ++peer) {
    if (expected[peer] <= counts.received[peer])
      continue;
    MPI_Status status;
    MessageHeader h{};
    checkMpi(MPI_Recv(&h, sizeof h, MPI_BYTE, static_cast<int>(peer),
                      MPI_ANY_TAG, team.checkComm, &status),
             "MPI_Recv");
    h.op[sizeof(h.op) - 1] = h.loc[sizeof(h.loc) - 1] = '\0';
    const int tag = status.MPI_TAG; // zigzag: 0, -1, 1, ... (channelTag)
    const int64_t channel = tag % 2 == 0 ? tag / 2 : -(int64_t{tag} + 1) / 2;
    raise("the {} at {} on rank {} sent this rank {} bytes on channel_id {} "
          "(source_target_pairs {}), which no recv took: the members disagree "
          "on source_target_pairs, or this rank skipped the recv",
          h.op, h.loc, peer, h.bytes, channel, pairsText(h.pairs));
  }
}

} // namespace distrt::detail

namespace distrt {

void setChecked(bool on) {
  detail::guarded("set_check", kNoTeam, SourceLoc("distrt::setChecked"), [&] {
    detail::ensureMpi();
    detail::setChecked(on ? detail::CheckLevel::Unproven
                          : detail::CheckLevel::Off);
  });
}

void setTimeout(double seconds) {
  detail::guarded("set_timeout", kNoTeam, SourceLoc("distrt::setTimeout"), [&] {
    detail::ensureMpi();
    detail::setWatchTimeout(seconds);
  });
}

} // namespace distrt
