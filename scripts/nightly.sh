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
# Usage: scripts/nightly.sh [--pull] [--config FILE] [--root DIR] [--date YYYY-MM-DD]
#                           [--threads T] [--no-build] [-- MORE TOURNAMENT ARGS]
#   --pull         first bring the checkout up to date with git pull --ff-only, then build (the
#                  night plays, and records, the newest commit of its branch); a checkout that
#                  cannot fast-forward (local commits or changes in the way, a detached HEAD)
#                  stops the night, exit 1; refused with ARENA set or --no-build (the pulled code
#                  would not be built, and the night would play older code than it records)
#   --config FILE  the tournament config (default configs/nightly.json in the repository)
#   --root DIR     the folder of nights (default results/nightly in the repository)
#                  (--config and --root are taken from the current directory)
#   --date D       the night, a real YYYY-MM-DD date (default today's UTC date); also its folder;
#                  a night begun with another config (or other ARGS after --) is refused, exit 2,
#                  before anything is played
#   --threads T    worker threads, 1 or more (default: every core)
#   --no-build     use an arena that is already built instead of running cargo build first
#   -- ARGS        passed on to `arena tournament` and `arena leak` (a flag there wins over the
#                  config's value); only with a --root of their own, so that a quick try never
#                  joins the real nights: --root results/nightly-try -- --pairs 20
#
# The arena: ARENA=/path/to/arena if set (no build), else cargo build --release and
# target/release/arena; with --no-build, target/release/arena if built, else arena on PATH.
# cargo, git and an installed arena are found on PATH and also in /usr/local/bin,
# $CARGO_HOME/bin and ~/.cargo/bin, which cron's PATH (/usr/bin:/bin) leaves out.
#
# Exit status: 0 the night is complete; 5 complete, but an engine failed (illegal move, crash,
# timeout, protocol error...) in more than 5 % of its games (a line says which, the report too);
# 1 --pull could not update the checkout; 2 a bad argument; else arena leak's or tournament's.
# Cron (every night at 01:30 UTC, on the newest commit; the log's folder is made first):
#   30 1 * * * cd /path/to/jieqi && mkdir -p results/nightly && scripts/nightly.sh --pull >> results/nightly/cron.log 2>&1
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/args.sh
source "$root/scripts/lib/args.sh"
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
tool_path
config="$root/configs/nightly.json"
nights="$root/results/nightly"
night="$(date -u +%Y-%m-%d)"
threads=()
build=1
pull=0
extra=()
all_args=("$@")

die() { usage_error "$@"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --config) need "$@"; config="$(absolute "$2")"; shift 2 ;;
        --root) need "$@"; nights="$(absolute "$2")"; shift 2 ;;
        --date) need "$@"; night="$2"; shift 2 ;;
        --threads) need "$@"; whole "$1" "$2"; threads=(--threads "$2"); shift 2 ;;
        --no-build) build=0; shift ;;
        --pull) pull=1; shift ;;
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
# --pull plays what it pulls: only a build makes that the code that plays.
if [[ $pull -eq 1 && -n "${ARENA:-}" ]]; then
    die "--pull with ARENA='$ARENA': the pulled code would not be built, so the night would play an older arena than the commit it records; unset ARENA, or drop --pull"
fi
[[ $pull -eq 0 || $build -eq 1 ]] ||
    die "--pull with --no-build: the pulled code would not be built, so the night would play an older arena than the commit it records; drop one of them"
for a in "${extra[@]}"; do
    case "$a" in
        --out|--out=*|--config|--config=*) die "'$a' after --: the night's folder and config are this script's (use --root, --date, --config)" ;;
    esac
done

# --pull: the newest commit of the branch, then this script as that commit has it (run from the
# same folder, so that relative paths keep their meaning).
if [[ $pull -eq 1 && -z "${JIEQI_NIGHTLY_PULLED:-}" ]]; then
    command -v git >/dev/null || die "--pull: git not found on PATH"
    echo "== nightly $night: git pull --ff-only in $root"
    if ! git -C "$root" pull --ff-only --quiet; then
        why="local commits or changes in the way?"
        git -C "$root" symbolic-ref --quiet HEAD >/dev/null 2>&1 || why="detached HEAD: check out a branch"
        echo "$(basename "$0"): --pull: git pull --ff-only failed in $root ($why): no night is played on code that is not the branch's newest" >&2
        exit 1
    fi
    JIEQI_NIGHTLY_PULLED=1 exec bash "$root/scripts/nightly.sh" "${all_args[@]}"
fi
# ARENA, a path, is taken from the caller's folder.
[[ "${ARENA:-}" != */* ]] || ARENA="$(absolute "$ARENA")"
cd "$root"
arena="$(build_arena "$root" "$build")" || exit $?
[[ -f "$config" ]] || die "no config at $config"

out="$nights/$night"
# The night's setup: its config's bytes and the arguments after --. A night plays one setup, so a
# rerun with another is refused here, before anything is played (the leak run first, the
# tournament's own --resume check only after it).
setup="$({ cat -- "$config"; printf '\0%s' "${extra[@]}"; } | sha256sum | cut -c1-16)"
if [[ -f "$out/night.json" ]]; then
    begun="$(sed -n 's/.*"setup": *"\([0-9a-f]\{16\}\)".*/\1/p' "$out/night.json")"
    if [[ -n "$begun" && "$begun" != "$setup" ]]; then
        die "the night $night in $out was begun with another config or other arguments after -- (setup $begun; this run's is $setup): a night plays one setup; give it another --date or --root, or rerun it as it began"
    fi
fi
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
    printf '{\n  "night": "%s",\n  "commit": "%s",\n  "setup": "%s",\n  "made_by": "scripts/nightly.sh"\n}\n' \
        "$night" "$commit" "$setup" >"$out/night.json.tmp"
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
leak_status=0
if grep -q '"leak"[[:space:]]*:' "$config"; then
    leak_args=(leak --config "$config" --out "$out/leak" "${threads[@]}")
    [[ -f "$out/leak/games.jsonl" ]] && leak_args+=(--resume)
    echo "== nightly $night: $arena ${leak_args[*]}${extra[*]:+ ${extra[*]}}"
    # 5: measured, but an engine failed too often; the night goes on and says so at the end.
    "$arena" "${leak_args[@]}" "${extra[@]}" || leak_status=$?
    [[ $leak_status -eq 0 || $leak_status -eq 5 ]] || { forget; exit "$leak_status"; }
fi
args=(tournament --config "$config" --out "$out" "${threads[@]}")
[[ -f "$out/games.jsonl" ]] && args+=(--resume)
echo "== nightly $night: $arena ${args[*]}${extra[*]:+ ${extra[*]}}"
"$arena" "${args[@]}" "${extra[@]}" || status=$?
# The index is rebuilt when the night is rated (5 too: its games are all played); a night that
# could not run (bad config, disk full) leaves the index as it was.
if [[ $status -eq 0 || $status -eq 5 ]]; then
    history_status=0
    "$arena" history "$nights" || history_status=$?
    [[ $history_status -eq 0 ]] || status=$history_status
else
    forget
fi
if [[ $status -eq 5 || ($status -eq 0 && $leak_status -eq 5) ]]; then
    echo "$(basename "$0"): the night $night is complete, but an engine failed in more than 5 % of its games (the ENGINE FAILURES line above; $out/report.html): exit 5" >&2
    status=5
fi
exit "$status"
