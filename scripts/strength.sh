#!/usr/bin/env bash
# The strength protocol of issue 4: the search engines against the baselines and each other at equal
# time per move, standard rules, with the release `arena` binary. Each pairing is an ordinary
# `arena match` into OUT/<n>-<A>-vs-<B>/ (so any of them can be resumed or replayed); at the end one
# Markdown table of all pairings is printed and written to OUT/table.md.
#
# Usage: scripts/strength.sh [--movetime MS] [--pairs N] [--seed S] [--out DIR] [--only K] [--no-build]
#   --movetime MS  milliseconds per move for every timed engine (default 100)
#   --pairs N      game pairs per pairing (default 400)
#   --seed S       master seed (default 1)
#   --out DIR      results folder (default results/strength-<UTC date>)
#   --only K       run only pairing number K (1-based, see PAIRINGS below); repeatable
#   --table        only print the table of the pairings already in --out
#   --no-build     use the existing release binary instead of running cargo build first
#
# Wall-clock time limits make results depend on the machine and its load: run on an otherwise idle
# machine, and read the numbers as "at this time control on this machine".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
movetime=100
pairs=400
seed=1
out=""
only=()
build=1
table_only=0

# "A|B": A is the engine reported on. flat-uct:sims=300 is node-limited (seed 000's setting), greedy
# answers at once; every other engine gets --movetime.
PAIRINGS=(
    "alphabeta|greedy"
    "ismcts|greedy"
    "alphabeta|flat-uct:sims=300"
    "ismcts|flat-uct:sims=300"
    "alphabeta|flat-uct"
    "ismcts|flat-uct"
    "alphabeta|ismcts"
)

die() {
    echo "error: $*" >&2
    exit 2
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --movetime) movetime="${2:?--movetime needs a value}"; shift 2 ;;
        --pairs) pairs="${2:?--pairs needs a value}"; shift 2 ;;
        --seed) seed="${2:?--seed needs a value}"; shift 2 ;;
        --out) out="${2:?--out needs a value}"; shift 2 ;;
        --only) only+=("${2:?--only needs a value}"); shift 2 ;;
        --table) table_only=1; shift ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[[ -n "$out" ]] || out="$root/results/strength-$(date -u +%Y%m%d)"
arena="$root/target/release/arena"
if [[ $build -eq 1 && $table_only -eq 0 ]]; then
    (cd "$root" && cargo build --release -p arena --quiet)
fi
[[ -x "$arena" ]] || die "no release binary at $arena (drop --no-build)"
mkdir -p "$out"

dir_of() { # pairing index (1-based) -> results folder
    local pair="${PAIRINGS[$(($1 - 1))]}"
    local a="${pair%%|*}" b="${pair##*|}"
    echo "$out/$1-${a//[:=,]/_}-vs-${b//[:=,]/_}"
}

if [[ $table_only -eq 0 ]]; then
    for k in $(seq 1 ${#PAIRINGS[@]}); do
        if [[ ${#only[@]} -gt 0 && ! " ${only[*]} " =~ " $k " ]]; then
            continue
        fi
        pair="${PAIRINGS[$((k - 1))]}"
        dir="$(dir_of "$k")"
        args=(match --engine "${pair%%|*}" --engine "${pair##*|}" --pairs "$pairs" --seed "$seed"
            --movetime "$movetime" --rules standard --out "$dir")
        [[ -f "$dir/games.jsonl" ]] && args+=(--resume)
        [[ -f "$dir/summary.json" ]] && { echo "== $k: ${pair/|/ vs } (done)"; continue; }
        echo "== $k: ${pair/|/ vs }"
        "$arena" "${args[@]}"
    done
fi

{
    echo "| # | A vs B | ms/move | pairs | W-D-L (A) | score | Elo A (95 % CI) | Ptnml(0-2) | avg plies | failures |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for k in $(seq 1 ${#PAIRINGS[@]}); do
        f="$(dir_of "$k")/summary.json"
        [[ -f "$f" ]] || continue
        jq -r --arg k "$k" '
            def r(x): if x == null then "n/a" elif (x | type) == "string" then x else (x * 10 | round / 10 | tostring) end;
            .results as $r
            | "| \($k) | \($r.a) vs \($r.b) | \(.limits.movetime_ms) | \($r.pairs) | \($r.wins)-\($r.draws)-\($r.losses) "
              + "| \($r.score * 1000 | round / 10) % "
              + "| \(r($r.elo)) [\(r($r.elo_lower)), \(r($r.elo_upper))] "
              + "| \($r.ptnml | map(tostring) | join(", ")) | \(.average_plies * 10 | round / 10) "
              + "| \(.failures | to_entries | map("\(.key) \(.value)") | join(", ")) |"' "$f"
    done
} | tee "$out/table.md"
