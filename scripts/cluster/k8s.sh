#!/usr/bin/env bash
# Runs an arena match, tournament or leak run on Kubernetes as an indexed Job of N pods, one shard
# each, with the results on a PersistentVolumeClaim, then merges them in a second Job.
#
# Usage: scripts/cluster/k8s.sh --shards N --out DIR --image IMAGE --pvc CLAIM [options]
#                               [--dry-run] -- ARENA_ARGS...
#        scripts/cluster/k8s.sh --shards N --out DIR --local [options] -- ARENA_ARGS...
#   --shards N          cut the run into N shards: completions N, one pod per shard index; at
#                       most the run's pairs (checked)
#   --out DIR           a local folder: the rendered manifests go to DIR/k8s/ (with --local, the
#                       shards and DIR/merged too)
#   --image IMAGE       the container image: this repository at --image-root with the arena binary
#                       in target/release/ (scripts/cluster/k8s/Dockerfile builds one); not
#                       needed with --local
#   --pvc CLAIM         the PersistentVolumeClaim mounted at /results in every pod; the run is
#                       written to /results/NAME/ on it (ReadWriteMany, unless every pod lands on one
#                       node); not needed with --local
#   --name NAME         the run's name: Jobs NAME-shards and NAME-merge, folder NAME on the claim
#                       (default: arena-<the last part of DIR>, lowercased, in letters, digits and -)
#   --namespace NS      the namespace of the Jobs (default: kubectl's current one)
#   --cpus C            CPUs requested (and limited to) per shard pod (default 1); arena gets
#                       --threads C unless ARENA_ARGS give --threads
#   --memory M          memory requested (and limited to) per pod (default 1Gi)
#   --parallelism P     at most P shard pods at once (default N)
#   --backoff-limit B   pod failures the shard Job tolerates in all before it fails (default 6);
#                       each retried pod resumes its shard; evicted or preempted pods do not count
#   --timeout T         how long to wait for each Job, as kubectl wait reads it (default 24h)
#   --image-root DIR    where the image holds this repository (default /opt/arena)
#   --no-check          do not run the arena once with --check before applying (it validates the
#                       arena arguments, read in this repository's root as the image's working
#                       folder would, and bounds --shards by the run's pairs)
#   --dry-run           print the rendered manifests and the kubectl commands; apply nothing
#   --local             no cluster: run the N pods' command lines on this machine at once (each
#                       with JOB_COMPLETION_INDEX=K, this repository's scripts, results in DIR
#                       instead of /results/NAME), wait for all, then the merge's; --image and
#                       --pvc are not needed (given, they only fill the manifests in DIR/k8s)
#   -h, --help          this help
#   -- ARENA_ARGS       the arena command and its arguments, without --out and --shard, e.g.
#                       -- match --engine alphabeta --engine ismcts --pairs 4000 --nodes 20000
#
# Default mode: kubectl apply -f DIR/k8s/shard-job.yaml, kubectl wait --for=condition=complete
# job/NAME-shards (stopping early if it fails), then the same for DIR/k8s/merge-job.yaml, and prints
# the merge's log. The merged results are in NAME/merged on the claim. Build the image with
# --build-arg JIEQI_BUILD_COMMIT="$(git rev-parse HEAD)" so that its runs record their commit (see
# k8s/Dockerfile). Relative paths in ARENA_ARGS are read in the image's working folder
# (/opt/arena with the Dockerfile here). The merge Job is not retried when the merge is refused
# (exit 2: missing pairs, shards of different runs) or finds an engine that failed in more than
# 5 % of its games (exit 5; a podFailurePolicy fails it at once), only after other failures (up
# to 2 retries). To run again after a failure: kubectl delete job NAME-shards NAME-merge, then the
# same command: finished shards are kept on the claim and unfinished ones resume.
# Environment: ARENA  the arena binary for --local and the check (if unset: target/release/arena
#                     of this repository if built, else arena on PATH)
# Exit status: 0 done (or printed), 1 a Job failed or timed out (--local: a shard failed), 2 bad
# usage, otherwise that of the failing command (kubectl; with --local, the merge).
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

