//! Identity values without hashing on the render path.
//!
//! Every identity name (`preferred`, `Pronouns_subject`) gets a number, its [`Slot`], the
//! first time anything in the process asks for it; an [`Identity`](super::Identity) keeps
//! its values in a table indexed by slot. A compiled prompt asks for the slots of its
//! names once ([`KeySlots`]) and from then on reaches each value with one bounds-checked
//! load, as fast as a value handed over in a field.
//!
//! The table of names only grows. So that identities read from untrusted JSON cannot grow
//! it without bound, it holds at most [`MAX_SLOTS`] names; a name past that has no slot
//! and is looked up by name (correct, only slower).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// How many distinct identity names the process numbers; later names are looked up by
/// name instead.
pub const MAX_SLOTS: usize = 1 << 16;

/// A process-wide number for an identity name, or none when the table was full.
///
/// ```
/// use promptic::identity::Slot;
///
/// assert_eq!(Slot::of("preferred"), Slot::of("preferred"));
/// assert_ne!(Slot::of("preferred"), Slot::of("Preferred"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot(pub(super) u32);

impl Slot {
    /// No slot: the table was full when the name was first asked for.
    pub(super) const NONE: Slot = Slot(u32::MAX);

    /// The slot of `name`, numbering it if it is new.
    pub fn of(name: &str) -> Slot {
        static NAMES: OnceLock<Mutex<HashMap<Box<str>, u32>>> = OnceLock::new();
        let names = NAMES.get_or_init(Mutex::default);
        // A panic while the lock was held cannot leave the map half-changed: an insert
        // either happened or not.
        let mut names = names
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&slot) = names.get(name) {
            return Slot(slot);
        }
        if names.len() >= MAX_SLOTS {
            return Slot::NONE;
        }
        let slot = names.len() as u32;
        names.insert(name.into(), slot);
        Slot(slot)
    }

    /// The index into an identity's table, if the name has a slot.
    #[inline]
    pub(super) fn index(self) -> Option<usize> {
        (self != Slot::NONE).then_some(self.0 as usize)
    }
}

/// The slots of a compiled prompt's identity names, found on first use and kept: what the
/// derive generates for each prompt, usable by hand-written renderers too.
///
/// ```
/// use promptic::identity::KeySlots;
/// use promptic::Identity;
///
/// static KEYS: KeySlots<2> = KeySlots::new(["preferred", "Timezone"]);
/// let identity = Identity::from_pairs([("preferred", "Sam"), ("timezone", "utc")]);
/// assert_eq!(KEYS.values(&identity), ["Sam", "Utc"]);
/// assert_eq!(KEYS.values(&Identity::default()), ["", ""]);
/// ```
pub struct KeySlots<const N: usize> {
    names: [&'static str; N],
    slots: OnceLock<[Slot; N]>,
}

impl<const N: usize> KeySlots<N> {
    /// The names, in the order [`KeySlots::values`] gives their values.
    pub const fn new(names: [&'static str; N]) -> Self {
        KeySlots {
            names,
            slots: OnceLock::new(),
        }
    }

    /// The names' slots, numbered on the first call.
    #[inline]
    pub fn slots(&self) -> &[Slot; N] {
        self.slots.get_or_init(|| self.names.map(Slot::of))
    }

    /// Each name's value in `identity`, empty text for a name it lacks (check identities
    /// once at start-up with [`crate::check_identity`]).
    #[inline(always)]
    pub fn values<'i>(&self, identity: &'i super::Identity) -> [&'i str; N] {
        let slots = self.slots();
        let table = identity.slot_table();
        let mut values = [""; N];
        for (k, value) in values.iter_mut().enumerate() {
            // `Slot::NONE` is past the end of every table: the bounds check covers it.
            // A name the identity lacks has an empty value in the table.
            *value = match table.get(slots[k].0 as usize) {
                Some(v) => v,
                None => beyond_table(identity, slots[k], self.names[k]),
            };
        }
        values
    }
}

/// A name past an identity's table: one it lacks, or one without a slot (looked up by
/// name). Out of line: compiled prompts' names are in the table.
#[cold]
#[inline(never)]
fn beyond_table<'i>(identity: &'i super::Identity, slot: Slot, name: &str) -> &'i str {
    identity.at(slot, name).unwrap_or("")
}
