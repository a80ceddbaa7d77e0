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
#   --config FILE  the tournament config (default configs/nightly.json in the repository)
#   --root DIR     the folder of nights (default results/nightly in the repository)
#                  (--config and --root are taken from the current directory)
#   --date D       the night, a real YYYY-MM-DD date (default today's UTC date); also its folder
#   --threads T    worker threads, 1 or more (default: every core)
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
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
config="$root/configs/nightly.json"
nights="$root/results/nightly"
night="$(date -u +%Y-%m-%d)"
threads=()
build=1
extra=()

die() { usage_error "$@"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --config) need "$@"; config="$(absolute "$2")"; shift 2 ;;
        --root) need "$@"; nights="$(absolute "$2")"; shift 2 ;;
        --date) need "$@"; night="$2"; shift 2 ;;
        --threads) need "$@"; whole "$1" "$2"; threads=(--threads "$2"); shift 2 ;;
        --no-build) build=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
# A real date: the night's folder name is its date, and arena history checks they agree.
[[ "$night" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ && "$(date -u -d "$night" +%Y-%m-%d 2>/dev/null)" == "$night" ]] ||
    die "--date '$night': not a real date written YYYY-MM-DD (e.g. $(date -u +%Y-%m-%d))"
# The real nightly root, however --root spells it (`results/nightly/`, `./results/nightly`, a
# link to it): paths are compared resolved, folders that do not exist yet included.
if [[ ${#extra[@]} -gt 0 && "$(realpath -m -- "$nights")" == "$(realpath -m -- "$root/results/nightly")" ]]; then
    die "arguments after -- change the night's games, so they do not go into the nightly root; a quick try goes in a root of its own: $0 --root results/nightly-try -- ${extra[*]}"
fi
for a in "${extra[@]}"; do
    case "$a" in
        --out|--out=*|--config|--config=*) die "'$a' after --: the night's folder and config are this script's (use --root, --date, --config)" ;;
    esac
done

arena="$(absolute "${ARENA:-$root/target/release/arena}")"
cd "$root"
if [[ $build -eq 1 && -z "${ARENA:-}" ]]; then
    cargo build --release -p arena --quiet
fi
[[ -x "$arena" ]] || die "no release binary at $arena (drop --no-build)"
[[ -f "$config" ]] || die "no config at $config"

out="$nights/$night"
made_out=0
[[ -d "$out" ]] || made_out=1
mkdir -p "$out"
# The night's marker: arena history takes only folders with a night.json whose date is the
# folder's name for nights (the night's own report reads it while the tournament runs). A rerun
# of the night keeps the first marker; a run that fails before any game is played (the arena
# refused an argument) takes back the marker it wrote, so that a refused run leaves no night.
commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
[[ "$commit" =~ ^[0-9a-f]{40}$ ]] || commit=unknown
made_marker=0
if [[ ! -f "$out/night.json" ]]; then
    printf '{\n  "night": "%s",\n  "commit": "%s",\n  "made_by": "scripts/nightly.sh"\n}\n' \
        "$night" "$commit" >"$out/night.json.tmp"
    mv "$out/night.json.tmp" "$out/night.json"
    made_marker=1
fi
# A run that did not succeed and played no game: the marker it wrote, and the folder it made,
# go again.
forget() {
    if [[ $made_marker -eq 1 && ! -e "$out/games.jsonl" && ! -e "$out/leak/games.jsonl" ]]; then
        rm -f "$out/night.json" "$out/commits.txt"
        [[ $made_out -eq 0 ]] || rmdir "$out/leak" "$out" 2>/dev/null || true
    fi
}
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
    [[ $status -eq 0 ]] || { forget; exit "$status"; }
fi
args=(tournament --config "$config" --out "$out" "${threads[@]}")
[[ -f "$out/games.jsonl" ]] && args+=(--resume)
echo "== nightly $night: $arena ${args[*]} ${extra[*]}"
"$arena" "${args[@]}" "${extra[@]}" || status=$?
# The index is rebuilt when the night is rated; a night that could not run (bad config, disk
# full) leaves the index as it was.
if [[ $status -eq 0 ]]; then
    "$arena" history "$nights" || status=$?
else
    forget
fi
exit "$status"
