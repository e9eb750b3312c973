//! The kinematic tree: bodies, joints, dofs, and everything the compiler derives from them
//! (`body_rootid`, `body_weldid`, `dof_parentid`, `dof_Madr`, `nM`, `nD`, `nB`, trees, simple
//! bodies). Derived values are recomputed and compared, so the sparse mass matrix in
//! `dof_parentid` form and the `D_*`/`B_*` structures fit their arrays exactly.

use super::{enum_in, err, err_size, expect, expect_size, index, rule, Check, Problem};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    parents(m)?;
    joints(m)?;
    root_and_weld(m)?;
    mocap(m)?;
    dof_parents(m)?;
    mass_matrix(m)?;
    body_dof_matrix(m)?;
    trees(m)?;
    simple(m)?;
    sameframe(m)?;
    gravcomp(m)
}

/// Number of `qpos` and `qvel` entries of a joint type (already checked to be in range).
fn joint_size(jnt_type: i32) -> (usize, usize) {
    match jnt_type {
        JNT_FREE => (7, 6),
        JNT_BALL => (4, 3),
        _ => (1, 1),
    }
}

fn parent(m: &Model, b: usize) -> usize {
    m.body_parentid[b] as usize
}

/// `body_parentid`: the world is its own parent, every other body's parent comes before it.
fn parents(m: &Model) -> Check {
    expect("body_parentid", 0, m.body_parentid[0], 0)?;
    for b in 1..m.nbody {
        index("body_parentid", b, m.body_parentid[b], b)?;
    }
    Ok(())
}

/// Joints, `qpos` and dofs are laid out body by body, joint by joint, with no gaps:
/// `body_jnt*`, `jnt_*adr`, `jnt_bodyid`, `body_dof*`, `dof_bodyid`, `dof_jntid`.
fn joints(m: &Model) -> Check {
    let (mut jnt, mut qpos, mut dof) = (0usize, 0usize, 0usize);
    for b in 0..m.nbody {
        let num = m.body_jntnum[b];
        let range = super::span(
            ("body_jntadr", "body_jntnum"),
            b,
            m.body_jntadr[b],
            i64::from(num),
            m.njnt,
            super::Adr::NoneIffEmpty,
        )?;
        if num > 0 {
            expect("body_jntadr", b, m.body_jntadr[b], jnt as i64)?;
        }
        rule(
            b > 0 || num == 0,
            "body_jntnum",
            b,
            "the world body cannot have joints",
        )?;
        let first_dof = dof;
        for j in range {
            let ty = m.jnt_type[j];
            enum_in("jnt_type", j, ty, JNT_FREE, JNT_HINGE)?;
            expect("jnt_bodyid", j, m.jnt_bodyid[j], b as i64)?;
            expect("jnt_qposadr", j, m.jnt_qposadr[j], qpos as i64)?;
            expect("jnt_dofadr", j, m.jnt_dofadr[j], dof as i64)?;
            if ty == JNT_FREE {
                rule(
                    num == 1,
                    "jnt_type",
                    j,
                    "a free joint must be the only joint of its body",
                )?;
                rule(
                    parent(m, b) == 0,
                    "jnt_type",
                    j,
                    "a free joint must be in a child of the world body",
                )?;
            }
            let (nq, nv) = joint_size(ty);
            if qpos + nq > m.nq {
                return Err(err("jnt_qposadr", j, span_problem(qpos, nq, m.nq)));
            }
            if dof + nv > m.nv {
                return Err(err("jnt_dofadr", j, span_problem(dof, nv, m.nv)));
            }
            for k in dof..dof + nv {
                expect("dof_bodyid", k, m.dof_bodyid[k], b as i64)?;
                expect("dof_jntid", k, m.dof_jntid[k], j as i64)?;
            }
            qpos += nq;
            dof += nv;
        }
        jnt += num as usize;
        let dofnum = dof - first_dof;
        expect("body_dofnum", b, m.body_dofnum[b], dofnum as i64)?;
        let dofadr = if dofnum == 0 { -1 } else { first_dof as i64 };
        expect("body_dofadr", b, m.body_dofadr[b], dofadr)?;
    }
    expect_size("njnt", m.njnt as i64, jnt as i64)?;
    expect_size("nq", m.nq as i64, qpos as i64)?;
    expect_size("nv", m.nv as i64, dof as i64)
}

