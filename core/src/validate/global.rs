//! Sizes and options.

use super::{enum_in, err_size, expect_size, Check, Problem};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    sizes(m)?;
    options(m)
}

/// Sizes that other sizes or MuJoCo's encodings constrain.
fn sizes(m: &Model) -> Check {
    if m.nbody == 0 {
        return Err(err_size(
            "nbody",
            Problem::Rule("a model has at least the world body"),
        ));
    }
    // no upper bound: MuJoCo 3.1.6 compiles and loads any number of bodies. Pair and exclude
    // signatures pack body ids in 16 bits, so pairs of bodies beyond 65535 decode to other
    // (existing) bodies as in MuJoCo, and more than 65535 collidable bodies make the broad
    // phase fail at step time ("SAP failed"), as in MuJoCo
    expect_size(
        "nnames_map",
        m.nnames_map as i64,
        crate::model::mujoco_nnames_map(m.sizes()) as i64,
    )?;
    expect_size(
        "nbvh",
        m.nbvh as i64,
        m.nbvhstatic as i64 + m.nbvhdynamic as i64,
    )?;
    for (name, v) in [("njmax", m.njmax), ("nconmax", m.nconmax)] {
        if v < -1 {
            return Err(err_size(
                name,
                Problem::OutOfRange {
                    found: i64::from(v),
                    min: -1,
                    end: i64::from(i32::MAX),
                },
            ));
        }
    }
    Ok(())
}

/// Enumerations and iteration counts of `mjOption`.
fn options(m: &Model) -> Check {
    let o = &m.opt;
    for (name, v, hi) in [
        ("opt.integrator", o.integrator, INT_IMPLICITFAST),
        ("opt.cone", o.cone, CONE_ELLIPTIC),
        ("opt.jacobian", o.jacobian, JAC_AUTO),
        ("opt.solver", o.solver, SOL_NEWTON),
    ] {
        enum_in(name, 0, v, 0, hi).map_err(|e| err_size(name, e.problem))?;
    }
    for (name, v) in [
        ("opt.iterations", o.iterations),
        ("opt.ls_iterations", o.ls_iterations),
        ("opt.noslip_iterations", o.noslip_iterations),
        ("opt.mpr_iterations", o.mpr_iterations),
        ("opt.sdf_initpoints", o.sdf_initpoints),
        ("opt.sdf_iterations", o.sdf_iterations),
    ] {
        if v < 0 {
            return Err(err_size(
                name,
                Problem::OutOfRange {
                    found: i64::from(v),
                    min: 0,
                    end: i64::from(i32::MAX),
                },
            ));
        }
    }
    Ok(())
}
