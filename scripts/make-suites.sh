#!/usr/bin/env bash
# Regenerates the test suites in configs/suites/ from seeded games: plays the games, then mines
# them with `arena suite`, which proves every position it keeps (see configs/suites/README.md).
# Node-limited games and a thread-independent generator: the same commands give the same files.
#
# Usage: scripts/make-suites.sh [--no-build] [--threads T] [--keep DIR]
#   --no-build     use an arena that is built: target/release/arena, else arena on PATH
#   --threads T    threads for the games and the proofs (default: the number of cores)
#   --keep DIR     keep the games in DIR, from the current directory (default: a temporary
#                  folder, removed at the end)
# ARENA=PATH in the environment runs that arena binary (and skips the build).
#
# About 13 minutes on 2 cores, most of it proving (and refuting) the longer mates.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
build=1
threads="$(nproc 2>/dev/null || echo 2)"
keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0 ;;
        --threads) need "$@"; whole "$1" "$2"; threads="$2"; shift ;;
        --keep) need "$@"; keep="$(absolute "$2")"; shift ;;
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
play() { # name, then match arguments
    local name="$1"
    shift
    rm -rf "${games:?}/$name"
    "$arena" match --threads "$threads" --no-progress --out "$games/$name" "$@" >/dev/null
}

# Xiangqi games that end in mate: an engine against a random mover (mates of every length the
# random side walks into), a greedy player against it, and engines against each other (longer,
# forced mates).
play xq-ab-random --rules xiangqi --engine alphabeta --engine random --nodes 1000 --pairs 100 --seed 101
play xq-greedy-random --rules xiangqi --engine greedy --engine random --pairs 100 --seed 103
play xq-ab-hard --rules xiangqi --engine alphabeta --engine level:hard --nodes 3000 --pairs 100 --seed 102
play xq-ab4k-hard --rules xiangqi --engine alphabeta:name=ab4k --engine level:hard --nodes 4000 --pairs 150 --seed 104
"$arena" suite mates "$games"/xq-ab-random "$games"/xq-greedy-random "$games"/xq-ab-hard \
    "$games"/xq-ab4k-hard --max-moves 5 --per-length 30 --budget 8000000 --threads "$threads" \
    --out configs/suites/xiangqi-mates.epd

# Jieqi games between two engines of different strength: the weaker one leaves material hanging.
play jq-ab-hard --engine alphabeta --engine level:hard --nodes 2000 --pairs 100 --seed 201
play jq-ab-hard2 --engine alphabeta --engine level:hard --nodes 2000 --pairs 300 --seed 202
"$arena" suite tactics "$games"/jq-ab-hard "$games"/jq-ab-hard2 --min-gain 300 --depth 2 --max-balance 300 --per-game 2 --max 150 --mate-moves 5 --budget 20000000 \
    --threads "$threads" --out configs/suites/jieqi-tactics.epd
