#!/usr/bin/env bash
# The last task of a sharded arena run: merges the shard folders OUT/shard-0 ... OUT/shard-(N-1)
# into OUT/merged, the results folder one machine running the whole run would have written.
#
# Usage: scripts/cluster/merge-task.sh N OUT [--partial]
#   N           how many shards the run was cut into
#   OUT         the run's folder, holding shard-0 ... shard-(N-1)
#   --partial   merge what there is: shard folders without a journal (games.jsonl) are left out,
#               and arena merge accepts missing pairs (the summary says which); without it a
#               missing shard or pair is an error
#   -h, --help  this help
#
# Runs   "$ARENA" merge OUT/shard-0 ... OUT/shard-(N-1) --out OUT/merged [--partial]
# arena merge refuses shards of different runs (it names what differs: engines, rules, seed,
# limits, harness version), a different N, a shard twice, a pair recorded twice and missing pairs;
# it writes OUT/merged as one machine would have (games.csv, games.jsonl, summary.json or a
# tournament's ratings and reports), and prints a chi-square homogeneity test across the shards
# (also in OUT/merged/merge.json) that flags a shard whose results differ from the others by more
# than chance: a broken worker. OUT/merged may already hold an earlier merge of the same run.
#
# Traces in OUT, for the operator: OUT/merge.log gets a line when a merge starts and one when it
# ends (merged, refused, failed or cancelled, with the time, the Slurm job id or the host). A merge
# stopped by SIGTERM, SIGINT or SIGHUP (scancel, a Slurm time limit, a deleted pod, Ctrl-C) writes
# OUT/MERGE-CANCELLED: when, which signal, which job, and how to merge again; the next merge that
# succeeds removes it. When shards are missing or unfinished (no OUT/shard-K/games.csv), the
# message names them and, for a Slurm run (OUT/slurm/shard.sbatch), prints the command line that
# reruns them and merges after them.
#
# Environment: ARENA  the arena binary (if unset: target/release/arena of this repository if
#                     built, else arena on PATH)
# Exit status: arena merge's: 0 merged, 2 refused (folders of different runs, duplicates, missing
# shards or pairs without --partial; bad arguments here), 4 I/O error, 5 merged but an engine
# failed in more than 5 % of its games; 128 + the signal's number when cancelled (143 for
# SIGTERM).
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1-}" in
    -h | --help) show_help; exit 0 ;;
esac
[[ $# -eq 2 || ($# -eq 3 && "${3-}" == "--partial") ]] ||
    die "usage: $prog N OUT [--partial] (see --help)"
n="$1"
out="$2"
partial=0
[[ $# -eq 3 ]] && partial=1
is_count "$n" || die "N must be a whole number of shards, 1 or more (got '$n')"
[[ -d "$out" ]] || die "no run folder '$out'"
resolve_arena need

# Who is merging, for the traces: the Slurm job, else the host (a pod's name on Kubernetes).
if [[ -n "${SLURM_JOB_ID-}" ]]; then
    who="Slurm job $SLURM_JOB_ID on $(hostname 2>/dev/null || echo '?')"
else
    who="host $(hostname 2>/dev/null || echo '?'), pid $$"
fi
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# A line in OUT/merge.log (a folder that cannot be written is the merge's to report).
trace() { printf '%s %s\n' "$(now)" "$*" >>"$out/merge.log" 2>/dev/null || true; }

# What to run for the shards that did not finish, K...: a Slurm run's exact recovery, else the
# scheduler's command again.
recovery() {
    if [[ -f "$out/slurm/shard.sbatch" && -f "$out/slurm/merge.sbatch" ]]; then
        say "rerun them and merge after them (the merge must wait for them: --dependency=afterok):"
        echo "    $(slurm_recovery "$out/slurm" "$@")" >&2
        say "or run the same slurm.sh command again (finished shards return at once, the others resume)"
    else
        say "run the scheduler's command again (finished shards return at once, the others resume)," \
            "or shard-task.sh for each of them, then this merge"
    fi
}

dirs=()
missing=()
for ((k = 0; k < n; k++)); do
    if [[ -s "$out/shard-$k/games.jsonl" ]]; then
        dirs+=("$out/shard-$k")
    else
        missing+=("$k")
    fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
    what="shards without a journal in $out (no games.jsonl: never started, or failed before a game): ${missing[*]}"
    if [[ $partial -eq 0 ]]; then
        trace "merge refused ($who): $what"
        say "$what"
        recovery "${missing[@]}"
        say "or merge what there is: $(merge_command "$n" "$out" --partial)"
        exit 2
    fi
    [[ ${#dirs[@]} -gt 0 ]] || die "no shard of $out has a journal (shard-K/games.jsonl): nothing to merge"
    say "warning: merging without shards ${missing[*]} (--partial)"
fi

args=(merge "${dirs[@]}" --out "$out/merged")
[[ $partial -eq 1 ]] && args+=(--partial)
say "merging ${#dirs[@]} of $n shards into $out/merged"
trace "merge of ${#dirs[@]} of $n shards into $out/merged started ($who)"

# arena runs in the background so that a signal reaches the trap at once (bash runs a trap only
# after the foreground command ends); the trap passes SIGTERM on to arena and leaves the note.
"$ARENA" "${args[@]}" &
child=$!
cancelled() {
    local sig="$1" code="$2"
    trap '' TERM INT HUP
    kill -TERM "$child" 2>/dev/null || true
    {
        echo "The merge of $out was cancelled at $(now) by SIG$sig ($who)."
        echo "Slurm sends SIGTERM on scancel and at the job's time limit; Kubernetes when the pod is deleted."
        echo "$out/merged may be unfinished. Merge again with:"
        if [[ -f "$out/slurm/merge.sbatch" ]]; then
            echo "    sbatch $(shell_words "$out/slurm/merge.sbatch")"
            echo "or, on this machine:"
        fi
        echo "    $(merge_command "$n" "$out")"
        echo "(this file is removed by the next merge that succeeds; $out/merge.log has every attempt)"
    } >"$out/MERGE-CANCELLED" 2>/dev/null || true
    trace "merge CANCELLED by SIG$sig ($who); see $out/MERGE-CANCELLED"
    say "cancelled by SIG$sig: noted in $out/MERGE-CANCELLED and $out/merge.log"
    wait "$child" 2>/dev/null || true
    exit "$code"
}
trap 'cancelled TERM 143' TERM
trap 'cancelled INT 130' INT
trap 'cancelled HUP 129' HUP
status=0
wait "$child" || status=$?
trap - TERM INT HUP
case "$status" in
    0)
        rm -f "$out/MERGE-CANCELLED"
        trace "merged into $out/merged ($who)"
        ;;
    2)
        trace "merge refused by arena, exit 2 ($who): see its message in this job's log"
        unfinished_list="$(unfinished "$n" "$out")"
        if [[ $partial -eq 0 && -n "$unfinished_list" ]]; then
            # shellcheck disable=SC2086 # one word per index
            say "shards that did not finish (no shard-K/games.csv): $unfinished_list"
            # shellcheck disable=SC2086
            recovery $unfinished_list
        fi
        ;;
    5)
        rm -f "$out/MERGE-CANCELLED"
        trace "merged into $out/merged, but an engine failed in more than 5 % of its games: exit 5 ($who)"
        ;;
    *) trace "merge failed, exit $status ($who)" ;;
esac
exit "$status"