shards=""
out=""
image=""
pvc=""
name=""
namespace=""
cpus=1
memory=1Gi
parallelism=""
backoff=6
timeout=24h
image_root=/opt/arena
mode=apply
check=1
arena_args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --shards) shards="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --out) out="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --image) image="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --pvc) pvc="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --name) name="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --namespace) namespace="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --cpus) cpus="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --memory) memory="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --parallelism) parallelism="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --backoff-limit) backoff="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --timeout) timeout="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --image-root) image_root="$(flag_value "$1" "${2-}" "$#")"; shift 2 ;;
        --no-check) check=0; shift ;;
        --dry-run) [[ $mode == apply ]] || die "give one of --dry-run and --local"; mode=dry-run; shift ;;
        --local) [[ $mode == apply ]] || die "give one of --dry-run and --local"; mode=local; shift ;;
        -h | --help) show_help; exit 0 ;;
        --) shift; arena_args=("$@"); break ;;
        *) die "unknown argument '$1' (arena's own arguments go after '--'; see --help)" ;;
    esac
done

[[ -n "$shards" ]] || die "--shards N is required"
check_shards "$shards"
[[ -n "$out" ]] || die "--out DIR is required"
if [[ $mode != local ]]; then
    [[ -n "$image" ]] || die "--image IMAGE is required (scripts/cluster/k8s/Dockerfile builds one; --local needs none)"
    [[ -n "$pvc" ]] || die "--pvc CLAIM is required: the PersistentVolumeClaim the results go to (--local needs none)"
