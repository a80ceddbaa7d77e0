//! The cluster scripts of `scripts/cluster/` end to end. Each scheduler's `--local` mode cuts a
//! match into 3 shards, runs them as separate processes at once and merges them: the merged
//! results must be those of one machine playing the whole match. A stand-in arena checks the
//! wiring (every shard index once, all started together, `--resume` on a retry, the merge gets
//! every shard folder, a failed shard stops the merge), and the `--dry-run` modes must write the
//! Slurm array and the Kubernetes indexed Job whose tasks run the right shards.
//!
//! Every test needs bash: without it a test fails in CI and says it is skipped elsewhere. None
//! needs Slurm, Kubernetes or GNU parallel (parallel.sh falls back to `xargs -P`).
#![cfg(unix)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{arena_bin, csv_without_timing, have_bash, json, text, tmp};

/// The match every scheduler runs: instant engines, node-limited by nature, 24 games.
const MATCH: &[&str] = &[
    "match",
    "--engine",
    "greedy",
    "--engine",
    "level:easy",
    "--pairs",
    "12",
    "--seed",
    "7",
    "--threads",
    "1",
];

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/cluster")
}

/// Runs `bash scripts/cluster/SCRIPT ARGS...` with `ARENA` set, and none of the scheduler
/// variables of the environment the tests run in.
fn script(arena: &Path, name: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(scripts().join(name))
        .args(args)
        .env("ARENA", arena)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_CPUS_PER_TASK")
        .env_remove("JOB_COMPLETION_INDEX");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output()
        .unwrap_or_else(|e| panic!("bash {name} runs: {e}"))
}

