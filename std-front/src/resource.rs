//! MuJoCo's resource providers (`mjpResourceProvider`, "Resource providers" in the programming
//! guide) and the resource reader the loaders go through (`mju_openResource`, `mju_readResource`,
//! `mju_closeResource`, `mju_getResourceDir`, `mju_isModifiedResource`).
//!
//! A provider serves every resource whose name starts with its prefix and a colon: registered
//! under `"mem"`, it opens `"mem:model.xml"` and `"MEM:meshes/a.stl"`. The behaviour is MuJoCo
//! 3.1.6's (`engine_plugin.cc`, `engine_resource.c`, `user_vfs.c`):
//! * a prefix is a URI scheme: an ASCII letter, then ASCII letters, digits, `+`, `.` or `-`
//!   (`IsValidURISchemeFormat`), shorter than 1024 bytes;
//! * prefixes match without regard to ASCII case, so at most one provider serves a prefix:
//!   registering the same provider again under any case returns its slot, registering another
//!   one under a taken prefix is refused ("resource provider 'x' is already registered");
//! * a name is looked up by the text before its first `:`, which must itself be a valid scheme;
//! * the loaders look in the VFS first (MuJoCo's VFS is a provider of its own, consulted before
//!   the registry), then the provider matching the name, then the disk; a name whose prefix
//!   matches a provider never falls back to the disk;
//! * a name with a registered prefix counts as an absolute path (`mjuu_isabspath`), so asset
//!   and include directories are not put in front of it.
//!
//! The registry is append-only, as MuJoCo's: a provider stays registered for the life of the
//! process. Callbacks run without the registry's lock held (a callback may register
//! providers), and a callback that panics is reported as an error, never unwound through a
//! loader. Every resource a provider opened is closed exactly once, also when its open failed
//! (MuJoCo calls `close` then too, so a provider frees what a failed `open` kept).
//!
//! MuJoCo's names: `mjp_registerResourceProvider` is [`register_resource_provider`],
//! `mjp_getResourceProvider` [`get_resource_provider`], `mjp_getResourceProviderAtSlot`
//! [`get_resource_provider_at_slot`], `mjp_resourceProviderCount`
//! [`resource_provider_count`]; `mjp_defaultResourceProvider` (a provider without `getdir` and
//! `modified`) is the trait's provided methods. `mju_openResource` is [`open_resource`], and
//! `mju_readResource`, `mju_getResourceDir`, `mju_isModifiedResource` are methods of
//! [`OpenResource`], which closes on drop (`mju_closeResource`).
//!
//! ```
//! use std::collections::HashMap;
//! use std::sync::Arc;
//! use mjrs_std::resource::{open_resource, register_resource_provider, Resource, ResourceProvider};
//!
//! /// Files in memory, named `mem:path`.
//! struct Memory(HashMap<&'static str, &'static [u8]>);
//!
//! impl ResourceProvider for Memory {
//!     fn open(&self, r: &mut Resource) -> bool {
//!         self.0.contains_key(&r.name()[4..])
//!     }
//!     fn read<'a>(&'a self, r: &'a mut Resource) -> Option<&'a [u8]> {
//!         self.0.get(&r.name()[4..]).copied()
//!     }
//!     fn close(&self, _: &mut Resource) {}
//!     /// Relative names in a file are found beside it: `mem:` plus its directory.
//!     fn getdir(&self, r: &Resource) -> Option<String> {
//!         let end = r.name().rfind('/').map_or(4, |i| i + 1);
//!         Some(r.name()[..end].to_owned())
//!     }
//! }
//!
//! let files = HashMap::from([("parts/arm.xml", &b"<mujoco/>"[..])]);
//! register_resource_provider("mem", Arc::new(Memory(files)))?;
//! let mut arm = open_resource("MEM:parts/arm.xml", None)?;
//! assert_eq!(arm.read()?, b"<mujoco/>");
//! assert_eq!(arm.dir(), "MEM:parts/");
//! // mjrs_xml::load_xml("mem:model.xml", None) reads a model, its includes and assets so
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::any::Any;
use std::fmt;
use std::io::ErrorKind;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, PoisonError, RwLock};

