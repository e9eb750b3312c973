//! Filling in a contact (`mj_setContact`): friction, solver parameters and dimension, from the
//! two geoms' parameters mixed (`mj_contactParam`) or from an explicit pair.

use crate::data::Contact;
use crate::error::StepError;
use crate::math::misc::{max, min};
use crate::math::spatial::make_frame;
use crate::math::vec::norm3;
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::enabled;
use crate::types::*;

/// Contact parameters of a geom pair: mixed from the geoms, or an explicit pair's.
pub(super) struct ContactParams {
    condim: i32,
    gap: Real,
    solref: [Real; NREF],
    solreffriction: [Real; NREF],
    solimp: [Real; NIMP],
    friction: [Real; 5],
}

impl ContactParams {
    /// From the geoms (`mj_contactParam`): the higher priority's, or with equal priorities the
    /// larger condim and friction, solref and solimp mixed by `solmix` (solref taken as the
    /// minimum when one is in direct form), the larger gap.
    pub(super) fn mix(m: &Model, g1: usize, g2: usize) -> Result<Self, StepError> {
        let solref = |g: usize| [m.geom_solref[NREF * g], m.geom_solref[NREF * g + 1]];
        let solimp =
            |g: usize| -> [Real; NIMP] { core::array::from_fn(|i| m.geom_solimp[NIMP * g + i]) };
        let friction = |g: usize| {
            [
                m.geom_friction[3 * g],
                m.geom_friction[3 * g + 1],
                m.geom_friction[3 * g + 2],
            ]
        };
        let (p1, p2) = (m.geom_priority[g1], m.geom_priority[g2]);
        let gap = max(m.geom_gap[g1], m.geom_gap[g2]);
        let (condim, solref, solimp, fri) = if p1 != p2 {
            let g = if p1 > p2 { g1 } else { g2 };
            (m.geom_condim[g], solref(g), solimp(g), friction(g))
        } else {
            let (s1, s2) = (m.geom_solmix[g1], m.geom_solmix[g2]);
            let mix = if s1 >= MINVAL && s2 >= MINVAL {
                s1 / (s1 + s2)
            } else if s1 < MINVAL && s2 < MINVAL {
                0.5
            } else if s1 < MINVAL {
                0.0
            } else {
                1.0
            };
            let (r1, r2) = (solref(g1), solref(g2));
            let solref = if r1[0] > 0.0 && r2[0] > 0.0 {
                core::array::from_fn(|i| mix * r1[i] + (1.0 - mix) * r2[i])
            } else {
                core::array::from_fn(|i| min(r1[i], r2[i]))
            };
            let (i1, i2) = (solimp(g1), solimp(g2));
            let (f1, f2) = (friction(g1), friction(g2));
            (
                m.geom_condim[g1].max(m.geom_condim[g2]),
                solref,
                core::array::from_fn(|i| mix * i1[i] + (1.0 - mix) * i2[i]),
                core::array::from_fn(|i| max(f1[i], f2[i])),
            )
        };
        if !(1..=6).contains(&condim) {
            return Err(StepError::Numerical("invalid condim value"));
        }
        Ok(Self {
            condim,
            gap,
            solref,
            solreffriction: [0.0; NREF],
            solimp,
            friction: [fri[0], fri[0], fri[1], fri[2], fri[2]],
        })
    }

    /// Explicit pair `p`'s parameters; its friction-direction solref when either is nonzero.
    pub(super) fn pair(m: &Model, p: usize) -> Self {
        let solreffriction = [
            m.pair_solreffriction[NREF * p],
            m.pair_solreffriction[NREF * p + 1],
        ];
        Self {
            condim: m.pair_dim[p],
            gap: m.pair_gap[p],
            solref: [m.pair_solref[NREF * p], m.pair_solref[NREF * p + 1]],
            solreffriction: if solreffriction.iter().any(|&x| x != 0.0) {
                solreffriction
            } else {
                [0.0; NREF]
            },
            solimp: core::array::from_fn(|i| m.pair_solimp[NIMP * p + i]),
            friction: core::array::from_fn(|i| m.pair_friction[5 * p + i]),
        }
    }
}

/// Completes a contact from the collider (`mj_setContact`): parameters (or the override
/// values), `exclude` when it lies in the gap, the full frame, and cleared fields that later
/// stages compute.
pub(super) fn set_contact(
    m: &Model,
    con: &mut Contact,
    p: &ContactParams,
    margin: Real,
) -> Result<(), StepError> {
    let includemargin = margin - p.gap;
    let over = enabled(m, ENBL_OVERRIDE);
    con.dim = p.condim;
    con.includemargin = includemargin;
    con.solref = if over { m.opt.o_solref } else { p.solref };
    con.solreffriction = if over {
        m.opt.o_solref
    } else {
        p.solreffriction
    };
    con.solimp = if over { m.opt.o_solimp } else { p.solimp };
    let friction = if over { &m.opt.o_friction } else { &p.friction };
    con.friction = friction.map(|f| max(MINMU as Real, f));
    con.exclude = i32::from(con.dist >= includemargin);

    // the normal must be a direction (NaN passes, as in MuJoCo)
    if norm3(&[con.frame[0], con.frame[1], con.frame[2]]) < 0.5 {
        return Err(StepError::Numerical("xaxis of contact frame undefined"));
    }
    make_frame(&mut con.frame);
    con.efc_address = -1;
    con.mu = 0.0;
    con.H = [0.0; 36];
    con.geom1 = con.geom[0];
    con.geom2 = con.geom[1];
    Ok(())
}
