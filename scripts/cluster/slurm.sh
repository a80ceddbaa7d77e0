#!/usr/bin/env bash
# Runs an arena match, tournament or leak run on a Slurm cluster as a job array of N shards, then
# merges them in a job that waits for the whole array (afterok).
#
# Usage: scripts/cluster/slurm.sh --shards N --out DIR [options] [--dry-run | --local] -- ARENA_ARGS...
#   --shards N       cut the run into N shards: array tasks 0 to N-1; shard K plays the pairs p
#                    with p ≡ K (mod N), so N is at most the run's pairs (checked), and at most
#                    the cluster's MaxArraySize (often 1001; sbatch refuses more)
#   --out DIR        the run's folder, on a filesystem every node sees at the same path: shards in
#                    DIR/shard-K, the merged results in DIR/merged, job scripts and logs in DIR/slurm
#   --partition P    #SBATCH --partition (default: the cluster's default partition)
#   --time T         #SBATCH --time of each task and of the merge, e.g. 04:00:00 (default: the
#                    partition's limit)
#   --cpus C         #SBATCH --cpus-per-task of each shard (default 1); arena gets
#                    --threads $SLURM_CPUS_PER_TASK unless ARENA_ARGS give --threads
#   --mem M          #SBATCH --mem of each shard, e.g. 2G (default: the cluster's)
#   --sbatch OPT     another #SBATCH line for both jobs, e.g. --sbatch --account=chess or
#                    --sbatch --qos=low (repeatable)
#   --no-check       do not run the arena once with --check before submitting (it validates the
#                    arena arguments and bounds --shards by the run's pairs; skip it only when this
#                    machine cannot see files the jobs will)
#   --dry-run        write the job scripts and print them and the sbatch commands; submit nothing
#   --local          no Slurm: run every array task on this machine at once (each the same
#                    shard.sbatch under bash with SLURM_ARRAY_TASK_ID=K), wait for all, then run
#                    merge.sbatch if none failed
#   -h, --help       this help
#   -- ARENA_ARGS    the arena command and its arguments, without --out and --shard, e.g.
#                    -- match --engine alphabeta --engine ismcts --pairs 4000 --nodes 20000 --seed 7
#                    -- tournament --config configs/nightly.json
#                    -- leak --engine alphabeta --pairs 400
#
# Writes DIR/slurm/shard.sbatch (the array, each task running shard-task.sh with the index from
# SLURM_ARRAY_TASK_ID; log DIR/slurm/shard-K.out) and DIR/slurm/merge.sbatch (merge-task.sh; log
# DIR/slurm/merge.out), then submits them:
#   jobid=$(sbatch --parsable DIR/slurm/shard.sbatch)
#   sbatch --dependency=afterok:$jobid DIR/slurm/merge.sbatch
# Before writing anything it runs the arena once here with --check (see --no-check). The jobs run
# in the folder slurm.sh was started in (relative paths in ARENA_ARGS keep working) and use the
# arena binary found here (see below), which, like this repository, must be on the shared
# filesystem.
#
# If a task fails, Slurm never starts the merge (afterok). A task run again resumes its shard, so
# rerun the failed tasks and submit the merge AFTER them, in one line (FAILED_TASKS: the failed
# task numbers, e.g. 3,7):
#   j=$(sbatch --parsable --array=FAILED_TASKS DIR/slurm/shard.sbatch) && sbatch --dependency=afterok:$j DIR/slurm/merge.sbatch
# To find them, run the merge by hand (ARENA=... scripts/cluster/merge-task.sh N DIR): it merges
# nothing while shards are unfinished, names them and prints this line with their numbers.
# (sacct -X -j JOBID lists them only where Slurm keeps accounting; scontrol show job JOBID works
# while Slurm still knows the job.) A merge submitted without the dependency starts at once and
# fails with pairs missing. Or run the same slurm.sh command again: finished shards return at
# once, the others resume. Or merge what there is: scripts/cluster/merge-task.sh N DIR --partial.
# The merge notes each attempt in DIR/merge.log, and a merge cancelled by Slurm (scancel, time
# limit) leaves DIR/MERGE-CANCELLED; merge again with sbatch DIR/slurm/merge.sbatch.
# The arena binary: $ARENA if set, else target/release/arena of this repository if built, else
# arena on PATH; the job scripts name the one found.
# Exit status: 0 submitted (or, with --local, run and merged), 1 a local shard failed, 2 bad usage
# or arguments the arena refuses, otherwise that of the failing sbatch or merge.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

