#!/usr/bin/env bash
# Makes training data chunks (docs/data.md) under data/jieqi/: chunk k from deal range k. For
# each missing chunk, in order: seeded self-play between two alphabeta players at fixed nodes
# (2,000 and 3,000 nodes a move, so that the two games of a pair differ; no adjudication, the
# arena's default 400-ply cap), master seed 52000 + k (pair p deals from mix(52000 + k, p)),
# then `arena label`: the first --positions quiet positions of those games (after 10 plies, not
# in check, the last and the next move no capture) labelled by alphabeta at --label-nodes
# nodes (score and depth), written as data/jieqi/chunk-KKKK.jqd with its provenance in
# chunk-KKKK.json. A chunk is never rewritten: a rerun continues at the first missing chunk, and
# an interrupted chunk leaves nothing (with --keep its games resume too). The same commit gives
# the same chunk bytes at any --threads.
#
# Usage: scripts/make-data.sh [--no-build] [--chunks N] [--threads T] [--pairs P]
#                             [--positions N] [--label-nodes N] [--out DIR] [--keep DIR]
#   --no-build        use an arena that is built: target/release/arena, else arena on PATH
#   --chunks N        make chunks 0 to N-1, those missing (default 1)
#   --threads T       threads for the games and the labels (default: the number of cores)
#   --pairs P         game pairs played for a chunk (default 1000: 2,000 games, about 66,000
#                     quiet positions, for 50,000 kept)
#   --positions N     positions a chunk (default 50000, 1.95 MB; keep one size in a folder)
#   --label-nodes N   nodes of each label search (default 20000: 10x and 6.7x the players')
#   --out DIR         the chunks' folder, from the current directory (default data/jieqi)
#   --keep DIR        keep each chunk's games in DIR/chunk-KKKK, from the current directory
#                     (default: a temporary folder, removed at the end)
# ARENA=PATH in the environment runs that arena binary (and skips the build).
#
# A chunk: about 2,000 games and 50,000 labels at 20,000 nodes; measured on a loaded 2-core
# machine, 50 labels a second on one thread (docs/data.md has the measured costs).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
build=1
chunks=1
threads="$(nproc 2>/dev/null || echo 2)"
pairs=1000
positions=50000
label_nodes=20000
out="$root/data/jieqi"
keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0 ;;
        --chunks) need "$@"; whole "$1" "$2"; chunks="$2"; shift ;;
        --threads) need "$@"; whole "$1" "$2"; threads="$2"; shift ;;
        --pairs) need "$@"; whole "$1" "$2"; pairs="$2"; shift ;;
        --positions) need "$@"; whole "$1" "$2"; positions="$2"; shift ;;
        --label-nodes) need "$@"; whole "$1" "$2"; label_nodes="$2"; shift ;;
        --out) need "$@"; out="$(absolute "$2")"; shift ;;
        --keep) need "$@"; keep="$(absolute "$2")"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) usage_error "unknown argument '$1' (see --help)" ;;
    esac
    shift
done
(( chunks <= 10000 )) || usage_error "--chunks '$chunks': at most 10000 (chunk names have 4 digits)"
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
arena="$(build_arena "$root" "$build")" || exit $?
if [[ -n $keep ]]; then
    games="$keep"
else
    games="$(mktemp -d)"
    trap 'rm -rf "$games"' EXIT
fi
mkdir -p "$out" "$games"
for (( k = 0; k < chunks; k++ )); do
    name="$(printf 'chunk-%04d' "$k")"
    if [[ -e "$out/$name.jqd" ]]; then
        continue
    fi
    dir="$games/$name"
    resume=()
    [[ -e "$dir/match.json" ]] && resume=(--resume)
    echo "$name: playing $pairs pairs (seed $((52000 + k)))" >&2
    "$arena" match --engine alphabeta:nodes=2000,name=ab-2k \
        --engine alphabeta:nodes=3000,name=ab-3k \
        --pairs "$pairs" --seed "$((52000 + k))" --threads "$threads" --no-progress \
        --report-every 0 --out "$dir" "${resume[@]}" >/dev/null
    echo "$name: labelling $positions positions at $label_nodes nodes" >&2
    "$arena" label "$dir" --out "$out/$name.jqd" --engine alphabeta --nodes "$label_nodes" \
        --positions "$positions" --skip 10 --threads "$threads"
    [[ -n $keep ]] || rm -rf "${dir:?}"
done
