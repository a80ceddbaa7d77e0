# shellcheck shell=bash
# Helpers shared by the scripts in scripts/cluster/ (sourced by them, never run on its own).

cluster_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$cluster_dir/../.." && pwd)"
# shellcheck source=../lib/arena.sh
source "$repo_root/scripts/lib/arena.sh"
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

# The most threads arena takes (--threads; plan::run::MAX_THREADS): the bound of --cpus.
max_threads=1024

# check_count FLAG VALUE MAX WHY: refuses a VALUE of FLAG that is no whole number of 1 or more, or
# is above MAX, with a message that says which (WHY: what MAX is).
check_count() {
    local flag="$1" v="$2" max="$3" why="$4"
    [[ "$v" =~ ^[1-9][0-9]*$ ]] || die "$flag must be a whole number, 1 or more (got '$v')"
    # Compared as text first: a number too long for the shell's integers is too large too.
    [[ ${#v} -le ${#max} && "$v" -le $max ]] || die "$flag $v: at most $max ($why)"
}

# The most shards arena takes (`--shard K/N`, N at most this: records::shard::MAX_SHARDS).
max_shards=1000000

# check_shards N: refuses a --shards value that is no count or above what arena takes. (The run's
# own bound, no more shards than pairs, is check_run's.)
check_shards() {
    [[ "$1" =~ ^[1-9][0-9]*$ ]] || die "--shards must be a whole number, 1 or more (got '$1')"
    # Compared as text first: a number too long for the shell's integers is too many shards too.
    [[ ${#1} -le ${#max_shards} && "$1" -le $max_shards ]] ||
        die "--shards $1: arena takes at most $max_shards shards (and a run no more than its pairs)"
}

# check_run N DIR OUT ARGS...: runs the arena once, in folder DIR, with the arguments shard 0 of N
# gets (ARGS --shard 0/N --out OUT/shard-0) and --check, which validates them as a real run would
# (engines, files, flags) and plays nothing; refuses bad arguments and more shards than the run
# has pairs (per pairing), before anything is submitted or started; a refusal ends with
# $check_note when the caller set one. Without an arena binary it
# only warns (a --dry-run may be made on a machine without one).
check_run() {
    local n="$1" dir="$2" out="$3" result status=0 pairs
    shift 3
    if [[ ! -x "$ARENA" || -d "$ARENA" ]]; then
        say "warning: no arena binary at '$ARENA': the arena arguments are not checked (--check)"
        return 0
    fi
    result="$(cd -- "$dir" && "$ARENA" "$@" --shard "0/$n" --out "$out/shard-0" --no-progress --check 2>&1)" ||
        status=$?
    if [[ $status -ne 0 ]]; then
        if [[ "$result" == *"unexpected argument '--check'"* ]]; then
            say "warning: $ARENA has no --check (an older build): the arena arguments are not checked"
            return 0
        fi
        say "the arena refuses these arguments (checked once, with --check, before starting any shard):"
        sed 's/^/    /' <<<"$result" >&2
        [[ -z "${check_note-}" ]] || say "$check_note"
        say "nothing was submitted or started (or give --no-check to skip this check)"
        exit 2
    fi
    pairs="$(sed -n 's/^pairs: \([0-9][0-9]*\).*/\1/p' <<<"$result")"
    if [[ -z "$pairs" ]]; then
        say "warning: arena --check printed no 'pairs:' line: --shards is not checked against the pairs"
        return 0
    fi
    if [[ "$n" -gt "$pairs" ]]; then
        die "--shards $n: the run has $pairs pairs (per pairing) and shard K plays the pairs p with" \
            "p ≡ K (mod N), so shards $pairs and up would have nothing to play: give at most $pairs"
    fi
    say "checked with arena --check: $pairs pairs per pairing, $(sed -n 's|^shard: [0-9]*/[0-9]*, \([0-9]*\) .*|\1|p' <<<"$result") of them in shard 0/$n"
}

# unfinished N OUT: the shard indices K (one line, space-separated) whose run did not finish:
# no OUT/shard-K/games.csv, the table arena writes when every pair of the shard is played.
unfinished() {
    local n="$1" out="$2" k list=()
    for ((k = 0; k < n; k++)); do
        [[ -f "$out/shard-$k/games.csv" ]] || list+=("$k")
    done
    echo "${list[*]-}"
}

# array_spec K...: the indices as a Slurm --array list, runs compressed: 1-3,7.
array_spec() {
    local spec="" start="" prev="" k
    for k in "$@" ""; do
        if [[ -n "$prev" && "$k" == "$((prev + 1))" ]]; then
            prev="$k"
            continue
        fi
        if [[ -n "$start" ]]; then
            spec+="${spec:+,}$start"
            [[ "$prev" != "$start" ]] && spec+="-$prev"
        fi
        start="$k"
        prev="$k"
    done
    echo "$spec"
}

# slurm_recovery SLURM_DIR K...: the command line that reruns array tasks K... of
# SLURM_DIR/shard.sbatch and merges after all of them succeed. The merge must wait for the
# tasks (--dependency=afterok): submitted on its own it starts at once and finds pairs missing.
# With no K, the line holds the placeholder FAILED_TASKS, which sbatch refuses as it is.
slurm_recovery() {
    local dir="$1" spec=FAILED_TASKS
    shift
    [[ $# -eq 0 ]] || spec="$(array_spec "$@")"
    echo "j=\$(sbatch --parsable --array=$spec $(shell_words "$dir/shard.sbatch")) &&" \
        "sbatch --dependency=afterok:\$j $(shell_words "$dir/merge.sbatch")"
}

# merge_command N OUT [--partial]: the command line that runs merge-task.sh N OUT by hand, with
# the arena binary this run uses (ARENA=...), so that it can be pasted in any shell.
merge_command() {
    echo "ARENA=$(shell_words "$ARENA") $(shell_words "$cluster_dir/merge-task.sh" "$@")"
}

# suggest_recovery N OUT: after shards failed, says what can work: the same command again, and
# merging what there is with --partial only if some shard recorded games.
suggest_recovery() {
    local n="$1" out="$2" k have=0
    for ((k = 0; k < n; k++)); do
        [[ -s "$out/shard-$k/games.jsonl" ]] && have=$((have + 1))
    done
    say "run the same command again to resume them (finished shards are kept)"
    if [[ $have -gt 0 ]]; then
        say "or merge the $have shards that recorded games: $(merge_command "$n" "$out" --partial)"
    else
        say "no shard recorded any game (no $out/shard-K/games.jsonl), so there is nothing to merge yet"
    fi
}
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
        match | tournament | leak) ;;
        -*) die "the arena arguments must start with the command (match, tournament or leak), not '$1'" ;;
        *) say "warning: '$1' is not match, tournament or leak; only those take --shard" ;;
    esac
    local f
    for f in --out --shard; do
        if has_flag "$f" "$@"; then
            die "do not give $f in the arena arguments: each shard gets --out OUT/shard-K and --shard K/N"
        fi
    done
    if has_flag --check "$@"; then
        die "do not give --check in the arena arguments: the scripts check the run once before starting (see --no-check)"
    fi
}

# The arena binary, as every script finds it (scripts/lib/arena.sh: $ARENA if set, else
# target/release/arena of this repository if built, else arena on PATH). Sets ARENA to its absolute
# path and exports it. $1: "need" (a missing binary is an error) or "warn" (a warning, and ARENA
# names where a built binary would be).
resolve_arena() {
    local found
    if found="$(find_arena "$repo_root")"; then
        ARENA="$found"
    else
        [[ "${1-}" == warn ]] || die "$(no_arena_message "$repo_root")"
        say "warning: $(no_arena_message "$repo_root")"
        ARENA="${ARENA:-$repo_root/target/release/arena}"
    fi
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

# attempt_header LOG K N: appends the line that starts attempt A of shard K/N to LOG (A counts the
# attempts the log already holds), so a retry keeps the earlier attempts' output above it.
attempt_header() {
    local log="$1" a
    a="$(grep -c '^=== attempt ' "$log" 2>/dev/null)" || true
    echo "=== attempt $((${a:-0} + 1)) of shard $2/$3 on $(hostname 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%M:%SZ) ===" >>"$log"
}

# run_local N OUT LOGDIR EXT LAUNCH: runs `LAUNCH K` for every K from 0 to N-1, all at once, each in the
# background with its output appended to LOGDIR/shard-K.EXT after an attempt line; waits for all of
# them; says how each ended (the last lines of the log of one that failed). Returns 1 if any failed.
run_local() {
    local n="$1" out="$2" logdir="$3" ext="$4" launch="$5" k status
    local -a failed=()
    local_pids=()
    trap 'stop_local; exit 130' INT TERM
    for ((k = 0; k < n; k++)); do
        {
        attempt_header "$logdir/shard-$k.$ext" "$k" "$n"
        "$launch" "$k" >>"$logdir/shard-$k.$ext" 2>&1
    } &
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
        say "${#failed[@]} of $n shards failed (${failed[*]}): not merging"
        suggest_recovery "$n" "$out"
        return 1
    fi
}
