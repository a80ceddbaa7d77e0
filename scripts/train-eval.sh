#!/usr/bin/env bash
# Trains alphabeta's evaluation from our own games and writes configs/eval/learned.json: plays
# seeded, node-limited games between two alphabeta players that evaluate with the hand-crafted
# weights (configs/eval/default.json), then fits the weights and the piece-square tables to them
# with `arena tune --pst` (targets: half the game's result, half the win probability of the score
# the playing search gave the position; a pull towards the starting weights). The weights file
# records its provenance (commit, games, positions, settings, losses). The same commit gives the
# same file: the games are node-limited and the fit is summed in a fixed order.
#
# Usage: scripts/train-eval.sh [--no-build] [--threads T] [--pairs N] [--keep DIR] [--out PATH]
#   --no-build     use an arena that is built: target/release/arena, else arena on PATH
#   --threads T    threads for the games and the fit (default: the number of cores)
#   --pairs N      game pairs to learn from (default 2500: 5000 games, about 230 000 positions)
#   --keep DIR     keep the games in DIR, from the current directory (default: a temporary
#                  folder, removed at the end)
#   --out PATH     the weights file to write, from the current directory (default:
#                  configs/eval/learned.json)
# ARENA=PATH in the environment runs that arena binary (and skips the build).
#
# About 10 minutes on an idle 2-core machine: the games take nearly all of it, the fit half a minute.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
build=1
threads="$(nproc 2>/dev/null || echo 2)"
pairs=2500
keep=""
out="$root/configs/eval/learned.json"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0 ;;
        --threads) need "$@"; whole "$1" "$2"; threads="$2"; shift ;;
        --pairs) need "$@"; whole "$1" "$2"; pairs="$2"; shift ;;
        --keep) need "$@"; keep="$(absolute "$2")"; shift ;;
        --out) need "$@"; out="$(absolute "$2")"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) usage_error "unknown argument '$1' (see --help)" ;;
    esac
    shift
done
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
arena="$(build_arena "$root" "$build")" || exit $?
cd "$root"
if [[ -n $keep ]]; then
    games="$keep"
    mkdir -p "$games"
else
    games="$(mktemp -d)"
    trap 'rm -rf "$games"' EXIT
fi
hand="configs/eval/default.json"
rm -rf "${games:?}/selfplay"
# Two players that differ in contempt only, so that the two games of a pair differ.
"$arena" match --engine "alphabeta:eval=$hand,name=ab" \
    --engine "alphabeta:eval=$hand,name=ab-c0,contempt=0" \
    --nodes 4000 --pairs "$pairs" --seed 301 --threads "$threads" --no-progress \
    --out "$games/selfplay" >/dev/null
RAYON_NUM_THREADS="$threads" "$arena" tune "$games/selfplay" --eval "$hand" --pst \
    --lambda 0.5 --l2 0.00000001 --seed 1 --out "$out"
