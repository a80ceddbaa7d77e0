#!/usr/bin/env bash
# One shard of a sharded arena run (match, tournament or leak): the task every scheduler runs (a
# Slurm array task, a pod of a Kubernetes indexed Job, a GNU parallel job), on any machine.
#
# Usage: scripts/cluster/shard-task.sh K N OUT -- ARENA_ARGS...
#   K           which shard, 0 to N-1; '-' takes it from SLURM_ARRAY_TASK_ID, else from
#               JOB_COMPLETION_INDEX (set by Kubernetes in an indexed Job), else fails
#   N           how many shards the run is cut into (the same for every task)
#   OUT         the run's folder; this shard writes the results folder OUT/shard-K
#   ARENA_ARGS  the arena command (match, tournament or leak) and its arguments, the same for
#               every shard, without --out and --shard: e.g.
#               match --engine A --engine B --pairs 2000 --nodes 20000 --seed 7
#   -h, --help  this help
#
# Runs   "$ARENA" ARENA_ARGS... --shard K/N --out OUT/shard-K --no-progress [--resume]
# Shard K plays the pairs p with p ≡ K (mod N), with the same deals and engine seeds as the whole
# run; --resume is added when OUT/shard-K/games.jsonl exists, so a retried or requeued task goes on
# where it stopped (finished pairs are kept). When every shard is done, merge-task.sh N OUT puts
# them together in OUT/merged.
#
# Environment: ARENA  the arena binary (if unset: target/release/arena of this repository if
#                     built, else arena on PATH)
# Exit status: arena's (0 done, 2 bad usage or configuration, 4 results not written); 2 for bad
# arguments to this script. A shard whose engine failed in more than 5 % of its games (arena's 5)
# is done: it exits 0 after a line that says so, and the merge exits 5 for the whole run.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1-}" in
    -h | --help) show_help; exit 0 ;;
esac
[[ $# -ge 4 && "$4" == "--" ]] || die "usage: $prog K N OUT -- ARENA_ARGS... (see --help)"
k="$1"
n="$2"
out="$3"
shift 4

is_count "$n" || die "N must be a whole number of shards, 1 or more (got '$n')"
if [[ "$k" == "-" ]]; then
    if [[ -n "${SLURM_ARRAY_TASK_ID-}" ]]; then
        k="$SLURM_ARRAY_TASK_ID"
        from="SLURM_ARRAY_TASK_ID"
    elif [[ -n "${JOB_COMPLETION_INDEX-}" ]]; then
        k="$JOB_COMPLETION_INDEX"
        from="JOB_COMPLETION_INDEX"
    else
        die "K is '-' but neither SLURM_ARRAY_TASK_ID (a Slurm array task) nor JOB_COMPLETION_INDEX (a Kubernetes indexed Job) is set: give K as a number"
    fi
    is_index "$k" || die "$from is '$k', not a shard index"
else
    is_index "$k" || die "K must be a shard index, 0 to N-1, or '-' (got '$k')"
fi
[[ "$k" -lt "$n" ]] || die "shard $k does not exist: K counts from 0, so it must be below N = $n"
[[ -n "$out" ]] || die "OUT is empty"
check_arena_args "$@"
resolve_arena need

dir="$out/shard-$k"
mkdir -p -- "$dir" || die "cannot create $dir"
args=("$@" --shard "$k/$n" --out "$dir")
has_flag --no-progress "$@" || args+=(--no-progress)
how="starting"
if [[ -e "$dir/games.jsonl" ]]; then
    how="resuming"
    has_flag --resume "$@" || args+=(--resume)
fi
say "shard $k/$n on $(hostname 2>/dev/null || echo '?'), $how in $dir, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
# arena runs in the background so that a signal reaches the trap at once (bash runs a trap only
# after the foreground command ends, and as a pod's first process it ignores an untrapped
# SIGTERM); the trap passes the signal on, and arena stops as it does on its own.
"$ARENA" "${args[@]}" &
child=$!
forwarded=0
forward() {
    forwarded=1
    kill -"$1" "$child" 2>/dev/null || true
}
trap 'forward TERM' TERM
trap 'forward INT' INT
trap 'forward HUP' HUP
# A wait that a trapped signal cuts short returns above 128: wait again for arena's own status
# (bash keeps it once arena has ended).
forwarded=1
while [[ $forwarded -eq 1 ]]; do
    forwarded=0
    status=0
    wait "$child" || status=$?
done
trap - TERM INT HUP
if [[ $status -eq 5 ]]; then
    # Played to the end: a retry would change nothing; the merge judges the whole run.
    say "shard $k/$n done, but an engine failed in more than 5 % of its games (arena exit 5; the merge says it for the run)"
    status=0
fi
exit "$status"
