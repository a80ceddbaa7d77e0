#!/usr/bin/env bash
# The nightly rating run: build, play the tournament of configs/nightly.json into
# results/nightly/<UTC date>/ (rerunning the same night resumes it), marked as a night by a
# night.json (its date and commit) and a commits.txt (the commits since the previous night), then
# regenerate results/nightly/index.html (per series — the conditions that make ratings
# comparable: a link to every night, the latest rating list with the change since the night
# before, each engine's rating over time). Only folders this script made are nights. A config with a "leak" section first measures what seeing every hidden piece is
# worth to the engines it names (`arena leak --config`, into <night>/leak/); the night's report
# then shows that table too.
#
# Usage: scripts/nightly.sh [--config FILE] [--root DIR] [--date YYYY-MM-DD] [--threads T]
#                           [--no-build] [-- MORE TOURNAMENT ARGS]
#   --config FILE  the tournament config (default configs/nightly.json)
#   --root DIR     the folder of nights (default results/nightly)
#   --date D       the night, a real YYYY-MM-DD date (default today's UTC date); also its folder
#   --threads T    worker threads (default: every core)
#   --no-build     use the existing release binary instead of running cargo build first
#   -- ARGS        passed on to `arena tournament` and `arena leak` (a flag there wins over the
#                  config's value); only with a --root of their own, so that a quick try never
#                  joins the real nights: --root results/nightly-try -- --pairs 20
#
# Exit status: arena leak's if it fails, else arena tournament's (0 when the night is complete),
# or 2 for a bad argument.
# Cron (every night at 01:30 UTC):
#   30 1 * * * cd /path/to/jieqi && scripts/nightly.sh >> results/nightly/cron.log 2>&1
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config="configs/nightly.json"
nights="results/nightly"
night="$(date -u +%Y-%m-%d)"
threads=()
build=1
extra=()

die() {
    echo "error: $*" >&2
    exit 2
}
need() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value (see --help)"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --config) need "$@"; config="$2"; shift 2 ;;
        --root) need "$@"; nights="$2"; shift 2 ;;
        --date) need "$@"; night="$2"; shift 2 ;;
        --threads) need "$@"; threads=(--threads "$2"); shift 2 ;;
        --no-build) build=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
# A real date: the night's folder name is its date, and arena history checks they agree.
[[ "$night" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ && "$(date -u -d "$night" +%Y-%m-%d 2>/dev/null)" == "$night" ]] ||
    die "--date '$night': not a real date written YYYY-MM-DD (e.g. $(date -u +%Y-%m-%d))"
if [[ ${#extra[@]} -gt 0 && "$nights" == "results/nightly" ]]; then
    die "arguments after -- change the night's games, so they do not go into the nightly root; a quick try goes in a root of its own: $0 --root results/nightly-try -- ${extra[*]}"
fi
for a in "${extra[@]}"; do
    case "$a" in
        --out|--out=*|--config|--config=*) die "'$a' after --: the night's folder and config are this script's (use --root, --date, --config)" ;;
    esac
done

cd "$root"
arena="${ARENA:-$root/target/release/arena}"
if [[ $build -eq 1 && -z "${ARENA:-}" ]]; then
    cargo build --release -p arena --quiet
fi
[[ -x "$arena" ]] || die "no release binary at $arena (drop --no-build)"
[[ -f "$config" ]] || die "no config at $config"

out="$nights/$night"
mkdir -p "$out"
# The night's marker: arena history takes only folders with a night.json whose date is the
# folder's name for nights. A rerun of the night keeps the first marker.
commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
[[ "$commit" =~ ^[0-9a-f]{40}$ ]] || commit=unknown
if [[ ! -f "$out/night.json" ]]; then
    printf '{\n  "night": "%s",\n  "commit": "%s",\n  "made_by": "scripts/nightly.sh"\n}\n' \
        "$night" "$commit" >"$out/night.json.tmp"
    mv "$out/night.json.tmp" "$out/night.json"
fi
# The commits since the previous night (the newest earlier night of the root), at most 200.
prev=""
for d in "$nights"/*/night.json; do
    n="$(basename "$(dirname "$d")")"
    if [[ -f "$d" && "$n" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ && "$n" < "$night" ]]; then
        prev="$d"
    fi
done
if [[ -n "$prev" && "$commit" != unknown && ! -f "$out/commits.txt" ]]; then
    prev_commit="$(sed -n 's/.*"commit": *"\([0-9a-f]\{40\}\)".*/\1/p' "$prev")"
    if [[ -n "$prev_commit" ]] && git cat-file -e "$prev_commit^{commit}" 2>/dev/null; then
        git log --max-count=200 --format='%h %s' "$prev_commit..$commit" >"$out/commits.txt.tmp" &&
            mv "$out/commits.txt.tmp" "$out/commits.txt"
    fi
fi
status=0
if grep -q '"leak"[[:space:]]*:' "$config"; then
    leak_args=(leak --config "$config" --out "$out/leak" "${threads[@]}")
    [[ -f "$out/leak/games.jsonl" ]] && leak_args+=(--resume)
    echo "== nightly $night: $arena ${leak_args[*]} ${extra[*]}"
    "$arena" "${leak_args[@]}" "${extra[@]}" || status=$?
    [[ $status -eq 0 ]] || exit "$status"
fi
args=(tournament --config "$config" --out "$out" "${threads[@]}")
[[ -f "$out/games.jsonl" ]] && args+=(--resume)
echo "== nightly $night: $arena ${args[*]} ${extra[*]}"
"$arena" "${args[@]}" "${extra[@]}" || status=$?
# The index is rebuilt when the night is rated; a night that could not run (bad config, disk
# full) leaves the index as it was.
if [[ $status -eq 0 ]]; then
    "$arena" history "$nights" || status=$?
fi
exit "$status"
