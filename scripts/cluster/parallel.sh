#!/usr/bin/env bash
# Runs an arena match, tournament or leak run as N shards over ssh hosts with GNU parallel (or all
# on this machine), then merges them here.
#
# Usage: scripts/cluster/parallel.sh --shards N --out DIR (--hosts FILE | --local) [options]
#                                    -- ARENA_ARGS...
#   --shards N           cut the run into N shards; shard K plays the pairs p with p ≡ K (mod N),
#                        so N is at most the run's pairs (checked)
#   --out DIR            the run's folder: shards in DIR/shard-K, merged results in DIR/merged,
#                        the task script, logs and GNU parallel's joblog in DIR/parallel
#   --hosts FILE         run the shards over ssh on the hosts of FILE, GNU parallel's
#                        --sshloginfile: one sshlogin a line (host, user@host, ':' for this
#                        machine); a host runs --jobs-per-host shards at a time
#   --local              run the N shards on this machine at once: with GNU parallel if it is
#                        installed, else with xargs -P N (the output says which)
#   --xargs              with --local, use xargs -P N even if GNU parallel is installed
#   --jobs-per-host J    shards a host runs at once (default 1; give arena --threads to share its
#                        cores between them, otherwise each shard uses all of them)
#   --retries R          GNU parallel: run a failed shard up to R times in all, on another host if
#                        there is one (default 1: no retry); a retried shard resumes
#   --no-check           do not run the arena once with --check before starting (it validates
#                        the arena arguments and bounds --shards by the run's pairs)
#   --dry-run            write the task script and print it and the command; run nothing
#   -h, --help           this help
#   -- ARENA_ARGS        the arena command and its arguments, without --out and --shard, e.g.
#                        -- match --engine alphabeta --engine ismcts --pairs 4000 --nodes 20000
#
# Shared filesystem: with --hosts, DIR, this repository and the arena binary ($ARENA if set, else
# target/release/arena of this repository if built, else arena on PATH: the one found here) must
# be at the same paths on every host (NFS and the like), as on a Slurm cluster. Nothing is
# copied with --transferfile/--return: a shard that stops half-way leaves its folder where a
# retry, on any host, resumes it, and the shards' logs are where this machine reads them. Each
# host needs ssh without a password prompt and a POSIX login shell; the shards run in the folder
# parallel.sh was started in, so relative paths in ARENA_ARGS keep working.
#
# Before anything starts, the arena runs once here with --check (see --no-check). Each shard runs
# DIR/parallel/task.sh K: shard-task.sh K N DIR -- ARENA_ARGS, its output appended to
# DIR/parallel/shard-K.log after a line "=== attempt A of shard K/N on HOST, TIME ===" (every
# attempt, retries and reruns included, is kept) and its last exit status in
# DIR/parallel/shard-K.exit; GNU parallel appends to its joblog DIR/parallel/joblog one line per
# shard and run, for its last try only (a retry's earlier tries are in shard-K.log). When every
# shard is done, merge-task.sh N DIR runs here (its output in DIR/parallel/merge.log). Run the same
# command again after a failure: finished shards are kept and unfinished ones resume.
# Exit status: 0 run and merged, 1 a shard failed, 2 bad usage, otherwise that of the merge.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

shards=""
out=""
hosts=""
mode=""
force_xargs=0
jobs_per_host=1
retries=1
dry_run=0
check=1
arena_args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --shards) shards="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --out) out="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --hosts) hosts="$(flag_value "$1" "${2-}" "$#")"; [[ -z "$mode" ]] || die "give one of --hosts and --local"; mode=hosts; shift 2 ;;
        --local) [[ -z "$mode" ]] || die "give one of --hosts and --local"; mode=local; shift ;;
        --xargs) force_xargs=1; shift ;;
        --jobs-per-host) jobs_per_host="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --retries) retries="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --dry-run) dry_run=1; shift ;;
        --no-check) check=0; shift ;;
        -h | --help) show_help; exit 0 ;;
        --) shift; arena_args=("$@"); break ;;
        *) die "unknown argument '$1' (arena's own arguments go after '--'; see --help)" ;;
    esac
done

[[ -n "$shards" ]] || die "--shards N is required"
check_shards "$shards"
[[ -n "$out" ]] || die "--out DIR is required"
[[ -n "$mode" ]] || die "give --hosts FILE (ssh hosts) or --local (this machine)"
check_count --jobs-per-host "$jobs_per_host" "$max_shards" "a run has at most $max_shards shards"
check_count --retries "$retries" 1000 "tries of one shard in all, this script's bound"
[[ $force_xargs -eq 0 || $mode == local ]] || die "--xargs goes with --local"
if [[ $mode == hosts ]]; then
    [[ -f "$hosts" ]] || die "--hosts '$hosts': no such file"
    hosts="$(cd "$(dirname -- "$hosts")" && pwd)/$(basename -- "$hosts")"
fi
check_arena_args "${arena_args[@]+"${arena_args[@]}"}"
if [[ $dry_run -eq 1 ]]; then resolve_arena warn; else resolve_arena need; fi
[[ $check -eq 0 ]] || check_run "$shards" "$(pwd)" "$out" "${arena_args[@]}"

