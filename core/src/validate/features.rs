//! The optional parts of the core (Cargo features, on by default): a build that leaves one out
//! refuses here the models that need it, so no stage meets them. Runs after the geoms and pairs
//! are checked (it reads their types and ids).

use super::{err, err_size, Check, Problem};
use crate::collision::missing_feature;
use crate::types::*;
use crate::Model;

/// Every optional part `m` needs is in this build.
pub(super) fn validate(m: &Model) -> Check {
    require(cfg!(feature = "flex") || m.nflex == 0, "nflex", "flex")?;
    require(
        cfg!(feature = "sensor") || m.nsensor == 0,
        "nsensor",
        "sensor",
    )?;
    let implicit = matches!(m.opt.integrator, INT_IMPLICIT | INT_IMPLICITFAST);
    require(
        cfg!(feature = "implicit") || !implicit,
        "opt.integrator",
        "implicit",
    )?;
    collisions(m)
}

/// Size or option `field` may only be used with `feature`: `ok` when it is not or the build
/// has it.
fn require(ok: bool, field: &'static str, feature: &'static str) -> Check {
    if ok {
        Ok(())
    } else {
        Err(err_size(field, Problem::NeedsFeature(feature)))
    }
}

/// Geoms that may collide need `collision`, and each pair of their types the family of its
/// collider. A geom may collide when its contype or conaffinity is set or an explicit pair
/// names it; without `collision`, no two bodies or flexes may match by contype/conaffinity.
fn collisions(m: &Model) -> Check {
    if !cfg!(feature = "collision") {
        require(m.npair == 0, "npair", "collision")?;
        let (contype, conaffinity) = bitmask_union(m);
        return require(contype & conaffinity == 0, "geom_contype", "collision");
    }
    // a geom of each type that may collide: its contype or conaffinity is set or an explicit
    // pair names it (a user's contact filter may pass others: the collision table refuses those)
    let mut of_type = [None; NGEOMTYPES as usize];
    let bitmask = (0..m.ngeom).filter(|&g| m.geom_contype[g] != 0 || m.geom_conaffinity[g] != 0);
    let paired = (0..m.npair).flat_map(|p| [m.pair_geom1[p] as usize, m.pair_geom2[p] as usize]);
    for g in bitmask.chain(paired) {
        of_type[m.geom_type[g] as usize].get_or_insert(g);
    }
    for (t1, g1) in of_type.iter().enumerate() {
        for (t2, g2) in of_type.iter().enumerate().skip(t1) {
            if let (Some(_), Some(g2)) = (g1, g2) {
                if let Some(feature) = missing_feature(t1, t2) {
                    return Err(err("geom_type", *g2, Problem::NeedsFeature(feature)));
                }
            }
        }
    }
    Ok(())
}

/// The union of the contype and of the conaffinity bits of every geom and flex: when they
/// share no bit, no two objects pass the contype/conaffinity filter.
fn bitmask_union(m: &Model) -> (i32, i32) {
    let contype = m.geom_contype.iter().chain(m.flex_contype.iter());
    let conaffinity = m.geom_conaffinity.iter().chain(m.flex_conaffinity.iter());
    (
        contype.fold(0, |acc, &b| acc | b),
        conaffinity.fold(0, |acc, &b| acc | b),
    )
}
