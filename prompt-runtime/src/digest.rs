//! FNV-1a, 64 bits: a fingerprint that is the same on every platform and release (std's
//! hasher is neither), for versions, cache prefixes and file names. Not a security digest.

/// A running FNV-1a hash.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds `bytes`.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> &mut Fnv {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    pub fn value(self) -> u64 {
        self.0
    }

    /// The hash as 16 hex digits.
    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The hash of `text`.
pub fn of(text: &str) -> Fnv {
    let mut hash = Fnv::new();
    hash.feed(text.as_bytes());
    hash
}