use crate::Vfs;

/// The longest prefix MuJoCo stores, plus one (`kMaxNameLength`): prefixes have fewer bytes.
pub const MAX_PREFIX_LENGTH: usize = 1024;

/// A resource as a provider sees it (`mjResource`): its full name (prefix included), the
/// provider's own per-resource data, and a timestamp the provider may set in `open`.
pub struct Resource {
    name: String,
    /// What the provider keeps for this resource between `open` and `close`
    /// (`mjResource.data`); dropped with the resource, so nothing a provider stores here leaks.
    pub data: Option<Box<dyn Any + Send>>,
    /// A text the provider may set in `open` to date the contents (`mjResource.timestamp`),
    /// compared later by [`ResourceProvider::modified`].
    pub timestamp: String,
}

impl Resource {
    fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            data: None,
            timestamp: String::new(),
        }
    }

    /// The name the resource was opened with, prefix included (`mjResource.name`).
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Debug for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resource")
            .field("name", &self.name)
            .field("timestamp", &self.timestamp)
            .finish_non_exhaustive()
    }
}

/// The callbacks of a resource provider (`mjpResourceProvider`). `open`, `read` and `close` are
/// required, as MuJoCo requires them; `getdir` and `modified` default to what MuJoCo does for a
/// provider without them. The provider's own data (`mjpResourceProvider.data`) is the
/// implementing value itself.
pub trait ResourceProvider: Send + Sync {
    /// Prepares `resource` for reading; false when it cannot be served (MuJoCo's `open`
    /// returning 0). `close` is called afterwards either way.
    fn open(&self, resource: &mut Resource) -> bool;

    /// The bytes of `resource`, or `None` where MuJoCo's `read` returns a negative count.
    fn read<'a>(&'a self, resource: &'a mut Resource) -> Option<&'a [u8]>;

    /// Releases what `open` (or `read`) prepared; called once per opened resource, also when
    /// `open` failed.
    fn close(&self, resource: &mut Resource);

    /// The directory part of the resource's name, used as the directory of the files it names
    /// (the model directory of a main file, the directory of an include's includes). `None`
    /// (the default, a provider without `getdir`) is the empty directory. The text is cut at
    /// its first NUL, as MuJoCo stores it as a C string.
    fn getdir(&self, resource: &Resource) -> Option<String> {
        let _ = resource;
        None
    }

    /// 0 when the resource's contents are those `timestamp` dates, positive when they are newer
    /// (or unknown), negative when older. The default, for providers without `modified`, is 1:
    /// always modified.
    fn modified(&self, resource: &Resource, timestamp: &str) -> i32 {
        let _ = (resource, timestamp);
        1
    }
}

/// A registered provider: its prefix as it was registered and its callbacks.
#[derive(Clone)]
pub struct RegisteredProvider {
    /// The prefix, in the case it was registered with.
    pub prefix: String,
    /// The callbacks.
    pub provider: Arc<dyn ResourceProvider>,
}

impl fmt::Debug for RegisteredProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegisteredProvider")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// Why a provider was not registered. The texts are MuJoCo's: a warning for a bad prefix
/// (where `mjp_registerResourceProvider` returns -1), an error for the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterError {
    /// The prefix is not a URI scheme (or is empty).
    InvalidPrefix(String),
    /// The prefix has [`MAX_PREFIX_LENGTH`] bytes or more.
    PrefixTooLong(String),
    /// Another provider is registered under this prefix (in any case).
    AlreadyRegistered(String),
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::InvalidPrefix(p) => write!(
                f,
                "provider->prefix is '{p}' which is not a valid URI scheme format"
            ),
            RegisterError::PrefixTooLong(_) => write!(
                f,
                "provider->prefix length exceeds the maximum limit of {MAX_PREFIX_LENGTH}"
            ),
            RegisterError::AlreadyRegistered(p) => {
                write!(f, "resource provider '{p}' is already registered")
            }
        }
    }
}

impl core::error::Error for RegisterError {}

/// The registered providers, in slot order.
static REGISTRY: RwLock<Vec<RegisteredProvider>> = RwLock::new(Vec::new());