out="$(abs_dir "$out")"
par_dir="$out/parallel"
mkdir -p "$par_dir"
task="$par_dir/task.sh"
{
    echo "#!/usr/bin/env bash"
    echo "# Shard \$1 of $shards of the run in $out. Written by scripts/cluster/parallel.sh on" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ); run again to rewrite."
    echo "set -uo pipefail"
    echo "k=\"\$1\""
    echo "cd $(shell_words "$(pwd)") || exit 2"
    echo "export ARENA=$(shell_words "$ARENA")"
    echo "log=$(shell_words "$par_dir")/shard-\"\$k\".log"
    echo "# Every attempt is appended to the log after a line that counts it."
    echo "a=\"\$(grep -c '^=== attempt ' \"\$log\" 2>/dev/null)\""
    echo "echo \"=== attempt \$((\${a:-0} + 1)) of shard \$k/$shards on \$(hostname 2>/dev/null), \$(date -u +%Y-%m-%dT%H:%M:%SZ) ===\" >>\"\$log\""
    echo "bash $(shell_words "$cluster_dir/shard-task.sh") \"\$k\" $(shell_words "$shards" "$out" -- "${arena_args[@]}") \\"
    echo "    >>\"\$log\" 2>&1"
    echo "status=\$?"
    echo "echo \"\$status\" >$(shell_words "$par_dir")/shard-\"\$k\".exit"
    echo "exit \"\$status\""
} >"$task"
chmod +x "$task"

is_gnu_parallel() { command -v parallel >/dev/null && parallel --version 2>/dev/null | head -n 1 | grep -q 'GNU parallel'; }
task_cmd="bash $(shell_words "$task") {}"
indices=()
for ((k = 0; k < shards; k++)); do indices+=("$k"); done
if [[ $mode == hosts ]]; then
    runner=parallel
    run=(parallel --will-cite --sshloginfile "$hosts" --jobs "$jobs_per_host" --retries "$retries"
        --joblog "+$par_dir/joblog" "$task_cmd" ::: "${indices[@]}")
    why="GNU parallel over the hosts of $hosts"
elif [[ $force_xargs -eq 0 ]] && is_gnu_parallel; then
    runner=parallel
    run=(parallel --will-cite --jobs "$shards" --retries "$retries" --joblog "+$par_dir/joblog"
        "$task_cmd" ::: "${indices[@]}")
    why="GNU parallel on this machine"
else
    runner="xargs"
    run=(xargs -P "$shards" -n 1 bash "$task")
    why="xargs -P $shards on this machine"
    if [[ $force_xargs -eq 1 ]]; then
        why+=", as --xargs asks"
    else
        why+=": GNU parallel is not installed"
    fi
    [[ $retries -eq 1 ]] || say "warning: --retries needs GNU parallel; xargs runs each shard once"
fi

if [[ $dry_run -eq 1 ]]; then
    echo "==> $task <=="
    cat "$task"
    echo
    echo "==> would run: $why <=="
    if [[ $runner == xargs ]]; then
        printf '%s | %s\n' "printf '%s\\n' ${indices[*]}" "$(shell_words "${run[@]}")"
    else
        shell_words "${run[@]}"
    fi
    shell_words bash "$cluster_dir/merge-task.sh" "$shards" "$out"
    exit 0
fi

if [[ $runner == parallel ]] && ! is_gnu_parallel; then
    die "--hosts needs GNU parallel (apt-get install parallel; moreutils' parallel is another program)"
fi
rm -f "$par_dir"/shard-*.exit
say "running $shards shards with $why; logs: $par_dir/shard-K.log"
trap 'exit 130' INT TERM
status=0
if [[ $runner == xargs ]]; then
    printf '%s\n' "${indices[@]}" | "${run[@]}" || status=$?
else
    "${run[@]}" || status=$?
fi
trap - INT TERM

failed=()
for ((k = 0; k < shards; k++)); do
    code="$(cat "$par_dir/shard-$k.exit" 2>/dev/null || true)"
    if [[ "$code" == 0 ]]; then
        say "shard $k/$shards: done"
        continue
    fi
    failed+=("$k")
    if [[ -z "$code" ]]; then
        say "shard $k/$shards: FAILED: it did not run to the end (ssh or host trouble? see $par_dir/joblog)"
    else
        say "shard $k/$shards: FAILED (exit $code); the end of $par_dir/shard-$k.log:"
    fi
    tail -n 8 "$par_dir/shard-$k.log" 2>/dev/null | sed 's/^/    /' >&2 || true
done
if [[ ${#failed[@]} -gt 0 || $status -ne 0 ]]; then
    say "${#failed[@]} of $shards shards failed (${failed[*]-}; $runner exited $status): not merging"
    suggest_recovery "$shards" "$out"
    exit 1
fi
say "all $shards shards done; merging here"
bash "$cluster_dir/merge-task.sh" "$shards" "$out" 2>&1 | tee -a "$par_dir/merge.log"
say "merged results in $out/merged"
