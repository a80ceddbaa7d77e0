//! The scheduler: plays numbered jobs on a rayon pool and hands each result to the caller as it
//! finishes, until the jobs run out or the caller says stop.
//!
//! Jobs are handed out lazily in index order from one atomic counter (so a run of 10^8 pairs
//! allocates nothing per pair), each worker playing one job at a time. The caller sees results in
//! finishing order on its own thread; anything that must not depend on thread timing (the
//! statistics, a stopping rule) is computed from the finished prefix of job indices
//! ([`Prefix`]). Once the caller says stop, no new job starts; jobs already running finish and
//! are handed over too.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

/// What the caller wants after a finished job.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep handing out jobs.
    Continue,
    /// Start no new job (running ones still finish and are reported).
    Stop,
}

/// How far ahead of the finished prefix a run's workers may start jobs ([`run`]'s `window`). A
/// run that may be stopped before its end (a gate, by its test; a watched run, by its watcher:
/// `arena jai`'s `stop`) keeps its `threads` workers within `threads` jobs of the prefix, so a
/// stop leaves fewer than `threads` jobs finished beyond it; a run that plays every job lets them
/// run `8 × threads` ahead, so that one long game does not idle the other workers.
pub fn window(threads: usize, stoppable: bool) -> u64 {
    let threads = threads.max(1) as u64;
    if stoppable {
        threads
    } else {
        threads.saturating_mul(8)
    }
}

/// Plays jobs `0..total` except those `skip` names, `threads` at a time, calling `finished` on the
/// calling thread with each result in finishing order.
///
/// No job starts more than `window` jobs ahead of the finished prefix (the jobs below it all
/// handed to `finished`, or skipped): a worker that would run further ahead waits. So the results
/// waiting for an earlier job stay few, and when `finished` says stop, at most `window` jobs
/// beyond the stopping point have been started.
///
/// # Errors
/// The pool cannot be started, or `finished` fails (then no new job starts, running ones finish,
/// and the first error is returned).
pub fn run<T, E>(
    total: u64,
    threads: usize,
    window: u64,
    skip: &(dyn Fn(u64) -> bool + Sync),
    play: &(dyn Fn(u64) -> T + Sync),
    mut finished: impl FnMut(u64, T) -> Result<Flow, E>,
) -> Result<(), SchedulerError<E>>
where
    T: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("arena-worker-{i}"))
        .build()
        .map_err(|e| SchedulerError::Pool(format!("cannot start {threads} threads: {e}")))?;
    let window = window.max(1);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // The finished prefix (jobs handed over or skipped), and the jobs done beyond it.
    let done = Mutex::new(Prefix::<()>::new());
    let moved = Condvar::new();
    let finish = |job: u64| {
        let mut d = done
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !d.push(job, ()).is_empty() {
            moved.notify_all();
        }
    };
    let (tx, rx) = mpsc::channel::<(u64, T)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        let (next, stop, done, moved, finish) = (&next, &stop, &done, &moved, &finish);
        scope.spawn(move || {
            pool.scope(|s| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    s.spawn(move |_| {
                        // An interruption (Ctrl-C) hands out no more jobs either.
                        while !stop.load(Ordering::Relaxed) && !crate::util::interrupt::requested()
                        {
                            let job = next.fetch_add(1, Ordering::Relaxed);
                            if job >= total {
                                break;
                            }
                            if skip(job) {
                                finish(job);
                                continue;
                            }
                            // Wait until the job is within the window. The prefix's next job
                            // is held by a worker that is playing it (it is within the window
                            // whatever the prefix), so the wait ends.
                            let mut d = done
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner);
                            while job >= d.len().saturating_add(window)
                                && !stop.load(Ordering::Relaxed)
                            {
                                d = moved
                                    .wait(d)
                                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                            }
                            drop(d);
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            if tx.send((job, play(job))).is_err() {
                                break;
                            }
                        }
                    });
                }
                drop(tx);
            });
        });
        for (job, result) in rx {
            if failure.is_none() {
                match finished(job, result) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Stop) => stop.store(true, Ordering::Relaxed),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(e);
                    }
                }
            }
            finish(job);
            if stop.load(Ordering::Relaxed) {
                // Wake the workers waiting for the window: they stop.
                let _guard = done
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                moved.notify_all();
            }
        }
    });
    match failure {
        Some(e) => Err(SchedulerError::Caller(e)),
        None => Ok(()),
    }
}

/// Why [`run`] failed.
#[derive(Debug)]
pub enum SchedulerError<E> {
    /// The thread pool could not start.
    Pool(String),
    /// The caller's `finished` failed.
    Caller(E),
}

/// Results in finishing order → results in job order: [`Prefix::push`] takes a finished job and
/// returns the jobs that now extend the longest finished prefix `0..n`, in order. Jobs done
/// before the run count as finished.
#[derive(Debug)]
pub struct Prefix<T> {
    next: u64,
    waiting: BTreeMap<u64, T>,
}