fn span_problem(adr: usize, num: usize, len: usize) -> Problem {
    Problem::Span {
        adr: adr as i64,
        num: num as i64,
        len: len as i64,
    }
}

/// `body_rootid` (the child of the world a body descends from) and `body_weldid` (the nearest
/// ancestor-or-self with joints, the world if none).
fn root_and_weld(m: &Model) -> Check {
    expect("body_rootid", 0, m.body_rootid[0], 0)?;
    expect("body_weldid", 0, m.body_weldid[0], 0)?;
    for b in 1..m.nbody {
        let p = parent(m, b);
        let root = if p == 0 { b as i32 } else { m.body_rootid[p] };
        expect("body_rootid", b, m.body_rootid[b], i64::from(root))?;
        let weld = if m.body_jntnum[b] > 0 {
            b as i32
        } else {
            m.body_weldid[p]
        };
        expect("body_weldid", b, m.body_weldid[b], i64::from(weld))?;
    }
    Ok(())
}

/// Mocap bodies are numbered in body order and are fixed children of the world.
fn mocap(m: &Model) -> Check {
    let mut next = 0usize;
    for b in 0..m.nbody {
        let id = m.body_mocapid[b];
        if id == -1 {
            continue;
        }
        expect("body_mocapid", b, id, next as i64)?;
        rule(
            b > 0 && parent(m, b) == 0 && m.body_jntnum[b] == 0,
            "body_mocapid",
            b,
            "a mocap body must be a child of the world without joints",
        )?;
        next += 1;
    }
    expect_size("nmocap", m.nmocap as i64, next as i64)
}

/// Last dof of the nearest ancestor-or-self of `b` that has dofs, -1 if none. The nearest
/// ancestor-or-self with joints is `body_weldid` (checked), and a body has dofs iff it has
/// joints.
fn last_dof(m: &Model, b: usize) -> i32 {
    let w = m.body_weldid[b] as usize;
    if w == 0 {
        -1
    } else {
        m.body_dofadr[w] + m.body_dofnum[w] - 1
    }
}

/// `dof_parentid`: the first dof of a body hangs from the last dof of its nearest ancestor
/// with dofs (-1 if none), every other dof from the previous dof of its body.
fn dof_parents(m: &Model) -> Check {
    for b in 1..m.nbody {
        let num = m.body_dofnum[b];
        if num == 0 {
            continue;
        }
        let adr = m.body_dofadr[b];
        let mut expected = last_dof(m, parent(m, b));
        for k in adr..adr + num {
            expect(
                "dof_parentid",
                k as usize,
                m.dof_parentid[k as usize],
                i64::from(expected),
            )?;
            expected = k;
        }
    }
    Ok(())
}

/// Entries of row `k` of the sparse mass matrix: dof `k` and its ancestors (`dof_Madr` and
/// `nM` already checked).
fn m_row_len(m: &Model, k: usize) -> usize {
    let end = if k + 1 < m.nv {
        m.dof_Madr[k + 1] as usize
    } else {
        m.nM
    };
    end - m.dof_Madr[k] as usize
}

/// `dof_Madr`, `nM` and `nD`: row `i` of the sparse mass matrix holds dof `i` and its
/// ancestors, rows are packed in dof order; `nD` counts ancestors and descendants.
fn mass_matrix(m: &Model) -> Check {
    let mut adr = 0usize;
    for i in 0..m.nv {
        expect("dof_Madr", i, m.dof_Madr[i], adr as i64)?;
        let row = match usize::try_from(m.dof_parentid[i]) {
            // the parent's row ends where the next row starts (checked above, or `adr`)
            Ok(p) => {
                let next = if p + 1 < i {
                    m.dof_Madr[p + 1] as usize
                } else {
                    adr
                };
                1 + next - m.dof_Madr[p] as usize
            }
            Err(_) => 1,
        };
        adr = adr.checked_add(row).ok_or(err_size(
            "nM",
            Problem::Rule("the sparse mass matrix is too large to address"),
        ))?;
    }
    expect_size("nM", m.nM as i64, adr as i64)?;
    expect_size("nD", m.nD as i64, 2 * adr as i64 - m.nv as i64)
}

