//===- DistRuntimeBase.td - dialect, types, attrs ----------*- tablegen -*-===//
//
// The dialect, its async handle type, the reduction enum and the shared
// constraints of the DistRuntime RFC.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEBASE_TD
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def DistRuntime_Dialect : Dialect {
  let name = "distruntime";
  let cppNamespace = "::mlir::distruntime";
  let summary = "Communication in SPMD programs: teams, collectives, halos";
  let description = [{
    The `distruntime` dialect represents operations that need a distributed
    runtime: the members of a *team* (MPI processes) execute the same
    operations on different data. Its operations come in families:

    * team queries, `team_size` and `team_member`, which do not
      communicate;
    * the RFC's in-place `allreduce` over the whole team;
    * halo exchange: `get_halo` (the rows around the local block of an
      array distributed along its first dimension, always async) and
      `update_halo` (the in-place exchange of a Cartesian block
      decomposition, which upstream's `shard.update_halo` maps onto);
    * StableHLO-style collectives over process groups (`replica_groups`,
      `channel_id`): `all_gather`, `all_reduce`, `all_to_all`,
      `all_to_all_v`, `reduce_scatter`, `collective_broadcast`,
      `collective_permute`, and the point-to-point `send` and `recv`, on
      tensors or memrefs. Their `replica_groups` or `source_target_pairs`
      are an attribute, or a 2-D i64 tensor or memref operand read when the
      op runs (`replica_groups(%t : memref<?x?xi64>)`), so that one program
      builds its groups from the team's size at any number of processes;
    * `gather` and `scatter` with batching dimensions, which run on each
      process's local data without communicating;
    * `wait`, which completes an op issued `async` (it then returns an
      `!distruntime.async_handle`) before its results are used, and
      `check`, a run-time size check emitted by the dialect's transforms.

    A team is a non-negative integer id. Team 0 is the world; a host program
    can register more teams with the runtime (`distrt_team_register`).
    `convert-distruntime-to-runtime` lowers the dialect to calls into
    `libdistrt`, which maps teams to MPI communicators and async handles to
    MPI requests.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def DistRuntime_AsyncHandle : TypeDef<DistRuntime_Dialect, "AsyncHandle"> {
  let mnemonic = "async_handle";
  let summary = "handle of an asynchronous communication";
  let description = [{
    Returned by an operation issued asynchronously. It must be passed to
    `distruntime.wait` exactly once before the operation's results are used.
    The runtime represents it as an opaque 64-bit id (lowered to `i64`).
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def DistRuntime_ReductionKind : I32EnumAttr<"ReductionKind",
    "reduction applied element-wise across the members of a team", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Prod", 1, "prod">,
  I32EnumAttrCase<"Min", 2, "min">,
  I32EnumAttrCase<"Max", 3, "max">,
  I32EnumAttrCase<"And", 4, "and">,
  I32EnumAttrCase<"Or", 5, "or">,
  I32EnumAttrCase<"Xor", 6, "xor">,
  // Unsigned comparison of signless integers.
  I32EnumAttrCase<"UMin", 7, "umin">,
  I32EnumAttrCase<"UMax", 8, "umax">,
  // IEEE 754-2019 minimum/maximum (NaN propagates, -0 < +0) and
  // minimumNumber/maximumNumber (a NaN operand yields the other), as
  // arith.minimumf/maximumf/minnumf/maxnumf.
  I32EnumAttrCase<"Minimum", 9, "minimum">,
  I32EnumAttrCase<"Maximum", 10, "maximum">,
  I32EnumAttrCase<"MinNum", 11, "minnum">,
  I32EnumAttrCase<"MaxNum", 12, "maxnum">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::distruntime";
}

def DistRuntime_ReductionKindAttr
    : EnumAttr<DistRuntime_Dialect, DistRuntime_ReductionKind, "reduction"> {
  let description = [{
    ```mlir
    #distruntime.reduction<sum>
    ```
    with one of `sum`, `prod`, `min`, `max`, `and`, `or`, `xor`, `umin`,
    `umax`, `minimum`, `maximum`, `minnum`, `maxnum`.
  }];
  // `<keyword>`, parsed in C++ (DistRuntimeDialect.cpp): ODS's enum parser
  // names the C++ enum type in its error instead of the keywords.
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def DistRuntime_Reproducibility : I32EnumAttr<"Reproducibility",
    "what a floating-point reduction's result may depend on", [
  // The values are the runtime's (distrt_repro_t).
  I32EnumAttrCase<"Mpi", 1, "mpi">,
  I32EnumAttrCase<"Ordered", 2, "ordered">,
  I32EnumAttrCase<"Exact", 3, "exact">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::distruntime";
}

def DistRuntime_ReproducibilityAttr
    : EnumAttr<DistRuntime_Dialect, DistRuntime_Reproducibility,
               "reproducibility"> {
  let description = [{
    ```mlir
    #distruntime.reproducibility<ordered>
    ```
    A reduction's reproducibility level: `mpi` (the MPI library's order),
    `ordered` (the members' values and their order in the group only: the
    same bits at any message size, packing, MPI and algorithm) or `exact`
    (sums correctly rounded: the same bits for the same values at any
    number of members). Absent, the pipeline's `reproducibility` option
    decides, else the environment variable `DISTRT_REPRODUCIBLE` at run
    time, else `mpi`. See docs/guide.md, "Reproducible reductions".
  }];
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def DistRuntime_TeamAttr : ConfinedAttr<I64Attr, [IntNonNegative]> {
  let summary = "team id (a non-negative 64-bit integer)";
}

def DistRuntime_KeyAttr : ConfinedAttr<I64Attr, [IntNonNegative]> {
  let summary = "static id of an operation instance, used for caching";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The element types the runtime moves and reduces.
def DistRuntime_ElementType : AnyTypeOf<[
  I1, I8, I16, I32, I64, SI8, SI16, SI32, SI64, UI8, UI16, UI32, UI64,
  F16, BF16, F32, F64
], "i1, 8/16/32/64-bit integer, f16, bf16, f32 or f64">;

def DistRuntime_MemRef : MemRefOf<[DistRuntime_ElementType]>;

def DistRuntime_Array : AnyTypeOf<[
  RankedTensorOf<[DistRuntime_ElementType]>,
  MemRefOf<[DistRuntime_ElementType]>
], "ranked tensor or memref">;

//===----------------------------------------------------------------------===//
// Side effects
//===----------------------------------------------------------------------===//

// Communication is ordered across the team: ops touching it must keep their
// relative order and may never be erased, hoisted or merged.
def DistRuntime_CommResource
    : Resource<"::mlir::distruntime::CommunicationResource">;

def DistRuntime_Communicates : MemoryEffects<[
  MemRead<DistRuntime_CommResource>, MemWrite<DistRuntime_CommResource>
]>;

class DistRuntime_Op<string mnemonic, list<Trait> traits = []>
    : Op<DistRuntime_Dialect, mnemonic, traits>;

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEBASE_TD
