#!/usr/bin/env bash
# Time to depth of alphabeta with several threads against one, over repeated runs: runs the
# `depth` bench (crates/jieqi-search/benches/depth.rs: the Jieqi start position and six
# middlegames) N times with one thread and N times with T threads, and prints per position
# the median milliseconds at which depth D completed with each, and their ratio (one thread's
# median over T threads'; above 1: the threads reach the depth sooner). Multi-threaded times
# scatter by 2-4x from run to run (the threads race on the shared table), so one run says
# little: the medians of 10 runs are the figure to quote. A position that did not reach depth D
# within the cap in some run prints '-' there.
#
# Usage: scripts/ttd.sh [--runs N] [--depth D] [--threads T] [--cap SECONDS] [--spec SPEC]
#                       [--no-build]
#   --runs N       runs per thread count (default 10)
#   --depth D      the depth timed (default 13)
#   --threads T    the thread count compared with one (default 2)
#   --cap SECONDS  the longest a position may search, whole seconds (default 30)
#   --spec SPEC    the alphabeta spec both sides use, `threads=` added (default alphabeta)
#   --no-build     use the bench binary cargo built last instead of building it first
#
# Run it on an idle machine: other load changes the times, not the depths. With the defaults
# about 5 minutes on 2 cores.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
runs=10
depth=13
threads=2
cap=30
spec=alphabeta
build=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) need "$@"; whole "$1" "$2"; runs="$2"; shift ;;
        --depth) need "$@"; whole "$1" "$2"; depth="$2"; shift ;;
        --threads) need "$@"; whole "$1" "$2" 2; threads="$2"; shift ;;
        --cap) need "$@"; whole "$1" "$2"; cap="$2"; shift ;;
        --spec) need "$@"; spec="$2"; shift ;;
        --no-build) build=0 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) usage_error "unknown argument '$1' (see --help)" ;;
    esac
    shift
done
[[ $spec == alphabeta || $spec == alphabeta:* ]] ||
    usage_error "--spec '$spec' is not an alphabeta spec (see --help)"
[[ $spec == *threads=* ]] && usage_error "--spec '$spec' sets threads: use --threads"
sep=":"
[[ $spec == *:* ]] && sep=","
cd "$root"
# The bench binary: cargo prints its path when it builds it; without a build, the newest one.
if [[ $build == 1 ]]; then
    # (json-render-diagnostics: a build error still reaches the terminal, on stderr.)
    bench="$(cargo bench -p jieqi-search --bench depth --no-run \
        --message-format=json-render-diagnostics |
        grep -o '"executable":"[^"]*depth-[^"]*"' | tail -1 | cut -d'"' -f4)"
else
    bench="$(find target/release/deps -maxdepth 1 -type f -name 'depth-*' -perm -u+x \
        -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)"
fi
if [[ -z $bench || ! -x $bench ]]; then
    echo "ttd.sh: no depth bench binary (cargo bench -p jieqi-search --bench depth --no-run)" >&2
    exit 1
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# One line per position and run: "NAME MS" (MS '-' when depth D was not reached).
for t in 1 "$threads"; do
    s="$spec"
    [[ $t != 1 ]] && s="$spec${sep}threads=$t"
    for ((i = 1; i <= runs; i++)); do
        "$bench" "$depth" "$cap" "$s" | tail -n +3 |
            awk '{ name = substr($0, 1, 20); sub(/ +$/, "", name); gsub(/ /, "_", name);
                   n = split($NF, a, "/"); print name, (n == 2 ? a[2] : "-") }' >>"$out/$t"
    done
done
echo "alphabeta ($spec): ms to complete depth $depth, medians of $runs runs"
awk -v t="$threads" '
    function median(list,    v, n, i, j, x) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] + 0 > x + 0; j--) v[j + 1] = v[j]; v[j + 1] = x }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    FNR == 1 { file++ }
    { if ($2 == "-") miss[file, $1] = 1; else times[file, $1] = times[file, $1] " " $2 }
    file == 1 && !seen[$1]++ { order[++count] = $1 }
    END {
        printf "%-20s %10s %10s %8s\n", "position", "1 thread", t " threads", "ratio"
        for (k = 1; k <= count; k++) {
            p = order[k]
            if (miss[1, p] || miss[2, p]) { printf "%-20s %10s %10s %8s\n", p, "-", "-", "-"; continue }
            a = median(times[1, p]); b = median(times[2, p])
            printf "%-20s %10.0f %10.0f %7.2fx\n", p, a, b, (b > 0 ? a / b : 0)
        }
    }' "$out/1" "$out/$threads"
