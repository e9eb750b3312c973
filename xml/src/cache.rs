//! The compiler's asset cache, as MuJoCo keeps one per process (`mjCCache`, 500 MiB): decoded
//! OBJ meshes and PNG images are kept after a compilation, so compiling a model again (an
//! environment made many times in one process) skips parsing its large asset files.
//!
//! MuJoCo keys an entry by the file's name and trusts the file's modification time (in seconds)
//! to tell a stale entry. Here an entry also holds the file's bytes and is used only when the
//! file read now has exactly the same bytes: a file rewritten within the same second, or a VFS
//! file replaced under the same name, is decoded again. Results never depend on the cache.
//!
//! When an insertion would pass the size limit, the entries used least often (the oldest among
//! equals) are dropped first, as MuJoCo does; an asset larger than the limit is not kept.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

/// MuJoCo's default cache size (`kGlobalCacheSize`).
pub const DEFAULT_MAX_SIZE: usize = 500 << 20;

/// What an entry holds: a decoder's output for one file, by decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// `obj::load` with right-handed face order.
    Obj,
    /// A PNG decoded to grey levels.
    PngGrey,
    /// A PNG decoded to RGB.
    PngRgb,
}

struct Entry {
    source: Vec<u8>,
    value: Arc<dyn Any + Send + Sync>,
    bytes: usize,
    uses: u64,
    inserted: u64,
}

struct Cache {
    max_size: usize,
    size: usize,
    inserted: u64,
    entries: HashMap<(Kind, String), Entry>,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| {
    Mutex::new(Cache {
        max_size: DEFAULT_MAX_SIZE,
        size: 0,
        inserted: 0,
        entries: HashMap::new(),
    })
});

fn cache() -> MutexGuard<'static, Cache> {
    // a panic while holding the lock cannot leave an entry half made: recover the map
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sets the cache's size limit in bytes (0 turns the cache off), dropping entries as needed.
pub fn set_max_size(bytes: usize) {
    let mut c = cache();
    c.max_size = bytes;
    c.trim(0);
}

/// The cache's size limit in bytes.
pub fn max_size() -> usize {
    cache().max_size
}

/// Bytes held by the cache now (file bytes and decoded data).
pub fn size() -> usize {
    cache().size
}

/// Drops every entry.
pub fn clear() {
    let mut c = cache();
    c.entries.clear();
    c.size = 0;
}

impl Cache {
    /// Drops the least used entries until `extra` more bytes fit under the limit.
    fn trim(&mut self, extra: usize) {
        while self.size + extra > self.max_size {
            let Some(victim) = self
                .entries
                .iter()
                .min_by_key(|(_, e)| (e.uses, e.inserted))
                .map(|(k, _)| k.clone())
            else {
                return;
            };
            if let Some(e) = self.entries.remove(&victim) {
                self.size -= e.bytes;
            }
        }
    }
}

/// The value decoded from `source` (the bytes of file `path`) by `decode`, from the cache when
/// an entry of the same kind and name holds the same bytes. `bytes_of` estimates the memory a
/// value holds.
pub(crate) fn decoded<T, E>(
    kind: Kind,
    path: &str,
    source: &[u8],
    decode: impl FnOnce() -> Result<T, E>,
    bytes_of: impl FnOnce(&T) -> usize,
) -> Result<T, E>
where
    T: Clone + Send + Sync + 'static,
{
    let key = (kind, path.to_string());
    {
        let mut c = cache();
        if let Some(e) = c.entries.get_mut(&key) {
            if e.source == source {
                if let Some(value) = e.value.downcast_ref::<T>() {
                    e.uses += 1;
                    return Ok(value.clone());
                }
            }
        }
    }
    let value = decode()?;
    let bytes = source.len() + bytes_of(&value);
    let mut c = cache();
    if let Some(old) = c.entries.remove(&key) {
        c.size -= old.bytes;
    }
    if bytes <= c.max_size {
        c.trim(bytes);
        let inserted = c.inserted;
        c.inserted += 1;
        c.size += bytes;
        c.entries.insert(
            key,
            Entry {
                source: source.to_vec(),
                value: Arc::new(value.clone()),
                bytes,
                uses: 0,
                inserted,
            },
        );
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    // The cache is process-wide: each test uses its own file names.
    fn decode_counting(name: &str, source: &[u8], calls: &Cell<u32>) -> Result<Vec<u8>, String> {
        decoded(
            Kind::PngGrey,
            name,
            source,
            || {
                calls.set(calls.get() + 1);
                Ok::<_, String>(source.iter().map(|b| b ^ 0xff).collect())
            },
            Vec::len,
        )
    }

    #[test]
    fn same_bytes_come_from_the_cache_changed_bytes_are_decoded_again() {
        let calls = Cell::new(0);
        let a = decode_counting("cache_test_a.png", b"abc", &calls).unwrap();
        let b = decode_counting("cache_test_a.png", b"abc", &calls).unwrap();
        assert_eq!((a.clone(), calls.get()), (b, 1));
        let c = decode_counting("cache_test_a.png", b"abd", &calls).unwrap();
        assert_eq!(calls.get(), 2);
        assert_ne!(a, c);
        assert_eq!(c, b"abd".iter().map(|b| b ^ 0xff).collect::<Vec<_>>());
    }

    #[test]
    fn errors_are_not_kept() {
        let calls = Cell::new(0);
        for _ in 0..2 {
            let r: Result<u8, String> = decoded(
                Kind::Obj,
                "cache_test_error.obj",
                b"x",
                || {
                    calls.set(calls.get() + 1);
                    Err("bad".to_string())
                },
                |_| 1,
            );
            assert!(r.is_err());
        }
        assert_eq!(calls.get(), 2);
    }

    #[test]
    fn least_used_entries_go_first_when_full() {
        let mut c = Cache {
            max_size: 10,
            size: 0,
            inserted: 0,
            entries: HashMap::new(),
        };
        for (i, uses) in [(0u64, 5u64), (1, 0), (2, 5)] {
            c.entries.insert(
                (Kind::Obj, format!("f{i}")),
                Entry {
                    source: Vec::new(),
                    value: Arc::new(()),
                    bytes: 3,
                    uses,
                    inserted: i,
                },
            );
            c.size += 3;
        }
        let left = |c: &Cache| {
            let mut names: Vec<_> = c.entries.keys().map(|k| k.1.clone()).collect();
            names.sort();
            names
        };
        c.trim(4);
        assert_eq!((left(&c), c.size), (vec!["f0".to_string(), "f2".into()], 6));
        c.trim(5);
        assert_eq!((left(&c), c.size), (vec!["f2".to_string()], 3));
    }
}
