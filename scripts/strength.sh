#!/usr/bin/env bash
# The strength protocol: the search engines against the baselines and each other at
# equal time per move, standard rules — the tournament of configs/strength.json (its pairings are
# listed there, not here). Results go to OUT/: report.html, report.md (its "Pairings" table is
# this protocol's table), ratings, and one match folder per pairing under OUT/pairings/.
# Rerunning with the same --out resumes; a changed --movetime or --seed is refused by the
# fingerprint check instead of silently mixing results (a larger --pairs extends the run).
#
# Usage: scripts/strength.sh [--movetime MS] [--pairs N] [--seed S] [--out DIR] [--table]
#                            [--no-build]
#   --movetime MS  milliseconds per move for every engine (default: the config's, 100)
#   --pairs N      game pairs per pairing (default: the config's, 400)
#   --seed S       master seed (default: the config's, 1)
#   --out DIR      results folder, from the current directory (default
#                  results/strength-<UTC date> in the repository)
#   --table        only print the pairings table of the run already in --out
#   --no-build     use an arena that is built (target/release/arena, else arena on PATH)
#                  instead of running cargo build first (ARENA=PATH names another binary, and
#                  skips the build too)
#
# Wall-clock time limits make results depend on the machine and its load: run on an otherwise idle
# machine, and read the numbers as "at this time control on this machine".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
out=""
flags=()
build=1
table_only=0

die() { usage_error "$@"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --movetime) need "$@"; whole "$1" "$2"; flags+=(--movetime "$2"); shift 2 ;;
        --pairs) need "$@"; whole "$1" "$2"; flags+=(--pairs "$2"); shift 2 ;;
        --seed) need "$@"; whole "$1" "$2" 0; flags+=(--seed "$2"); shift 2 ;;
        --out) need "$@"; out="$(absolute "$2")"; shift 2 ;;
        --table) table_only=1; shift ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[[ -n "$out" ]] || out="$root/results/strength-$(date -u +%Y%m%d)"
if [[ $table_only -eq 1 ]]; then
    [[ -f "$out/report.md" ]] || die "no report in $out"
    sed -n '/^## Pairings/,$p' "$out/report.md"
    exit 0
fi
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
arena="$(build_arena "$root" "$build")" || exit $?
args=(tournament --config "$root/configs/strength.json" --out "$out" "${flags[@]}")
[[ -f "$out/games.jsonl" ]] && args+=(--resume)
cd "$root"
"$arena" "${args[@]}"
