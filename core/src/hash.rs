//! FNV-1a, the one implementation in the tree: keys of derived data (a mesh's SDF tree), the
//! Python bindings' name lookups, and the digests tests and the firmware compare.

macro_rules! fnv1a {
    ($(#[$meta:meta])* $name:ident, $t:ty, $offset:expr, $prime:expr) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name($t);

        impl $name {
            /// The offset basis: the hash of no bytes.
            pub const OFFSET: $t = $offset;
            /// The FNV prime.
            pub const PRIME: $t = $prime;

            /// A hash of no bytes yet.
            pub const fn new() -> Self {
                Self(Self::OFFSET)
            }

            /// Hashes `bytes` after what was hashed before.
            pub fn write(&mut self, bytes: &[u8]) {
                for &b in bytes {
                    self.0 = (self.0 ^ <$t>::from(b)).wrapping_mul(Self::PRIME);
                }
            }

            /// The hash of every byte written.
            pub const fn finish(&self) -> $t {
                self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

fnv1a!(
    /// 64-bit FNV-1a.
    Fnv1a,
    u64,
    0xcbf2_9ce4_8422_2325,
    0x0000_0100_0000_01b3
);

fnv1a!(
    /// 32-bit FNV-1a.
    Fnv1a32,
    u32,
    0x811c_9dc5,
    0x0100_0193
);

impl core::hash::Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        Fnv1a::write(self, bytes);
    }

    fn finish(&self) -> u64 {
        Fnv1a::finish(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published test vectors of FNV-1a ("" and "a", 32 and 64 bits).
    #[test]
    fn published_vectors() {
        let h = |s: &str| {
            let mut h = Fnv1a::new();
            h.write(s.as_bytes());
            h.finish()
        };
        let h32 = |s: &str| {
            let mut h = Fnv1a32::new();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(h(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(h("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(h("foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(h32(""), 0x811c_9dc5);
        assert_eq!(h32("a"), 0xe40c_292c);
        assert_eq!(h32("foobar"), 0xbf9c_f968);
    }
}
