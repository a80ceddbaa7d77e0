//! The alarm that ends a move at its hard time limit: one watchdog thread for the process wakes
//! every [`TICK`] and sets the stop flag of every armed alarm whose deadline has passed. Arming and
//! disarming are two atomic stores, so a move costs no system call (a thread hand-off per move
//! measured about 85 µs here, more than a baseline engine's whole move); the stop reaches the
//! engine through its [`jieqi_engine::Control`]. The price is precision: an alarm rings up to one
//! tick late, which only delays stopping an engine that has already lost on time — engines keep
//! to their own budgets ([`jieqi_engine::Limits::budget`]), the alarm is the backstop. An alarm
//! may also follow an abort flag ([`Alarm::with_abort`]: a watched run asked to stop): while armed
//! it rings within a tick of that flag going up, so a move in progress ends at once. Every armed
//! alarm rings the same way once the process is interrupted ([`crate::util::interrupt`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// How often the watchdog looks at the clock: the precision of a hard limit. At 2 ms the
/// watchdog's wake-ups cost a noticeable share of a 2-core machine in fast baseline matches.
pub const TICK: Duration = Duration::from_millis(10);

/// Deadline value of a disarmed alarm.
const DISARMED: u64 = u64::MAX;

#[derive(Debug)]
struct Slot {
    /// Nanoseconds after [`epoch`] at which to stop, or [`DISARMED`].
    deadline: AtomicU64,
    stop: Arc<AtomicBool>,
    /// Rings the armed alarm when it is up (the run was asked to stop).
    abort: Option<Arc<AtomicBool>>,
}

/// The instant alarm deadlines are counted from.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn nanos_since_epoch(t: Instant) -> u64 {
    u64::try_from(t.saturating_duration_since(epoch()).as_nanos()).unwrap_or(DISARMED - 1)
}

/// The armed-or-not alarms the watchdog looks at.
fn slots() -> &'static Mutex<Vec<Weak<Slot>>> {
    static SLOTS: OnceLock<Mutex<Vec<Weak<Slot>>>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        std::thread::Builder::new()
            .name("arena-watchdog".into())
            .spawn(watch)
            .expect("cannot start the watchdog thread");
        Mutex::new(Vec::new())
    })
}

fn watch() {
    loop {
        std::thread::sleep(TICK);
        let now = nanos_since_epoch(Instant::now());
        let mut list = slots().lock().unwrap_or_else(|p| p.into_inner());
        list.retain(|w| match w.upgrade() {
            Some(slot) => {
                let deadline = slot.deadline.load(Ordering::Relaxed);
                // An interruption (Ctrl-C) stops every move in progress, as a watch's stop does.
                let aborted = deadline != DISARMED
                    && (crate::util::interrupt::requested()
                        || slot
                            .abort
                            .as_ref()
                            .is_some_and(|a| a.load(Ordering::Relaxed)));
                if deadline <= now || aborted {
                    slot.stop.store(true, Ordering::Relaxed);
                }
                true
            }
            None => false,
        });
    }
}

/// One alarm, for one game's engine calls in turn.
#[derive(Debug)]
pub struct Alarm {
    slot: Arc<Slot>,
}

impl Alarm {
    /// A disarmed alarm, watched from now on until it is dropped.
    pub fn new() -> Alarm {
        Alarm::watching(None)
    }

    /// A disarmed alarm that, while armed, also rings when `abort` goes up.
    pub fn with_abort(abort: Arc<AtomicBool>) -> Alarm {
        Alarm::watching(Some(abort))
    }

    fn watching(abort: Option<Arc<AtomicBool>>) -> Alarm {
        let slot = Arc::new(Slot {
            deadline: AtomicU64::new(DISARMED),
            stop: Arc::new(AtomicBool::new(false)),
            abort,
        });
        epoch();
        slots()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Arc::downgrade(&slot));
        Alarm { slot }
    }

    /// Clears the stop flag and sets it again at `deadline`.
    pub fn arm(&self, deadline: Instant) {
        self.slot.stop.store(false, Ordering::Relaxed);
        self.slot
            .deadline
            .store(nanos_since_epoch(deadline), Ordering::Relaxed);
    }

    /// Stops watching (the flag keeps its value).
    pub fn disarm(&self) {
        self.slot.deadline.store(DISARMED, Ordering::Relaxed);
    }

    /// The stop flag, for a [`jieqi_engine::Control`]; shared, so that a search on another
    /// thread can hold it.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.slot.stop)
    }

    /// The stop flag, borrowed, for a search on the caller's thread.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.slot.stop
    }

    /// Whether the alarm went off since it was last armed.
    pub fn rang(&self) -> bool {
        self.slot.stop.load(Ordering::Relaxed)
    }
}

impl Default for Alarm {
    fn default() -> Alarm {
        Alarm::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_armed_alarm_rings_at_its_deadline_and_not_before() {
        let alarm = Alarm::new();
        alarm.arm(Instant::now() + Duration::from_secs(3600));
        std::thread::sleep(TICK * 5);
        assert!(!alarm.rang());
        let t = Instant::now();
        alarm.arm(t + Duration::from_millis(20));
        let flag = alarm.flag();
        while !flag.load(Ordering::Relaxed) {
            assert!(t.elapsed() < Duration::from_secs(5), "the alarm never rang");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(t.elapsed() >= Duration::from_millis(20));
        assert!(alarm.rang());
        // Re-arming clears it; disarming stops the watch. The deadline is 1 s away, so no
        // scheduling delay between these lines reaches it (10 ms did on a loaded machine), and
        // the sleep passes it by half a second.
        alarm.arm(Instant::now() + Duration::from_secs(1));
        assert!(!alarm.rang());
        alarm.disarm();
        std::thread::sleep(Duration::from_millis(1500));
        assert!(!alarm.rang());
    }

    #[test]
    fn an_armed_alarm_rings_when_its_abort_flag_goes_up() {
        let abort = Arc::new(AtomicBool::new(false));
        let alarm = Alarm::with_abort(Arc::clone(&abort));
        // Disarmed, the flag does not ring it.
        abort.store(true, Ordering::Relaxed);
        std::thread::sleep(TICK * 3);
        assert!(!alarm.rang());
        abort.store(false, Ordering::Relaxed);
        alarm.arm(Instant::now() + Duration::from_secs(3600));
        std::thread::sleep(TICK * 3);
        assert!(!alarm.rang());
        let t = Instant::now();
        abort.store(true, Ordering::Relaxed);
        let flag = alarm.flag();
        while !flag.load(Ordering::Relaxed) {
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "the abort never rang the alarm"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
