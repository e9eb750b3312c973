//! Assets: meshes (with their convex-hull graphs and bounding-volume hierarchies), height
//! fields, textures, materials and skins.

use core::ops::Range;

use super::{
    all_in_range, enum_in, err, expect, expect_size, ids, index, rule, span, spans, Adr, Check,
    Problem, ValidationError,
};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    meshes(m)?;
    mesh_graphs(m)?;
    hfields(m)?;
    textures(m)?;
    ids("mat_texid", &m.mat_texid, m.ntex, true)?;
    skins(m)
}

/// Vertex, normal, texture-coordinate and face ranges of every mesh, and every face's
/// indices inside its own mesh's ranges.
fn meshes(m: &Model) -> Check {
    for i in 0..m.nmesh {
        let vert = span(
            ("mesh_vertadr", "mesh_vertnum"),
            i,
            m.mesh_vertadr[i],
            i64::from(m.mesh_vertnum[i]),
            m.nmeshvert,
            Adr::Always,
        )?;
        let normal = span(
            ("mesh_normaladr", "mesh_normalnum"),
            i,
            m.mesh_normaladr[i],
            i64::from(m.mesh_normalnum[i]),
            m.nmeshnormal,
            Adr::Always,
        )?;
        let texcoord = span(
            ("mesh_texcoordadr", "mesh_texcoordnum"),
            i,
            m.mesh_texcoordadr[i],
            i64::from(m.mesh_texcoordnum[i]),
            m.nmeshtexcoord,
            Adr::NoneIffEmpty,
        )?;
        let faces = span(
            ("mesh_faceadr", "mesh_facenum"),
            i,
            m.mesh_faceadr[i],
            i64::from(m.mesh_facenum[i]),
            m.nmeshface,
            Adr::Always,
        )?;
        let nface = faces.len();
        let corners = 3 * faces.start..3 * faces.end;
        face_indices(
            "mesh_face",
            &m.mesh_face[corners.clone()],
            corners.start,
            vert.len(),
        )?;
        face_indices(
            "mesh_facenormal",
            &m.mesh_facenormal[corners.clone()],
            corners.start,
            normal.len(),
        )?;
        if !texcoord.is_empty() {
            face_indices(
                "mesh_facetexcoord",
                &m.mesh_facetexcoord[corners.clone()],
                corners.start,
                texcoord.len(),
            )?;
        }
        let bvh = span(
            ("mesh_bvhadr", "mesh_bvhnum"),
            i,
            m.mesh_bvhadr[i],
            i64::from(m.mesh_bvhnum[i]),
            m.nbvhstatic,
            Adr::NoneIffEmpty,
        )?;
        bvh_tree(m, ("mesh_bvhnum", i), bvh, |f| {
            usize::try_from(f).is_ok_and(|f| f < nface)
        })?;
    }
    ids("mesh_pathadr", &m.mesh_pathadr, m.npaths, true)
}

/// Every vertex index of `faces` (which start at corner `first` of `field`) is below `n`.
fn face_indices(field: &'static str, faces: &[i32], first: usize, n: usize) -> Check {
    if all_in_range(faces, n, false) {
        return Ok(());
    }
    for (k, &v) in faces.iter().enumerate() {
        index(field, first + k, v, n)?;
    }
    Ok(())
}

