//! Lazy SMP: the helper threads of an engine, kept in a pool from one search to the next, and
//! what the threads of a search publish to each other and to the front end.
//!
//! # The pool
//! An engine with `threads=N > 1` starts N − 1 helper threads at its first search and keeps them
//! until it is dropped (its [`Pool`]'s `Drop` shuts them down and joins them). Between searches a
//! helper sleeps on a condition variable. A search hands the helpers a [`Job`] (the root, its
//! history, the limits, the seed, the shared table and options), runs the main thread's search,
//! then raises the pool's stop flag and waits until every helper is idle again, so no helper
//! runs between searches. Each helper keeps its move-ordering state (history, killers) from one
//! search to the next: the history of the game's previous move orders the next one's quiet moves
//! (it is quartered at every iteration, so old values fade fast). The main thread's searcher is
//! new at every search, as with one thread, so a single-threaded search is unchanged.
//!
//! A helper owns nothing borrowed from the caller of [`Engine::search`]: it cannot call the front
//! end's report callback. It publishes its completed iterations into the job's [`SmpSearch`], and
//! the main thread passes them on to the front end (every 1024 of its nodes, and at the end),
//! so the front end still hears each depth once, in increasing order, from the first thread that
//! completed it. No lock is taken on a hot path: the node count is shared in batches of 1024, the
//! main thread looks at one atomic flag per 1024 nodes, and the locks are taken once per completed
//! iteration and twice per search.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Condvar, MutexGuard};
use std::thread::JoinHandle;

use super::*;

/// The deepest iteration completed by any thread of a multi-threaded search. Lazy SMP's helpers
/// search one ply ahead of the main thread on the shared table and often complete a depth before
/// it: the search then answers with that deeper result (best-thread selection), and its progress
/// reports follow whichever thread is ahead.
#[derive(Clone, Debug, Default)]
pub(super) struct Published {
    pub(super) depth: u32,
    pub(super) mv: Option<Move>,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
    /// Whether a helper (not the main thread) completed it.
    pub(super) by_helper: bool,
    /// A helper's report the front end has not heard yet (the main thread passes it on).
    pub(super) unreported: Option<SearchInfo>,
}

/// What the threads of one search share besides the table: the node count, the deepest
/// completed iteration, and the helpers' nodes short of a batch at the end.
#[derive(Debug, Default)]
pub(super) struct SmpSearch {
    /// Nodes of every thread, added 1024 at a time.
    pub(super) nodes: AtomicU64,
    pub(super) published: Mutex<Published>,
    /// Whether [`Published::unreported`] holds a report (read by the main thread every 1024
    /// nodes without taking the lock).
    pub(super) unreported: AtomicBool,
    /// The helpers' nodes not yet in `nodes` (each helper's count modulo 1024), added when they
    /// stop.
    pub(super) rest: AtomicU64,
}

/// A search handed to the helpers: everything a helper needs, owned (a helper outlives the
/// [`Engine::search`] call that made the job, so it can borrow nothing from it).
pub(super) struct Job {
    pub(super) pos: Position,
    pub(super) past: Vec<PathEntry>,
    pub(super) knowledge: Knowledge,
    /// The front end's `searchmoves` (empty: every legal move).
    pub(super) searchmoves: Vec<Move>,
    pub(super) opts: Arc<Options>,
    pub(super) tt: Option<Arc<Tt>>,
    pub(super) seed: u64,
    pub(super) max_depth: u32,
    pub(super) node_limit: u64,
    pub(super) shared: SmpSearch,
}

/// Counters of a pool's threads, for tests and diagnostics: kept by whoever holds them after the
/// pool is gone.
#[derive(Debug, Default)]
pub struct PoolCounters {
    spawned: AtomicUsize,
    live: AtomicUsize,
    busy: AtomicUsize,
    jobs: AtomicUsize,
}

impl PoolCounters {
    /// Helper threads ever started by the pool.
    pub fn spawned(&self) -> usize {
        self.spawned.load(Ordering::SeqCst)
    }
    /// Helper threads running now (started and not yet finished).
    pub fn live(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }
    /// Helper threads searching now (not waiting for a job).
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::SeqCst)
    }
    /// Searches run by helper threads, summed over the helpers.
    pub fn jobs(&self) -> usize {
        self.jobs.load(Ordering::SeqCst)
    }
}

