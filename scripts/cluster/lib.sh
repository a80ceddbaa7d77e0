# shellcheck shell=bash
# Helpers shared by the scripts in scripts/cluster/ (sourced by them, never run on its own).

cluster_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$cluster_dir/../.." && pwd)"
prog="$(basename "$0")"

# Prints the message and exits with 2 (bad usage), as arena does.
die() {
    echo "$prog: $*" >&2
    exit 2
}

# A line about what is happening, on stderr (stdout is left for what the user asked to see).
say() {
    echo "$prog: $*" >&2
}

# Prints the script's header comment (line 2 up to `set -euo pipefail`) as its help.
show_help() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

# The value of flag $1, which must be present ($# counted by the caller as $2).
# Usage: value="$(flag_value "$1" "${2-}" "$#")"
flag_value() {
    local flag="$1" value="$2" count="$3"
    [[ "$count" -ge 2 && -n "$value" ]] || die "$flag needs a value (see --help)"
    printf '%s\n' "$value"
}

is_count() { [[ "$1" =~ ^[1-9][0-9]{0,6}$ ]]; }
is_index() { [[ "$1" =~ ^(0|[1-9][0-9]{0,6})$ ]]; }

# has_flag NAME ARGS...: whether --NAME or --NAME=VALUE is among ARGS.
has_flag() {
    local flag="$1" a
    shift
    for a in "$@"; do
        [[ "$a" == "$flag" || "$a" == "$flag="* ]] && return 0
    done
    return 1
}

# Refuses arena arguments a scheduler sets itself, before anything is submitted.
check_arena_args() {
    [[ $# -gt 0 ]] || die "no arena arguments after '--' (e.g. -- match --engine A --engine B --pairs 1000)"
    case "$1" in
        match | tournament) ;;
        -*) die "the arena arguments must start with the command (match or tournament), not '$1'" ;;
        *) say "warning: '$1' is not match or tournament; only those take --shard" ;;
    esac
    local f
    for f in --out --shard; do
        if has_flag "$f" "$@"; then
            die "do not give $f in the arena arguments: each shard gets --out OUT/shard-K and --shard K/N"
        fi
    done
}

# The arena binary: $ARENA, else target/release/arena of this repository. Sets ARENA to its absolute
# path and exports it. $1: "need" (a missing binary is an error) or "warn" (a warning).
resolve_arena() {
    local a="${ARENA:-$repo_root/target/release/arena}" found
    if [[ "$a" != */* ]]; then
        found="$(command -v -- "$a" || true)"
        [[ -n "$found" ]] && a="$found"
    fi
    if [[ ! -x "$a" || -d "$a" ]]; then
        local msg="no arena binary at '$a': build it with 'cargo build --release -p arena', or set ARENA=/path/to/arena"
        [[ "${1-}" == warn ]] || die "$msg"
        say "warning: $msg"
    else
        a="$(cd "$(dirname -- "$a")" && pwd)/$(basename -- "$a")"
    fi
    ARENA="$a"
    export ARENA
}

# Creates folder $1 if needed and prints its absolute path.
abs_dir() {
    mkdir -p -- "$1" || die "cannot create folder '$1'"
    (cd -- "$1" && pwd)
}

# Prints its arguments as one line of shell words that bash reads back as the same arguments.
shell_words() {
    local out="" a q
    for a in "$@"; do
        printf -v q '%q' "$a"
        out+="${out:+ }$q"
    done
    printf '%s\n' "$out"
}

# Process ids of the local shard processes, so an interrupted script stops them.
local_pids=()
stop_local() {
    local p
    for p in "${local_pids[@]+"${local_pids[@]}"}"; do
        kill "$p" 2>/dev/null || true
    done
}

# run_local N OUT LOGDIR EXT LAUNCH: runs `LAUNCH K` for every K from 0 to N-1, all at once, each in the
# background with its output in LOGDIR/shard-K.EXT; waits for all of them; says how each ended (the
# last lines of the log of one that failed). Returns 1 if any failed.
run_local() {
    local n="$1" out="$2" logdir="$3" ext="$4" launch="$5" k status
    local -a failed=()
    local_pids=()
    trap 'stop_local; exit 130' INT TERM
    for ((k = 0; k < n; k++)); do
        "$launch" "$k" >"$logdir/shard-$k.$ext" 2>&1 &
        local_pids[k]=$!
    done
    say "started $n shard processes on this machine (logs: $logdir/shard-K.$ext)"
    for ((k = 0; k < n; k++)); do
        status=0
        wait "${local_pids[k]}" || status=$?
        if [[ $status -eq 0 ]]; then
            say "shard $k/$n: done"
        else
            failed+=("$k")
            say "shard $k/$n: FAILED (exit $status); the end of $logdir/shard-$k.$ext:"
            tail -n 8 "$logdir/shard-$k.$ext" | sed 's/^/    /' >&2
        fi
    done
    trap - INT TERM
    local_pids=()
    if [[ ${#failed[@]} -gt 0 ]]; then
        say "${#failed[@]} of $n shards failed (${failed[*]}): not merging. Run the same command again" \
            "to resume them (finished shards are kept), or merge what there is with" \
            "$(shell_words "$cluster_dir/merge-task.sh" "$n" "$out" --partial)"
        return 1
    fi
}
