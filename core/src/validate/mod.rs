//! Model validation: every size, index and address a pipeline stage relies on, checked once
//! when a model is loaded, so that stages can index freely afterwards.
//!
//! [`validate`] is the boundary of "validate at the boundary": a [`Model`] that passes is safe
//! to simulate. Every id is either -1 where MuJoCo allows "none" or inside its target array,
//! every `adr`/`num` pair stays inside its target array, and every array the compiler derives
//! from the kinematic tree (`body_rootid`, `dof_parentid`, `dof_Madr`, `nM`, `nB`, ...) is
//! recomputed and compared, so the sparse mass matrix and the `D_*`/`B_*` structures that
//! `Data` builds from them fit their arrays exactly.
//!
//! Floating-point contents are not checked (a NaN parameter makes NaN physics, which the
//! pipeline detects as MuJoCo does), except where a float is used as an index or a count
//! (`wrap_prm` of a geom wrap holds a side-site id; `body_gravcomp` decides `ngravcomp`).
//!
//! Plugin instances must name registered plugins ([`crate::plugin`]), which check their
//! instances themselves. [`Problem::Unsupported`] is kept for features a pipeline stage may
//! refuse at load time.
//!
//! The checks are split by model area, in the order [`validate`] runs them; a later area may
//! index with ids an earlier one has checked. Every check is O(model size), apart from `nB`,
//! whose recomputation walks the ancestors of every body with dofs (as MuJoCo's own
//! `makeBSparse` does) and stops as soon as the count exceeds the stored `nB`.

mod actuator;
mod asset;
mod custom;
mod features;
mod flex;
mod geom;
mod global;
mod plugin;
mod sensor;
mod tendon;
mod tree;

use crate::Model;