struct PoolState {
    /// Incremented with every job: a helper runs each generation once.
    generation: u64,
    job: Option<Arc<Job>>,
    /// Helpers that have not finished the current job.
    busy: usize,
    shutdown: bool,
}

struct PoolShared {
    state: Mutex<PoolState>,
    /// Helpers wait here for a job or the shutdown.
    wake: Condvar,
    /// The main thread waits here for the helpers to finish a job.
    idle: Condvar,
    /// Stops the helpers' search (their [`Control`]'s stop flag).
    stop: AtomicBool,
    counters: Arc<PoolCounters>,
}

impl PoolShared {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// An engine's helper threads (see the module doc).
pub(super) struct Pool {
    shared: Arc<PoolShared>,
    handles: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool of `helpers` threads, waiting for a job.
    pub(super) fn new(helpers: usize) -> std::io::Result<Pool> {
        let shared = Arc::new(PoolShared {
            state: Mutex::new(PoolState {
                generation: 0,
                job: None,
                busy: 0,
                shutdown: false,
            }),
            wake: Condvar::new(),
            idle: Condvar::new(),
            stop: AtomicBool::new(false),
            counters: Arc::new(PoolCounters::default()),
        });
        let mut pool = Pool {
            shared,
            handles: Vec::with_capacity(helpers),
        };
        for i in 1..=helpers {
            let shared = Arc::clone(&pool.shared);
            shared.counters.live.fetch_add(1, Ordering::SeqCst);
            let spawned = std::thread::Builder::new()
                .name(format!("alphabeta-helper-{i}"))
                .spawn(move || helper(&shared, i));
            match spawned {
                Ok(h) => {
                    pool.shared.counters.spawned.fetch_add(1, Ordering::SeqCst);
                    pool.handles.push(h);
                }
                Err(e) => {
                    pool.shared.counters.live.fetch_sub(1, Ordering::SeqCst);
                    // Dropping the pool joins the helpers already started.
                    return Err(e);
                }
            }
        }
        Ok(pool)
    }

    /// The number of helper threads.
    pub(super) fn helpers(&self) -> usize {
        self.handles.len()
    }

    pub(super) fn counters(&self) -> Arc<PoolCounters> {
        Arc::clone(&self.shared.counters)
    }

    /// Hands `job` to every helper. (A job left running, by a main thread that panicked, is
    /// stopped first.)
    pub(super) fn start(&self, job: &Arc<Job>) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let mut st = self.wait_idle(self.shared.lock());
        self.shared.stop.store(false, Ordering::SeqCst);
        st.generation += 1;
        st.job = Some(Arc::clone(job));
        st.busy = self.handles.len();
        drop(st);
        self.shared.wake.notify_all();
    }

    /// Stops the helpers' search and waits until every helper is idle.
    pub(super) fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let mut st = self.wait_idle(self.shared.lock());
        st.job = None;
    }

    fn wait_idle<'a>(&self, mut st: MutexGuard<'a, PoolState>) -> MutexGuard<'a, PoolState> {
        while st.busy > 0 {
            st = self.shared.idle.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        st
    }
}

