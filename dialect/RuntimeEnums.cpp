//===- RuntimeEnums.cpp - Dialect enums are libdistrt's -------------------===//
//
// The lowering passes reductions and group modes to libdistrt as their
// integer values, so the dialect's enums must equal the C enums of distrt.h.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Runtime/distrt.h"

using namespace mlir::distruntime;

template <typename Enum> static constexpr int32_t value(Enum e) {
  return static_cast<int32_t>(e);
}

static_assert(value(ReductionKind::Sum) == DISTRT_SUM);
static_assert(value(ReductionKind::Prod) == DISTRT_PROD);
static_assert(value(ReductionKind::Min) == DISTRT_MIN);
static_assert(value(ReductionKind::Max) == DISTRT_MAX);
static_assert(value(ReductionKind::And) == DISTRT_AND);
static_assert(value(ReductionKind::Or) == DISTRT_OR);
static_assert(value(ReductionKind::Xor) == DISTRT_XOR);
static_assert(value(ReductionKind::UMin) == DISTRT_UMIN);
static_assert(value(ReductionKind::UMax) == DISTRT_UMAX);
static_assert(value(ReductionKind::Minimum) == DISTRT_MINIMUM);
static_assert(value(ReductionKind::Maximum) == DISTRT_MAXIMUM);
static_assert(value(ReductionKind::MinNum) == DISTRT_MINNUM);
static_assert(value(ReductionKind::MaxNum) == DISTRT_MAXNUM);
static_assert(static_cast<int32_t>(getMaxEnumValForReductionKind()) + 1 ==
                  DISTRT_NUM_REDOPS,
              "the dialect and distrt.h know different reductions");

static_assert(value(GroupMode::CrossReplica) == DISTRT_CROSS_REPLICA);
static_assert(value(GroupMode::CrossPartition) == DISTRT_CROSS_PARTITION);
static_assert(value(GroupMode::CrossReplicaAndPartition) ==
              DISTRT_CROSS_REPLICA_AND_PARTITION);
static_assert(value(GroupMode::FlattenedIds) == DISTRT_FLATTENED_IDS);
