#!/usr/bin/env bash
# Fuzzes the FEN parser and `position … moves …` handling harder than `cargo test` does (10^5
# inputs there): INPUTS inputs (default 2,000,000) from each of SEEDS seeds (default 2, seeds 1 to
# SEEDS). Any panic fails the run; the counts per seed are printed.
#
# Usage: scripts/fuzz.sh [INPUTS] [SEEDS]     e.g. scripts/fuzz.sh 5000000 4
#   INPUTS  1 to 999999999        SEEDS  1 to 999999
#
# Exit status: 0 = no input panicked, 1 = a panic or a failed build (every seed is still run),
# 2 = bad usage.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
    echo "fuzz.sh: $*" >&2
    exit 2
}

case "${1-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[[ $# -le 2 ]] || die "expected at most INPUTS and SEEDS, got $# arguments (see --help)"
inputs="${1-2000000}"
seeds="${2-2}"
[[ "$inputs" =~ ^[0-9]{1,9}$ && "$inputs" =~ [1-9] ]] \
    || die "INPUTS '$inputs': expected a whole number from 1 to 999999999 (see --help)"
[[ "$seeds" =~ ^[0-9]{1,6}$ && "$seeds" =~ [1-9] ]] \
    || die "SEEDS '$seeds': expected a whole number from 1 to 999999 (see --help)"
cd "$root"
status=0
for seed in $(seq 1 "$seeds"); do
    if ! JIEQI_FUZZ_INPUTS="$inputs" JIEQI_FUZZ_SEED="$seed" \
        cargo test --release -q -p jieqi-core --test fuzz -- --nocapture 2>&1 \
        | grep -E "inputs:|panicked|test result|^error" | sed "s/^/seed $seed: /"; then
        status=1
    fi
done
exit "$status"