/// `nB`: row `b` of the body-dof matrix holds the dofs of `b`'s subtree and of its ancestors.
///
/// Dofs of ancestors are the mass-matrix row of the nearest ancestor dof. Subtree counts are
/// summed by walking up from every body with dofs, adding its dofs to each ancestor-or-self
/// (the world included); the walk stops once the sum passes the stored `nB`, so it costs at
/// most O(nbody + nB).
fn body_dof_matrix(m: &Model) -> Check {
    let too_small = || {
        err_size(
            "nB",
            Problem::Rule("smaller than the body-dof sparsity the tree implies"),
        )
    };
    let mut total = 0usize;
    let mut add = |n: usize| -> Check {
        total = total
            .checked_add(n)
            .filter(|&t| t <= m.nB)
            .ok_or_else(too_small)?;
        Ok(())
    };
    for b in 1..m.nbody {
        let last = last_dof(m, parent(m, b));
        if last >= 0 {
            add(m_row_len(m, last as usize))?;
        }
        let num = m.body_dofnum[b] as usize;
        if num > 0 {
            let mut a = b;
            loop {
                add(num)?;
                if a == 0 {
                    break;
                }
                a = parent(m, a);
            }
        }
    }
    expect_size("nB", m.nB as i64, total as i64)
}

/// `dof_treeid`, `ntree` (a tree starts at every dof without parent) and `body_treeid` (the
/// tree of the body's weld, -1 for bodies welded to the world).
fn trees(m: &Model) -> Check {
    let mut ntree = 0i64;
    for i in 0..m.nv {
        if m.dof_parentid[i] == -1 {
            ntree += 1;
        }
        expect("dof_treeid", i, m.dof_treeid[i], ntree - 1)?;
    }
    expect_size("ntree", m.ntree as i64, ntree)?;
    for b in 0..m.nbody {
        let w = m.body_weldid[b] as usize;
        let tree = if m.body_dofnum[w] > 0 {
            m.dof_treeid[m.body_dofadr[w] as usize]
        } else {
            -1
        };
        expect("body_treeid", b, m.body_treeid[b], i64::from(tree))?;
    }
    Ok(())
}

/// `body_simple` and `dof_simplenum`. A simple body (1, or 2 when it moves on slides only) has
/// its frame at its inertial frame, no moving ancestors and no children; `dof_simplenum[i]`
/// counts the consecutive dofs of simple bodies starting at `i`.
fn simple(m: &Model) -> Check {
    for b in 0..m.nbody {
        let s = m.body_simple[b];
        enum_in("body_simple", b, i32::from(s), 0, 2)?;
        let p = parent(m, b);
        rule(
            b == 0 || p == 0 || m.body_simple[p] == 0,
            "body_simple",
            p,
            "a body with children cannot be simple",
        )?;
        if s == 0 {
            continue;
        }
        rule(
            m.body_sameframe[b] == 1,
            "body_simple",
            b,
            "a simple body must have its inertial frame at its body frame",
        )?;
        rule(
            m.body_weldid[p] == 0,
            "body_simple",
            b,
            "a simple body cannot have moving ancestors",
        )?;
        let adr = m.body_jntadr[b].max(0) as usize;
        let slides_only =
            (adr..adr + m.body_jntnum[b] as usize).all(|j| m.jnt_type[j] == JNT_SLIDE);
        if s == 2 {
            rule(
                m.body_dofnum[b] > 0 && slides_only,
                "body_simple",
                b,
                "simple level 2 is for bodies moving on slide joints only",
            )?;
        }
    }
    let mut count = 0i64;
    for i in (0..m.nv).rev() {
        count = if m.body_simple[m.dof_bodyid[i] as usize] != 0 {
            count + 1
        } else {
            0
        };
        expect("dof_simplenum", i, m.dof_simplenum[i], count)?;
    }
    Ok(())
}

/// `*_sameframe`: 0 (compute the frame), 1 (body frame), 2 (inertial frame, geoms and sites).
fn sameframe(m: &Model) -> Check {
    for (field, values, hi) in [
        ("body_sameframe", &*m.body_sameframe, 1),
        ("geom_sameframe", &*m.geom_sameframe, 2),
        ("site_sameframe", &*m.site_sameframe, 2),
    ] {
        for (i, &v) in values.iter().enumerate() {
            enum_in(field, i, i32::from(v), 0, hi)?;
        }
    }
    Ok(())
}

/// `ngravcomp` counts the bodies with positive `body_gravcomp`.
fn gravcomp(m: &Model) -> Check {
    let n = m.body_gravcomp.iter().filter(|&&g| g > 0.0).count();
    expect_size("ngravcomp", m.ngravcomp as i64, n as i64)
}
