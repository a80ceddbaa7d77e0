#!/usr/bin/env bash
# The arena's own cost per move with external engines: wall time per move of an `arena match`
# between two jieqi-uci processes (the random engine, --nodes 1, one thread) minus the engines'
# own time per move, measured by replaying the same UCI traffic (captured with --log) against two
# jieqi-uci processes with a minimal C driver (scripts/uci-replay.c) that has no harness logic.
#
# Usage: scripts/bench-uci-overhead.sh [ROUNDS] [PAIRS]   (defaults 10 and 100)
# Environment: ARENA (default target/release/arena, this checkout's build, which is what the
# script measures: an arena on PATH is not taken; several paths separated by spaces compare
# builds, e.g. ARENA="/tmp/before/arena target/release/arena"), UCI (default
# target/release/jieqi-uci), SEED (default 1), WORK (a scratch folder, default a fresh one under
# /tmp), CC (default cc), IDLE_WAIT (seconds to wait for an idle machine before a run, default
# 600; 0 takes every round as it comes), TRIES (attempts at a clean round, default 5 * ROUNDS).
#
# Each round times, for each arena, one replay and then one arena run, so that both see about the
# same machine. A run is clean when the machine spent less than 3 % of the run's wall time on
# other work (busy CPU time in /proc/stat, steal included, minus the run's own CPU time); before
# each run the script waits (up to IDLE_WAIT) for a second with the machine idle, and a round
# with a disturbed run is played again. The fixed cost of a run (starting, probing and ending
# the engines, writing the results) is spread over its moves: ~60 ms, 1 us a move at 100 pairs.
# It prints every round and then, per arena, the median, minimum and maximum overhead of the
# clean rounds, and the fastest arena run minus the fastest replay.
# On a machine that is never idle (shared builds), run it as real-time processes on one core
# instead, so that other work can neither delay a wake-up nor share that core (as root):
#   IDLE_WAIT=0 taskset -c 1 chrt -f 20 scripts/bench-uci-overhead.sh
# Everything then runs on one core (no cross-core wake-ups), so both times are lower than on an
# idle machine; the kernel's real-time throttling (5 % of each second) still adds some noise.
# Build first: cargo build --release -p arena -p jieqi-uci
# Exit status: 0 = measured, 1 = a missing binary or no clean round, 2 = bad usage.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/args.sh
source "$ROOT/scripts/lib/args.sh"
case "${1-}" in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -le 2 ] || usage_error "expected at most ROUNDS and PAIRS, got $# arguments (see --help)"
ROUNDS=${1-10}
PAIRS=${2-100}
whole ROUNDS "$ROUNDS"
whole PAIRS "$PAIRS"
whole SEED "${SEED:-1}" 0
whole IDLE_WAIT "${IDLE_WAIT:-600}" 0
[ -z "${TRIES:-}" ] || whole TRIES "$TRIES"
ROUNDS=$((10#$ROUNDS))
PAIRS=$((10#$PAIRS))
read -r -a ARENAS <<<"${ARENA:-$ROOT/target/release/arena}"
UCI=${UCI:-$ROOT/target/release/jieqi-uci}
SEED=${SEED:-1}
CC=${CC:-cc}
IDLE_WAIT=${IDLE_WAIT:-600}
TRIES=${TRIES:-$((5 * ROUNDS))}
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
# Busy CPU time of the whole machine, in clock ticks: user nice system irq softirq steal.
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
tick=$(getconf CLK_TCK)

# Waits (up to IDLE_WAIT seconds) for one second in which the machine was idle.
wait_idle() {
  local waited=0 b0 b1
  ((IDLE_WAIT > 0)) || return 0
  while ((waited < IDLE_WAIT)); do
    b0=$(busy)
    sleep 1
    b1=$(busy)
    ((b1 - b0 <= tick / 20)) && return 0
    waited=$((waited + 1))
  done
  return 0
}

# Runs a command; sets `wall` (ns), `cpu` (ns of CPU it and its children used) and `other` (ns of
# CPU the rest of the machine used meanwhile).
timed() {
  local b0 b1 t0 t1
  wait_idle
  b0=$(busy)
  t0=$(now)
  /usr/bin/time -f '%U %S' -o "$WORK/rusage" "$@" >/dev/null
  t1=$(now)
  b1=$(busy)
  wall=$((t1 - t0))
  cpu=$(awk '{ printf "%.0f\n", ($1 + $2) * 1e9 }' "$WORK/rusage")
  other=$(awk -v b=$((b1 - b0)) -v t="$tick" '{ x = (b / t - $1 - $2) * 1e9; printf "%.0f\n", (x > 0 ? x : 0) }' "$WORK/rusage")
}

# Whether a run was clean; keeps the largest share of other work in `worst` (percent).
clean() {
  local pct=$(($1 * 100 / $2))
  if ((pct > worst)); then worst=$pct; fi
  ((pct < 3 || IDLE_WAIT == 0))
}

diffs=()
cpus=()
fastest=() # per arena, ns
fastest_replay=
done_rounds=0
tries=0
while ((done_rounds < ROUNDS && tries < TRIES)); do
  tries=$((tries + 1))
  line=()
  disturbed=0
  worst=0
  for ((k = 0; k < ${#ARENAS[@]}; k++)); do
    timed "$WORK/uci-replay" "$WORK/replay.txt" "$UCI"
    engines=$wall
    engines_cpu=$cpu
    clean "$other" "$wall" || disturbed=1
    rm -rf "$WORK/run"
    timed "${ARENAS[k]}" "${args[@]}" --out "$WORK/run"
    arena=$wall
    arena_cpu=$cpu
    clean "$other" "$wall" || disturbed=1
    played=$(plies "$WORK/run")
    if [ "$played" != "$moves" ]; then
      echo "${ARENAS[k]} played $played moves, the captured run $moves: not the same games" >&2
      exit 1
    fi
    line[k]="$arena $engines $arena_cpu $engines_cpu"
  done
  if ((disturbed)); then
    echo "try $tries: other work on the machine during the round (up to $worst % of a run's time), played again"
    continue
  fi
  done_rounds=$((done_rounds + 1))
  for ((k = 0; k < ${#ARENAS[@]}; k++)); do
    read -r arena engines arena_cpu engines_cpu <<<"${line[k]}"
    read -r a e d c < <(awk -v a="$arena" -v e="$engines" -v ac="$arena_cpu" -v ec="$engines_cpu" \
      -v m="$moves" 'BEGIN {
      printf "%.2f %.2f %.2f %.2f\n", a / m / 1000, e / m / 1000, (a - e) / m / 1000, (ac - ec) / m / 1000 }')
    echo "round $done_rounds: ${ARENAS[k]}: arena $a us/move, engines alone $e us/move, overhead $d us/move (CPU time: $c)"
    diffs[k]+="$d "
    cpus[k]+="$c "
    if [ -z "${fastest[k]:-}" ] || [ "$arena" -lt "${fastest[k]}" ]; then fastest[k]=$arena; fi
    if [ -z "$fastest_replay" ] || [ "$engines" -lt "$fastest_replay" ]; then
      fastest_replay=$engines
    fi
  done
done
((done_rounds > 0)) || { echo "no clean round in $tries tries: the machine is busy" >&2; exit 1; }
for ((k = 0; k < ${#ARENAS[@]}; k++)); do
  printf '%s\n' ${diffs[k]} | sort -g | awk -v n="${ARENAS[k]}" -v m="$moves" \
    -v a="${fastest[k]}" -v e="$fastest_replay" '
    { v[NR] = $1 }
    END {
      med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%s: overhead over %d clean rounds: median %.2f us/move (min %.2f, max %.2f); fastest arena %.2f - fastest replay %.2f = %.2f us/move\n",
        n, NR, med, v[1], v[NR], a / m / 1000, e / m / 1000, (a - e) / m / 1000
    }'
  printf '%s\n' ${cpus[k]} | sort -g | awk -v n="${ARENAS[k]}" '
    { v[NR] = $1 }
    END {
      med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%s: CPU time (user + sys, engines included) over the replay: median %.2f us/move (min %.2f, max %.2f)\n", n, med, v[1], v[NR]
    }'
done
