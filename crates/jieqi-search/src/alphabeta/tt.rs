//! The transposition table: one slot per index, shared by the threads of a search without locks.
//!
//! # Entry layout
//! A slot is two `AtomicU64` words, `[data, check]`. `data` is the packed entry ([`Entry::pack`]),
//! from the low bits up:
//!
//! | bits  | field                                                                  |
//! |-------|------------------------------------------------------------------------|
//! | 0–15  | score as `i16` (mate scores relative to the node: [`to_tt`], [`from_tt`]) |
//! | 16–31 | best move ([`encode`]: `from * 90 + to + 1`; 0 is none)                 |
//! | 32–39 | depth as `i8` (clamped to 0..=127)                                     |
//! | 40–47 | bound ([`BOUND_EXACT`], [`BOUND_LOWER`], [`BOUND_UPPER`])               |
//! | 48–55 | age (the search that wrote it, [`Tt::new_search`])                     |
//! | 56–63 | zero                                                                   |
//!
//! # The XOR check
//! `check` is `key ^ data`. A read accepts a slot only if `check ^ data == key` (and neither the
//! key nor `data` is 0), so a slot holding another position, or torn by two threads writing its
//! words at once, reads as empty (Hyatt's lockless hashing): a torn entry is lost, never believed.
//!
//! # Replacement
//! [`Tt::store`] writes when the slot reads as empty or holds another position, or, for the same
//! position, when the new depth is at least the stored one, the stored entry is from an older
//! search (age), or the new bound is exact. Without a new best move the stored one is kept.

use super::*;
use std::sync::atomic::AtomicU8;

pub(super) const BOUND_EXACT: u8 = 0;
pub(super) const BOUND_LOWER: u8 = 1;
pub(super) const BOUND_UPPER: u8 = 2;

/// One table entry as the search reads it.
#[derive(Copy, Clone, Default)]
pub(super) struct Entry {
    pub(super) score: i32,
    pub(super) mv: u16,
    pub(super) depth: i8,
    pub(super) bound: u8,
}

/// The transposition table, shared by every thread of a search without locks: each slot is two
/// atomic words, the entry packed into 64 bits (`data`) and `key ^ data` (`check`). A reader
/// accepts a slot only if the two words XOR to its key, so an entry torn by two threads writing
/// at once is never believed (Hyatt's lockless hashing); at worst it is lost.
pub(super) struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    /// The current search's age (atomic so that a table shared by a thread pool can start a new
    /// search through a shared reference; only the main thread writes it, between searches).
    age: AtomicU8,
}

impl Entry {
    /// Packs the entry with `age` into 64 bits: score 16, move 16, depth 8, bound 8, age 8.
    #[inline]
    fn pack(self, age: u8) -> u64 {
        u64::from(self.score as i16 as u16)
            | u64::from(self.mv) << 16
            | u64::from(self.depth as u8) << 32
            | u64::from(self.bound) << 40
            | u64::from(age) << 48
    }

    /// The entry and its age.
    #[inline]
    fn unpack(d: u64) -> (Entry, u8) {
        let e = Entry {
            score: i32::from(d as u16 as i16),
            mv: (d >> 16) as u16,
            depth: (d >> 32) as u8 as i8,
            bound: (d >> 40) as u8,
        };
        (e, (d >> 48) as u8)
    }
}

const _: () = assert!(INF <= i16::MAX as i32);

