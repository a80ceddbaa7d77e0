#!/usr/bin/env bash
# The merge gate across git revisions: does NEW gain Elo over BASE? Builds `jieqi-uci` at both
# revisions, plays them against each other over UCI with `arena sprt`, prints the result block and
# exits with the gate's status.
#
# Usage: scripts/regression.sh [--base REV] [--new REV] [--engine SPEC] [--no-build] [-- ARENA SPRT ARGS...]
#   --base REV     the baseline revision (default: the merge-base of HEAD and main, or origin/main)
#   --new REV      the revision under test (default: the working tree, uncommitted changes included)
#
# Before building it prints the two sides it plays (short hash and subject, "(working tree,
# dirty)" for uncommitted changes). It refuses (exit 2) to play a commit against itself: with no
# arguments on a clean checkout of main, the merge-base is HEAD and the working tree is HEAD too.
# With uncommitted changes it plays HEAD against the working tree and says so.
#   --engine SPEC  which of jieqi-uci's engines plays, with its options: NAME[:key=value,...]
#                  (default alphabeta; e.g. alphabeta:hash=32,contempt=0)
#   --no-build     use the jieqi-uci already built in target/release (the working tree's engine)
#                  and the arena found as by every script: ARENA, else target/release/arena,
#                  else arena on PATH (with a build, ARENA if set, else the one built)
#   -- ARGS        more `arena sprt` arguments; any of the defaults below given here replaces it
#                  (e.g. -- --tc 5+0.05 --elo0 0 --elo1 5 --max-pairs 2000 --threads 2)
#                  (an --out DIR here is taken from the current directory)
#
# Defaults, fishtest's short test at a time control short enough for this project's engines:
#   --tc 1+0.01 --elo0 0 --elo1 2 (normalized Elo) --alpha 0.05 --beta 0.05 --max-pairs 20000
# Exit status (that of `arena sprt`): 0 = H1 accepted (merge), 1 = H0 accepted (do not merge),
# 3 = inconclusive at --max-pairs, 5 = an engine failed (crash, hang, protocol error; add
# -- --recover to count failures as losses), 2 = bad usage or configuration, 4 = results not written.
#
# Builds are cached by commit in target/regression/<commit>/jieqi-uci (one shared cargo target
# folder, target/regression/cargo-target, keeps rebuilds incremental); the working tree's engine is
# built in place. Results go to target/regression/runs/<base>-vs-<new>-<UTC time>/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base=""
new=""
engine="alphabeta"
build=1
extra=()

die() {
    echo "regression.sh: $*" >&2
    exit 2
}

# PATH made absolute against the current directory.
absolute_path() {
    case "$1" in
        /*) printf '%s' "$1" ;;
        *) printf '%s/%s' "$PWD" "$1" ;;
    esac
}

# The value of flag $1 (the next argument, $2), which must be given and not empty.
value() {
    [[ $# -ge 2 && -n "$2" ]] || die "$1 needs $3 (see --help)"
    printf '%s' "$2"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --base) base="$(value "$1" "${2-}" "a revision")" || exit 2; shift 2 ;;
        --new) new="$(value "$1" "${2-}" "a revision")" || exit 2; shift 2 ;;
        --engine) engine="$(value "$1" "${2-}" "a spec")" || exit 2; shift 2 ;;
        --no-build) build=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
# An --out after -- is a folder the user typed: taken from the current directory, before the cd.
for i in "${!extra[@]}"; do
    case "${extra[$i]}" in
        --out=?*) extra[i]="--out=$(absolute_path "${extra[$i]#--out=}")" ;;
        --out) [[ -z "${extra[i + 1]-}" ]] || extra[i + 1]="$(absolute_path "${extra[i + 1]}")" ;;
    esac
done
# ARENA, a path, is taken from the caller's folder.
[[ "${ARENA:-}" != */* ]] || ARENA="$(absolute_path "$ARENA")"
# shellcheck source=lib/arena.sh
source "$root/scripts/lib/arena.sh"
cd "$root"

git rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git repository"
if [[ -z "$base" ]]; then
    for main in main origin/main; do
        if git rev-parse --verify --quiet "$main^{commit}" >/dev/null; then
            base="$(git merge-base HEAD "$main")"
            break
        fi
    done
    [[ -n "$base" ]] || die "no branch main or origin/main to take the merge-base with: give --base REV"
fi
base_commit="$(git rev-parse --verify --quiet "$base^{commit}")" || die "--base '$base' is not a revision"

engine_name="${engine%%:*}"
engine_options=""
[[ "$engine" == *:* ]] && engine_options="${engine#*:}"
[[ "$engine_name" =~ ^[A-Za-z0-9_-]+$ ]] || die "--engine '$engine': expected NAME[:key=value,...]"

out_root="$root/target/regression"
shared_target="$out_root/cargo-target"
mkdir -p "$out_root/runs"

