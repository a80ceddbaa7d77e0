#!/usr/bin/env bash
# Our alphabeta against Fairy-Stockfish in Xiangqi: first at equal time per move, then at time
# odds that give alphabeta 2x, 4x, 8x ... Fairy-Stockfish's time, until alphabeta scores 50 % or
# more (the odds at which we are even) or --max-odds is reached. Each rung is one
# `arena match --rules xiangqi` of --pairs pairs (200 by default, as issue 26 asks) in
# OUT/odds-<K>x/; the table at the end has one line per rung, alphabeta's side of each result.
# Rerunning with the same --out resumes every rung (a finished one is only reported again).
#
# Usage: scripts/fairy-ladder.sh [--movetime MS] [--pairs N] [--max-odds K] [--threads T]
#                                [--seed S] [--out DIR] [--all] [--no-build]
#   --movetime MS  Fairy-Stockfish's milliseconds per move (default 50); alphabeta gets K x MS
#   --pairs N      game pairs per rung (default 200)
#   --max-odds K   the last rung, a power of two (default 64)
#   --threads T    games played at once (default 1: the engines' time is wall-clock time)
#   --seed S       master seed (default 1; every rung plays the same deals)
#   --out DIR      results folder, from the current directory (default
#                  results/fairy-ladder-<UTC date> in the repository)
#   --all          play every rung up to --max-odds, not only until alphabeta is even
#   --no-build     use an arena that is built: target/release/arena, else arena on PATH
#                  (ARENA=PATH names another, and skips the build too)
# FAIRY_STOCKFISH=PATH names the engine (default /usr/games/fairy-stockfish, Debian's
# `fairy-stockfish` package). Needs jq for the table.
#
# Wall-clock time limits make results depend on the machine and its load: run on an otherwise idle
# machine, and read the numbers as "at this time control on this machine".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
movetime=50
pairs=200
max_odds=64
threads=1
seed=1
out=""
all=0
build=1

die() { usage_error "$@"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --movetime) need "$@"; whole "$1" "$2"; movetime=$((10#$2)); shift 2 ;;
        --pairs) need "$@"; whole "$1" "$2"; pairs=$((10#$2)); shift 2 ;;
        --max-odds) need "$@"; whole "$1" "$2"; max_odds=$((10#$2)); shift 2 ;;
        --threads) need "$@"; whole "$1" "$2"; threads=$((10#$2)); shift 2 ;;
        --seed) need "$@"; whole "$1" "$2" 0; seed="$2"; shift 2 ;;
        --out) need "$@"; out="$(absolute "$2")"; shift 2 ;;
        --all) all=1; shift ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
(( (max_odds & (max_odds - 1)) == 0 )) || die "--max-odds $max_odds is not a power of two"
command -v jq >/dev/null || die "jq not found (apt-get install jq): it reads the results"
fsf="$(absolute "${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}")"
[[ -x "$fsf" ]] || die "no Fairy-Stockfish at $fsf (apt-get install fairy-stockfish, or FAIRY_STOCKFISH=PATH)"
[[ -n "$out" ]] || out="$root/results/fairy-ladder-$(date -u +%Y%m%d)"
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
arena="$(build_arena "$root" "$build")" || exit $?
mkdir -p "$out"

# One table line from a rung's summary.json: alphabeta is engine a, so the result is its own.
row() {
    jq -r --arg odds "$1" '
        def num: if type == "number" then (. * 10 | round / 10 | tostring) else tostring end;
        .results as $r
        | "| \($odds) | \(.per_move.fsf.ms | num) | \(.per_move.alphabeta.ms | num) | \($r.games) | \($r.wins)-\($r.draws)-\($r.losses) | \($r.score * 1000 | round / 10)% | \($r.elo | num) [\($r.elo_lower | num), \($r.elo_upper | num)] | \(.per_move.fsf.depth | num) / \(.per_move.alphabeta.depth | num) | \(.failures.fsf) / \(.failures.alphabeta) |"
    ' "$2"
}

table="| odds | fsf ms/move | alphabeta ms/move | games | alphabeta W-D-L | alphabeta score | alphabeta Elo [95%] | depth fsf / alphabeta | failures fsf / alphabeta |
|---|---|---|---|---|---|---|---|---|"
even=""
odds=1
while (( odds <= max_odds )); do
    dir="$out/odds-${odds}x"
    ours=$((odds * movetime))
    args=(match --rules xiangqi
        --engine "alphabeta:movetime=$ours,name=alphabeta"
        --engine "uci:path=$fsf,name=fsf,movetime=$movetime"
        --pairs "$pairs" --threads "$threads" --seed "$seed" --out "$dir" --report-every 0)
    [[ -f "$dir/games.jsonl" ]] && args+=(--resume)
    echo "== odds ${odds}x: alphabeta ${ours} ms, Fairy-Stockfish ${movetime} ms per move, $pairs pairs" >&2
    (cd "$root" && "$arena" "${args[@]}") >&2
    table+=$'\n'"$(row "${odds}x" "$dir/summary.json")"
    if [[ -z "$even" ]] && jq -e '.results.score >= 0.5' "$dir/summary.json" >/dev/null; then
        even="${odds}x"
        [[ $all -eq 1 ]] || break
    fi
    odds=$((odds * 2))
done
echo
echo "alphabeta vs Fairy-Stockfish, Xiangqi, $pairs pairs a rung, seed $seed (results in $out):"
echo "$table"
if [[ -n "$even" ]]; then
    echo "alphabeta scores 50 % or more from odds $even on."
else
    echo "alphabeta scores under 50 % up to odds ${max_odds}x."
fi
