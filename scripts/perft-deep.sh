#!/usr/bin/env bash
# Checks the deep perft counts that `cargo test` skips for time, with the release `arena` binary.
#
# The expected numbers come from the perft data files the core tests read
# (crates/jieqi-core/tests/perft/*.perft: published Xiangqi counts and hand-derived Jieqi ones), so
# there is one copy of each number. The unit tests run every count up to JIEQI_PERFT_MAX_NODES
# (default 20,000,000); this script runs every count above it, e.g. the Xiangqi start position at
# depth 6 (5,392,831,844 nodes, about a minute). Prints PASS/FAIL per count; exits 1 on any FAIL.
#
# Usage: scripts/perft-deep.sh [--only ID] [--min-nodes N] [--max-nodes N] [--no-build] [FILE...]
#   --only ID      run only the case with this id (e.g. start, cpw-3)
#   --min-nodes N  run counts above N (default: $JIEQI_PERFT_MAX_NODES or 20000000)
#   --max-nodes N  skip counts above N (default: no limit)
#   --no-build     use the existing release binary instead of running cargo build first
#   FILE...        perft data files (default: crates/jieqi-core/tests/perft/*.perft)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
only=""
min_nodes="${JIEQI_PERFT_MAX_NODES:-20000000}"
max_nodes=""
build=1
files=()

die() { usage_error "$@"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --only) need "$@"; only="$2"; shift 2 ;;
        --min-nodes) need "$@"; min_nodes="$2"; shift 2 ;;
        --max-nodes) need "$@"; max_nodes="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) die "unknown option '$1' (try --help)" ;;
        *) files+=("$1"); shift ;;
    esac
done
[[ "$min_nodes" =~ ^[0-9]+$ ]] || die "--min-nodes '$min_nodes' is not a number"
[[ -z "$max_nodes" || "$max_nodes" =~ ^[0-9]+$ ]] || die "--max-nodes '$max_nodes' is not a number"
if [[ ${#files[@]} -eq 0 ]]; then
    files=("$root"/crates/jieqi-core/tests/perft/*.perft)
fi
for f in "${files[@]}"; do
    [[ -f "$f" ]] || die "perft data file '$f' does not exist"
done

if [[ $build -eq 1 ]]; then
    cargo build --quiet --release -p arena --manifest-path "$root/Cargo.toml"
fi
arena="${CARGO_TARGET_DIR:-$root/target}/release/arena"
[[ -x "$arena" ]] || die "no release binary at $arena (run without --no-build)"

ran=0
failed=0

# Runs one count and prints its PASS/FAIL line.
check() {
    local file="$1" id="$2" rules="$3" fen="$4" depth="$5" expected="$6"
    local args=(perft --rules "$rules" --depth "$depth" --json)
    [[ -n "$fen" ]] && args+=(--fen "$fen")
    local out last nodes seconds
    ran=$((ran + 1))
    if ! out="$("$arena" "${args[@]}" 2>&1)"; then
        echo "FAIL $id depth $depth: arena failed: ${out##*$'\n'}"
        failed=$((failed + 1))
        return
    fi
    last="${out##*$'\n'}"
    nodes="$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$last")"
    seconds="$(sed -n 's/.*"seconds":\([0-9.e-]*\).*/\1/p' <<<"$last")"
    if [[ "$nodes" == "$expected" ]]; then
        printf 'PASS %s depth %s: %s nodes (%.2fs) [%s]\n' "$id" "$depth" "$nodes" "${seconds:-0}" "${file##*/}"
    else
        echo "FAIL $id depth $depth: expected $expected, got ${nodes:-no count} [${file##*/}]"
        failed=$((failed + 1))
    fi
}

for file in "${files[@]}"; do
    id="" rules="standard" fen=""
    while IFS= read -r line || [[ -n "$line" ]]; do
        line="${line%$'\r'}"
        case "$line" in
            "" | "#"*) continue ;;
            "id "*) id="${line#id }" rules="standard" fen="" ;;
            "rules "*) rules="${line#rules }" ;;
            "fen "*) fen="${line#fen }" ;;
            "perft "*)
                read -r depth expected <<<"${line#perft }"
                [[ -n "$only" && "$id" != "$only" ]] && continue
                (( expected > min_nodes )) || continue
                [[ -n "$max_nodes" ]] && (( expected > max_nodes )) && continue
                check "$file" "$id" "$rules" "$fen" "$depth" "$expected"
                ;;
            *) die "${file}: cannot read line '$line'" ;;
        esac
    done <"$file"
done

if [[ $ran -eq 0 ]]; then
    die "no count selected (--only '${only}', counts above $min_nodes${max_nodes:+ and up to $max_nodes})"
fi
echo "$((ran - failed)) of $ran passed"
[[ $failed -eq 0 ]]
