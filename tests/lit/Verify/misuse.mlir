// What distruntime-verify-spmd says about the misuse programs of
// tests/lit/Integration/misuse (which are compiled without it, for the
// run-time checks to catch them): errors where members certainly disagree
// or a handle is never waited, a channel's one send and one recv that
// cannot meet, warnings where sizes may differ or a send or recv has no
// partner in the module, nothing where the mistake is invisible in the IR
// (team ids, sizes that overflow at run time, ranks that stop, roots read
// from memory, overlapping views). selective.mlir's
// programs test selective checked mode.
// docs/verification.md tabulates them.
// RUN: %S/Inputs/verify-programs.sh %distruntime-opt %t %S/../Integration/misuse/checked.mlir %S/../Integration/misuse/unchecked.mlir %S/../Integration/misuse/hangs.mlir %S/../Integration/misuse/selective.mlir %S/../Integration/misuse/dynamic-root.mlir %S/../Integration/misuse/overlap.mlir %S/../Integration/misuse/pairs.mlir | FileCheck %s

// CHECK-LABEL: checked/bad_check: clean
// CHECK-LABEL: checked/bad_timeout: clean
// CHECK-LABEL: checked/broadcast:
// CHECK-NEXT: broadcast.mlir:7:5: error: 'distruntime.collective_broadcast' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective (members 1 and 0 of one group take different sides)
// CHECK-LABEL: checked/count:
// CHECK-NEXT: count.mlir:14:3: warning: dimension 0 of input #0 of 'distruntime.all_reduce' may differ between members of team 0
// CHECK-LABEL: checked/dtype:
// CHECK-NEXT: dtype.mlir:7:5: error: {{.*}}element type f32 here, i32 on the other side
// CHECK-LABEL: checked/gather_dim:
// CHECK-NEXT: gather_dim.mlir:8:5: error: {{.*}}all_gather_dim 0 here, 1 on the other side
// CHECK-LABEL: checked/gather_type:
// CHECK-NEXT: gather_type.mlir:8:5: error: {{.*}}element type i8 here, ui8 on the other side
// CHECK-LABEL: checked/groups:
// CHECK-NEXT: groups.mlir:7:5: error: {{.*}}the other side runs no matching collective (members 0 and 1 of one group take different sides)
// CHECK-LABEL: checked/last_rank:
// CHECK-NEXT: last_rank.mlir:14:3: warning: dimension 0 of input #0 of 'distruntime.all_reduce' may differ
// CHECK-LABEL: checked/mode:
// CHECK-NEXT: mode.mlir:7:5: error: {{.*}}mode sync here, async on the other side
// CHECK-LABEL: checked/operands:
// CHECK: operands.mlir:7:5: error: {{.*}}operands 4 here, 2 on the other side
// CHECK: operands.mlir:7:5: error: outputs #0 and #1 (outs) of 'distruntime.all_reduce' are the same buffer
// CHECK-LABEL: checked/other_op:
// CHECK-NEXT: other_op.mlir:7:5: error: {{.*}}op 'distruntime.all_reduce' here, 'distruntime.all_gather' on the other side
// CHECK-LABEL: checked/p2p_async:
// CHECK-NEXT: p2p_async.mlir:7:5: error: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: element type i64 here, f64 at the other
// CHECK-LABEL: checked/p2p_type:
// CHECK-NEXT: p2p_type.mlir:7:5: error: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: element type f32 here, i32 at the other
// CHECK-LABEL: checked/permute_type:
// CHECK-NEXT: permute_type.mlir:7:5: error: {{.*}}element type f32 here, i32 on the other side
// CHECK-LABEL: checked/reduction:
// CHECK-NEXT: reduction.mlir:7:5: error: {{.*}}reduction sum here, max on the other side
// CHECK-LABEL: checked/rfc_allreduce:
// CHECK-NEXT: rfc_allreduce.mlir:7:5: error: {{.*}}element type f64 here, f32 on the other side
// CHECK-LABEL: checked/scatter_dim:
// CHECK-NEXT: scatter_dim.mlir:8:5: error: {{.*}}scatter_dimension 0 here, 1 on the other side
// CHECK-LABEL: checked/scatter_red:
// CHECK-NEXT: scatter_red.mlir:8:5: error: {{.*}}reduction min here, umin on the other side
// CHECK-LABEL: checked/skipped:
// CHECK-NEXT: skipped.mlir:7:5: error: {{.*}}the other side runs no matching collective
// CHECK-LABEL: checked/skipped_next:
// CHECK-NEXT: skipped_next.mlir:7:5: error: {{.*}}the other side runs no matching collective
// CHECK-LABEL: checked/split_dim:
// CHECK-NEXT: split_dim.mlir:7:5: error: {{.*}}split_dimension 0 here, 1 on the other side