shards=""
out=""
partition=""
time_limit=""
cpus=1
mem=""
extra_sbatch=()
mode=submit
check=1
arena_args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --shards) shards="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --out) out="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --partition) partition="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --time) time_limit="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --cpus) cpus="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --mem) mem="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --sbatch) extra_sbatch+=("$(flag_value "$1" "${2-}" "$#")"); shift 2 ;;
        --no-check) check=0; shift ;;
        --dry-run) [[ $mode == submit ]] || die "give one of --dry-run and --local"; mode=dry-run; shift ;;
        --local) [[ $mode == submit ]] || die "give one of --dry-run and --local"; mode=local; shift ;;
        -h | --help) show_help; exit 0 ;;
        --) shift; arena_args=("$@"); break ;;
        *) die "unknown argument '$1' (arena's own arguments go after '--'; see --help)" ;;
    esac
done

[[ -n "$shards" ]] || die "--shards N is required"
check_shards "$shards"
[[ -n "$out" ]] || die "--out DIR is required"
check_count --cpus "$cpus" "$max_threads" "arena takes at most $max_threads threads"
# Slurm's own formats, checked here rather than by sbatch after the job scripts are written.
[[ -z "$mem" || "$mem" =~ ^[0-9]+[KMGT]?$ ]] ||
    die "--mem '$mem' is not a Slurm memory size (e.g. 4G, 4096M, or 4096 for megabytes)"
[[ -z "$time_limit" || "$time_limit" =~ ^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|UNLIMITED|unlimited|infinite)$ ]] ||
    die "--time '$time_limit' is not a Slurm time (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, e.g. 04:00:00)"
check_arena_args "${arena_args[@]+"${arena_args[@]}"}"
for v in "${extra_sbatch[@]+"${extra_sbatch[@]}"}"; do
    [[ "$v" == -* ]] || die "--sbatch '$v': expected an sbatch option such as --account=NAME"
done
if [[ $mode == dry-run ]]; then resolve_arena warn; else resolve_arena need; fi

for v in "$out" "$partition" "$time_limit" "$mem" "${extra_sbatch[@]+"${extra_sbatch[@]}"}"; do
    [[ "$v" != *[[:space:]]* ]] || die "'$v': #SBATCH lines cannot hold whitespace (choose a folder without spaces)"
done
workdir="$(pwd)"
task_args=("${arena_args[@]}")
check_args=("${arena_args[@]}")
if ! has_flag --threads "${arena_args[@]}"; then
    # shellcheck disable=SC2016 # expanded by the job, not here
    threads_default=' --threads "${SLURM_CPUS_PER_TASK:-'"$cpus"'}"'
    check_args+=(--threads "$cpus")
fi
[[ $check -eq 0 ]] || check_run "$shards" "$workdir" "$out" "${check_args[@]}"

out="$(abs_dir "$out")"
slurm_dir="$out/slurm"
mkdir -p "$slurm_dir"
name="arena-$(basename "$out")"
[[ "$name" =~ ^[A-Za-z0-9._+-]+$ ]] || name="arena"

# The #SBATCH lines both jobs share. '%' is sbatch's file-name pattern character: doubled in paths.
common_sbatch() {
    [[ -n "$partition" ]] && echo "#SBATCH --partition=$partition"
    [[ -n "$time_limit" ]] && echo "#SBATCH --time=$time_limit"
    local o
    for o in "${extra_sbatch[@]+"${extra_sbatch[@]}"}"; do
        echo "#SBATCH $o"
    done
    return 0
}
pct_out="${slurm_dir//%/%%}"
generated="# Written by scripts/cluster/slurm.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ); run again to rewrite."