impl<T> Prefix<T> {
    /// An empty prefix.
    pub fn new() -> Prefix<T> {
        Prefix {
            next: 0,
            waiting: BTreeMap::new(),
        }
    }

    /// The length of the finished prefix.
    pub fn len(&self) -> u64 {
        self.next
    }

    /// Whether no job is in the prefix yet.
    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    /// Adds a finished job; returns the jobs (with their results) that joined the prefix.
    pub fn push(&mut self, job: u64, result: T) -> Vec<(u64, T)> {
        self.waiting.insert(job, result);
        let mut joined = Vec::new();
        while let Some(r) = self.waiting.remove(&self.next) {
            joined.push((self.next, r));
            self.next += 1;
        }
        joined
    }

    /// The finished jobs beyond the prefix, in job order.
    pub fn beyond(self) -> Vec<(u64, T)> {
        self.waiting.into_iter().collect()
    }
}

impl<T> Default for Prefix<T> {
    fn default() -> Prefix<T> {
        Prefix::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_once_and_skips_skipped() {
        let mut seen = Vec::new();
        run::<u64, ()>(50, 3, 4, &|j| j % 7 == 0, &|j| j * j, |j, r| {
            assert_eq!(r, j * j);
            seen.push(j);
            Ok(Flow::Continue)
        })
        .unwrap();
        seen.sort_unstable();
        let want: Vec<u64> = (0..50).filter(|j| j % 7 != 0).collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn a_stoppable_run_keeps_its_workers_near_the_prefix() {
        assert_eq!(window(1024, true), 1024);
        assert_eq!(window(1024, false), 8192);
        assert_eq!(window(0, true), 1);
    }

    #[test]
    fn stop_starts_no_new_job() {
        // Job j plays only once the caller has taken every earlier result, so how far the
        // workers run ahead does not depend on how busy the machine is.
        let processed = AtomicU64::new(0);
        let mut count = 0;
        run::<(), ()>(
            1_000_000,
            2,
            1000,
            &|_| false,
            &|j| {
                while processed.load(Ordering::SeqCst) < j {
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
            },
            |_, ()| {
                count += 1;
                processed.fetch_add(1, Ordering::SeqCst);
                Ok(if count >= 10 {
                    Flow::Stop
                } else {
                    Flow::Continue
                })
            },
        )
        .unwrap();
        // Ten, plus at most the job each of the two workers had taken before the stop.
        assert!((10..=12).contains(&count), "{count}");
    }

    #[test]
    fn an_unbounded_window_never_waits() {
        // `solve` keeps its results by position and passes u64::MAX: the bound must not wrap.
        let mut n = 0;
        run::<(), ()>(100, 2, u64::MAX, &|_| false, &|_| (), |_, ()| {
            n += 1;
            Ok(Flow::Continue)
        })
        .unwrap();
        assert_eq!(n, 100);
    }

    #[test]
    fn no_job_starts_beyond_the_window() {
        // Job 0 is slow; the others are instant. With a window of 3 no job past 2 may start
        // before job 0 is handed over, so when the caller stops at job 0, jobs 1 and 2 at most
        // ran beyond it.
        let started = std::sync::Mutex::new(Vec::new());
        let mut handed = Vec::new();
        run::<(), ()>(
            1000,
            2,
            3,
            &|_| false,
            &|j| {
                started.lock().unwrap().push(j);
                if j == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            },
            |j, ()| {
                handed.push(j);
                Ok(if j == 0 { Flow::Stop } else { Flow::Continue })
            },
        )
        .unwrap();
        let started = started.into_inner().unwrap();
        assert!(started.iter().all(|&j| j < 3), "{started:?}");
        assert!(handed.contains(&0));
    }

    #[test]
    fn a_caller_error_ends_the_run() {
        let e = run::<(), &str>(u64::MAX, 2, 8, &|_| false, &|_| (), |j, ()| {
            if j >= 5 {
                Err("disk full")
            } else {
                Ok(Flow::Continue)
            }
        });
        assert!(matches!(e, Err(SchedulerError::Caller("disk full"))));
    }

    #[test]
    fn the_prefix_is_in_job_order_whatever_the_finishing_order() {
        let mut p = Prefix::new();
        assert!(p.push(2, 'c').is_empty());
        assert!(p.push(1, 'b').is_empty());
        assert_eq!(p.push(0, 'a'), vec![(0, 'a'), (1, 'b'), (2, 'c')]);
        assert_eq!(p.len(), 3);
        assert!(p.push(5, 'f').is_empty());
        assert_eq!(p.push(3, 'd'), vec![(3, 'd')]);
        assert_eq!(p.beyond(), vec![(5, 'f')]);
    }
}
