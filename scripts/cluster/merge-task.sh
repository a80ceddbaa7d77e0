#!/usr/bin/env bash
# The last task of a sharded arena run: merges the shard folders OUT/shard-0 ... OUT/shard-(N-1)
# into OUT/merged, the results folder one machine running the whole run would have written.
#
# Usage: scripts/cluster/merge-task.sh N OUT [--partial]
#   N           how many shards the run was cut into
#   OUT         the run's folder, holding shard-0 ... shard-(N-1)
#   --partial   merge what there is: shard folders that do not exist are left out, and arena merge
#               accepts missing pairs (the summary says which); without it a missing shard folder
#               or pair is an error
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
# Environment: ARENA  the arena binary (default: target/release/arena of this repository)
# Exit status: arena merge's: 0 merged, 2 refused (folders of different runs, duplicates, missing
# shards or pairs without --partial; bad arguments here), 4 I/O error.
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

dirs=()
missing=()
for ((k = 0; k < n; k++)); do
    if [[ -d "$out/shard-$k" ]]; then
        dirs+=("$out/shard-$k")
    else
        missing+=("shard-$k")
    fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ $partial -eq 0 ]]; then
        die "missing in $out: ${missing[*]} (did those tasks run? Rerun them, they resume; or merge what there is with --partial)"
    fi
    [[ ${#dirs[@]} -gt 0 ]] || die "no shard folder in $out: nothing to merge"
    say "warning: merging without ${missing[*]} (--partial)"
fi

args=(merge "${dirs[@]}" --out "$out/merged")
[[ $partial -eq 1 ]] && args+=(--partial)
say "merging ${#dirs[@]} of $n shards into $out/merged"
exec "$ARENA" "${args[@]}"