impl Tt {
    /// Slots in a table of `mb` MB.
    fn slots_of(mb: usize) -> usize {
        (mb.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>()
    }

    /// Whether a table of `mb` MB can be allocated now: the memory is reserved (not touched) and
    /// given back. A `hash` the machine cannot hold is refused with the spec, before any game.
    pub(super) fn check_allocation(mb: usize) -> Result<(), String> {
        Tt::reserve(Tt::slots_of(mb)).map(drop).map_err(|e| {
            format!("parameter 'hash' = {mb} MB: this machine cannot allocate the table ({e})")
        })
    }

    fn reserve(slots: usize) -> Result<Vec<[AtomicU64; 2]>, std::collections::TryReserveError> {
        let mut v = Vec::new();
        v.try_reserve_exact(slots)?;
        Ok(v)
    }

    pub(super) fn new(mb: usize) -> Tt {
        let n = Tt::slots_of(mb);
        Tt {
            slots: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            age: AtomicU8::new(0),
        }
    }

    /// Starts a new search: entries of earlier searches stay (a game's next move finds much of
    /// its tree there) but are replaced first.
    pub(super) fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot's entry and age if it holds `key`.
    #[inline]
    fn read(&self, key: u64) -> Option<(Entry, u8)> {
        let slot = &self.slots[self.index(key)];
        let data = slot[0].load(Ordering::Relaxed);
        let check = slot[1].load(Ordering::Relaxed);
        (check ^ data == key && key != 0 && data != 0).then(|| Entry::unpack(data))
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.read(key).map(|(e, _)| e)
    }

    #[inline]
    pub(super) fn store(&self, key: u64, depth: i32, bound: u8, score: i32, mv: Option<Move>) {
        let old = self.read(key);
        let age_now = self.age.load(Ordering::Relaxed);
        let replace = match old {
            None => true,
            Some((e, age)) => depth >= e.depth as i32 || age != age_now || bound == BOUND_EXACT,
        };
        if replace {
            let mv = match mv {
                Some(m) => encode(m),
                None => old.map_or(0, |(e, _)| e.mv),
            };
            let data = Entry {
                score,
                mv,
                depth: depth.clamp(0, 127) as i8,
                bound,
            }
            .pack(age_now);
            let slot = &self.slots[self.index(key)];
            slot[0].store(data, Ordering::Relaxed);
            slot[1].store(key ^ data, Ordering::Relaxed);
        }
    }
}

#[inline]
pub(super) fn encode(m: Move) -> u16 {
    (m.from.index() * 90 + m.to.index() + 1) as u16
}

#[inline]
pub(super) fn decode(v: u16) -> Option<Move> {
    (v != 0).then(|| {
        let v = v as usize - 1;
        Move::new(Square::from_index(v / 90), Square::from_index(v % 90))
    })
}

#[inline]
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_the_machine_cannot_hold_is_refused_with_the_spec() {
        // No machine reserves half the address space.
        assert!(Tt::reserve(usize::MAX / 64).is_err());
        assert!(Tt::check_allocation(16).is_ok());
        // The largest `hash` either fits or is refused naming the parameter, never an abort.
        if let Err(e) = factory(&Spec::parse("alphabeta:hash=65536").unwrap()) {
            assert!(e.to_string().contains("'hash' = 65536 MB"), "{e}");
        }
        // Without a table, nothing is allocated.
        assert!(factory(&Spec::parse("alphabeta:hash=65536,tt=false").unwrap()).is_ok());
    }

    #[test]
    fn table_entries_round_trip_and_torn_slots_are_refused() {
        for (score, mv, depth, bound, age) in [
            (0, 1, 1, BOUND_EXACT, 0),
            (-INF, 8100, 127, BOUND_LOWER, 255),
            (INF, 17, 0, BOUND_UPPER, 3),
            (-(MATE - 5), 4000, 64, BOUND_EXACT, 1),
        ] {
            let e = Entry {
                score,
                mv,
                depth,
                bound,
            };
            let (back, a) = Entry::unpack(e.pack(age));
            assert_eq!(
                (back.score, back.mv, back.depth, back.bound, a),
                (score, mv, depth, bound, age)
            );
        }
        let tt = Tt::new(1);
        let m = Move::new(Square::from_index(3), Square::from_index(12));
        tt.store(0xDEAD_BEEF, 5, BOUND_LOWER, -123, Some(m));
        let e = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!(
            (e.score, decode(e.mv), e.depth, e.bound),
            (-123, Some(m), 5, BOUND_LOWER)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        // A shallower bound does not replace a deeper entry of the same position; a new one does.
        tt.store(0xDEAD_BEEF, 3, BOUND_UPPER, 50, None);
        assert_eq!(tt.probe(0xDEAD_BEEF).unwrap().depth, 5);
        tt.store(0xDEAD_BEEF, 6, BOUND_UPPER, 50, None);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.depth, decode(e.mv)), (6, Some(m)), "the move is kept");
        // A slot whose two words come from different writes is not believed.
        let slot = &tt.slots[tt.index(0xDEAD_BEEF)];
        let other = Entry {
            score: 9,
            mv: 2,
            depth: 9,
            bound: BOUND_EXACT,
        }
        .pack(0);
        slot[0].store(other, Ordering::Relaxed);
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }
}
