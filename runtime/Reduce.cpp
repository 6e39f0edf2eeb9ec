//===- Reduce.cpp - Reduction operators -------------------------*- C++ -*-===//
//
// MPI's built-in ops wherever MPI has them. i1 (one byte, 0 or 1) maps onto
// bitwise ops: sum is xor (addition modulo 2), prod and min are and, max is
// or. f16 and bf16 have no MPI type: they travel as MPI_UINT16_T and reduce
// with user-defined ops that compute in float and round back to nearest even.
//
//===----------------------------------------------------------------------===//

#include "Reduce.h"
#include "Dtype.h"
#include "Error.h"
#include "Half.h"

#include <cstring>

namespace distrt::detail {
namespace {

const char *redopName(int32_t redop) {
  static const char *names[DISTRT_NUM_REDOPS] = {"sum", "prod", "min", "max",
                                                 "and", "or",   "xor"};
  return names[redop];
}

struct Sum {
  float operator()(float a, float b) const { return a + b; }
};
struct Prod {
  float operator()(float a, float b) const { return a * b; }
};
struct Min {
  float operator()(float a, float b) const { return b < a ? b : a; }
};
struct Max {
  float operator()(float a, float b) const { return b > a ? b : a; }
};

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float), class Op>
void halfOp(void *in, void *inout, int *length, MPI_Datatype *) {
  const auto *a = static_cast<const uint16_t *>(in);
  auto *b = static_cast<uint16_t *>(inout);
  Op op;
  for (int i = 0; i < *length; ++i)
    b[i] = FromFloat(op(ToFloat(a[i]), ToFloat(b[i])));
}

/// User ops by [redop][0 = f16, 1 = bf16]; created on first use.
MPI_Op gHalfOps[4][2] = {{MPI_OP_NULL, MPI_OP_NULL},
                         {MPI_OP_NULL, MPI_OP_NULL},
                         {MPI_OP_NULL, MPI_OP_NULL},
                         {MPI_OP_NULL, MPI_OP_NULL}};

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
MPI_User_function *halfFunction(int32_t redop) {
  switch (redop) {
  case DISTRT_SUM:
    return halfOp<ToFloat, FromFloat, Sum>;
  case DISTRT_PROD:
    return halfOp<ToFloat, FromFloat, Prod>;
  case DISTRT_MIN:
    return halfOp<ToFloat, FromFloat, Min>;
  default:
    return halfOp<ToFloat, FromFloat, Max>;
  }
}

} // namespace

const MPI_Op kI1Ops[DISTRT_NUM_REDOPS] = {MPI_BXOR, MPI_BAND, MPI_BAND, MPI_BOR,
                                          MPI_BAND, MPI_BOR,  MPI_BXOR};
const MPI_Op kOps[DISTRT_NUM_REDOPS] = {MPI_SUM,  MPI_PROD, MPI_MIN, MPI_MAX,
                                        MPI_BAND, MPI_BOR,  MPI_BXOR};

MPI_Op halfReductionOp(int32_t redop, int32_t dtype) {
  const int which = dtype == DISTRT_F16 ? 0 : 1;
  MPI_Op &op = gHalfOps[redop][which];
  if (op == MPI_OP_NULL) {
    MPI_User_function *function =
        which == 0 ? halfFunction<halfToFloat, floatToHalf>(redop)
                   : halfFunction<bfloat16ToFloat, floatToBfloat16>(redop);
    checkMpi(MPI_Op_create(function, /*commute=*/1, &op), "MPI_Op_create");
  }
  return op;
}

void raiseReduction(int32_t redop, int32_t dtype) {
  const DtypeInfo &info = dtypeInfo(dtype);
  if (redop < 0 || redop >= DISTRT_NUM_REDOPS)
    raise("invalid reduction {} (expected 0..{})", redop,
          DISTRT_NUM_REDOPS - 1);
  raise("reduction '{}' is not defined on floating-point type {}",
        redopName(redop), info.name);
}

void freeReductionOps() noexcept {
  for (auto &pair : gHalfOps)
    for (MPI_Op &op : pair)
      if (op != MPI_OP_NULL)
        MPI_Op_free(&op);
}

} // namespace distrt::detail