/// The registry for reading. A panic never happens while the lock is held (callbacks run
/// outside it), so a poisoned lock still holds a consistent list.
fn registry() -> std::sync::RwLockReadGuard<'static, Vec<RegisteredProvider>> {
    REGISTRY.read().unwrap_or_else(PoisonError::into_inner)
}

/// Is `prefix` a URI scheme as MuJoCo checks it (`IsValidURISchemeFormat`): an ASCII letter,
/// then ASCII letters, digits, `+`, `.` or `-`?
pub fn is_valid_prefix(prefix: &str) -> bool {
    let mut bytes = prefix.bytes();
    match bytes.next() {
        Some(first) if first.is_ascii_alphabetic() => {
            bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
        }
        _ => false,
    }
}

/// Registers `provider` for names starting with `prefix:` (`mjp_registerResourceProvider`) and
/// returns its slot, counted from 1. The same provider (the same `Arc`) registered again under
/// the prefix in any case keeps its slot.
pub fn register_resource_provider(
    prefix: &str,
    provider: Arc<dyn ResourceProvider>,
) -> Result<i32, RegisterError> {
    if !is_valid_prefix(prefix) {
        return Err(RegisterError::InvalidPrefix(prefix.to_owned()));
    }
    if prefix.len() >= MAX_PREFIX_LENGTH {
        return Err(RegisterError::PrefixTooLong(prefix.to_owned()));
    }
    let mut table = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    if let Some(i) = table
        .iter()
        .position(|p| p.prefix.eq_ignore_ascii_case(prefix))
    {
        return if Arc::ptr_eq(&table[i].provider, &provider) {
            Ok(slot_number(i))
        } else {
            Err(RegisterError::AlreadyRegistered(prefix.to_owned()))
        };
    }
    table.push(RegisteredProvider {
        prefix: prefix.to_owned(),
        provider,
    });
    Ok(slot_number(table.len() - 1))
}

/// The 1-based slot of index `i`.
fn slot_number(i: usize) -> i32 {
    i32::try_from(i + 1).unwrap_or(i32::MAX)
}

/// Number of registered providers (`mjp_resourceProviderCount`).
pub fn resource_provider_count() -> usize {
    registry().len()
}

/// The provider serving `name` (`mjp_getResourceProvider`): the one registered under the text
/// before the name's first `:`, in any case; `None` when the name has no colon or that text is
/// not a valid prefix.
pub fn get_resource_provider(name: &str) -> Option<RegisteredProvider> {
    let (prefix, _) = name.split_once(':')?;
    if !is_valid_prefix(prefix) {
        return None;
    }
    registry()
        .iter()
        .find(|p| p.prefix.eq_ignore_ascii_case(prefix))
        .cloned()
}

/// The provider in `slot`, counted from 1 (`mjp_getResourceProviderAtSlot`).
pub fn get_resource_provider_at_slot(slot: i32) -> Option<RegisteredProvider> {
    let i = usize::try_from(slot.checked_sub(1)?).ok()?;
    registry().get(i).cloned()
}

/// Why a resource could not be opened or read; the texts are MuJoCo's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceError {
    /// No provider matches the name and the disk has no such file.
    NotFound(String),
    /// The provider matching the name did not open it.
    ProviderOpen {
        /// The resource's name.
        name: String,
        /// The provider's prefix as registered.
        prefix: String,
    },
    /// The provider's `read` gave no bytes (MuJoCo's negative count).
    Read(String),
    /// A callback of the provider panicked.
    ProviderPanicked {
        /// The resource's name.
        name: String,
        /// The provider's prefix as registered.
        prefix: String,
        /// Which callback.
        callback: &'static str,
    },
    /// The disk refused the file for another reason: over MuJoCo's 2 GB limit, or more than
    /// memory holds. The text says which.
    Disk {
        /// The file's name.
        name: String,
        /// What went wrong.
        message: String,
    },
}

