//! Objects attached to bodies: geoms, sites, cameras, lights; the bodies' bounding-volume
//! hierarchies over their geoms; contact pairs and exclusions.

use super::asset::bvh_tree;
use super::{
    enum_in, enums, err, expect, ids, index, index_or_none, rule, span, Adr, Check, Problem,
};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    geoms(m)?;
    body_geoms(m)?;
    sites(m)?;
    cameras_and_lights(m)
}

/// Geom types, their data (mesh or height field), materials and contact dimensions.
fn geoms(m: &Model) -> Check {
    ids("geom_bodyid", &m.geom_bodyid, m.nbody, false)?;
    ids("geom_matid", &m.geom_matid, m.nmat, true)?;
    for g in 0..m.ngeom {
        let ty = m.geom_type[g];
        enum_in("geom_type", g, ty, GEOM_PLANE, GEOM_SDF)?;
        let data = m.geom_dataid[g];
        match ty {
            // an SDF geom collides with planes through the mesh the compiler made of it
            GEOM_MESH | GEOM_SDF => {
                index("geom_dataid", g, data, m.nmesh)?;
            }
            GEOM_HFIELD => {
                index("geom_dataid", g, data, m.nhfield)?;
            }
            // MuJoCo keeps the mesh of a primitive fitted to a mesh in geom_dataid
            _ => {
                index_or_none("geom_dataid", g, data, m.nmesh)?;
            }
        }
        let condim = m.geom_condim[g];
        rule(
            matches!(condim, 1 | 3 | 4 | 6),
            "geom_condim",
            g,
            "contact dimension must be 1, 3, 4 or 6",
        )?;
        if ty == GEOM_PLANE {
            let weld = m.body_weldid[m.geom_bodyid[g] as usize];
            rule(
                weld == 0,
                "geom_type",
                g,
                "planes are only allowed in static bodies",
            )?;
        }
    }
    Ok(())
}

/// `body_geomadr`/`body_geomnum` partition the geoms: every geom in a body's range belongs to
/// that body, and the ranges add up to `ngeom`.
fn body_geoms(m: &Model) -> Check {
    let mut total = 0usize;
    for b in 0..m.nbody {
        let range = span(
            ("body_geomadr", "body_geomnum"),
            b,
            m.body_geomadr[b],
            i64::from(m.body_geomnum[b]),
            m.ngeom,
            Adr::NoneIffEmpty,
        )?;
        total += range.len();
        for g in range {
            expect("geom_bodyid", g, m.geom_bodyid[g], b as i64)?;
        }
    }
    super::expect_size("ngeom", m.ngeom as i64, total as i64)
}

/// Sites: body, material, and a volume type (not mesh, height field or plane).
fn sites(m: &Model) -> Check {
    ids("site_bodyid", &m.site_bodyid, m.nbody, false)?;
    ids("site_matid", &m.site_matid, m.nmat, true)?;
    for (s, &ty) in m.site_type.iter().enumerate() {
        rule(
            matches!(ty, GEOM_SPHERE..=GEOM_BOX | GEOM_SDF),
            "site_type",
            s,
            "sites are spheres, capsules, ellipsoids, cylinders or boxes",
        )?;
    }
    Ok(())
}

fn cameras_and_lights(m: &Model) -> Check {
    enums(
        "cam_mode",
        &m.cam_mode,
        CAMLIGHT_FIXED,
        CAMLIGHT_TARGETBODYCOM,
    )?;
    ids("cam_bodyid", &m.cam_bodyid, m.nbody, false)?;
    ids("cam_targetbodyid", &m.cam_targetbodyid, m.nbody, true)?;
    enums(
        "light_mode",
        &m.light_mode,
        CAMLIGHT_FIXED,
        CAMLIGHT_TARGETBODYCOM,
    )?;
    ids("light_bodyid", &m.light_bodyid, m.nbody, false)?;
    ids("light_targetbodyid", &m.light_targetbodyid, m.nbody, true)
}

/// Every body's bounding-volume hierarchy is a tree whose leaves are geoms of that body.
pub(super) fn validate_bvh(m: &Model) -> Check {
    for b in 0..m.nbody {
        let range = span(
            ("body_bvhadr", "body_bvhnum"),
            b,
            m.body_bvhadr[b],
            i64::from(m.body_bvhnum[b]),
            m.nbvhstatic,
            Adr::NoneIffEmpty,
        )?;
        bvh_tree(m, ("body_bvhnum", b), range, |g| {
            usize::try_from(g)
                .ok()
                .filter(|&g| g < m.ngeom && m.geom_bodyid[g] as usize == b)
                .is_some()
        })?;
    }
    Ok(())
}

/// Contact pairs (geoms, dimension, body signature, sorted) and excluded body pairs.
pub(super) fn validate_pairs(m: &Model) -> Check {
    let mut last = 0u32;
    for p in 0..m.npair {
        let g1 = index("pair_geom1", p, m.pair_geom1[p], m.ngeom)?;
        let g2 = index("pair_geom2", p, m.pair_geom2[p], m.ngeom)?;
        rule(
            matches!(m.pair_dim[p], 1 | 3 | 4 | 6),
            "pair_dim",
            p,
            "contact dimension must be 1, 3, 4 or 6",
        )?;
        let (b1, b2) = (m.geom_bodyid[g1], m.geom_bodyid[g2]);
        rule(
            b1 <= b2,
            "pair_geom1",
            p,
            "the body of geom1 must not come after the body of geom2",
        )?;
        let sig = signature(b1 as u32, b2 as u32);
        expect(
            "pair_signature",
            p,
            m.pair_signature[p],
            i64::from(sig as i32),
        )?;
        rule(
            sig >= last,
            "pair_signature",
            p,
            "pairs must be sorted by signature",
        )?;
        last = sig;
    }
    let mut last = 0u32;
    for e in 0..m.nexclude {
        let sig = m.exclude_signature[e] as u32;
        let (b1, b2) = (sig >> 16, sig & 0xFFFF);
        for b in [b1, b2] {
            if b as usize >= m.nbody {
                return Err(err(
                    "exclude_signature",
                    e,
                    Problem::Rule("refers to a body that does not exist"),
                ));
            }
        }
        rule(
            b1 <= b2,
            "exclude_signature",
            e,
            "the first body must not come after the second",
        )?;
        rule(
            sig >= last,
            "exclude_signature",
            e,
            "excludes must be sorted by signature",
        )?;
        last = sig;
    }
    Ok(())
}

/// MuJoCo's body-pair signature: body ids packed in 16 bits each (wrapping, as MuJoCo's `int`
/// arithmetic, for ids beyond 65535).
fn signature(b1: u32, b2: u32) -> u32 {
    (b1 << 16).wrapping_add(b2)
}