{
    echo "#!/usr/bin/env bash"
    echo "#SBATCH --job-name=$name"
    echo "#SBATCH --array=0-$((shards - 1))"
    echo "#SBATCH --ntasks=1"
    echo "#SBATCH --cpus-per-task=$cpus"
    [[ -n "$mem" ]] && echo "#SBATCH --mem=$mem"
    echo "#SBATCH --output=$pct_out/shard-%a.out"
    echo "#SBATCH --open-mode=append"
    common_sbatch
    echo "$generated"
    echo "# Shard \$SLURM_ARRAY_TASK_ID of $shards of the run in $out (arena --shard K/$shards --out $out/shard-K)."
    echo "set -euo pipefail"
    echo "cd $(shell_words "$workdir")"
    echo "export ARENA=$(shell_words "$ARENA")"
    echo "exec bash $(shell_words "$cluster_dir/shard-task.sh" - "$shards" "$out" -- "${task_args[@]}")${threads_default-}"
} >"$slurm_dir/shard.sbatch"

{
    echo "#!/usr/bin/env bash"
    echo "#SBATCH --job-name=$name-merge"
    echo "#SBATCH --ntasks=1"
    echo "#SBATCH --cpus-per-task=1"
    echo "#SBATCH --output=$pct_out/merge.out"
    echo "#SBATCH --open-mode=append"
    echo "#SBATCH --kill-on-invalid-dep=yes"
    common_sbatch
    echo "$generated"
    echo "# Merges the $shards shards of the run in $out into $out/merged."
    echo "set -euo pipefail"
    echo "cd $(shell_words "$workdir")"
    echo "export ARENA=$(shell_words "$ARENA")"
    echo "exec bash $(shell_words "$cluster_dir/merge-task.sh" "$shards" "$out")"
} >"$slurm_dir/merge.sbatch"
chmod +x "$slurm_dir/shard.sbatch" "$slurm_dir/merge.sbatch"

submit_shards=(sbatch --parsable "$slurm_dir/shard.sbatch")
case "$mode" in
    dry-run)
        for f in shard.sbatch merge.sbatch; do
            echo "==> $slurm_dir/$f <=="
            cat "$slurm_dir/$f"
            echo
        done
        echo "==> would run <=="
        echo "jobid=\$($(shell_words "${submit_shards[@]}"))"
        echo "sbatch --dependency=afterok:\$jobid $(shell_words "$slurm_dir/merge.sbatch")"
        echo
        echo "==> if tasks fail, rerun them (FAILED_TASKS: the failed tasks' numbers) and merge after them <=="
        slurm_recovery "$slurm_dir"
        ;;
    local)
        launch() {
            # The variables Slurm would give the task.
            SLURM_ARRAY_TASK_ID="$1" SLURM_CPUS_PER_TASK="$cpus" exec bash "$slurm_dir/shard.sbatch"
        }
        say "--local: the $shards array tasks of $slurm_dir/shard.sbatch on this machine"
        run_local "$shards" "$out" "$slurm_dir" out launch || exit 1
        say "all $shards shards done; running $slurm_dir/merge.sbatch"
        bash "$slurm_dir/merge.sbatch" 2>&1 | tee -a "$slurm_dir/merge.out"
        say "merged results in $out/merged"
        ;;
    submit)
        command -v sbatch >/dev/null ||
            die "sbatch not found: run this on a Slurm submit node, or use --dry-run or --local"
        jobid="$("${submit_shards[@]}")"
        jobid="${jobid%%;*}"
        [[ "$jobid" =~ ^[0-9]+$ ]] || die "sbatch --parsable printed '$jobid', not a job id"
        say "submitted the shard array: job $jobid (tasks 0-$((shards - 1)), logs $slurm_dir/shard-K.out)"
        merge_out="$(sbatch --parsable --dependency="afterok:$jobid" "$slurm_dir/merge.sbatch")"
        say "submitted the merge: job ${merge_out%%;*}, after every task of $jobid succeeds (log $slurm_dir/merge.out)"
        say "follow with: squeue -j $jobid,${merge_out%%;*}; results in $out/merged"
        say "if tasks fail, Slurm does not start the merge; then $(merge_command "$shards" "$out")" \
            "names the unfinished shards and prints the line that reruns them and merges after" \
            "them, this one with FAILED_TASKS their numbers (a merge without --dependency starts" \
            "at once and finds pairs missing):"
        echo "    $(slurm_recovery "$slurm_dir")" >&2
        say "or run this same command again: finished shards return at once, the others resume"
        echo "$jobid"
        ;;
esac
