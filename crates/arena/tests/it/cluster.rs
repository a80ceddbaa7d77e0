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

use crate::common::{arena_bin, csv_without_timing, have_bash, json, strip_machine, text, tmp};

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

/// DIR/summary.json without what [`strip_machine`] drops.
fn summary(dir: &Path) -> Value {
    let mut v = json(&dir.join("summary.json"));
    strip_machine(&mut v);
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
    // --local needs no image and no claim.
    merged_equals_single("k8s_local_merged_equals_one_machine", "k8s.sh", &[]);
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

/// A stand-in for arena. With `--check` it prints `pairs: P per pairing` (P from `--pairs`) and
/// writes nothing. Otherwise it writes its arguments, one a line, to OUT/args. As `match` it fails
/// for shard STUB_FAIL/… (every shard with STUB_FAIL=all), and it waits (up to 20 s) until
/// STUB_SHARDS shard folders beside its own have started, so shards run one after the other
/// fail; a shard that succeeds leaves a line in its games.jsonl. As `merge` with STUB_MERGE_SLEEP
/// set, it touches OUT/merging and sleeps that long.
const STUB: &str = r#"#!/usr/bin/env bash
out=""
prev=""
pairs=100
for a in "$@"; do
    [[ "$prev" == --out ]] && out="$a"
    [[ "$prev" == --pairs ]] && pairs="$a"
    prev="$a"
done
for a in "$@"; do
    [[ "$a" == --check ]] && { echo "pairs: $pairs per pairing"; exit 0; }
done
mkdir -p "$out"
printf '%s\n' "$@" >"$out/args"
if [[ "$1" == merge && -n "${STUB_MERGE_SLEEP-}" ]]; then
    touch "$out/merging"
    sleep "$STUB_MERGE_SLEEP"
fi
[[ "$1" == match ]] || exit 0
prev=""
for a in "$@"; do
    [[ "${STUB_FAIL-}" == all && "$prev" == --shard ]] && { echo "stub: shard $a fails" >&2; exit 4; }
    [[ -n "${STUB_FAIL-}" && "$a" == "$STUB_FAIL/"* ]] && { echo "stub: shard $a fails" >&2; exit 4; }
    prev="$a"
done
touch "$out/started"
for ((i = 0; i < 200; i++)); do
    started=("$out"/../shard-*/started)
    if [[ ${#started[@]} -ge ${STUB_SHARDS:-1} ]]; then
        echo '{"stub": true}' >>"$out/games.jsonl"
        exit 0
    fi
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

/// A fresh folder `name` with the stand-in arena in it ([`stub`]), or None when bash does not run
/// here ([`have_bash`] then says so for `cluster::TEST`).
fn stubbed(test: &str, name: &str) -> Option<(PathBuf, PathBuf)> {
    if !have_bash(&format!("cluster::{test}")) {
        return None;
    }
    let dir = tmp(name);
    let arena = stub(&dir);
    Some((dir, arena))
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
    let Some((dir, arena)) = stubbed(
        "local_modes_start_every_shard_at_once_and_merge_them_all",
        "local-wiring",
    ) else {
        return;
    };
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
    let Some((dir, arena)) = stubbed(
        "shard_task_takes_its_index_from_the_scheduler_and_resumes",
        "shard-task",
    ) else {
        return;
    };
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
    let Some((dir, arena)) = stubbed(
        "dry_runs_write_the_slurm_array_and_the_indexed_job",
        "dry-run",
    ) else {
        return;
    };
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
    // A second merge appends to merge.out, as the tasks do to theirs (it used to overwrite it).
    assert!(merge.contains("#SBATCH --open-mode=append\n"), "{merge}");
    assert!(out.contains("#SBATCH --array=0-2"), "{out}");
    assert!(out.contains("sbatch --parsable"), "{out}");
    assert!(out.contains("sbatch --dependency=afterok:$jobid"), "{out}");
    // The recovery it prints reruns tasks and merges after them, never a bare merge; no task
    // has failed yet, so it holds a placeholder sbatch refuses, not tasks that may not exist
    // (it said "3,7" for a run of 3 shards).
    let slurm_dir = run.join("slurm");
    let s_dir = slurm_dir.to_str().unwrap();
    assert!(
        out.contains(&format!(
            "j=$(sbatch --parsable --array=FAILED_TASKS {s_dir}/shard.sbatch) && sbatch \
             --dependency=afterok:$j {s_dir}/merge.sbatch"
        )),
        "{out}"
    );
    assert!(!out.contains("3,7"), "{out}");
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
    // A refused merge (exit 2) fails the Job instead of being retried; the rule names the
    // merge's container.
    let policy = merge
        .split("podFailurePolicy:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no podFailurePolicy in\n{merge}"));
    let fail_job = policy.split("- action: ").nth(1).unwrap();
    assert!(fail_job.starts_with("FailJob\n"), "{policy}");
    assert!(fail_job.contains("containerName: merge\n"), "{policy}");
    assert!(fail_job.contains("operator: In\n"), "{policy}");
    assert!(fail_job.contains("values: [2, 5]\n"), "{policy}");
    // Kubernetes 1.26-1.34 require a pod condition's status (strict validation refused both).
    for yaml in [&job, &merge] {
        assert!(
            yaml.contains("          - type: DisruptionTarget\n            status: \"True\"\n"),
            "{yaml}"
        );
    }
    assert!(merge.contains("        - name: merge\n"), "{merge}");
    assert!(merge.contains("restartPolicy: Never"), "{merge}");
    assert!(
        job.contains("podFailurePolicy:") && !job.contains("FailJob"),
        "{job}"
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

/// `arena match --check` plans the run and prints it without playing or writing anything; a
/// bad argument fails it as it would fail the run.
#[test]
fn arena_check_describes_the_run_and_plays_nothing() {
    let dir = tmp("arena-check");
    let out = dir.join("never");
    let mut args = MATCH.to_vec();
    args.extend_from_slice(&["--shard", "1/3", "--out", out.to_str().unwrap(), "--check"]);
    let o = Command::new(arena_bin()).args(&args).output().unwrap();
    let stdout = expect_ok(&o, "arena match --check");
    for want in [
        "check: arena match is valid; nothing played, nothing written\n",
        "engines: 2 (greedy, level:easy)\n",
        "pairings: 1\n",
        "pairs: 12 per pairing\n",
        "shard: 1/3, 4 of the pairs of each pairing",
        "games: 8 to play here",
        "fingerprint: ",
    ] {
        assert!(stdout.contains(want), "no {want:?} in\n{stdout}");
    }
    assert!(!out.exists(), "--check wrote {}", out.display());

    // The fingerprint is the run's: the one its shard folders record.
    let single = run_single(&dir);
    let recorded = json(&single.join("match.json"))["fingerprint"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        stdout.contains(&format!("fingerprint: {recorded}\n")),
        "{stdout}"
    );

    // A tournament config is read as the run would read it.
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/nightly.json");
    let o = Command::new(arena_bin())
        .args([
            "tournament",
            "--config",
            config.to_str().unwrap(),
            "--check",
        ])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = expect_ok(&o, "arena tournament --check");
    assert!(stdout.contains("pairings: 10\n"), "{stdout}");
    assert!(stdout.contains("pairs: 100 per pairing\n"), "{stdout}");
    assert!(!out.exists());

    // What the run would refuse, --check refuses.
    let o = Command::new(arena_bin())
        .args([
            "match", "--engine", "nosuch", "--engine", "greedy", "--check",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("nosuch"), "{}", text(&o.stderr));
    let o = Command::new(arena_bin())
        .args([
            "match", "--engine", "greedy", "--engine", "random", "--shard", "0/0",
        ])
        .arg("--check")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

/// `--check` refuses the folders the run would refuse at start, by the run's own checks, and
/// writes nothing: an existing run without `--resume`, another run's games with it, a folder
/// that cannot be made, a device, a folder a live arena holds.
#[test]
fn arena_check_refuses_what_the_run_would_refuse_at_start() {
    let dir = tmp("check-start");
    let single = run_single(&dir);
    let check = |out: &Path, extra: &[&str]| {
        // `--seed 8` in `extra` replaces MATCH's seed: another run.
        let mut args: Vec<&str> = if extra.contains(&"--seed") {
            MATCH
                .iter()
                .map(|&a| if a == "7" { "8" } else { a })
                .collect()
        } else {
            MATCH.to_vec()
        };
        let extra: Vec<&str> = extra
            .iter()
            .copied()
            .filter(|&a| a != "--seed" && a != "8")
            .collect();
        args.extend_from_slice(&extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap(), "--check"]);
        Command::new(arena_bin()).args(&args).output().unwrap()
    };
    let refused = |o: Output, want: &str| {
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{want}: {err}");
        assert!(err.contains(want), "no {want:?} in\n{err}");
    };
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = names(&single);
    refused(check(&single, &[]), "exists: add --resume");
    refused(
        check(&single, &["--seed", "8", "--resume"]),
        "holds games of another run",
    );
    expect_ok(
        &check(&single, &["--resume"]),
        "--check --resume of its own run",
    );
    // A folder that cannot be made: the results could not be written (exit 4).
    let unwritable = |o: Output, want: &str| {
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(4), "{want}: {err}");
        assert!(err.contains(want), "no {want:?} in\n{err}");
    };
    unwritable(
        check(Path::new("/proc/nope"), &[]),
        "cannot create the folder /proc/nope",
    );
    unwritable(
        check(Path::new("/dev/null"), &[]),
        "cannot create the folder /dev/null",
    );
    // A live process (this test) holds the folder's lock.
    let lock = single.join(".arena.lock");
    std::fs::write(&lock, std::process::id().to_string()).unwrap();
    refused(
        check(&single, &["--resume"]),
        "is in use by another arena run",
    );
    std::fs::remove_file(&lock).unwrap();
    assert_eq!(names(&single), before, "--check wrote in the folder");
    // A folder it would make is made to see that it can be, and taken back.
    let deep = dir.join("a/b/c");
    expect_ok(&check(&deep, &[]), "--check of a new folder");
    assert!(
        !dir.join("a").exists(),
        "--check left {}",
        dir.join("a").display()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Bad arena arguments and impossible shard counts are found once, before any shard starts or
/// anything is submitted: no run folder is made, no job is queued.
#[test]
fn scripts_check_the_run_before_starting_anything() {
    if !have_bash("cluster::scripts_check_the_run_before_starting_anything") {
        return;
    }
    let dir = tmp("check-first");
    let state = dir.join("slurm-state");
    let path = fake_slurm_path();
    // MATCH cut to 2 pairs: the bound of the shard count is the same check, and the shards
    // accepted at the bound play 2 pairs instead of 12.
    let two_pairs: Vec<&str> = MATCH
        .iter()
        .map(|&a| if a == "12" { "2" } else { a })
        .collect();
    for name in ["slurm.sh", "k8s.sh", "parallel.sh"] {
        let run = dir.join(format!("run-{name}"));
        let r = run.to_str().unwrap();
        let attempt = |shards: &str, arena_args: &[&str]| {
            let mut args = vec!["--shards", shards, "--out", r, "--local", "--"];
            args.extend_from_slice(arena_args);
            script(arena_bin(), name, &args, &[])
        };
        let refused = |o: &Output, case: &str, want: &str| {
            assert_eq!(
                o.status.code(),
                Some(2),
                "{name} {case}: {}",
                text(&o.stderr)
            );
            assert!(
                text(&o.stderr).contains(want),
                "{name} {case}: no {want:?} in\n{}",
                text(&o.stderr)
            );
            assert!(!run.exists(), "{name} made {r} before refusing");
        };
        let nosuch: &[&str] = &[
            "match", "--engine", "nosuch", "--engine", "greedy", "--pairs", "12",
        ];
        for (shards, arena_args, wants) in [
            // 2 pairs: shards 3 and up would have nothing to play.
            (
                "3",
                &two_pairs[..],
                &["the run has 2 pairs", "give at most 2"][..],
            ),
            ("1000001", MATCH, &["at most 1000000 shards"][..]),
            // Longer than the count check's 7 digits: still the bound, not "a whole number".
            ("99999999", MATCH, &["at most 1000000 shards"][..]),
            (
                "99999999999999999999999",
                MATCH,
                &["at most 1000000 shards"][..],
            ),
            ("3", nosuch, &["nosuch"][..]),
        ] {
            let o = attempt(shards, arena_args);
            for want in wants {
                refused(&o, &format!("--shards {shards}"), want);
            }
        }
        // 2 shards of 2 pairs: accepted (and played).
        let o = attempt("2", &two_pairs);
        expect_ok(&o, &format!("{name} --shards 2"));
        assert!(run.join("merged/games.csv").is_file(), "{name}");
    }
    // Submitting on Slurm: refused before sbatch is called.
    let run = dir.join("run-submit");
    let mut args = vec!["--shards", "3", "--out", run.to_str().unwrap(), "--"];
    args.extend_from_slice(&["match", "--engine", "nosuch", "--engine", "greedy"]);
    let o = script(
        arena_bin(),
        "slurm.sh",
        &args,
        &[("PATH", &path), ("FAKE_SLURM_DIR", state.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(!state.join("next-id").exists(), "a job was submitted");
    let _ = std::fs::remove_dir_all(dir);
}

/// PATH with the fake Slurm commands (`sbatch`, `scancel`, `sacct`) first.
fn fake_slurm_path() -> String {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake-slurm");
    format!(
        "{}:{}",
        fake.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// The fake Slurm's state of job `id` once it has ended (COMPLETED, FAILED or CANCELLED); fails
/// after two minutes.
fn wait_job(state: &Path, id: &str) -> String {
    let file = state.join(format!("{id}.state"));
    for _ in 0..1200 {
        let st = std::fs::read_to_string(&file).unwrap_or_default();
        let st = st.trim();
        if matches!(st, "COMPLETED" | "FAILED" | "CANCELLED") {
            return st.to_string();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("job {id} did not end in 2 minutes: {}", file.display());
}

/// The job id after the last `after` in `text` (sbatch's "Submitted batch job ID", slurm.sh's
/// "submitted the merge: job ID").
fn job_id(text: &str, after: &str) -> String {
    let rest = &text[text
        .rfind(after)
        .unwrap_or_else(|| panic!("no {after:?} in\n{text}"))
        + after.len()..];
    rest.chars().take_while(char::is_ascii_digit).collect()
}

/// A wrapper around the real arena for the Slurm recovery test: it runs every command as arena
/// would, after SHARD_DELAY seconds for a shard, except that a shard K whose file FAIL_DIR/K
/// exists fails once (the file is removed): `start` fails before the first game (a lost node),
/// `kill` plays the shard and then loses what a kill after its first pair would have lost (its
/// last pairs and every table written at the end), exiting 137.
const WRAPPER: &str = r#"#!/usr/bin/env bash
shard=""
out=""
prev=""
for a in "$@"; do
    [[ "$a" == --check ]] && exec "$REAL_ARENA" "$@"
    [[ "$prev" == --shard ]] && shard="$a"
    [[ "$prev" == --out ]] && out="$a"
    prev="$a"
done
[[ -n "$shard" ]] || exec "$REAL_ARENA" "$@"
sleep "${SHARD_DELAY:-0}"
k="${shard%/*}"
if [[ -f "$FAIL_DIR/$k" ]]; then
    how="$(cat "$FAIL_DIR/$k")"
    rm -f "$FAIL_DIR/$k"
    case "$how" in
        start)
            echo "wrapper: shard $shard: node lost before the first game" >&2
            exit 1
            ;;
        kill)
            "$REAL_ARENA" "$@" || exit
            head -n 2 "$out/games.jsonl" >"$out/games.jsonl.cut"
            mv "$out/games.jsonl.cut" "$out/games.jsonl"
            find "$out" -mindepth 1 ! -name games.jsonl ! -name match.json -exec rm -rf {} +
            echo "wrapper: shard $shard: killed after its first pair" >&2
            exit 137
            ;;
    esac
fi
exec "$REAL_ARENA" "$@"
"#;

/// The Slurm recovery recipe of scripts/cluster/README.md, run on the fake `sbatch` (which
/// starts a job at once unless it depends on another, as Slurm does): after a run whose task 1
/// failed before playing and whose task 2 was killed half-way, Slurm cancels the merge; the
/// recipe reruns those tasks and merges after them, and the merge equals one machine's run. The
/// recipe the README used to give (the merge submitted on its own) fails on the same fake.
#[test]
fn slurm_recovery_recipe_from_the_readme_merges_what_one_machine_plays() {
    if !have_bash("cluster::slurm_recovery_recipe_from_the_readme_merges_what_one_machine_plays") {
        return;
    }
    let dir = tmp("slurm-recovery");
    let wrapper = dir.join("arena-wrapper");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(&wrapper, WRAPPER).unwrap();
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let state = dir.join("slurm-state");
    let fail = dir.join("fail");
    std::fs::create_dir_all(&fail).unwrap();
    let path = fake_slurm_path();
    let real = arena_bin().to_str().unwrap().to_string();
    let env = |delay: &'static str| -> Vec<(&'static str, String)> {
        vec![
            ("PATH", path.clone()),
            ("FAKE_SLURM_DIR", state.to_str().unwrap().to_string()),
            ("REAL_ARENA", real.clone()),
            ("FAIL_DIR", fail.to_str().unwrap().to_string()),
            ("SHARD_DELAY", delay.to_string()),
        ]
    };
    let readme = std::fs::read_to_string(scripts().join("README.md")).unwrap();
    let recipe = readme
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("j=$(sbatch --parsable --array="))
        .expect("the README gives the Slurm recovery line")
        .to_string();
    assert!(recipe.contains("--dependency=afterok:$j"), "{recipe}");
    let single = run_single(&dir);

    // A run whose shards fail as `failing` says; Slurm cancels its merge.
    let failed_run = |name: &str, failing: &[(&str, &str)]| -> PathBuf {
        let run = dir.join(name);
        for (k, how) in failing {
            std::fs::write(fail.join(k), how).unwrap();
        }
        let mut args = vec!["--shards", "3", "--out", run.to_str().unwrap(), "--"];
        args.extend_from_slice(&MATCH[..MATCH.len() - 2]);
        let env = env("0");
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut cmd = Command::new("bash");
        cmd.arg(scripts().join("slurm.sh"))
            .args(&args)
            .current_dir(&dir)
            .env("ARENA", &wrapper)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_JOB_ID");
        for (k, v) in &env {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        let stdout = expect_ok(&o, "slurm.sh");
        let stderr = text(&o.stderr);
        let shards = stdout.trim().to_string();
        let merge = job_id(&stderr, "submitted the merge: job ");
        assert!(
            stderr.contains("--dependency=afterok:$j"),
            "slurm.sh prints no recovery line:\n{stderr}"
        );
        assert_eq!(wait_job(&state, &shards), "FAILED");
        assert_eq!(wait_job(&state, &merge), "CANCELLED");
        assert!(!run.join("merged").exists());
        run
    };
    let recover = |run: &Path, line: &str, delay: &'static str| -> String {
        let s_dir = run.join("slurm");
        let line = line.replace("DIR/slurm", s_dir.to_str().unwrap());
        let mut cmd = Command::new("bash");
        cmd.args(["-c", &line]).current_dir(&dir);
        for (k, v) in env(delay) {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        let stdout = expect_ok(&o, &line);
        let merge = job_id(&stdout, "Submitted batch job ");
        wait_job(&state, &merge)
    };

    // The README's recipe, tasks 1 and 2 rerun; they take a second, and the merge waits.
    let run = failed_run("run", &[("1", "start"), ("2", "kill")]);
    let line = recipe.replace("--array=5,17", "--array=1,2");
    assert_ne!(line, recipe, "the README's example reruns tasks 5 and 17");
    assert_eq!(recover(&run, &line, "1"), "COMPLETED");
    let merged = run.join("merged");
    assert_eq!(csv_without_timing(&merged), csv_without_timing(&single));
    assert_eq!(summary(&merged), summary(&single));
    // Each task's log kept both attempts: shard 2 started, then resumed.
    let log = std::fs::read_to_string(run.join("slurm/shard-2.out")).unwrap();
    assert!(log.contains("killed after its first pair"), "{log}");
    assert!(log.contains(", resuming in "), "{log}");
    let trace = std::fs::read_to_string(run.join("merge.log")).unwrap();
    assert!(trace.contains("merged into"), "{trace}");

    // The recipe the README used to give: the merge starts at once and finds shard 1 missing;
    // it names the shard and prints the recovery with the dependency.
    let run = failed_run("old-recipe", &[("1", "start")]);
    let s_dir = run.join("slurm");
    let old = format!(
        "sbatch --array=1 {0}/shard.sbatch && sbatch {0}/merge.sbatch",
        s_dir.display()
    );
    // Shard 1 waits 10 s before it plays: the merge, started at once, finds it missing
    // however slowly it starts on a loaded machine.
    assert_eq!(recover(&run, &old, "10"), "FAILED");
    let out = std::fs::read_to_string(s_dir.join("merge.out")).unwrap();
    assert!(out.contains("no games.jsonl"), "{out}");
    assert!(
        out.contains(&format!(
            "j=$(sbatch --parsable --array=1 {0}/shard.sbatch) && sbatch \
             --dependency=afterok:$j {0}/merge.sbatch",
            s_dir.display()
        )),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A merge stopped by SIGTERM (what Slurm sends on scancel and at the time limit, to every
/// process of the job) leaves MERGE-CANCELLED and a line in merge.log; the next merge that
/// succeeds removes the note.
#[test]
fn a_cancelled_merge_leaves_a_note_in_the_run_folder() {
    if !have_bash("cluster::a_cancelled_merge_leaves_a_note_in_the_run_folder") {
        return;
    }
    use std::os::unix::process::CommandExt;
    let dir = tmp("merge-cancel");
    let arena = stub(&dir);
    let run = dir.join("run");
    // A Slurm run's folder: the note suggests its merge job.
    std::fs::create_dir_all(run.join("slurm")).unwrap();
    std::fs::write(run.join("slurm/merge.sbatch"), "#!/usr/bin/env bash\n").unwrap();
    for k in 0..3 {
        let shard = run.join(format!("shard-{k}"));
        std::fs::create_dir_all(&shard).unwrap();
        std::fs::write(shard.join("games.jsonl"), "{}\n").unwrap();
    }
    let r = run.to_str().unwrap();
    let child = Command::new("bash")
        .arg(scripts().join("merge-task.sh"))
        .args(["3", r])
        .env("ARENA", &arena)
        .env("STUB_MERGE_SLEEP", "60")
        .env("SLURM_JOB_ID", "4242")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let started = run.join("merged/merging");
    for _ in 0..300 {
        if started.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(started.exists(), "the merge did not start");
    let group = format!("-{}", child.id());
    let kill = Command::new("kill")
        .args(["-TERM", "--", &group])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", text(&o.stderr));
    let note = std::fs::read_to_string(run.join("MERGE-CANCELLED")).unwrap();
    for want in [
        "cancelled at ",
        "by SIGTERM",
        "Slurm job 4242",
        "merge-task.sh 3 ",
        // The commands name the arena binary (they dropped ARENA=) and Slurm's merge job.
        format!("ARENA={} ", arena.display()).as_str(),
        format!("sbatch {r}/slurm/merge.sbatch").as_str(),
    ] {
        assert!(note.contains(want), "no {want:?} in\n{note}");
    }
    let trace = std::fs::read_to_string(run.join("merge.log")).unwrap();
    assert!(trace.contains("started (Slurm job 4242"), "{trace}");
    assert!(trace.contains("merge CANCELLED by SIGTERM"), "{trace}");
    assert!(
        text(&o.stderr).contains("MERGE-CANCELLED"),
        "{}",
        text(&o.stderr)
    );

    let o = script(&arena, "merge-task.sh", &["3", r], &[]);
    expect_ok(&o, "the merge again");
    assert!(!run.join("MERGE-CANCELLED").exists());
    let trace = std::fs::read_to_string(run.join("merge.log")).unwrap();
    assert!(trace.contains("merged into"), "{trace}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Every scheduler takes `leak`, which shards and merges like a match, without a warning, and
/// says so when the command is missing; counts past 7 digits get their bound, not "a whole
/// number"; a relative file refused by k8s.sh's check says where it was looked for.
#[test]
fn leak_shards_counts_are_bounded_and_k8s_says_where_it_looked() {
    let Some((dir, arena)) = stubbed(
        "leak_shards_counts_are_bounded_and_k8s_says_where_it_looked",
        "leak-bounds",
    ) else {
        return;
    };
    let r = dir.join("run");
    let r = r.to_str().unwrap();
    let leak = ["leak", "--engine", "greedy", "--pairs", "4"];
    for (name, extra) in [
        ("slurm.sh", &["--dry-run"][..]),
        (
            "k8s.sh",
            &["--image", "img:1", "--pvc", "claim", "--dry-run"][..],
        ),
        ("parallel.sh", &["--local", "--dry-run"][..]),
    ] {
        let mut args = vec!["--shards", "2", "--out", r, "--no-check"];
        args.extend_from_slice(extra);
        args.push("--");
        args.extend_from_slice(&leak);
        let o = script(&arena, name, &args, &[]);
        expect_ok(&o, &format!("{name} -- leak"));
        assert!(
            !text(&o.stderr).contains("warning"),
            "{name}: {}",
            text(&o.stderr)
        );
        let mut args = vec!["--shards", "2", "--out", r];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", "--pairs", "4"]);
        let o = script(&arena, name, &args, &[]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            text(&o.stderr).contains("the command (match, tournament or leak)"),
            "{name}: {}",
            text(&o.stderr)
        );
    }
    let huge = "99999999";
    for (name, flag, want) in [
        ("slurm.sh", "--cpus", "--cpus 99999999: at most 1024"),
        ("k8s.sh", "--cpus", "--cpus 99999999: at most 1024"),
        (
            "k8s.sh",
            "--parallelism",
            "--parallelism 99999999: at most 1000000",
        ),
        (
            "k8s.sh",
            "--backoff-limit",
            "--backoff-limit 99999999: at most 9999999",
        ),
        (
            "parallel.sh",
            "--jobs-per-host",
            "--jobs-per-host 99999999: at most 1000000",
        ),
        (
            "parallel.sh",
            "--retries",
            "--retries 99999999: at most 1000",
        ),
    ] {
        let mut args = vec!["--shards", "2", "--out", r, flag, huge];
        args.extend_from_slice(match name {
            "k8s.sh" => &["--image", "img:1", "--pvc", "claim", "--dry-run"][..],
            "parallel.sh" => &["--local", "--dry-run"][..],
            _ => &["--dry-run"][..],
        });
        args.push("--");
        args.extend_from_slice(MATCH);
        let o = script(&arena, name, &args, &[]);
        assert_eq!(o.status.code(), Some(2), "{name} {flag}");
        assert!(
            text(&o.stderr).contains(want),
            "{name}: {}",
            text(&o.stderr)
        );
    }
    // The pods read relative paths in the image's working folder: the check reads them in this
    // repository, and a refusal says so.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let mut c = Command::new("bash");
    c.arg(scripts().join("k8s.sh"))
        .args([
            "--shards",
            "2",
            "--out",
            r,
            "--image",
            "img:1",
            "--pvc",
            "claim",
            "--dry-run",
        ])
        .args([
            "--",
            "match",
            "--engine",
            "engines/mine.json",
            "--engine",
            "greedy",
            "--pairs",
            "4",
        ])
        .current_dir(&dir)
        .env("ARENA", arena_bin());
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&format!("were read in {}", repo.display())),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// slurm.sh checks --mem and --time against Slurm's formats before writing a job script, as
/// k8s.sh checks --memory and --timeout; it used to write `#SBATCH --mem=lots`.
#[test]
fn slurm_refuses_a_mem_or_time_slurm_would_not_read() {
    let Some((dir, arena)) = stubbed(
        "slurm_refuses_a_mem_or_time_slurm_would_not_read",
        "slurm-formats",
    ) else {
        return;
    };
    let r = dir.join("run");
    let r = r.to_str().unwrap();
    for (flag, value, ok) in [
        ("--mem", "lots", false),
        ("--mem", "4GB", false),
        ("--mem", "4G", true),
        ("--mem", "4096M", true),
        ("--mem", "4096", true),
        ("--time", "forever", false),
        ("--time", "1:2:3:4", false),
        ("--time", "90", true),
        ("--time", "90:30", true),
        ("--time", "04:00:00", true),
        ("--time", "2-12", true),
        ("--time", "2-12:30", true),
        ("--time", "2-12:30:00", true),
    ] {
        let mut args = vec!["--shards", "2", "--out", r, "--no-check", "--dry-run"];
        args.extend_from_slice(&[flag, value, "--"]);
        args.extend_from_slice(MATCH);
        let o = script(&arena, "slurm.sh", &args, &[]);
        if ok {
            expect_ok(&o, &format!("slurm.sh {flag} {value}"));
        } else {
            assert_eq!(o.status.code(), Some(2), "{flag} {value}");
            let want = format!("{flag} '{value}' is not a Slurm");
            assert!(text(&o.stderr).contains(&want), "{}", text(&o.stderr));
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Without ARENA, the scripts take target/release/arena of this repository if it is built, else
/// the arena on PATH (`cargo install`), and the job scripts name it. slurm.sh used to warn
/// "no arena binary at …/target/release/arena" and write that path into the jobs.
#[test]
fn without_arena_set_the_scripts_take_the_built_one_else_the_one_on_path() {
    if !have_bash("cluster::without_arena_set_the_scripts_take_the_built_one_else_the_one_on_path")
    {
        return;
    }
    let dir = tmp("arena-on-path");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::rename(stub(&dir), bin.join("arena")).unwrap();
    let built = scripts().join("../../target/release/arena");
    let want = if built.is_file() {
        built.canonicalize().unwrap()
    } else {
        bin.join("arena")
    };
    let run = dir.join("run");
    let mut c = Command::new("bash");
    c.arg(scripts().join("slurm.sh"))
        .args([
            "--shards",
            "3",
            "--out",
            run.to_str().unwrap(),
            "--dry-run",
            "--",
        ])
        .args(MATCH)
        .env_remove("ARENA")
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        );
    let o = c.output().unwrap();
    expect_ok(&o, "slurm.sh --dry-run with arena on PATH");
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
    let sbatch = std::fs::read_to_string(run.join("slurm/shard.sbatch")).unwrap();
    assert!(
        sbatch.contains(&format!("export ARENA={}\n", want.display())),
        "{sbatch}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// parallel.sh and the --local modes keep every attempt's output (and GNU parallel's joblog
/// history), and after a failure suggest merging what there is only when some shard has games.
#[test]
fn retries_keep_every_log_and_suggest_only_what_can_work() {
    let Some((dir, arena)) = stubbed(
        "retries_keep_every_log_and_suggest_only_what_can_work",
        "retry-logs",
    ) else {
        return;
    };
    for (name, extra, log) in [
        ("parallel.sh", &["--xargs"][..], "parallel/shard-1.log"),
        ("slurm.sh", &[][..], "slurm/shard-1.out"),
    ] {
        let run = dir.join(format!("run-{name}"));
        let mut args = vec!["--shards", "3", "--out", run.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--local", "--"]);
        args.extend_from_slice(MATCH);
        let o = script(&arena, name, &args, &[("STUB_FAIL", "1")]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o.stderr));
        let stderr = text(&o.stderr);
        assert!(
            stderr.contains("merge-task.sh 3") && stderr.contains("--partial"),
            "{name}: {stderr}"
        );
        // The hint names the arena binary the run used: pasted in another shell it merges.
        assert!(
            stderr.contains(&format!("ARENA={} ", arena.display())),
            "{name}: {stderr}"
        );
        let o = script(&arena, name, &args, &[]);
        expect_ok(&o, &format!("{name} again"));
        if name == "slurm.sh" {
            // A second merge appends to merge.out (plain tee overwrote the first one's lines).
            expect_ok(&script(&arena, name, &args, &[]), "slurm.sh a third time");
            let out = std::fs::read_to_string(run.join("slurm/merge.out")).unwrap();
            assert_eq!(out.matches("merging 3 of 3 shards").count(), 2, "{out}");
        }
        let log = std::fs::read_to_string(run.join(log)).unwrap();
        let first = log.find("=== attempt 1 of shard 1/3 on ");
        let second = log.find("=== attempt 2 of shard 1/3 on ");
        let failure = log.find("stub: shard 1/3 fails");
        assert!(
            first < failure && failure < second && first.is_some(),
            "{name}: {log}"
        );

        // No shard recorded a game: --partial would merge nothing, so it is not suggested.
        let none = dir.join(format!("none-{name}"));
        args[3] = none.to_str().unwrap();
        let o = script(&arena, name, &args, &[("STUB_FAIL", "all")]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o.stderr));
        let stderr = text(&o.stderr);
        assert!(stderr.contains("nothing to merge yet"), "{name}: {stderr}");
        assert!(!stderr.contains("--partial"), "{name}: {stderr}");
    }
    // GNU parallel appends to its joblog.
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, ":\n").unwrap();
    let run = dir.join("run-hosts");
    let mut args = vec!["--shards", "3", "--out", run.to_str().unwrap()];
    args.extend_from_slice(&["--hosts", hosts.to_str().unwrap(), "--dry-run", "--"]);
    args.extend_from_slice(MATCH);
    let out = expect_ok(
        &script(&arena, "parallel.sh", &args, &[]),
        "parallel.sh --dry-run",
    );
    let joblog = run.join("parallel/joblog");
    assert!(
        out.contains(&format!("--joblog +{}", joblog.display())),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Every repository path a script's --help (or the scripts' README) cites exists, and every
/// option a help lists is one the script takes.
#[test]
fn help_texts_cite_what_exists() {
    if !have_bash("cluster::help_texts_cite_what_exists") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cited = 0;
    for name in [
        "slurm.sh",
        "k8s.sh",
        "parallel.sh",
        "shard-task.sh",
        "merge-task.sh",
        "README.md",
    ] {
        let help = if name == "README.md" {
            std::fs::read_to_string(scripts().join(name)).unwrap()
        } else {
            expect_ok(&script(arena_bin(), name, &["--help"], &[]), name)
        };
        for word in help.split(|c: char| c.is_whitespace() || "`'\"()[],;=".contains(c)) {
            let word = word.trim_end_matches(['.', ':']);
            if ["configs/", "scripts/", "crates/"]
                .iter()
                .any(|p| word.starts_with(p))
            {
                cited += 1;
                assert!(
                    root.join(word).exists(),
                    "{name} cites {word}, which does not exist"
                );
            }
        }
        if name == "README.md" {
            continue;
        }
        let source = std::fs::read_to_string(scripts().join(name)).unwrap();
        for line in help.lines() {
            let Some(option) = line
                .trim_start()
                .strip_prefix("-h, ")
                .or_else(|| line.strip_prefix("  --").map(|_| line.trim_start()))
            else {
                continue;
            };
            let flag = option.split_whitespace().next().unwrap();
            assert!(
                source.contains(&format!("{flag})")) || source.contains(&format!("{flag} |")),
                "{name} --help lists {flag}, which it does not take"
            );
        }
    }
    assert!(
        cited >= 5,
        "only {cited} paths cited: is the search broken?"
    );
}
