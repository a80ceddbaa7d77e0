#!/usr/bin/env bash
# The arena's own cost per move with external engines: wall time per move of an `arena match`
# between two jieqi-uci processes (the random engine, --nodes 1, one thread) minus the engines'
# own time per move, measured by replaying the same UCI traffic (captured with --log) against two
# jieqi-uci processes with a minimal C driver (scripts/uci-replay.c) that has no harness logic.
#
# Usage: scripts/bench-uci-overhead.sh [ROUNDS] [PAIRS]   (defaults 5 and 50)
# Environment: ARENA (default target/release/arena; several paths separated by spaces compare
# builds, e.g. ARENA="/tmp/before/arena target/release/arena"), UCI (default
# target/release/jieqi-uci), SEED (default 1), WORK (a scratch folder, default a fresh one under
# /tmp), CC (default cc).
# Each round times, for each arena, one replay and then one arena run, so that both see about
# the same load; the script prints every round and then, per arena, the median, the
# minimum and the maximum of the differences. A busy machine inflates them: measure on an idle one.
# Build first: cargo build --release -p arena -p jieqi-uci
set -euo pipefail

ROUNDS=${1:-5}
PAIRS=${2:-50}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
read -r -a ARENAS <<<"${ARENA:-$ROOT/target/release/arena}"
UCI=${UCI:-$ROOT/target/release/jieqi-uci}
SEED=${SEED:-1}
CC=${CC:-cc}
WORK=${WORK:-$(mktemp -d /tmp/bench-uci-overhead.XXXXXX)}
mkdir -p "$WORK"

for bin in "${ARENAS[@]}" "$UCI"; do
  [ -x "$bin" ] || { echo "missing $bin: cargo build --release -p arena -p jieqi-uci" >&2; exit 1; }
done
"$CC" -O2 -Wall -o "$WORK/uci-replay" "$ROOT/scripts/uci-replay.c"

args=(match
  --engine "uci:path=$UCI,option.Engine=random,name=rand-a"
  --engine "uci:path=$UCI,option.Engine=random,name=rand-b"
  --nodes 1 --threads 1 --pairs "$PAIRS" --seed "$SEED" --no-progress)

# 1. The traffic: one logged run, its games in order, as a replay script.
rm -rf "$WORK/capture"
"${ARENAS[0]}" "${args[@]}" --log --out "$WORK/capture" >/dev/null
games=$(($(wc -l <"$WORK/capture/games.csv") - 1))
for ((g = 1; g <= games; g++)); do cat "$WORK/capture/logs/game-$g.log"; done | awk '
  {
    line = $0
    sub(/^\[[^]]*\] +/, "", line)          # the time
    sub(/^[a-z]+ +/, "", line)             # the side
    name = line; sub(/ .*/, "", name)      # the engine
    line = substr(line, length(name) + 2)
    dir = substr(line, 1, 1)
    text = substr(line, 3)
    if (!(name in id)) id[name] = n++
    if (dir == ">") print ">" id[name] " " text
    else if (text == "uciok" || text == "readyok") print "<" id[name] " " text
    else if (text ~ /^bestmove /) print "<" id[name] " bestmove"
  }' >"$WORK/replay.txt"
moves=$(grep -c '^<[0-9]* bestmove' "$WORK/replay.txt")
echo "traffic: $games games, $moves moves ($WORK/replay.txt)"

now() { date +%s%N; }
plies() { awk -F, 'NR > 1 { s += $9 } END { print s }' "$1/games.csv"; }

results=()
for ((r = 1; r <= ROUNDS; r++)); do
  for ((k = 0; k < ${#ARENAS[@]}; k++)); do
    t0=$(now)
    "$WORK/uci-replay" "$WORK/replay.txt" "$UCI" >/dev/null
    t1=$(now)
    engines=$((t1 - t0))
    rm -rf "$WORK/run"
    t0=$(now)
    "${ARENAS[k]}" "${args[@]}" --out "$WORK/run" >/dev/null
    t1=$(now)
    played=$(plies "$WORK/run")
    if [ "$played" != "$moves" ]; then
      echo "${ARENAS[k]} played $played moves, the captured run $moves: not the same games" >&2
      exit 1
    fi
    line=$(awk -v a=$((t1 - t0)) -v e="$engines" -v m="$moves" -v r="$r" -v n="${ARENAS[k]}" 'BEGIN {
      printf "round %d: %s %.2f us/move, engines alone %.2f us/move, overhead %.2f us/move\n",
        r, n, a / m / 1000, e / m / 1000, (a - e) / m / 1000 }')
    echo "$line"
    results[$k]+="$(echo "$line" | awk '{ print $(NF - 1) }') "
  done
done
for ((k = 0; k < ${#ARENAS[@]}; k++)); do
  printf '%s\n' ${results[$k]} | sort -g | awk -v n="${ARENAS[k]}" '
    { v[NR] = $1 }
    END {
      med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%s: overhead over %d rounds: median %.2f us/move, min %.2f, max %.2f\n", n, NR, med, v[1], v[NR]
    }'
done