/// A bounding-volume hierarchy stored at `range` of the `bvh_*` arrays is a binary tree in
/// depth-first order, as the compiler builds it: node 0 is the root at depth 0, an inner node
/// has two children and node id -1, a leaf has no children and a node id that `leaf_ok`
/// accepts, and no node is deeper than `MAXTREEDEPTH - 1` (so a traversal stack of
/// `MAXTREEDEPTH` entries suffices). `owner` names the `*_bvhnum` entry, for errors.
pub(super) fn bvh_tree(
    m: &Model,
    owner: (&'static str, usize),
    range: Range<usize>,
    leaf_ok: impl Fn(i32) -> bool,
) -> Check {
    if range.is_empty() {
        return Ok(());
    }
    let adr = range.start;
    let num = range.len();
    // pending nodes: (local id, depth, global id of the parent)
    let mut stack = [(0usize, 0i32, 0usize); MAXTREEDEPTH + 1];
    let mut top = 1;
    let mut next = 0usize;
    while top > 0 {
        top -= 1;
        let (node, depth, parent) = stack[top];
        if node != next {
            return Err(err(
                "bvh_child",
                parent,
                Problem::Rule("the hierarchy is not a tree in depth-first order"),
            ));
        }
        next += 1;
        let g = adr + node;
        expect("bvh_depth", g, m.bvh_depth[g], i64::from(depth))?;
        let (c0, c1) = (m.bvh_child[2 * g], m.bvh_child[2 * g + 1]);
        if c0 == -1 && c1 == -1 {
            rule(
                leaf_ok(m.bvh_nodeid[g]),
                "bvh_nodeid",
                g,
                "a leaf must refer to an element of its owner",
            )?;
            continue;
        }
        expect("bvh_nodeid", g, m.bvh_nodeid[g], -1)?;
        rule(
            depth + 1 < MAXTREEDEPTH as i32,
            "bvh_depth",
            g,
            "the hierarchy is deeper than mjMAXTREEDEPTH",
        )?;
        let c0 = index("bvh_child", 2 * g, c0, num)?;
        let c1 = index("bvh_child", 2 * g + 1, c1, num)?;
        // children at depth + 1 <= MAXTREEDEPTH - 1; at most one pending sibling per level
        if top + 2 > stack.len() {
            return Err(err(
                "bvh_depth",
                g,
                Problem::Rule("the hierarchy is too deep"),
            ));
        }
        stack[top] = (c1, depth + 1, g);
        stack[top + 1] = (c0, depth + 1, g);
        top += 2;
    }
    if next != num {
        return Err(err(
            owner.0,
            owner.1,
            Problem::Expected {
                expected: next as i64,
                found: num as i64,
            },
        ));
    }
    Ok(())
}

/// Convex-hull graphs (`mesh_graph`), used by convex collision to hill-climb support points.
/// A graph at `mesh_graphadr` is `numvert`, `numface`, then `vert_edgeadr[numvert]`,
/// `vert_globalid[numvert]`, `edge_localid[numvert + 3*numface]` (the neighbours of each hull
/// vertex, each list ended by -1) and `face_globalid[3*numface]`. Graphs are packed in mesh
/// order and fill `mesh_graph`.
fn mesh_graphs(m: &Model) -> Check {
    let mut cursor = 0usize;
    for i in 0..m.nmesh {
        let adr = m.mesh_graphadr[i];
        if adr == -1 {
            continue;
        }
        expect("mesh_graphadr", i, adr, cursor as i64)?;
        cursor += mesh_graph(m, i, cursor)?;
    }
    expect_size("nmeshgraph", m.nmeshgraph as i64, cursor as i64)
}

/// Checks the graph of mesh `i` at `adr`, returns its length.
fn mesh_graph(m: &Model, i: usize, adr: usize) -> Result<usize, ValidationError> {
    let g = m.mesh_graph.get(adr..).unwrap_or(&[]);
    if g.len() < 2 {
        return Err(err(
            "mesh_graphadr",
            i,
            Problem::Rule("the graph header runs past the end of mesh_graph"),
        ));
    }
    let (numvert, numface) = (g[0], g[1]);
    if numvert < 1 || numface < 0 {
        return Err(err(
            "mesh_graph",
            adr,
            Problem::Rule("a graph needs at least one vertex and a non-negative face count"),
        ));
    }
    // below 2^36: no overflow in u64, and within the slice once compared
    let (nv, nf) = (numvert as u64, numface as u64);
    let len = 2 + 3 * nv + 6 * nf;
    if len > g.len() as u64 {
        return Err(err(
            "mesh_graphadr",
            i,
            Problem::Span {
                adr: adr as i64,
                num: len as i64,
                len: m.nmeshgraph as i64,
            },
        ));
    }
    let (nv, nedge, len) = (nv as usize, (nv + 3 * nf) as usize, len as usize);
    let nvert = m.mesh_vertnum[i] as usize;
    let edgeadr = 2..2 + nv;
    let globalid = 2 + nv..2 + 2 * nv;
    let localid = 2 + 2 * nv..2 + 2 * nv + nedge;
    let faces = 2 + 2 * nv + nedge..len;
    let check = |part: Range<usize>, min: i32, end: usize| -> Check {
        for k in part {
            let v = g[k];
            if v < min || i64::from(v) >= end as i64 {
                return Err(err(
                    "mesh_graph",
                    adr + k,
                    Problem::OutOfRange {
                        found: i64::from(v),
                        min: i64::from(min),
                        end: end as i64,
                    },
                ));
            }
        }
        Ok(())
    };
    check(edgeadr, 0, nedge)?;
    check(globalid, 0, nvert)?;
    check(localid.clone(), -1, nv)?;
    check(faces, 0, nvert)?;
    // every neighbour list ends with -1 before the edge array ends
    rule(
        g[localid.end - 1] == -1,
        "mesh_graph",
        adr + localid.end - 1,
        "the last neighbour list of a graph must end with -1",
    )?;
    Ok(len)
}

/// Height fields: at least 1 row and 1 column, elevation data inside `hfield_data`. MuJoCo
/// compiles a single row or column (a grid without cells: no contacts; collision and ray
/// casting divide by `nrow - 1` in floating point, as MuJoCo does).
fn hfields(m: &Model) -> Check {
    for i in 0..m.nhfield {
        let (nrow, ncol) = (m.hfield_nrow[i], m.hfield_ncol[i]);
        for (field, n) in [("hfield_nrow", nrow), ("hfield_ncol", ncol)] {
            if !(1..=i32::MAX).contains(&n) {
                return Err(err(
                    field,
                    i,
                    Problem::OutOfRange {
                        found: i64::from(n),
                        min: 1,
                        end: i64::from(i32::MAX),
                    },
                ));
            }
        }
        span(
            ("hfield_adr", "hfield_nrow"),
            i,
            m.hfield_adr[i],
            i64::from(nrow) * i64::from(ncol),
            m.nhfielddata,
            Adr::Always,
        )?;
    }
    ids("hfield_pathadr", &m.hfield_pathadr, m.npaths, true)
}

/// Textures: type, and `3 * width * height` bytes of RGB data inside `tex_rgb`.
fn textures(m: &Model) -> Check {
    for i in 0..m.ntex {
        enum_in("tex_type", i, m.tex_type[i], TEXTURE_2D, TEXTURE_SKYBOX)?;
        let (w, h) = (m.tex_width[i], m.tex_height[i]);
        for (field, n) in [("tex_width", w), ("tex_height", h)] {
            if n < 0 {
                return Err(err(
                    field,
                    i,
                    Problem::OutOfRange {
                        found: i64::from(n),
                        min: 0,
                        end: i64::from(i32::MAX),
                    },
                ));
            }
        }
        span(
            ("tex_adr", "tex_width"),
            i,
            m.tex_adr[i],
            // at most 3 * (2^31)^2: saturates instead of overflowing i64
            (3 * i64::from(w)).saturating_mul(i64::from(h)),
            m.ntexdata,
            Adr::Always,
        )?;
    }
    ids("tex_pathadr", &m.tex_pathadr, m.npaths, true)
}

/// Skins: vertex, texture-coordinate, face and bone ranges; faces and bone vertices index the
/// skin's own vertices; bones are attached to bodies.
fn skins(m: &Model) -> Check {
    ids("skin_matid", &m.skin_matid, m.nmat, true)?;
    ids("skin_pathadr", &m.skin_pathadr, m.npaths, true)?;
    ids("skin_bonebodyid", &m.skin_bonebodyid, m.nbody, false)?;
    spans(
        ("skin_bonevertadr", "skin_bonevertnum"),
        &m.skin_bonevertadr,
        &m.skin_bonevertnum,
        m.nskinbonevert,
        Adr::Always,
    )?;
    for i in 0..m.nskin {
        let vert = span(
            ("skin_vertadr", "skin_vertnum"),
            i,
            m.skin_vertadr[i],
            i64::from(m.skin_vertnum[i]),
            m.nskinvert,
            Adr::Always,
        )?;
        let nvert = vert.len();
        if m.skin_texcoordadr[i] != -1 {
            span(
                ("skin_texcoordadr", "skin_vertnum"),
                i,
                m.skin_texcoordadr[i],
                nvert as i64,
                m.nskintexvert,
                Adr::Always,
            )?;
        }
        let faces = span(
            ("skin_faceadr", "skin_facenum"),
            i,
            m.skin_faceadr[i],
            i64::from(m.skin_facenum[i]),
            m.nskinface,
            Adr::Always,
        )?;
        let corners = 3 * faces.start..3 * faces.end;
        face_indices(
            "skin_face",
            &m.skin_face[corners.clone()],
            corners.start,
            nvert,
        )?;
        let bones = span(
            ("skin_boneadr", "skin_bonenum"),
            i,
            m.skin_boneadr[i],
            i64::from(m.skin_bonenum[i]),
            m.nskinbone,
            Adr::Always,
        )?;
        for bone in bones {
            let adr = m.skin_bonevertadr[bone] as usize;
            let num = m.skin_bonevertnum[bone] as usize;
            face_indices(
                "skin_bonevertid",
                &m.skin_bonevertid[adr..adr + num],
                adr,
                nvert,
            )?;
        }
    }
    Ok(())
}
