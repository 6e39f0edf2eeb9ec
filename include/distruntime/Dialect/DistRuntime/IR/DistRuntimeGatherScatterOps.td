//===- DistRuntimeGatherScatterOps.td - gather, scatter ----*- tablegen -*-===//
//
// StableHLO's gather and scatter with batching dimensions (seed 004). They
// act on each process's local data (SPMD): sharded along the batching
// dimensions they need no communication.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEGATHERSCATTEROPS_TD
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEGATHERSCATTEROPS_TD

include "distruntime/Dialect/DistRuntime/IR/DistRuntimeBase.td"

def DistRuntime_GatherDimensionNumbers
    : AttrDef<DistRuntime_Dialect, "GatherDimensionNumbers"> {
  let mnemonic = "gather";
  let summary = "dimension numbers of distruntime.gather";
  let description = [{
    ```mlir
    #distruntime.gather<offset_dims = [3, 4], collapsed_slice_dims = [1],
      operand_batching_dims = [0], start_indices_batching_dims = [1],
      start_index_map = [2, 1], index_vector_dim = 3>
    ```
    Empty lists may be left out.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$offset_dims,
    OptionalArrayRefParameter<"int64_t">:$collapsed_slice_dims,
    OptionalArrayRefParameter<"int64_t">:$operand_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$start_indices_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$start_index_map,
    "int64_t":$index_vector_dim);
  let hasCustomAssemblyFormat = 1;
}

def DistRuntime_ScatterDimensionNumbers
    : AttrDef<DistRuntime_Dialect, "ScatterDimensionNumbers"> {
  let mnemonic = "scatter";
  let summary = "dimension numbers of distruntime.scatter";
  let description = [{
    ```mlir
    #distruntime.scatter<update_window_dims = [3, 4], inserted_window_dims = [1],
      input_batching_dims = [0], scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>
    ```
    Empty lists may be left out.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$update_window_dims,
    OptionalArrayRefParameter<"int64_t">:$inserted_window_dims,
    OptionalArrayRefParameter<"int64_t">:$input_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$scatter_indices_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$scatter_dims_to_operand_dims,
    "int64_t":$index_vector_dim);
  let hasCustomAssemblyFormat = 1;
}

def DistRuntime_IndexArray : AnyTypeOf<[
  RankedTensorOf<[AnyInteger, Index]>, MemRefOf<[AnyInteger, Index]>
], "ranked tensor or memref of integers">;

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

def DistRuntime_GatherOp : DistRuntime_Op<"gather"> {
  let summary = "gather slices of an operand at computed offsets (local)";
  let description = [{
    StableHLO's `gather` with batching dimensions, on the caller's local data:
    `result[result_index] = operand[operand_index]` with start indices
    clamped to `[0, dim(operand) - slice_sizes]`, as the seed specifies. On
    tensors it returns the result; on memrefs it writes `outs`.

    ```mlir
    %result = distruntime.gather ins(%operand, %start_indices
        : tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) {
      dimension_numbers = #distruntime.gather<
        offset_dims = [3, 4], collapsed_slice_dims = [1],
        operand_batching_dims = [0], start_indices_batching_dims = [1],
        start_index_map = [2, 1], index_vector_dim = 3>,
      slice_sizes = array<i64: 1, 1, 2, 2>,
      indices_are_sorted = false
    } -> tensor<2x2x3x2x2xi32>
    ```
  }];
  let arguments = (ins
    Arg<DistRuntime_Array, "operand", [MemRead]>:$operand,
    Arg<DistRuntime_IndexArray, "start indices", [MemRead]>:$start_indices,
    Arg<Optional<AnyMemRef>, "result of the memref form", [MemWrite]>:$output,
    DistRuntime_GatherDimensionNumbers:$dimension_numbers,
    DenseI64ArrayAttr:$slice_sizes,
    DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Optional<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $operand `,` $start_indices `:` type($operand) `,`
    type($start_indices) `)` (`outs` `(` $output^ `:` type($output) `)`)?
    attr-dict (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

def DistRuntime_ScatterOp : DistRuntime_Op<"scatter", [
    AttrSizedOperandSegments]> {
  let summary = "combine updates into slices of the inputs (local)";
  let description = [{
    StableHLO's `scatter` with batching dimensions, on the caller's local
    data: `results` equal `inputs` except at the slices addressed by
    `scatter_indices`, where `update_computation` combines the current values
    with `updates`. An update element whose result index is out of bounds is
    skipped, element by element. On tensors the inputs are never modified; on
    memrefs the inputs are copied to `outs` (unless they are the same buffer)
    and updated there.

    ```mlir
    %result = distruntime.scatter ins(%input : tensor<2x3x4x2xi64>)
        indices(%scatter_indices : tensor<2x2x3x2xi64>)
        updates(%update : tensor<2x2x3x2x2xi64>) {
      scatter_dimension_numbers = #distruntime.scatter<
        update_window_dims = [3, 4], inserted_window_dims = [1],
        input_batching_dims = [0], scatter_indices_batching_dims = [1],
        scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>,
      indices_are_sorted = false, unique_indices = false
    } update_computation {
    ^bb0(%current: i64, %update: i64):
      %sum = arith.addi %current, %update : i64
      distruntime.yield %sum : i64
    } -> tensor<2x3x4x2xi64>
    ```
  }];
  let arguments = (ins
    Arg<Variadic<DistRuntime_Array>, "inputs", [MemRead]>:$inputs,
    Arg<DistRuntime_IndexArray, "scatter indices", [MemRead]>:$scatter_indices,
    Arg<Variadic<DistRuntime_Array>, "updates", [MemRead]>:$updates,
    Arg<Variadic<AnyMemRef>, "results of the memref form",
        [MemRead, MemWrite]>:$outputs,
    DistRuntime_ScatterDimensionNumbers:$scatter_dimension_numbers,
    DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted,
    DefaultValuedAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$update_computation);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    `indices` `(` $scatter_indices `:` type($scatter_indices) `)`
    `updates` `(` $updates `:` type($updates) `)`
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    attr-dict `update_computation` $update_computation
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEGATHERSCATTEROPS_TD
