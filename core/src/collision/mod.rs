//! Collision detection (MuJoCo's `engine_collision_driver.c`, "Computation › Collision
//! detection"): [`collision`] fills the contact array at the bottom of the arena.
//!
//! * Broad phase: sweep-and-prune over the bounding boxes of the bodies and flexes (MuJoCo's
//!   "bodyflex" ids: bodies, then flex `f` as `nbody + f`), in a frame aligned with the
//!   principal axes of the geom and flex vertex positions, plus every pair with the world's
//!   geoms and planes.
//!   Body pairs are filtered by contype/conaffinity, welding, parent-child (unless
//!   `DSBL_FILTERPARENT`) and `<exclude>`, and merged with the explicit `<pair>`s.
//! * Midphase: bodies with several geoms and flexes collide their bounding-volume hierarchies
//!   (a flex's boxes are recomputed each step in `bvh_aabb_dyn`).
//! * Narrow phase: one function per pair of geom types, from the const table
//!   [`COLLISION_FUNC`]; [`primitive`] and [`boxes`] hold the analytic pairs, [`convex`] the
//!   general convex ones (MPR), planes against meshes and height fields.
//! * Flexes (`flex`): planes meet a flex's vertices, other geoms its elements (capsules,
//!   triangles, tetrahedra thickened by the flex radius) through the primitive colliders, the
//!   height field prisms or MPR, elements meet elements; a flex collides with itself by its
//!   `selfcollide` mode and `internal` flag. Contacts name the flex, element and vertex of each
//!   side.
//!
//! The stages sit in one file each: `driver` (`mj_collision`: the walk over the body pairs),
//! `sap` (broad phase: sweep and prune and its sorts; the fast build's `all_pairs` tests every
//! pair of a few bodies instead), `filter` (the pair filters), `bv` (midphase: bounding-volume
//! hierarchies and box overlap), `narrow` (one geom pair: `mj_collideGeoms`,
//! `mj_geomDistance`), `flex` (flex elements and vertices) and `contact` (the contact's
//! parameters).
//!
//! The colliders come in families, each a Cargo feature on by default (`collision`: the driver
//! and the primitive colliders; `collision-box`, `collision-convex`, `collision-sdf`): a build
//! without one has the family's refusal in the table, and validation refuses the models whose
//! geoms would reach it (`validate::features`).
//!
//! Geom pairs found by the broad phase (not explicit `<pair>`s) pass the user's contact filter
//! (`Callbacks::contactfilter`, MuJoCo's `mjcb_contactfilter`) instead of the contype/conaffinity
//! test when one is set.

#[cfg(feature = "fast")]
mod all_pairs;
pub mod boxes;
mod bv;
mod contact;
pub mod convex;
mod driver;
mod filter;
mod flex;
mod narrow;
pub mod primitive;
mod sap;
pub mod sdf;

pub use driver::collision;
pub use narrow::geom_distance;

use crate::arena::{Arena, ArenaError, Reservation};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::{v3, v9};
use crate::types::*;

/// A narrow-phase collision function (MuJoCo's `mjfCollision`): writes the contacts between
/// geoms `g1` and `g2` (types in increasing order) within `margin` to the front of the buffer,
/// which holds [`MAXCONPAIR`] contacts, and returns how many. It sets `dist`, `pos` and the
/// normal in `frame[0..3]` (from geom 1 to geom 2), with `frame[3..6]` a tangent or zero; the
/// driver sets the rest.
pub type Collider =
    fn(&Model, &Data, &mut [Contact], usize, usize, Real) -> Result<usize, StepError>;

const NTYPES: usize = NGEOMTYPES as usize;

/// The family of a collider: the Cargo feature that builds it in (`collision` holds the driver
/// and the primitive colliders, which every other family needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Primitive,
    Box,
    Convex,
    Sdf,
}

impl Family {
    /// The Cargo feature of the family.
    pub(crate) const fn feature(self) -> &'static str {
        match self {
            Family::Primitive => "collision",
            Family::Box => "collision-box",
            Family::Convex => "collision-convex",
            Family::Sdf => "collision-sdf",
        }
    }

    /// Whether this build holds the family's colliders.
    pub(crate) const fn built(self) -> bool {
        match self {
            Family::Primitive => cfg!(feature = "collision"),
            Family::Box => cfg!(feature = "collision-box"),
            Family::Convex => cfg!(feature = "collision-convex"),
            Family::Sdf => cfg!(feature = "collision-sdf"),
        }
    }

    /// What the table holds for a collider of the family when the build leaves it out: an
    /// error naming the feature. Validation refuses the models that would reach it
    /// (`validate::features`); a user's contact filter that lets other geoms collide meets it.
    const fn refusal(self) -> Collider {
        fn refuse<const F: u8>(
            _: &Model,
            _: &Data,
            _: &mut [Contact],
            _: usize,
            _: usize,
            _: Real,
        ) -> Result<usize, StepError> {
            Err(StepError::Rejected(match F {
                0 => "this collision needs the mjrs-core feature `collision`",
                1 => "this collision needs the mjrs-core feature `collision-box`",
                2 => "this collision needs the mjrs-core feature `collision-convex`",
                _ => "this collision needs the mjrs-core feature `collision-sdf`",
            }))
        }
        match self {
            Family::Primitive => refuse::<0>,
            Family::Box => refuse::<1>,
            Family::Convex => refuse::<2>,
            Family::Sdf => refuse::<3>,
        }
    }
}

/// A table entry: a collider and its family.
type Entry = Option<(Family, Collider)>;

/// The collider of each pair of geom types with its family (`mjCOLLISIONFUNC`), indexed
/// `[type1][type2]` with `type1 <= type2`; `None`: the pair never collides.
#[rustfmt::skip]
const COLLIDERS: [[Entry; NTYPES]; NTYPES] = {
    use boxes::{box_box, capsule_box, sphere_box};
    use convex::{convex as cvx, convex_hfield as chf, plane_convex as pcv};
    use primitive::*;
    use sdf::{hfield_sdf as hsd, mesh_sdf as msd, sdf_sdf as sdf};
    use Family::{Box as B, Convex as C, Primitive as P, Sdf as S};
    const N: Entry = None;
    const fn c(family: Family, f: Collider) -> Entry {
        Some((family, f))
    }
    [
        //              plane, hfield, sphere, capsule, ellipsoid, cylinder, box, mesh, sdf
        /* plane     */ [N, N, c(P, plane_sphere),  c(P, plane_capsule),   c(C, pcv), c(P, plane_cylinder),  c(P, plane_box),   c(C, pcv), c(C, pcv)],
        /* hfield    */ [N, N, c(C, chf),           c(C, chf),             c(C, chf), c(C, chf),             c(C, chf),         c(C, chf), c(S, hsd)],
        /* sphere    */ [N, N, c(P, sphere_sphere), c(P, sphere_capsule),  c(C, cvx), c(P, sphere_cylinder), c(B, sphere_box),  c(C, cvx), c(S, sdf)],
        /* capsule   */ [N, N, N,                   c(P, capsule_capsule), c(C, cvx), c(C, cvx),             c(B, capsule_box), c(C, cvx), c(S, sdf)],
        /* ellipsoid */ [N, N, N,                   N,                     c(C, cvx), c(C, cvx),             c(C, cvx),         c(C, cvx), c(S, sdf)],
        /* cylinder  */ [N, N, N,                   N,                     N,         c(C, cvx),             c(C, cvx),         c(C, cvx), c(S, sdf)],
        /* box       */ [N, N, N,                   N,                     N,         N,                     c(B, box_box),     c(C, cvx), c(S, sdf)],
        /* mesh      */ [N, N, N,                   N,                     N,         N,                     N,                 c(C, cvx), c(S, msd)],
        /* sdf       */ [N, N, N,                   N,                     N,         N,                     N,                 N,         c(S, sdf)],
    ]
};

/// What this build calls for each pair of geom types and the family of each entry, derived
/// from [`COLLIDERS`] in one pass: a collider whose family the build leaves out becomes its
/// family's refusal, so its code is not linked.
type Tables = (
    [[Option<Collider>; NTYPES]; NTYPES],
    [[Option<Family>; NTYPES]; NTYPES],
);
const TABLES: Tables = {
    let mut tables: Tables = ([[None; NTYPES]; NTYPES], [[None; NTYPES]; NTYPES]);
    let mut t1 = 0;
    while t1 < NTYPES {
        let mut t2 = 0;
        while t2 < NTYPES {
            if let Some((family, f)) = COLLIDERS[t1][t2] {
                tables.0[t1][t2] = Some(if family.built() { f } else { family.refusal() });
                tables.1[t1][t2] = Some(family);
            }
            t2 += 1;
        }
        t1 += 1;
    }
    tables
};

/// The collider of each pair of geom types that this build calls (`mjCOLLISIONFUNC`), indexed
/// `[type1][type2]` with `type1 <= type2`; `None`: the pair never collides.
pub const COLLISION_FUNC: [[Option<Collider>; NTYPES]; NTYPES] = TABLES.0;

/// The collider of geom types `t1 <= t2` ([`COLLISION_FUNC`]), or `None` for a pair that never
/// collides or a type out of range.
#[inline(always)]
pub(crate) fn collider(t1: usize, t2: usize) -> Option<Collider> {
    COLLISION_FUNC.get(t1)?.get(t2).copied().flatten()
}

/// The family of each table entry, without the colliders (a runtime read of [`COLLIDERS`]
/// would link every collider; this constant's value holds no function).
const FAMILY_OF: [[Option<Family>; NTYPES]; NTYPES] = TABLES.1;

