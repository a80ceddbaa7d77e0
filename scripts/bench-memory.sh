#!/usr/bin/env bash
# Peak resident memory of the arena against the number of pairs, for every command that plays or
# merges games: match, tournament, leak, sprt, and merge of 3 shards. Games are written as they
# finish and then dropped, so the peak should stay flat as the pairs grow.
#
#   scripts/bench-memory.sh                      # 10000 and 100000 pairs (about an hour on 2 cores)
#   scripts/bench-memory.sh 1000 10000           # other sizes
#   ARENA=target/release/arena THREADS=2 scripts/bench-memory.sh 10000
#
# Engines: random vs random (the cheapest games, so the harness's own memory shows). A tournament
# of three engines plays pairs/3 pairs per pairing, so each command plays about `pairs` pairs. The
# gate's bounds (-0.5, 0.5) are too narrow to decide early on equal engines; it stops at its cap
# or its verdict, and the table says how many pairs it played. Needs GNU time (/usr/bin/time).
# The arena: ARENA (a path, taken from the current directory, or a command on PATH), else
# target/release/arena of this repository (built first with cargo build --release whenever it
# is the one measured and cargo is there), else arena on PATH. Exit status: 0 = measured,
# 1 = a command failed, 2 = bad usage (a size or THREADS that is not a whole number of 1 or
# more, no arena).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
case "${1-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
for n in "$@"; do
    whole "pairs" "$n"
done
THREADS=${THREADS:-2}
whole THREADS "$THREADS"
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
if [ -z "${ARENA:-}" ] && command -v cargo >/dev/null; then
    ARENA="$root/target/release/arena"
fi
if [ "${ARENA:-}" != "$root/target/release/arena" ]; then
    found="$(find_arena "$root")" || { echo "error: $(no_arena_message "$root")" >&2; exit 2; }
    ARENA="$found"
fi
cd "$root"
sizes=()
for n in "$@"; do
    sizes+=($((10#$n)))
done
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
if [ ! -x /usr/bin/time ]; then
    echo "error: needs GNU time at /usr/bin/time (apt-get install time)" >&2
    exit 2
fi
if [ "$ARENA" = "$root/target/release/arena" ] && command -v cargo >/dev/null; then
    cargo build --release -p arena >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
e=(--engine random --engine random:name=r2)
peak() { # label pairs -- command…
    local label=$1 pairs=$2
    shift 3
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f %M -o "$work/rss" "$@" > "$work/out" 2> "$work/err" || {
        local rc=$?
        # arena sprt exits 1 (H0) or 3 (inconclusive) by design.
        if ! { [ "$label" = sprt ] && { [ $rc -eq 1 ] || [ $rc -eq 3 ]; }; }; then
            echo "error: $label failed (exit $rc):" >&2
            cat "$work/err" >&2
            exit 1
        fi
    }
    end=$(date +%s.%N)
    awk -v l="$label" -v p="$pairs" -v kb="$(tail -n 1 "$work/rss")" -v s="$start" -v e="$end" \
        'BEGIN { printf "%-10s %8s %10d %9.1f\n", l, p, kb / 1024, e - s }'
}
printf '%-10s %8s %10s %9s\n' command pairs "peak MB" "wall s"
for n in "${sizes[@]}"; do
    d=$work/$n
    mkdir -p "$d"
    peak match "$n" -- "$ARENA" match "${e[@]}" --pairs "$n" --threads "$THREADS" --out "$d/match" --no-progress
    peak tournament "$n" -- "$ARENA" tournament "${e[@]}" --engine random:name=r3 --pairs $((n / 3)) \
        --threads "$THREADS" --out "$d/tournament" --no-progress
    peak leak "$n" -- "$ARENA" leak --engine random --pairs "$n" --threads "$THREADS" --out "$d/leak" \
        --no-progress
    peak sprt "$n" -- "$ARENA" sprt "${e[@]}" --elo0 -0.5 --elo1 0.5 --max-pairs "$n" \
        --threads "$THREADS" --out "$d/sprt" --no-progress
    for k in 0 1 2; do
        "$ARENA" match "${e[@]}" --pairs "$n" --shard "$k/3" --threads "$THREADS" \
            --out "$d/shard$k" --no-progress > /dev/null
    done
    peak merge "$n" -- "$ARENA" merge "$d/shard0" "$d/shard1" "$d/shard2" --out "$d/merged"
    rm -rf "$d"
done
