#!/usr/bin/env bash
# Fuzzes the FEN parser and `position … moves …` handling harder than `cargo test` does (10^5
# inputs there): JIEQI_FUZZ_INPUTS inputs (default 2,000,000) from each of several seeds. Any panic
# fails the run; the counts per seed are printed.
#
# Usage: scripts/fuzz.sh [INPUTS] [SEEDS]     e.g. scripts/fuzz.sh 5000000 4
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
inputs="${1:-2000000}"
seeds="${2:-2}"
cd "$root"
for seed in $(seq 1 "$seeds"); do
  JIEQI_FUZZ_INPUTS="$inputs" JIEQI_FUZZ_SEED="$seed" \
    cargo test --release -q -p jieqi-core --test fuzz -- --nocapture 2>&1 \
    | grep -E "inputs:|panicked|test result" | sed "s/^/seed $seed: /"
done