fi
[[ -z "$image" || "$image" =~ ^[^[:space:][:cntrl:]\"\\]+$ ]] || die "--image '$image' is not an image reference"
[[ -z "$pvc" || "$pvc" =~ ^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$ ]] ||
    die "--pvc '$pvc' is not a claim name (lowercase letters, digits, '-' and '.')"
check_count --cpus "$cpus" "$max_threads" "arena takes at most $max_threads threads"
[[ "$memory" =~ ^[0-9]+(\.[0-9]+)?([KMGTPE]i?|[kmun]|e[0-9]+)?$ ]] ||
    die "--memory '$memory' is not a Kubernetes quantity (e.g. 512Mi, 2Gi)"
parallelism="${parallelism:-$shards}"
check_count --parallelism "$parallelism" "$max_shards" "a run has at most $max_shards shards"
[[ "$backoff" =~ ^(0|[1-9][0-9]*)$ ]] || die "--backoff-limit must be a whole number, 0 or more (got '$backoff')"
# Compared as text: a number too long for the shell's integers is too many retries too.
[[ ${#backoff} -le 7 ]] || die "--backoff-limit $backoff: at most 9999999 (retries of a failed shard's pod)"
[[ "$timeout" =~ ^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$ ]] || die "--timeout '$timeout' is not a duration (e.g. 90m, 24h)"
[[ "$image_root" == /* && "$image_root" =~ ^[^[:space:][:cntrl:]\"\\]+$ ]] ||
    die "--image-root must be an absolute path without spaces or quotes"
check_arena_args "${arena_args[@]+"${arena_args[@]}"}"

if [[ -z "$name" ]]; then
    base="$(basename -- "$out" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9\n' '-')"
    base="$(sed -E 's/-+/-/g; s/^-//; s/-$//' <<<"$base")"
    name="arena${base:+-$base}"
    name="${name:0:40}"
    name="${name%-}"
fi
# Job names end in -shards (pods: NAME-shards-K-xxxxx, hostnames NAME-shards-K): 40 leaves room.
[[ "$name" =~ ^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$ ]] ||
    die "--name '$name': lowercase letters, digits and '-', starting with a letter, at most 40"
ns=()
[[ -n "$namespace" ]] && ns=(--namespace "$namespace")

task_args=("${arena_args[@]}")
has_flag --threads "${arena_args[@]}" || task_args+=(--threads "$cpus")
if [[ $check -eq 1 ]]; then
    if [[ $mode == local ]]; then
        resolve_arena need
        check_run "$shards" "$(pwd)" "$out" "${task_args[@]}"
    else
        # The pods read relative paths in the image's working folder: this repository.
        resolve_arena warn
        check_note="relative paths in the arena arguments (an --engine file, a --config) were read in $repo_root, this repository, as the pods read them in the image's working folder $image_root: give paths inside this repository (copied into the image), or use --no-check"
        check_run "$shards" "$repo_root" "$out" "${task_args[@]}"
    fi
fi

out="$(abs_dir "$out")"
k8s_dir="$out/k8s"
mkdir -p "$k8s_dir"
results="/results/$name"

# A YAML double-quoted scalar that Kubernetes passes on unchanged: \ and " escaped, and every $
# doubled, since Kubernetes expands $(VAR) in args and reads $$ as $.
yaml_arg() {
    local s="$1"
    [[ "$s" != *[$'\001'-$'\010'$'\013'$'\014'$'\016'-$'\037'$'\177']* ]] ||
        die "an argument holds a control character: '$s'"
    s="${s//\\/\\\\}"
    s="${s//\"/\\\"}"
    s="${s//\$/\$\$}"
    s="${s//$'\n'/\\n}"
    s="${s//$'\t'/\\t}"
    s="${s//$'\r'/\\r}"
    printf '"%s"\n' "$s"
}

# render TEMPLATE ARG...: the template with its comment lines dropped, each ${VAR} of the variables
# below replaced, and the line `- ${ARGS}` replaced by one list item per ARG.
render() {
    local template="$1" line indent a var
    shift
    # bash 5.2 would read '&' in a replacement as the matched text.
    shopt -u patsub_replacement 2>/dev/null || true
    local -A vars=(
        [JOB]="$name" [SHARDS]="$shards" [PARALLELISM]="$parallelism" [BACKOFF]="$backoff"
        [IMAGE]="$image" [IMAGE_ROOT]="$image_root" [CPUS]="$cpus" [MEMORY]="$memory" [PVC]="$pvc"
    )
    echo "# Rendered by scripts/cluster/k8s.sh from scripts/cluster/k8s/$(basename "$template")"
    while IFS= read -r line || [[ -n "$line" ]]; do
        [[ "$line" =~ ^[[:space:]]*# ]] && continue
        if [[ "$line" =~ ^([[:space:]]*)-\ \$\{ARGS\}$ ]]; then
            indent="${BASH_REMATCH[1]}"
            for a in "$@"; do
                echo "$indent- $(yaml_arg "$a")"
            done
            continue
        fi
        for var in "${!vars[@]}"; do
            line="${line//"\${$var}"/"${vars[$var]}"}"
        done
        [[ "$line" != *"\${"* ]] || die "$template: no value for the placeholder in: $line"
        printf '%s\n' "$line"
    done <"$template"
}

shard_cmd=("$image_root/scripts/cluster/shard-task.sh" - "$shards" "$results" -- "${task_args[@]}")
merge_cmd=("$image_root/scripts/cluster/merge-task.sh" "$shards" "$results")
manifests=0
if [[ -n "$image" && -n "$pvc" ]]; then
    render "$cluster_dir/k8s/shard-job.yaml" "${shard_cmd[@]:1}" >"$k8s_dir/shard-job.yaml"
    render "$cluster_dir/k8s/merge-job.yaml" "${merge_cmd[@]:1}" >"$k8s_dir/merge-job.yaml"
    manifests=1
fi

# wait_job JOB: waits until the Job completes (0) or fails (1), at most --timeout (1).
wait_job() {
    local job="$1" complete failed status=0
    kubectl "${ns[@]+"${ns[@]}"}" wait --for=condition=complete --timeout="$timeout" "job/$job" >/dev/null &
    complete=$!
    kubectl "${ns[@]+"${ns[@]}"}" wait --for=condition=failed --timeout="$timeout" "job/$job" >/dev/null 2>&1 &
    failed=$!
    local_pids=("$complete" "$failed")
    trap 'stop_local; exit 130' INT TERM
    while kill -0 "$complete" 2>/dev/null && kill -0 "$failed" 2>/dev/null; do
        sleep 2
    done
    if ! kill -0 "$complete" 2>/dev/null; then
        wait "$complete" || status=$?
        kill "$failed" 2>/dev/null || true
        [[ $status -eq 0 ]] || say "job/$job did not complete (kubectl wait exited $status: past --timeout $timeout?)"
    else
        wait "$failed" || status=$?
        kill "$complete" 2>/dev/null || true
        if [[ $status -eq 0 ]]; then
            say "job/$job failed"
        else
            say "job/$job: kubectl wait failed (exit $status)"
        fi
        status=1
    fi
    wait 2>/dev/null || true
    trap - INT TERM
    local_pids=()
    if [[ $status -ne 0 ]]; then
        kubectl "${ns[@]+"${ns[@]}"}" get "job/$job" -o wide >&2 || true
        return 1
    fi
}

kubectl_words() { shell_words kubectl "${ns[@]+"${ns[@]}"}" "$@"; }
case "$mode" in
    dry-run)
        for f in shard-job.yaml merge-job.yaml; do
            echo "==> $k8s_dir/$f <=="
            cat "$k8s_dir/$f"
            echo
        done
        echo "==> would run <=="
        kubectl_words apply -f "$k8s_dir/shard-job.yaml"
        kubectl_words wait --for=condition=complete --timeout="$timeout" "job/$name-shards"
        kubectl_words apply -f "$k8s_dir/merge-job.yaml"
        kubectl_words wait --for=condition=complete --timeout="$timeout" "job/$name-merge"
        kubectl_words logs "job/$name-merge"
        ;;
    local)
        resolve_arena need
        local_shard=(bash "$cluster_dir/shard-task.sh" - "$shards" "$out" -- "${task_args[@]}")
        launch() {
            # A pod's environment for this purpose: its index (and no Slurm index to take first).
            JOB_COMPLETION_INDEX="$1" exec env -u SLURM_ARRAY_TASK_ID "${local_shard[@]}"
        }
        if [[ $manifests -eq 1 ]]; then
            say "--local: the $shards pods of $k8s_dir/shard-job.yaml as processes on this machine:"
        else
            say "--local: the $shards pods of the shard Job as processes on this machine:"
        fi
        say "  JOB_COMPLETION_INDEX=K $(shell_words "${local_shard[@]}")"
        run_local "$shards" "$out" "$k8s_dir" log launch || exit 1
        say "all $shards shards done; the merge: $(shell_words bash "$cluster_dir/merge-task.sh" "$shards" "$out")"
        bash "$cluster_dir/merge-task.sh" "$shards" "$out" 2>&1 | tee -a "$k8s_dir/merge.log"
        say "merged results in $out/merged"
        ;;
    apply)
        command -v kubectl >/dev/null || die "kubectl not found: install it, or use --dry-run or --local"
        kubectl "${ns[@]+"${ns[@]}"}" apply -f "$k8s_dir/shard-job.yaml" ||
            die "kubectl apply failed; if job/$name-shards exists from an earlier run, delete it (kubectl delete job $name-shards $name-merge: the shards on the claim are kept and resume) or choose another --name"
        say "waiting for job/$name-shards ($shards pods: kubectl get pods -l app.kubernetes.io/instance=$name)"
        wait_job "$name-shards" || {
            say "the shards did not all finish: see kubectl describe job/$name-shards and the pods' logs (kubectl logs -l app.kubernetes.io/instance=$name); not merging"
            exit 1
        }
        say "all $shards shards done; merging"
        kubectl "${ns[@]+"${ns[@]}"}" apply -f "$k8s_dir/merge-job.yaml"
        wait_job "$name-merge" || {
            kubectl "${ns[@]+"${ns[@]}"}" logs "job/$name-merge" >&2 || true
            say "the merge failed (its log is above)"
            exit 1
        }
        kubectl "${ns[@]+"${ns[@]}"}" logs "job/$name-merge"
        say "merged results on claim $pvc in $name/merged ($results/merged in the pods)"
        ;;
esac