/// The feature a pair of geom types (in either order) needs to collide and this build leaves
/// out, if any.
pub(crate) fn missing_feature(t1: usize, t2: usize) -> Option<&'static str> {
    let (t1, t2) = (t1.min(t2), t1.max(t2));
    match FAMILY_OF.get(t1)?.get(t2)? {
        Some(family) if !family.built() => Some(family.feature()),
        _ => None,
    }
}

/// Position, orientation and size of a geom: what MuJoCo's colliders read (`mjGETINFO`) and
/// what its `mjraw_*` variants take.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Position (`geom_xpos`).
    pub pos: [Real; 3],
    /// Orientation (`geom_xmat`).
    pub mat: [Real; 9],
    /// Size parameters (`geom_size`).
    pub size: [Real; 3],
}

/// The bound under which the colliders treat a rounding-prone quantity of size `scale` as zero
/// (the determinant of parallel axes, the radial direction of a disk parallel to a plane):
/// MuJoCo's `mjMINVAL` in double precision. Exactly degenerate configurations keep about
/// `ε scale` of rounding in single precision, where the bound is therefore `64 ε scale`;
/// otherwise they would be treated as generic, with contacts placed by rounding noise.
pub(crate) fn degenerate_bound(scale: Real) -> Real {
    if cfg!(feature = "f32") {
        MINVAL.max(64.0 * crate::real::EPSILON * scale)
    } else {
        MINVAL
    }
}

impl Shape {
    /// The current pose and size of geom `g`.
    pub fn of(m: &Model, d: &Data, g: usize) -> Self {
        Self {
            pos: v3(d.geom_xpos)[g],
            mat: v9(d.geom_xmat)[g],
            size: v3(&m.geom_size)[g],
        }
    }

    /// This shape, borrowed (what the `raw_*` colliders take).
    pub(crate) fn view(&self) -> ShapeRef<'_> {
        ShapeRef {
            pos: &self.pos,
            mat: &self.mat,
            size: &self.size,
        }
    }
}

/// A [`Shape`] borrowed rather than copied: what the colliders read a geom's pose through
/// ([`ShapeRef::of`]) and what the `raw_*` colliders take, so that a collider that moves a shape
/// (a capsule's end sphere) makes one new position instead of a copy of the whole shape.
#[derive(Clone, Copy)]
pub(crate) struct ShapeRef<'a> {
    pub(crate) pos: &'a [Real; 3],
    pub(crate) mat: &'a [Real; 9],
    pub(crate) size: &'a [Real; 3],
}

impl<'a> ShapeRef<'a> {
    /// The current pose and size of geom `g`.
    pub(crate) fn of(m: &'a Model, d: &'a Data, g: usize) -> Self {
        Self {
            pos: &v3(d.geom_xpos)[g],
            mat: &v9(d.geom_xmat)[g],
            size: &v3(&m.geom_size)[g],
        }
    }
}

/// The geoms of body `b`.
#[inline]
fn body_geoms(m: &Model, b: usize) -> core::ops::Range<usize> {
    let start = m.body_geomadr[b].max(0) as usize;
    start..start + m.body_geomnum[b].max(0) as usize
}

// ------------------------------------------------------------------------------------------------
// scratch in the arena

/// Where MuJoCo calls `mj_markStack`, which keeps a 16-byte record on the stack: reserving as
/// much leaves the same room for contacts as in MuJoCo, so that a full arena drops the same
/// contacts. Releasing the returned reservation frees everything reserved after it.
fn mark_stack(arena: &mut Arena) -> Result<Reservation, ArenaError> {
    arena.reserve::<u64>(2)
}

/// Entries of the stack buffers through which the pair lists are copied and read (they live in
/// the arena, which colliding writes to): small, because zeroing the buffer is paid per step
/// and most models have a few dozen pairs.
const PAIR_BLOCK: usize = 16;

/// The `n` values of `u32` reserved by `r`.
fn reserved_u32<'x>(
    arena: &'x mut Arena,
    r: &Reservation,
    n: usize,
) -> Result<&'x mut [u32], StepError> {
    let s = arena.reserved::<u32>(r, n);
    if s.len() == n {
        Ok(s)
    } else {
        Err(StepError::Arena(ArenaError::SizeOverflow))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_upper_triangular_and_planes_do_not_collide_with_planes() {
        for (t1, row) in COLLISION_FUNC.iter().enumerate() {
            for (t2, entry) in row.iter().enumerate() {
                if t2 < t1 {
                    assert!(entry.is_none(), "entry below the diagonal at {t1}, {t2}");
                }
            }
        }
        let (plane, hfield) = (GEOM_PLANE as usize, GEOM_HFIELD as usize);
        assert!(COLLISION_FUNC[plane][plane].is_none());
        assert!(COLLISION_FUNC[plane][hfield].is_none());
        assert!(COLLISION_FUNC[hfield][hfield].is_none());
    }
}