// CHECK-LABEL: unchecked/huge_broadcast: clean
// CHECK-LABEL: unchecked/huge_gather: clean
// CHECK-LABEL: unchecked/huge_send:
// CHECK-NEXT: huge_send.mlir:11:5: warning: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: its channel has none
// CHECK-LABEL: unchecked/length:
// CHECK-NEXT: length.mlir:9:3: warning: dimension 0 of input #0 of 'distruntime.all_reduce' may differ
// CHECK-LABEL: unchecked/permute_sizes:
// CHECK-NEXT: permute_sizes.mlir:12:3: warning: dimension 0 of input #0 of 'distruntime.collective_permute' may differ
// CHECK-LABEL: unchecked/recv_long:
// CHECK-NEXT: recv_long.mlir:9:5: error: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: shape memref<2xf32> here, memref<4xf32> at the other; fix: give the send and the recv of a channel the same source_target_pairs, element types and shapes
// CHECK-LABEL: unchecked/recv_short:
// CHECK-NEXT: recv_short.mlir:9:5: error: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: shape memref<4xf32> here, memref<2xf32> at the other
// CHECK-LABEL: unchecked/unknown_team: clean
// CHECK-LABEL: unchecked/unreceived:
// CHECK-NEXT: unreceived.mlir:9:5: warning: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: its channel has none
// CHECK-LABEL: unchecked/unwaited:
// CHECK-NEXT: unwaited.mlir:9:10: error: the async handle of 'distruntime.recv' is never waited
// CHECK: unwaited.mlir:12:8: error: the async handle of 'distruntime.all_reduce' is never waited
// CHECK-LABEL: unchecked/unwaited_dealloc:
// CHECK-NEXT: unwaited_dealloc.mlir:6:8: error: the async handle of 'distruntime.allreduce' is not waited on every path; fix: wait it on every path, in each region of the branch or once after it

// CHECK-LABEL: hangs/channel:
// CHECK-NEXT: channel.mlir:14:5: warning: 'distruntime.send' on channel_id 1 of team 0 meets no recv of this module: its channel has none
// CHECK: channel.mlir:17:5: warning: 'distruntime.recv' on channel_id 2 of team 0 meets no send of this module: its channel has none
// CHECK-LABEL: hangs/early_exit:
// CHECK-NEXT: early_exit.mlir:13:5: error: {{.*}}the other side runs no matching collective; fix: run the same collective on every side, or move it out of the branch, or branch on a value every member agrees on (an all_reduce's result, team_size)
// CHECK-LABEL: hangs/get_halo_plan: clean
// CHECK-LABEL: hangs/group_split: clean
// CHECK-LABEL: hangs/halo_changed: clean
// CHECK-LABEL: hangs/halo_plan: clean
// CHECK-LABEL: hangs/last_exits:
// CHECK-NEXT: last_exits.mlir:8:5: error: {{.*}}the other side runs no matching collective
// CHECK-LABEL: hangs/permute_alone:
// CHECK-NEXT: permute_alone.mlir:13:5: error: {{.*}}the other side runs no matching collective
// CHECK-LABEL: hangs/recv_alone:
// CHECK-NEXT: recv_alone.mlir:13:5: warning: 'distruntime.recv' on channel_id 0 of team 0 meets no send of this module: its channel has none
// CHECK-LABEL: hangs/stopped: clean
// CHECK-LABEL: hangs/stopped_checked: clean
// CHECK-LABEL: hangs/stopped_last: clean
// CHECK-LABEL: hangs/wait_recv:
// CHECK-NEXT: wait_recv.mlir:13:10: warning: 'distruntime.recv' on channel_id 0 of team 0 meets no send of this module: its channel has none
// CHECK-LABEL: hangs/wait_reduce:
// CHECK-NEXT: wait_reduce.mlir:13:10: error: {{.*}}the other side runs no matching collective

// CHECK-LABEL: selective/halo: clean
// CHECK-LABEL: selective/proven_location: clean
// CHECK-LABEL: selective/proven_reduction:
// CHECK-NEXT: proven_reduction.mlir:7:5: error: {{.*}}reduction sum here, max on the other side
// CHECK-LABEL: selective/unproven:
// CHECK-NEXT: unproven.mlir:20:3: warning: dimension 0 of input #0 of 'distruntime.all_reduce' may differ between members of team 0

// CHECK-LABEL: dynamic-root/differ: clean
// CHECK-LABEL: dynamic-root/range_all: clean
// CHECK-LABEL: dynamic-root/range_one: clean

// CHECK-LABEL: overlap/crossed:
// CHECK-NEXT: crossed.mlir:5:3: error: input #1 and output #0 (outs) of 'distruntime.all_reduce' are the same buffer
// CHECK-LABEL: overlap/in_place: clean
// CHECK-LABEL: overlap/same_outputs:
// CHECK-NEXT: same_outputs.mlir:10:3: error: outputs #0 and #1 (outs) of 'distruntime.all_reduce' are the same buffer
// CHECK-LABEL: overlap/views: clean

// CHECK-LABEL: pairs/permute_pairs:
// CHECK-NEXT: permute_pairs.mlir:11:5: error: {{.*}}does not match the other side: source_target_pairs {{.*}}[0, 1]{{.*}} here, {{.*}}[1, 0]{{.*}} on the other side (members 0 and 1 of one group take different sides)
// CHECK-LABEL: pairs/recv_pairs:
// CHECK-NEXT: recv_pairs.mlir:7:5: error: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: source_target_pairs {{\[\[}}0, 1]] here, {{\[\[}}0, 1], [1, 0]] at the other
// CHECK-LABEL: pairs/send_pairs:
// CHECK-NEXT: send_pairs.mlir:9:5: error: 'distruntime.send' on channel_id 0 of team 0 meets no recv of this module: source_target_pairs {{\[\[}}0, 1]] here, {{\[\[}}1, 0]] at the other