impl ResourceError {
    /// The resource's name.
    pub fn name(&self) -> &str {
        match self {
            ResourceError::NotFound(name)
            | ResourceError::Read(name)
            | ResourceError::ProviderOpen { name, .. }
            | ResourceError::ProviderPanicked { name, .. }
            | ResourceError::Disk { name, .. } => name,
        }
    }
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::NotFound(name) => {
                write!(
                    f,
                    "resource not found via provider or OS filesystem: '{name}'"
                )
            }
            // MuJoCo's text, without a space before "using"
            ResourceError::ProviderOpen { name, prefix } => write!(
                f,
                "could not open '{name}'using a resource provider matching prefix '{prefix}'"
            ),
            ResourceError::Read(name) => write!(f, "error reading file '{name}'"),
            ResourceError::ProviderPanicked {
                name,
                prefix,
                callback,
            } => write!(
                f,
                "resource provider '{prefix}' panicked in its {callback} callback for '{name}'"
            ),
            ResourceError::Disk { name, message } => write!(f, "{message}. File: '{name}'"),
        }
    }
}

impl core::error::Error for ResourceError {}

/// Where an open resource's bytes come from.
enum Source<'v> {
    /// A VFS file and its stamp (MuJoCo's hash of its bytes).
    Vfs(&'v [u8], u64),
    Provider(RegisteredProvider),
    /// A file read from disk and its modification time in seconds (0 when unknown).
    Disk(Vec<u8>, i64),
}

/// An open resource (`mjResource` between `mju_openResource` and `mju_closeResource`); dropping
/// it closes it.
pub struct OpenResource<'v> {
    resource: Resource,
    source: Source<'v>,
}

impl fmt::Debug for OpenResource<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = match &self.source {
            Source::Vfs(..) => "vfs".to_owned(),
            Source::Provider(p) => format!("provider '{}'", p.prefix),
            Source::Disk(..) => "disk".to_owned(),
        };
        f.debug_struct("OpenResource")
            .field("name", &self.resource.name)
            .field("from", &from)
            .finish()
    }
}

/// Runs a provider callback, turning a panic into [`ResourceError::ProviderPanicked`].
fn guarded<T>(
    p: &RegisteredProvider,
    name: &str,
    callback: &'static str,
    f: impl FnOnce() -> T,
) -> Result<T, ResourceError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| ResourceError::ProviderPanicked {
        name: name.to_owned(),
        prefix: p.prefix.clone(),
        callback,
    })
}

/// Opens `name` as MuJoCo's loaders do (`mju_openVfsResource`, then `mju_openResource`): from
/// `vfs` when it holds a file of that name (path stripped, any case), else from the provider
/// matching the name's prefix, else from disk.
pub fn open_resource<'v>(
    name: &str,
    vfs: Option<&'v Vfs>,
) -> Result<OpenResource<'v>, ResourceError> {
    if let Some(bytes) = vfs.and_then(|v| v.find(name)) {
        let stamp = vfs_stamp(bytes);
        let mut resource = Resource::new(name);
        if stamp != 0 {
            resource.timestamp = base64::encode(&stamp.to_le_bytes());
        }
        return Ok(OpenResource {
            resource,
            source: Source::Vfs(bytes, stamp),
        });
    }
    match get_resource_provider(name) {
        Some(p) => open_with_provider(name, p),
        None => open_on_disk(name),
    }
}

/// Opens `name` with provider `p`; closes it again when `open` fails.
fn open_with_provider(
    name: &str,
    p: RegisteredProvider,
) -> Result<OpenResource<'static>, ResourceError> {
    let mut opened = OpenResource {
        resource: Resource::new(name),
        source: Source::Provider(p.clone()),
    };
    let ok = guarded(&p, name, "open", || p.provider.open(&mut opened.resource))?;
    if ok {
        Ok(opened)
    } else {
        // dropping `opened` calls `close`, as MuJoCo does after a failed open
        Err(ResourceError::ProviderOpen {
            name: name.to_owned(),
            prefix: p.prefix,
        })
    }
}