# Builds jieqi-uci at a commit (once; the binary is cached) and prints the binary's path.
build_commit() {
    local commit="$1" dir="$out_root/$1"
    if [[ -x "$dir/jieqi-uci" ]]; then
        echo "$dir/jieqi-uci"
        return
    fi
    git cat-file -e "$commit:crates/jieqi-uci/Cargo.toml" 2>/dev/null ||
        die "revision $commit has no crates/jieqi-uci: it predates the UCI engine"
    mkdir -p "$dir"
    rm -rf "$dir/src"
    git worktree prune
    echo "building jieqi-uci at ${commit:0:12} ..." >&2
    git worktree add --detach --quiet "$dir/src" "$commit" >&2
    if ! CARGO_TARGET_DIR="$shared_target" cargo build --release --quiet -p jieqi-uci \
        --manifest-path "$dir/src/Cargo.toml" >&2; then
        git worktree remove --force "$dir/src" >&2 || true
        die "cannot build jieqi-uci at $commit"
    fi
    cp "$shared_target/release/jieqi-uci" "$dir/jieqi-uci.tmp"
    mv "$dir/jieqi-uci.tmp" "$dir/jieqi-uci"
    git worktree remove --force "$dir/src" >&2
    echo "$dir/jieqi-uci"
}

# What each side is, before anything is built: a commit, or the working tree on top of HEAD.
describe() {
    git log -1 --format='%h %s' "$1"
}
head_commit="$(git rev-parse --verify --quiet 'HEAD^{commit}')" || die "no commit checked out (HEAD)"
dirty=0
[[ -n "$(git status --porcelain --untracked-files=no)" ]] && dirty=1
if [[ -z "$new" ]]; then
    new_commit="$head_commit"
    if [[ $dirty -eq 1 ]]; then
        new_text="$(describe "$head_commit") (working tree, dirty)"
    else
        new_text="$(describe "$head_commit") (working tree, clean)"
    fi
else
    new_commit="$(git rev-parse --verify --quiet "$new^{commit}")" || die "--new '$new' is not a revision"
    new_text="$(describe "$new_commit")"
fi
echo "regression.sh: new:  $new_text" >&2
echo "regression.sh: base: $(describe "$base_commit")" >&2
if [[ "$new_commit" == "$base_commit" ]]; then
    if [[ -n "$new" ]]; then
        die "--base and --new are the same commit (${base_commit:0:12}): nothing to compare"
    elif [[ $dirty -eq 0 ]]; then
        die "the working tree is clean and at the base commit ${base_commit:0:12} (the merge-base \
of HEAD and main): this would play HEAD against itself for hours. Commit or change something \
first, or give --base REV (e.g. --base HEAD~1) or --new REV"
    else
        echo "regression.sh: playing HEAD ${base_commit:0:12} against the working tree's uncommitted changes" >&2
    fi
fi

if [[ $build -eq 1 ]]; then
    echo "building arena and jieqi-uci in the working tree ..." >&2
    cargo build --release --quiet -p arena -p jieqi-uci >&2
fi
arena="$(find_arena "$root")" || die "$(no_arena_message "$root")"

base_bin="$(build_commit "$base_commit")"
if [[ -z "$new" ]]; then
    new_label="worktree"
    # The working tree's engine, copied so that a rebuild during the run cannot change it.
    new_bin="$out_root/worktree-jieqi-uci"
    cp "$root/target/release/jieqi-uci" "$new_bin.tmp"
    mv "$new_bin.tmp" "$new_bin"
    [[ $dirty -eq 1 ]] && new_label="worktree+dirty"
    new_label="$new_label-$(git rev-parse --short=12 HEAD)"
else
    new_bin="$(build_commit "$new_commit")"
    new_label="${new_commit:0:12}"
fi
base_label="${base_commit:0:12}"

spec() {
    local bin="$1" label="$2"
    local s="uci:path=$bin,option.Engine=$engine_name,name=$label"
    # jieqi-uci reads ';' in EngineOptions as ','; a ',' here would split the arena spec.
    [[ -n "$engine_options" ]] && s="$s,option.EngineOptions=${engine_options//,/;}"
    echo "$s"
}

# The defaults, unless the extra arguments give the same flag.
args=()
has() {
    local flag="$1" a
    for a in "${extra[@]+"${extra[@]}"}"; do
        [[ "$a" == "$flag" || "$a" == "$flag="* ]] && return 0
    done
    return 1
}
has --tc || args+=(--tc 1+0.01)
has --elo0 || args+=(--elo0 0)
has --elo1 || args+=(--elo1 2)
has --max-pairs || args+=(--max-pairs 20000)
out="$out_root/runs/$base_label-vs-$new_label-$(date -u +%Y%m%d-%H%M%S)"
has --out || args+=(--out "$out")

echo "gate: $engine, new $new_label against base $base_label" >&2
set +e
"$arena" sprt \
    --engine "$(spec "$new_bin" "new-$new_label")" \
    --engine "$(spec "$base_bin" "base-$base_label")" \
    "${args[@]}" "${extra[@]+"${extra[@]}"}"
status=$?
set -e
case $status in
    0) echo "regression.sh: H1 accepted: new gains on base (merge)" >&2 ;;
    1) echo "regression.sh: H0 accepted: new does not gain on base (do not merge)" >&2 ;;
    3) echo "regression.sh: inconclusive at the cap" >&2 ;;
    5) echo "regression.sh: an engine failed; no verdict (see the results folder)" >&2 ;;
    *) echo "regression.sh: arena sprt failed (exit $status)" >&2 ;;
esac
exit $status
