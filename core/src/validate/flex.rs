//! Flexes: their slices of the flex arrays, the vertex and element ids stored in them, the
//! bodies the vertices move with, and the dynamic bounding-volume hierarchies over their
//! elements.
//!
//! The compiler lays flexes out one after the other in every flex array, so each address is
//! the running sum of the counts before it; checking exactly that layout keeps the slices of
//! two flexes apart and inside their arrays. Vertex ids in `flex_edge`, `flex_elem`,
//! `flex_shell` and `flex_evpair` are local to their flex, element ids in `bvh_nodeid` and
//! `flex_evpair` likewise.

use super::asset::bvh_tree;
use super::{
    enum_in, enums, err, expect, expect_size, ids, index, index_or_none, rule, span, Adr, Check,
    Problem, ValidationError,
};
use crate::types::{FLEXSELF_AUTO, FLEXSELF_NONE};
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    ids("flex_vertbodyid", &m.flex_vertbodyid, m.nbody, false)?;
    ids("flex_matid", &m.flex_matid, m.nmat, true)?;
    for (f, &condim) in m.flex_condim.iter().enumerate() {
        rule(
            matches!(condim, 1 | 3 | 4 | 6),
            "flex_condim",
            f,
            "contact dimension must be 1, 3, 4 or 6",
        )?;
    }
    enums(
        "flex_selfcollide",
        &m.flex_selfcollide,
        FLEXSELF_NONE,
        FLEXSELF_AUTO,
    )?;
    layout(m)?;
    for f in 0..m.nflex {
        contents(m, f)?;
        hierarchy(m, f)?;
    }
    Ok(())
}

/// Running totals of the flex layout.
#[derive(Default)]
struct Totals {
    vert: u64,
    edge: u64,
    elem: u64,
    elemdata: u64,
    shelldata: u64,
    evpair: u64,
    texcoord: u64,
    bvh: u64,
}

/// Addresses are running sums of counts; the totals are the model's sizes.
fn layout(m: &Model) -> Check {
    let mut t = Totals::default();
    for f in 0..m.nflex {
        let dim = m.flex_dim[f];
        enum_in("flex_dim", f, dim, 1, 3)?;
        let dim = dim as u64;
        let count = |field, v: i32| -> Result<u64, ValidationError> {
            u64::try_from(v).map_err(|_| {
                err(
                    field,
                    f,
                    Problem::OutOfRange {
                        found: i64::from(v),
                        min: 0,
                        end: i64::from(i32::MAX),
                    },
                )
            })
        };
        let vertnum = count("flex_vertnum", m.flex_vertnum[f])?;
        let edgenum = count("flex_edgenum", m.flex_edgenum[f])?;
        let elemnum = count("flex_elemnum", m.flex_elemnum[f])?;
        let shellnum = count("flex_shellnum", m.flex_shellnum[f])?;
        let evpairnum = count("flex_evpairnum", m.flex_evpairnum[f])?;
        let bvhnum = count("flex_bvhnum", m.flex_bvhnum[f])?;
        rule(
            vertnum > 0,
            "flex_vertnum",
            f,
            "a flex has at least one vertex",
        )?;
        expect("flex_vertadr", f, m.flex_vertadr[f], t.vert as i64)?;
        expect("flex_edgeadr", f, m.flex_edgeadr[f], t.edge as i64)?;
        expect("flex_elemadr", f, m.flex_elemadr[f], t.elem as i64)?;
        expect(
            "flex_elemdataadr",
            f,
            m.flex_elemdataadr[f],
            t.elemdata as i64,
        )?;
        let adr_or_none = |num: u64, adr: u64| if num == 0 { -1 } else { adr as i64 };
        expect(
            "flex_shelldataadr",
            f,
            m.flex_shelldataadr[f],
            adr_or_none(shellnum, t.shelldata),
        )?;
        expect(
            "flex_evpairadr",
            f,
            m.flex_evpairadr[f],
            adr_or_none(evpairnum, t.evpair),
        )?;
        expect(
            "flex_bvhadr",
            f,
            m.flex_bvhadr[f],
            adr_or_none(bvhnum, m.nbvhstatic as u64 + t.bvh),
        )?;
        if m.flex_texcoordadr[f] != -1 {
            expect(
                "flex_texcoordadr",
                f,
                m.flex_texcoordadr[f],
                t.texcoord as i64,
            )?;
            t.texcoord += vertnum;
        }
        t.vert += vertnum;
        t.edge += edgenum;
        t.elem += elemnum;
        t.elemdata += elemnum * (dim + 1);
        t.shelldata += shellnum * dim;
        t.evpair += evpairnum;
        t.bvh += bvhnum;
        // past a size the comparisons below fail; stop before the sums could grow further
        if t.vert > m.nflexvert as u64
            || t.edge > m.nflexedge as u64
            || t.elem > m.nflexelem as u64
            || t.elemdata > m.nflexelemdata as u64
            || t.shelldata > m.nflexshelldata as u64
            || t.evpair > m.nflexevpair as u64
            || t.texcoord > m.nflextexcoord as u64
            || t.bvh > m.nbvhdynamic as u64
        {
            break;
        }
    }
    expect_size("nflexvert", m.nflexvert as i64, t.vert as i64)?;
    expect_size("nflexedge", m.nflexedge as i64, t.edge as i64)?;
    expect_size("nflexelem", m.nflexelem as i64, t.elem as i64)?;
    expect_size("nflexelemdata", m.nflexelemdata as i64, t.elemdata as i64)?;
    expect_size(
        "nflexshelldata",
        m.nflexshelldata as i64,
        t.shelldata as i64,
    )?;
    expect_size("nflexevpair", m.nflexevpair as i64, t.evpair as i64)?;
    expect_size("nflextexcoord", m.nflextexcoord as i64, t.texcoord as i64)?;
    expect_size("nbvhdynamic", m.nbvhdynamic as i64, t.bvh as i64)
}