/// Reads `name` from disk whole; see [`crate::read_file`] for what reads as empty.
fn open_on_disk(name: &str) -> Result<OpenResource<'static>, ResourceError> {
    let bytes = crate::read_file(name).map_err(|e| match e.kind() {
        ErrorKind::FileTooLarge | ErrorKind::OutOfMemory => ResourceError::Disk {
            name: name.to_owned(),
            message: e.to_string(),
        },
        _ => ResourceError::NotFound(name.to_owned()),
    })?;
    let mtime = modification_time(name);
    let mut resource = Resource::new(name);
    resource.timestamp = base64::encode(&mtime.to_le_bytes());
    Ok(OpenResource {
        resource,
        source: Source::Disk(bytes, mtime),
    })
}

/// The modification time of file `name` in whole seconds since 1970 (`stat`'s `st_mtime`), 0
/// when it cannot be had (as MuJoCo clears it).
fn modification_time(name: &str) -> i64 {
    let Ok(t) = std::fs::metadata(name).and_then(|m| m.modified()) else {
        return 0;
    };
    let secs = |d: std::time::Duration| i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
    match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => secs(after),
        // before 1970: st_mtime rounds toward minus infinity
        Err(e) => {
            let before = e.duration();
            let whole = secs(before);
            -whole - i64::from(before.subsec_nanos() > 0)
        }
    }
}

/// The stamp MuJoCo's VFS keeps for a file's bytes (`vfs_hash`: FNV-1's constants, with the
/// byte or-ed rather than xor-ed in, as 3.1.6 does).
fn vfs_stamp(bytes: &[u8]) -> u64 {
    use mjrs_core::hash::Fnv1a;
    let mut hash = Fnv1a::OFFSET;
    for &b in bytes {
        hash |= u64::from(b);
        hash = hash.wrapping_mul(Fnv1a::PRIME);
    }
    hash
}

/// Can `name` be opened from a provider or the disk, without a VFS (MuJoCo opens it with
/// `mju_openResource` and closes it to decide where an asset is)? On disk only regular files
/// count.
pub fn resource_exists(name: &str) -> bool {
    match get_resource_provider(name) {
        Some(p) => open_with_provider(name, p).is_ok(),
        None => std::path::Path::new(name).is_file(),
    }
}

impl OpenResource<'_> {
    /// The name it was opened with.
    pub fn name(&self) -> &str {
        &self.resource.name
    }

    /// The timestamp its provider set in `open` ("" when none did).
    pub fn timestamp(&self) -> &str {
        &self.resource.timestamp
    }

    /// Its bytes (`mju_readResource`). A provider's `read` giving `None` is
    /// [`ResourceError::Read`]; more bytes than MuJoCo's `int` count can hold are refused as a
    /// file over 2 GB is.
    pub fn read(&mut self) -> Result<&[u8], ResourceError> {
        let p = match &self.source {
            Source::Vfs(bytes, _) => return Ok(bytes),
            Source::Disk(bytes, _) => return Ok(bytes),
            Source::Provider(p) => p,
        };
        let name = self.resource.name.clone();
        let bytes = guarded(p, &name, "read", || p.provider.read(&mut self.resource))?
            .ok_or_else(|| ResourceError::Read(name.clone()))?;
        if bytes.len() as u64 > crate::MAX_FILE_BYTES {
            return Err(ResourceError::Disk {
                name,
                message: format!(
                    "File size over 2GB is not supported: {} bytes, at most {} are read",
                    bytes.len(),
                    crate::MAX_FILE_BYTES
                ),
            });
        }
        Ok(bytes)
    }

    /// Its bytes, copied.
    pub fn read_to_vec(&mut self) -> Result<Vec<u8>, ResourceError> {
        self.read().map(<[u8]>::to_vec)
    }

    /// The directory its relative names are resolved against (`mju_getResourceDir`): the name
    /// up to its last `/` or `\` for a VFS or disk file, the provider's `getdir` otherwise (""
    /// when it has none, or when it panics). Cut at the first NUL, as MuJoCo keeps a C string.
    pub fn dir(&self) -> String {
        let dir = match &self.source {
            Source::Vfs(..) | Source::Disk(..) => return dir_of(&self.resource.name).to_owned(),
            Source::Provider(p) => guarded(p, &self.resource.name, "getdir", || {
                p.provider.getdir(&self.resource)
            })
            .ok()
            .flatten()
            .unwrap_or_default(),
        };
        match dir.find('\0') {
            Some(n) => dir[..n].to_owned(),
            None => dir,
        }
    }

    /// Has the resource changed since `timestamp` (`mju_isModifiedResource`)? 0 unchanged,
    /// positive newer (or unknown), negative older. A provider's `modified` answers for its
    /// resources (1 when it panics: assumed modified). A disk file compares its modification
    /// time with the one `timestamp` encodes (the Base64 of 8 bytes, as [`Self::timestamp`]
    /// gives it), 1 for any other text. A VFS file compares the stamp of its bytes: 0 when
    /// equal, 1 when not, and MuJoCo's codes for a timestamp that is not 8 bytes of Base64 (2),
    /// a zero timestamp (3) or a file without stamp (5).
    pub fn is_modified(&self, timestamp: &str) -> i32 {
        match &self.source {
            Source::Provider(p) => guarded(p, &self.resource.name, "modified", || {
                p.provider.modified(&self.resource, timestamp)
            })
            .unwrap_or(1),
            Source::Disk(_, mtime) => match base64::decode8(timestamp) {
                Some(t) => match mtime.cmp(&i64::from_le_bytes(t)) {
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                },
                None => 1,
            },
            Source::Vfs(_, stamp) => match base64::decode8(timestamp).map(u64::from_le_bytes) {
                None => 2,
                Some(0) => 3,
                Some(_) if *stamp == 0 => 5,
                Some(t) => i32::from(t != *stamp),
            },
        }
    }
}