/// A model inconsistency found by [`validate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ValidationError {
    /// The array (or size, or option) holding the bad value.
    pub field: &'static str,
    /// Index of the bad element; `None` for sizes and options.
    pub index: Option<usize>,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with a value, in a [`ValidationError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Problem {
    /// The value differs from the one the rest of the model implies.
    Expected {
        /// What the rest of the model implies.
        expected: i64,
        /// What the model holds.
        found: i64,
    },
    /// An id, index or count outside `min..end`.
    OutOfRange {
        /// The value.
        found: i64,
        /// Smallest allowed value.
        min: i64,
        /// One past the largest allowed value.
        end: i64,
    },
    /// An `adr`/`num` pair reaching past the end of its target array.
    Span {
        /// Start address.
        adr: i64,
        /// Number of elements.
        num: i64,
        /// Length of the target array.
        len: i64,
    },
    /// A value that is not one of the allowed enumeration values.
    BadEnum(i64),
    /// A structural rule of MuJoCo's models is broken; the text says which.
    Rule(&'static str),
    /// The model uses a feature mjrs does not implement; the text names it.
    Unsupported(&'static str),
    /// No plugin is registered at the slot a plugin instance names.
    NotRegistered {
        /// The slot.
        slot: i64,
        /// The first-party plugin that belongs there, if any.
        name: Option<&'static str>,
    },
    /// The plugin refused its instance (MuJoCo's `init` failing); the text is the plugin's.
    Plugin(&'static str),
    /// The model needs a part of the core that this build leaves out; the text names its
    /// Cargo feature of `mjrs-core`.
    NeedsFeature(&'static str),
}

impl core::fmt::Display for Problem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Problem::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            Problem::OutOfRange { found, min, end } => {
                write!(f, "{found} is outside the valid range {min}..{end}")
            }
            Problem::Span { adr, num, len } => {
                write!(
                    f,
                    "range {adr}..{adr}+{num} exceeds the {len} elements available"
                )
            }
            Problem::BadEnum(v) => write!(f, "invalid value {v}"),
            Problem::Rule(rule) => f.write_str(rule),
            Problem::Unsupported(what) => write!(f, "{what} are not supported by mjrs"),
            Problem::NotRegistered {
                slot,
                name: Some(name),
            } => {
                write!(f, "plugin slot {slot} ({name}) is not registered")
            }
            Problem::NotRegistered { slot, name: None } => {
                write!(f, "no plugin is registered at slot {slot}")
            }
            Problem::Plugin(text) => f.write_str(text),
            Problem::NeedsFeature(feature) => write!(
                f,
                "needs the mjrs-core feature `{feature}`, which this build leaves out"
            ),
        }
    }
}

impl core::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}[{}]: {}", self.field, i, self.problem),
            None => write!(f, "{}: {}", self.field, self.problem),
        }
    }
}

impl core::error::Error for ValidationError {}

/// Result of one check.
type Check = Result<(), ValidationError>;

/// Checks `m`: every size, id, address and derived structure a pipeline stage relies on.
/// After `Ok`, every stage may index the model's arrays with the stored ids and addresses.
pub fn validate(m: &Model) -> Check {
    global::validate(m)?;
    tree::validate(m)?;
    geom::validate(m)?;
    asset::validate(m)?;
    geom::validate_bvh(m)?;
    flex::validate(m)?;
    geom::validate_pairs(m)?;
    features::validate(m)?;
    tendon::validate(m)?;
    tendon::validate_equality(m)?;
    plugin::validate(m)?;
    actuator::validate(m)?;
    sensor::validate(m)?;
    custom::validate(m)?;
    plugin::init(m)
}

// ---------------------------------------------------------------------------------------------
// helpers shared by the areas

/// An error about element `index` of `field`.
fn err(field: &'static str, index: usize, problem: Problem) -> ValidationError {
    ValidationError {
        field,
        index: Some(index),
        problem,
    }
}

/// An error about a size or option `field`.
fn err_size(field: &'static str, problem: Problem) -> ValidationError {
    ValidationError {
        field,
        index: None,
        problem,
    }
}

/// `field[index]` must equal `expected`.
fn expect(field: &'static str, index: usize, found: impl Into<i64>, expected: i64) -> Check {
    let found = found.into();
    if found == expected {
        Ok(())
    } else {
        Err(err(field, index, Problem::Expected { expected, found }))
    }
}

/// Size or option `field` must equal `expected`.
fn expect_size(field: &'static str, found: i64, expected: i64) -> Check {
    if found == expected {
        Ok(())
    } else {
        Err(err_size(field, Problem::Expected { expected, found }))
    }
}

/// `field[index]` must hold a rule that `ok` says holds.
fn rule(ok: bool, field: &'static str, index: usize, text: &'static str) -> Check {
    if ok {
        Ok(())
    } else {
        Err(err(field, index, Problem::Rule(text)))
    }
}

/// `v` (element `index` of `field`) as an index into an array of `n` elements.
fn index(field: &'static str, index: usize, v: i32, n: usize) -> Result<usize, ValidationError> {
    match usize::try_from(v) {
        Ok(u) if u < n => Ok(u),
        _ => Err(err(field, index, out_of_range(v, 0, n))),
    }
}

/// Like [`index`], with -1 accepted as "none".
fn index_or_none(
    field: &'static str,
    i: usize,
    v: i32,
    n: usize,
) -> Result<Option<usize>, ValidationError> {
    if v == -1 {
        Ok(None)
    } else {
        match usize::try_from(v) {
            Ok(u) if u < n => Ok(Some(u)),
            _ => Err(err(field, i, out_of_range(v, -1, n))),
        }
    }
}

fn out_of_range(v: i32, min: i64, n: usize) -> Problem {
    Problem::OutOfRange {
        found: i64::from(v),
        min,
        end: n as i64,
    }
}

/// Whether every element of `values` is in `0..n` (`-1..n` when `none_ok`), in one pass
/// without early exit, which the compiler vectorizes: the fast path for a valid model, whose
/// index arrays (mesh faces above all) may be megabytes. The element checks that name the
/// first bad value run only when this says no.
fn all_in_range(values: &[i32], n: usize, none_ok: bool) -> bool {
    // shifted by one when -1 is allowed, every valid value is a small non-negative number and
    // every invalid one, negative ones included, a u32 at or above the limit
    let shift = i32::from(none_ok);
    let limit = n as u64 + shift as u64;
    let max = values.iter().map(|&v| v.wrapping_add(shift) as u32).max();
    max.is_none_or(|max| u64::from(max) < limit)
}

/// Every element of `ids` indexes an array of `n` (or is -1 when `none_ok`).
fn ids(field: &'static str, ids: &[i32], n: usize, none_ok: bool) -> Check {
    if all_in_range(ids, n, none_ok) {
        return Ok(());
    }
    for (i, &v) in ids.iter().enumerate() {
        if none_ok {
            index_or_none(field, i, v, n)?;
        } else {
            index(field, i, v, n)?;
        }
    }
    Ok(())
}

/// Every element of `field` is `lo..=hi`.
fn enums(field: &'static str, values: &[i32], lo: i32, hi: i32) -> Check {
    for (i, &v) in values.iter().enumerate() {
        enum_in(field, i, v, lo, hi)?;
    }
    Ok(())
}

/// `v` (element `i` of `field`) is `lo..=hi`.
fn enum_in(field: &'static str, i: usize, v: i32, lo: i32, hi: i32) -> Check {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(err(field, i, Problem::BadEnum(i64::from(v))))
    }
}

/// How an `adr` field may say "none".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Adr {
    /// Always an address (it may equal the target length when `num` is 0).
    Always,
    /// -1 exactly when `num` is 0, as the compiler writes it.
    NoneIffEmpty,
}

/// The pair `adr_field[i]`, `num_field[i]` as a range inside an array of `n` elements.
fn span(
    (adr_field, num_field): (&'static str, &'static str),
    i: usize,
    adr: i32,
    num: i64,
    n: usize,
    none: Adr,
) -> Result<core::ops::Range<usize>, ValidationError> {
    if num < 0 {
        return Err(err(
            num_field,
            i,
            Problem::OutOfRange {
                found: num,
                min: 0,
                end: n as i64 + 1,
            },
        ));
    }
    if adr == -1 && none != Adr::Always {
        return if num == 0 {
            Ok(0..0)
        } else {
            Err(err(
                adr_field,
                i,
                Problem::Rule("is -1 but the matching count is not 0"),
            ))
        };
    }
    if none == Adr::NoneIffEmpty && num == 0 {
        return Err(err(
            adr_field,
            i,
            Problem::Rule("must be -1 when the count is 0"),
        ));
    }
    let start = usize::try_from(adr).map_err(|_| err(adr_field, i, out_of_range(adr, 0, n)))?;
    let end = (start as u64).saturating_add(num as u64);
    if end > n as u64 {
        return Err(err(
            adr_field,
            i,
            Problem::Span {
                adr: i64::from(adr),
                num,
                len: n as i64,
            },
        ));
    }
    Ok(start..end as usize)
}

/// Every `adr`/`num` pair of a table inside an array of `n` elements.
fn spans(
    fields: (&'static str, &'static str),
    adrs: &[i32],
    nums: &[i32],
    n: usize,
    none: Adr,
) -> Check {
    for (i, (&adr, &num)) in adrs.iter().zip(nums).enumerate() {
        span(fields, i, adr, i64::from(num), n, none)?;
    }
    Ok(())
}

/// Number of objects of MuJoCo object type `objtype` (`mjtObj`), `None` for `OBJ_UNKNOWN`,
/// `OBJ_FRAME` and values that are no object type.
fn object_count(m: &Model, objtype: i32) -> Option<usize> {
    use crate::types::*;
    Some(match objtype {
        OBJ_BODY | OBJ_XBODY => m.nbody,
        OBJ_JOINT => m.njnt,
        OBJ_DOF => m.nv,
        OBJ_GEOM => m.ngeom,
        OBJ_SITE => m.nsite,
        OBJ_CAMERA => m.ncam,
        OBJ_LIGHT => m.nlight,
        OBJ_FLEX => m.nflex,
        OBJ_MESH => m.nmesh,
        OBJ_SKIN => m.nskin,
        OBJ_HFIELD => m.nhfield,
        OBJ_TEXTURE => m.ntex,
        OBJ_MATERIAL => m.nmat,
        OBJ_PAIR => m.npair,
        OBJ_EXCLUDE => m.nexclude,
        OBJ_EQUALITY => m.neq,
        OBJ_TENDON => m.ntendon,
        OBJ_ACTUATOR => m.nu,
        OBJ_SENSOR => m.nsensor,
        OBJ_NUMERIC => m.nnumeric,
        OBJ_TEXT => m.ntext,
        OBJ_TUPLE => m.ntuple,
        OBJ_KEY => m.nkey,
        OBJ_PLUGIN => m.nplugin,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