fn expect_ok(o: &Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what}: {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// `SCRIPT --shards 3 --out DIR/run [EXTRA...] --local -- MATCH`, expected to succeed.
fn run_local(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let run = dir.join("run");
    let mut args = vec!["--shards", "3", "--out", run.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push("--local");
    args.push("--");
    args.extend_from_slice(MATCH);
    expect_ok(&script(arena_bin(), name, &args, &[]), name);
    run
}

/// The same match on one machine, in DIR/single.
fn run_single(dir: &Path) -> PathBuf {
    let single = dir.join("single");
    let mut args = MATCH.to_vec();
    args.extend_from_slice(&["--out", single.to_str().unwrap(), "--no-progress"]);
    let o = Command::new(arena_bin()).args(&args).output().unwrap();
    expect_ok(&o, "arena match on one machine");
    single
}

/// Drops, at any depth, what differs between a merged and a single run without the games
/// differing: the command line, threads (also in the result block's `context` line: a merge
/// counts every shard's), timings (`timing`, any key with `wall` in its name, the per-move `ms`)
/// and the record of the shards.
fn strip(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| {
                !matches!(
                    k.as_str(),
                    "command" | "threads" | "timing" | "ms" | "shard" | "shards" | "homogeneity"
                ) && !k.contains("wall")
            });
            if let Some(Value::String(context)) = map.get_mut("context") {
                *context = context
                    .split(", ")
                    .filter(|part| !part.ends_with(" threads") && !part.ends_with(" thread"))
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            map.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

/// DIR/summary.json without what [`strip`] drops.
fn summary(dir: &Path) -> Value {
    let mut v = json(&dir.join("summary.json"));
    strip(&mut v);
    v
}

/// A scheduler's `--local` run of MATCH in 3 shards gives one machine's results.
fn merged_equals_single(test: &str, name: &str, extra: &[&str]) {
    if !have_bash(&format!("cluster::{test}")) {
        return;
    }
    let dir = tmp(test);
    let run = run_local(&dir, name, extra);
    let single = run_single(&dir);
    for k in 0..3 {
        assert!(
            run.join(format!("shard-{k}/games.jsonl")).is_file(),
            "shard-{k}"
        );
    }
    let merged = run.join("merged");
    assert_eq!(csv_without_timing(&merged), csv_without_timing(&single));
    let (m, s) = (summary(&merged), summary(&single));
    assert_eq!(
        m,
        s,
        "merged:\n{}\nsingle:\n{}",
        serde_json::to_string_pretty(&m).unwrap(),
        serde_json::to_string_pretty(&s).unwrap()
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn slurm_local_merged_equals_one_machine() {
    merged_equals_single("slurm_local_merged_equals_one_machine", "slurm.sh", &[]);
}

#[test]
fn k8s_local_merged_equals_one_machine() {
    merged_equals_single(
        "k8s_local_merged_equals_one_machine",
        "k8s.sh",
        &["--image", "jieqi-arena:test", "--pvc", "arena-results"],
    );
}

#[test]
fn parallel_local_merged_equals_one_machine() {
    // GNU parallel where it is installed, else the xargs fallback.
    merged_equals_single(
        "parallel_local_merged_equals_one_machine",
        "parallel.sh",
        &[],
    );
}

/// A stand-in for arena: writes its arguments, one a line, to OUT/args. As `match` it fails for
/// shard STUB_FAIL/…, and it waits (up to 20 s) until STUB_SHARDS shard folders beside its own
/// have started, so shards run one after the other fail.
const STUB: &str = r#"#!/usr/bin/env bash
out=""
prev=""
for a in "$@"; do
    [[ "$prev" == --out ]] && out="$a"
    prev="$a"
done
mkdir -p "$out"
printf '%s\n' "$@" >"$out/args"
[[ "$1" == match ]] || exit 0
for a in "$@"; do
    [[ -n "${STUB_FAIL-}" && "$a" == "$STUB_FAIL/"* ]] && { echo "stub: shard $a fails" >&2; exit 4; }
done
touch "$out/started"
for ((i = 0; i < 200; i++)); do
    started=("$out"/../shard-*/started)
    [[ ${#started[@]} -ge ${STUB_SHARDS:-1} ]] && exit 0
    sleep 0.1
done
echo "stub: only ${#started[@]} shards started together" >&2
exit 1
"#;

fn stub(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("arena-stub");
    std::fs::write(&path, STUB).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn args_of(folder: &Path) -> Vec<String> {
    std::fs::read_to_string(folder.join("args"))
        .unwrap_or_else(|e| panic!("{}/args: {e}", folder.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// What shard K of 3 must have been given.
fn assert_shard_args(run: &Path, k: usize) {
    let shard = run.join(format!("shard-{k}"));
    let mut want: Vec<String> = MATCH.iter().map(|s| s.to_string()).collect();
    want.extend([
        "--shard".to_string(),
        format!("{k}/3"),
        "--out".to_string(),
        shard.to_str().unwrap().to_string(),
        "--no-progress".to_string(),
    ]);
    assert_eq!(args_of(&shard), want);
}

#[test]
fn local_modes_start_every_shard_at_once_and_merge_them_all() {
    if !have_bash("cluster::local_modes_start_every_shard_at_once_and_merge_them_all") {
        return;
    }
    let dir = tmp("local-wiring");
    let arena = stub(&dir);
    let k8s = ["--image", "img", "--pvc", "claim"];
    for (name, extra) in [
        ("slurm.sh", &[][..]),
        ("k8s.sh", &k8s[..]),
        ("parallel.sh", &[][..]),
        ("parallel.sh", &["--xargs"][..]),
    ] {
        let run = dir.join(format!("{name}{}", extra.join("")));
        let mut args = vec!["--shards", "3", "--out", run.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--local", "--"]);
        args.extend_from_slice(MATCH);
        let o = script(&arena, name, &args, &[("STUB_SHARDS", "3")]);
        expect_ok(&o, &format!("{name} {extra:?}"));
        for k in 0..3 {
            assert_shard_args(&run, k);
        }
        let merged = run.join("merged");
        let shards: Vec<String> = (0..3)
            .map(|k| run.join(format!("shard-{k}")).to_str().unwrap().to_string())
            .collect();
        let mut want = vec!["merge".to_string()];
        want.extend(shards);
        want.extend(["--out".to_string(), merged.to_str().unwrap().to_string()]);
        assert_eq!(args_of(&merged), want, "{name} {extra:?}");

        // A failed shard: the script fails and nothing is merged.
        let failed = dir.join(format!("failed-{name}{}", extra.join("")));
        let mut args = vec!["--shards", "3", "--out", failed.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--local", "--"]);
        args.extend_from_slice(MATCH);
        let o = script(&arena, name, &args, &[("STUB_FAIL", "1")]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("shard 1/3: FAILED"),
            "{}",
            text(&o.stderr)
        );
        assert!(
            !failed.join("merged").exists(),
            "{name} merged after a failure"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shard_task_takes_its_index_from_the_scheduler_and_resumes() {
    if !have_bash("cluster::shard_task_takes_its_index_from_the_scheduler_and_resumes") {
        return;
    }
    let dir = tmp("shard-task");
    let arena = stub(&dir);
    let run = dir.join("run");
    let r = run.to_str().unwrap();
    let task = |k: &str, env: &[(&str, &str)]| {
        let mut args = vec![k, "3", r, "--"];
        args.extend_from_slice(MATCH);
        script(&arena, "shard-task.sh", &args, env)
    };
    expect_ok(&task("0", &[]), "K given");
    assert_shard_args(&run, 0);
    expect_ok(&task("-", &[("SLURM_ARRAY_TASK_ID", "1")]), "Slurm");
    assert_shard_args(&run, 1);
    expect_ok(&task("-", &[("JOB_COMPLETION_INDEX", "2")]), "Kubernetes");
    assert_shard_args(&run, 2);

    // A retried task resumes its folder.
    std::fs::write(run.join("shard-1/games.jsonl"), "").unwrap();
    expect_ok(&task("1", &[]), "retry");
    assert_eq!(args_of(&run.join("shard-1")).last().unwrap(), "--resume");

    let o = task("-", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("SLURM_ARRAY_TASK_ID"),
        "{}",
        text(&o.stderr)
    );
    let o = task("3", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("below N"), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dry_runs_write_the_slurm_array_and_the_indexed_job() {
    if !have_bash("cluster::dry_runs_write_the_slurm_array_and_the_indexed_job") {
        return;
    }
    let dir = tmp("dry-run");
    let arena = stub(&dir);
    let run = dir.join("run");
    let r = run.to_str().unwrap();

    // Slurm: an array of 3 whose task K runs shard K, then a merge after all of them.
    let mut args = vec![
        "--shards",
        "3",
        "--out",
        r,
        "--cpus",
        "2",
        "--dry-run",
        "--",
    ];
    args.extend_from_slice(&MATCH[..MATCH.len() - 2]); // without --threads: SLURM_CPUS_PER_TASK
    let out = expect_ok(
        &script(&arena, "slurm.sh", &args, &[]),
        "slurm.sh --dry-run",
    );
    let sbatch = std::fs::read_to_string(run.join("slurm/shard.sbatch")).unwrap();
    assert!(sbatch.contains("#SBATCH --array=0-2\n"), "{sbatch}");
    assert!(sbatch.contains("#SBATCH --cpus-per-task=2\n"), "{sbatch}");
    assert!(
        sbatch.contains(&format!("shard-task.sh - 3 {r} -- match")),
        "{sbatch}"
    );
    assert!(
        sbatch.contains("--threads \"${SLURM_CPUS_PER_TASK:-2}\""),
        "{sbatch}"
    );
    let merge = std::fs::read_to_string(run.join("slurm/merge.sbatch")).unwrap();
    assert!(merge.contains(&format!("merge-task.sh 3 {r}")), "{merge}");
    assert!(out.contains("#SBATCH --array=0-2"), "{out}");
    assert!(out.contains("sbatch --parsable"), "{out}");
    assert!(out.contains("sbatch --dependency=afterok:$jobid"), "{out}");
    assert!(!run.join("shard-0").exists(), "a dry run ran a shard");
    // Array task 1 of that script plays shard 1/3.
    let o = Command::new("bash")
        .arg(run.join("slurm/shard.sbatch"))
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_CPUS_PER_TASK", "1")
        .output()
        .unwrap();
    expect_ok(&o, "shard.sbatch as task 1");
    assert_shard_args(&run, 1);

    // Kubernetes: an indexed Job of 3 completions whose pods run shard-task.sh with K from
    // JOB_COMPLETION_INDEX, writing to the claim.
    let mut args = vec![
        "--shards", "3", "--out", r, "--image", "img:1", "--pvc", "claim",
    ];
    args.extend_from_slice(&["--name", "test-run", "--dry-run", "--"]);
    args.extend_from_slice(MATCH);
    let out = expect_ok(&script(&arena, "k8s.sh", &args, &[]), "k8s.sh --dry-run");
    let job = std::fs::read_to_string(run.join("k8s/shard-job.yaml")).unwrap();
    for want in [
        "kind: Job",
        "name: test-run-shards",
        "completionMode: Indexed",
        "completions: 3",
        "parallelism: 3",
        "backoffLimit:",
        "image: \"img:1\"",
        "claimName: \"claim\"",
        "mountPath: /results",
        "/scripts/cluster/shard-task.sh\"",
    ] {
        assert!(job.contains(want), "no {want:?} in\n{job}");
    }
    let merge = std::fs::read_to_string(run.join("k8s/merge-job.yaml")).unwrap();
    assert!(
        merge.contains("/scripts/cluster/merge-task.sh\""),
        "{merge}"
    );
    assert!(merge.contains("- \"3\"\n") && merge.contains("- \"/results/test-run\"\n"));
    assert!(out.contains("completionMode: Indexed"), "{out}");
    assert!(
        out.contains("kubectl wait --for=condition=complete")
            && out.contains("job/test-run-shards"),
        "{out}"
    );
    // The container's arguments, read back from the manifest, run shard 2 as pod 2.
    let list: Vec<String> = job
        .split("args:\n")
        .nth(1)
        .unwrap()
        .lines()
        .map_while(|l| l.trim().strip_prefix("- "))
        .map(|item| serde_json::from_str::<String>(item).unwrap())
        .collect();
    assert_eq!(list[..4], ["-", "3", "/results/test-run", "--"], "{list:?}");
    assert_eq!(list[4..], MATCH[..], "{list:?}");
    let mut args: Vec<&str> = list.iter().map(String::as_str).collect();
    args[2] = r;
    let o = script(
        &arena,
        "shard-task.sh",
        &args,
        &[("JOB_COMPLETION_INDEX", "2")],
    );
    expect_ok(&o, "the manifest's command line as pod 2");
    assert_shard_args(&run, 2);
    let _ = std::fs::remove_dir_all(dir);
}
