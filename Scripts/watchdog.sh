#!/usr/bin/env bash
# Runs a command with a time limit. Past the limit it prints every thread's backtrace of the command's
# processes (gdb, when installed), stops them and fails with 124, so that a hang in CI says where it is
# instead of stalling the run until CI's own limit ends it without a word.
# Usage: Scripts/watchdog.sh SECONDS COMMAND [ARGUMENT...]
set -uo pipefail
limit=$1
shift

descendants() {  # every process below $1, deepest first
  local child
  for child in $(pgrep -P "$1"); do
    descendants "$child"
    echo "$child"
  done
}

"$@" &
pid=$!
(
  exec >&2  # the report goes to standard error, which callers keep when they silence a command's output
  trap '' PIPE  # a reader that went away must not keep the watcher from stopping the command
  sleep "$limit" </dev/null >/dev/null 2>&1 &  # holds no pipe of the caller's while it waits
  sleeper=$!
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM  # the command ended in time
  wait "$sleeper"
  kill -0 "$pid" 2>/dev/null || exit 0
  echo "== watchdog: '$*' is still running after $limit s; the threads of its processes:"
  processes="$(descendants "$pid") $pid"
  for process in $processes; do
    echo "-- process $process: $(tr '\0' ' ' <"/proc/$process/cmdline" 2>/dev/null | cut -c1-200)"
    if command -v gdb >/dev/null; then
      timeout 120 gdb -p "$process" -batch -ex "thread apply all bt 40" 2>/dev/null | grep -E '^(Thread|#)'
    fi
  done
  kill -KILL $processes 2>/dev/null
) &
watcher=$!
wait "$pid"
status=$?
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
# A command killed by the watcher ends with 137 (SIGKILL): report the time-out as such.
if [ "$status" = 137 ]; then status=124; fi
exit "$status"