impl Drop for OpenResource<'_> {
    fn drop(&mut self) {
        if let Source::Provider(p) = &self.source {
            // a panicking close has nothing left to report to: the resource is gone either way
            let name = self.resource.name.clone();
            let _ = guarded(p, &name, "close", || p.provider.close(&mut self.resource));
        }
    }
}

/// The directory part of a name, with its trailing separator (`mju_dirnamelen`).
pub fn dir_of(name: &str) -> &str {
    match name.rfind(['/', '\\']) {
        Some(i) => &name[..=i],
        None => "",
    }
}

/// Base64 as MuJoCo's timestamps use it (`mju_encodeBase64`, `mju_decodeBase64`): the standard
/// alphabet with `=` padding.
mod base64 {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// `data` in Base64.
    pub fn encode(data: &[u8]) -> String {
        let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
        for chunk in data.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let k = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(char::from(TABLE[((k >> (18 - 6 * i)) & 63) as usize]));
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    /// The 8 bytes `text` encodes, or `None` when it is not the Base64 of exactly 8 bytes.
    pub fn decode8(text: &str) -> Option<[u8; 8]> {
        let t = text.as_bytes();
        // 8 bytes are 12 characters, the last one padding
        if t.len() != 12 || t[11] != b'=' {
            return None;
        }
        let mut bits: u128 = 0;
        for &c in &t[..11] {
            let v = TABLE.iter().position(|&x| x == c)?;
            bits = (bits << 6) | v as u128;
        }
        // 66 bits hold the 64 of the data and 2 zero bits of the last character
        if bits & 3 != 0 {
            return None;
        }
        Some(((bits >> 2) as u64).to_be_bytes())
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn round_trips_as_mujoco_encodes() {
            assert_eq!(encode(b""), "");
            assert_eq!(encode(b"f"), "Zg==");
            assert_eq!(encode(b"fo"), "Zm8=");
            assert_eq!(encode(b"foo"), "Zm9v");
            assert_eq!(encode(b"foobar"), "Zm9vYmFy");
            for v in [0u64, 1, u64::MAX, 0x0123_4567_89ab_cdef] {
                let text = encode(&v.to_le_bytes());
                assert_eq!(decode8(&text), Some(v.to_le_bytes()), "{text}");
            }
            for bad in [
                "",
                "Zm9v",
                "AAAAAAAAAAA",
                "AAAAAAAAAA==",
                "AAAAAAAAAA*=",
                "AAAAAAAAAAB=",
            ] {
                assert_eq!(decode8(bad), None, "{bad}");
            }
        }
    }
}