/// Vertex and element ids stored in the flex's slices are local to the flex.
fn contents(m: &Model, f: usize) -> Check {
    let dim = m.flex_dim[f] as usize;
    let nvert = m.flex_vertnum[f] as usize;
    let nelem = m.flex_elemnum[f] as usize;
    let edges = m.flex_edgeadr[f] as usize..(m.flex_edgeadr[f] + m.flex_edgenum[f]) as usize;
    for e in edges {
        let v1 = index("flex_edge", 2 * e, m.flex_edge[2 * e], nvert)?;
        let v2 = index("flex_edge", 2 * e + 1, m.flex_edge[2 * e + 1], nvert)?;
        rule(v1 != v2, "flex_edge", 2 * e, "an edge joins two vertices")?;
    }
    let elemdata = m.flex_elemdataadr[f] as usize;
    for i in elemdata..elemdata + nelem * (dim + 1) {
        index("flex_elem", i, m.flex_elem[i], nvert)?;
    }
    if m.flex_shellnum[f] > 0 {
        let shell = m.flex_shelldataadr[f] as usize;
        for i in shell..shell + m.flex_shellnum[f] as usize * dim {
            index("flex_shell", i, m.flex_shell[i], nvert)?;
        }
    }
    if m.flex_evpairnum[f] > 0 {
        let pairs = m.flex_evpairadr[f] as usize;
        for p in pairs..pairs + m.flex_evpairnum[f] as usize {
            index("flex_evpair", 2 * p, m.flex_evpair[2 * p], nelem)?;
            index("flex_evpair", 2 * p + 1, m.flex_evpair[2 * p + 1], nvert)?;
        }
    }
    Ok(())
}

/// A flex's hierarchy is a tree over its elements, stored after the static hierarchies.
fn hierarchy(m: &Model, f: usize) -> Check {
    let range = span(
        ("flex_bvhadr", "flex_bvhnum"),
        f,
        m.flex_bvhadr[f],
        i64::from(m.flex_bvhnum[f]),
        m.nbvh,
        Adr::NoneIffEmpty,
    )?;
    let nelem = m.flex_elemnum[f] as usize;
    bvh_tree(m, ("flex_bvhnum", f), range, |e| {
        usize::try_from(e).is_ok_and(|e| e < nelem)
    })
}

/// The flex of a flex equality constraint (the second object is unused, -1 or any flex).
pub(super) fn equality(m: &Model, e: usize) -> Check {
    index("eq_obj1id", e, m.eq_obj1id[e], m.nflex)?;
    index_or_none("eq_obj2id", e, m.eq_obj2id[e], m.nflex)?;
    Ok(())
}