impl Drop for Pool {
    /// Shuts the helpers down and joins them.
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.lock().shutdown = true;
        self.shared.wake.notify_all();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// A helper thread's move-ordering state, kept from one search to the next.
struct Kept {
    history: Vec<i32>,
    killers: [[u16; 2]; MAX_PLY + 1],
}

/// A helper thread: waits for a job, searches it until stopped, reports idle; until shutdown.
fn helper(shared: &PoolShared, index: usize) {
    struct Live<'a>(&'a PoolCounters);
    impl Drop for Live<'_> {
        fn drop(&mut self) {
            self.0.live.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let _live = Live(&shared.counters);
    let mut seen = 0;
    let mut kept = None;
    loop {
        let job = {
            let mut st = shared.lock();
            loop {
                if st.shutdown {
                    return;
                }
                if st.generation != seen {
                    if let Some(job) = &st.job {
                        seen = st.generation;
                        break Arc::clone(job);
                    }
                }
                st = shared.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        };
        shared.counters.busy.fetch_add(1, Ordering::SeqCst);
        shared.counters.jobs.fetch_add(1, Ordering::SeqCst);
        // A panicking search loses its nodes and the kept ordering, not the thread.
        let rest = catch_unwind(AssertUnwindSafe(|| {
            run(&job, &shared.stop, index, &mut kept)
        }))
        .unwrap_or(0);
        job.shared.rest.fetch_add(rest, Ordering::Relaxed);
        drop(job);
        shared.counters.busy.fetch_sub(1, Ordering::SeqCst);
        let mut st = shared.lock();
        st.busy -= 1;
        if st.busy == 0 {
            shared.idle.notify_all();
        }
    }
}

/// Helper `index`'s search of `job` until `stop`; returns its nodes short of a batch of 1024.
fn run(job: &Job, stop: &AtomicBool, index: usize, kept: &mut Option<Kept>) -> u64 {
    let mut h = Searcher::new(
        job.pos.clone(),
        &job.opts,
        job.tt.as_deref(),
        job.past.clone(),
    );
    h.knowledge = job.knowledge;
    // Helpers stop when the main thread is done (the pool's flag); the front end hears them
    // through the main thread.
    h.control = Control::default()
        .with_stop(stop)
        .with_searchmoves(&job.searchmoves);
    h.node_limit = job.node_limit;
    // The same draws as the main thread: a different seed would reveal other identities, and no
    // position below a reveal would be shared.
    h.seed = job.seed;
    // Half of the helpers one ply ahead.
    h.depth_offset = (index % 2) as u32;
    h.shared_nodes = Some(&job.shared.nodes);
    h.published = Some(&job.shared);
    h.helper = true;
    if let Some(k) = kept.take() {
        h.history = k.history;
        h.killers = k.killers;
    }
    let depth = job.max_depth.saturating_sub(h.depth_offset).max(1);
    h.iterate(depth);
    *kept = Some(Kept {
        history: std::mem::take(&mut h.history),
        killers: h.killers,
    });
    h.nodes % 1024
}

impl Searcher<'_> {
    /// Reports a completed iteration (`depth`, best move `mv`, score `v`). With several threads
    /// the iteration is also published, and reported only if it is deeper than every iteration
    /// published before, so the front end hears depths in increasing order from whichever
    /// thread completes them first (a helper's through the main thread, see [`Self::relay`]).
    pub(super) fn publish(&mut self, depth: u32, mv: Move, v: i32) {
        let control = self.control;
        // First: the prover's nodes, if it is asked, count in this report.
        let score = self.claim_score(mv, v);
        let nodes = match self.shared_nodes {
            Some(total) => total.load(Ordering::Relaxed) + self.nodes % 1024,
            None => self.nodes,
        };
        let Some(smp) = self.published else {
            control.report(|| SearchInfo {
                nodes,
                depth: Some(depth),
                score: Some(score),
                pv: self.pv(mv, depth as usize),
            });
            return;
        };
        let mut p = smp.published.lock().unwrap_or_else(|e| e.into_inner());
        if !self.helper {
            // A helper's deeper report first.
            smp.unreported.store(false, Ordering::Relaxed);
            if let Some(info) = p.unreported.take() {
                control.report(|| info);
            }
        }
        if depth <= p.depth {
            return;
        }
        let pv = self.pv(mv, depth as usize);
        let info = SearchInfo {
            nodes,
            depth: Some(depth),
            score: Some(score),
            pv: pv.clone(),
        };
        let unreported = if self.helper {
            smp.unreported.store(true, Ordering::Relaxed);
            Some(info)
        } else {
            control.report(|| info);
            None
        };
        *p = Published {
            depth,
            mv: Some(mv),
            score: v,
            pv,
            by_helper: self.helper,
            unreported,
        };
    }

    /// The main thread passes a helper's unreported iteration on to the front end.
    pub(super) fn relay(&self) {
        let Some(smp) = self.published else { return };
        if self.helper || !smp.unreported.load(Ordering::Relaxed) {
            return;
        }
        let mut p = smp.published.lock().unwrap_or_else(|e| e.into_inner());
        smp.unreported.store(false, Ordering::Relaxed);
        if let Some(info) = p.unreported.take() {
            self.control.report(|| info);
        }
    }
}
