//! Tendons with their wrap paths, and equality constraints.

use super::{err, expect, expect_size, ids, index, index_or_none, rule, span, Adr, Check, Problem};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    ids("tendon_matid", &m.tendon_matid, m.nmat, true)?;
    let mut cursor = 0usize;
    for t in 0..m.ntendon {
        let path = span(
            ("tendon_adr", "tendon_num"),
            t,
            m.tendon_adr[t],
            i64::from(m.tendon_num[t]),
            m.nwrap,
            Adr::Always,
        )?;
        expect("tendon_adr", t, m.tendon_adr[t], cursor as i64)?;
        cursor = path.end;
        rule(
            !path.is_empty(),
            "tendon_num",
            t,
            "a tendon path cannot be empty",
        )?;
        if m.wrap_type[path.start] == WRAP_JOINT {
            fixed_path(m, path)?;
        } else {
            spatial_path(m, t, path)?;
        }
    }
    expect_size("nwrap", m.nwrap as i64, cursor as i64)
}

/// A fixed tendon is a list of joints, possibly repeated (MuJoCo's compiler accepts that; the
/// sparse Jacobian row sums the repeats, so it never needs more than its `nv` entries).
fn fixed_path(m: &Model, path: core::ops::Range<usize>) -> Check {
    for w in path {
        rule(
            m.wrap_type[w] == WRAP_JOINT,
            "wrap_type",
            w,
            "a fixed tendon contains only joints",
        )?;
        index("wrap_objid", w, m.wrap_objid[w], m.njnt)?;
    }
    Ok(())
}

/// A spatial tendon's path, as MuJoCo's compiler enforces it and the tendon stage reads it:
/// at least two elements; sites, sphere or cylinder geoms, and pulleys; a pulley neither
/// follows a pulley nor ends the path; a site has a neighbour that is not a pulley and is not
/// repeated next to itself; a geom sits between two sites, and its `wrap_prm` is a side site
/// id or -1.
fn spatial_path(m: &Model, t: usize, path: core::ops::Range<usize>) -> Check {
    rule(
        path.len() >= 2,
        "tendon_num",
        t,
        "a spatial tendon needs at least two path elements",
    )?;
    let (first, last) = (path.start, path.end - 1);
    let is = |w: usize, ty: i32| m.wrap_type[w] == ty;
    for w in path {
        let id = m.wrap_objid[w];
        match m.wrap_type[w] {
            WRAP_PULLEY => {
                expect("wrap_objid", w, id, -1)?;
                rule(
                    w == first || !is(w - 1, WRAP_PULLEY),
                    "wrap_type",
                    w,
                    "a pulley cannot follow a pulley",
                )?;
                rule(
                    w != last,
                    "wrap_type",
                    w,
                    "a tendon path cannot end with a pulley",
                )?;
            }
            WRAP_SITE => {
                index("wrap_objid", w, id, m.nsite)?;
                let alone_before = w == first || is(w - 1, WRAP_PULLEY);
                let alone_after = w == last || is(w + 1, WRAP_PULLEY);
                rule(
                    !(alone_before && alone_after),
                    "wrap_type",
                    w,
                    "a site needs a neighbour that is not a pulley",
                )?;
                rule(
                    w == last || !is(w + 1, WRAP_SITE) || m.wrap_objid[w + 1] != id,
                    "wrap_objid",
                    w,
                    "a site cannot be repeated in a tendon path",
                )?;
            }
            ty @ (WRAP_SPHERE | WRAP_CYLINDER) => {
                let g = index("wrap_objid", w, id, m.ngeom)?;
                let geom_type = if ty == WRAP_SPHERE {
                    GEOM_SPHERE
                } else {
                    GEOM_CYLINDER
                };
                expect("geom_type", g, m.geom_type[g], i64::from(geom_type))?;
                rule(
                    w != first && w != last && is(w - 1, WRAP_SITE) && is(w + 1, WRAP_SITE),
                    "wrap_type",
                    w,
                    "a wrapping geom must sit between two sites",
                )?;
                side_site(m, w)?;
            }
            WRAP_JOINT => {
                return Err(err(
                    "wrap_type",
                    w,
                    Problem::Rule("a spatial tendon cannot contain joints"),
                ))
            }
            other => return Err(err("wrap_type", w, Problem::BadEnum(i64::from(other)))),
        }
    }
    Ok(())
}

/// The side site of a geom wrap, stored as a number in `wrap_prm`: an exact integer, -1 or a
/// site id.
fn side_site(m: &Model, w: usize) -> Check {
    let prm = m.wrap_prm[w];
    let id = prm as i32; // saturating; NaN becomes 0 and fails the exactness test
                         // `as`: `Real` may be f32, which has no `From<i32>`
    #[allow(clippy::cast_lossless)]
    let exact = id as crate::Real == prm;
    if !exact {
        return Err(err(
            "wrap_prm",
            w,
            Problem::Rule("the side site of a geom wrap must be a whole number"),
        ));
    }
    index_or_none("wrap_prm", w, id, m.nsite)?;
    Ok(())
}

/// Equality constraints: type, and objects of that type (a second joint or tendon is optional).
pub(super) fn validate_equality(m: &Model) -> Check {
    for e in 0..m.neq {
        let (o1, o2) = (m.eq_obj1id[e], m.eq_obj2id[e]);
        match m.eq_type[e] {
            EQ_CONNECT | EQ_WELD => {
                index("eq_obj1id", e, o1, m.nbody)?;
                index("eq_obj2id", e, o2, m.nbody)?;
            }
            EQ_JOINT => {
                index("eq_obj1id", e, o1, m.njnt)?;
                index_or_none("eq_obj2id", e, o2, m.njnt)?;
            }
            EQ_TENDON => {
                index("eq_obj1id", e, o1, m.ntendon)?;
                index_or_none("eq_obj2id", e, o2, m.ntendon)?;
            }
            EQ_FLEX => super::flex::equality(m, e)?,
            EQ_DISTANCE => {
                return Err(err(
                    "eq_type",
                    e,
                    Problem::Rule("distance equality constraints were removed from MuJoCo"),
                ))
            }
            other => return Err(err("eq_type", e, Problem::BadEnum(i64::from(other)))),
        }
    }
    let rows: usize = m
        .eq_type
        .iter()
        .map(|&t| match t {
            EQ_CONNECT => 3,
            EQ_WELD => 7,
            _ => 1,
        })
        .sum();
    expect_size("nemax", m.nemax as i64, rows as i64)
}
