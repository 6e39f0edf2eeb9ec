#!/usr/bin/env bash
# fails-within SECONDS COMMAND...: runs COMMAND, passing its output through,
# and succeeds only if it exits non-zero, not by a signal, within SECONDS:
# a misuse must end the job with an error, never hang, crash or pass.
limit=$1
shift
timeout -k 2 "$limit" "$@"
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "fails-within: the command exited 0" >&2
  exit 1
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "fails-within: the command still ran after $limit s" >&2
  exit 1
fi
if [ "$rc" -gt 128 ]; then
  echo "fails-within: the command died of signal $((rc - 128))" >&2
  exit 1
fi
exit 0
