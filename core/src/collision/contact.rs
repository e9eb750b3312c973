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

/// One side of a contact whose parameters are mixed: a geom or a flex.
#[derive(Clone, Copy)]
pub(super) enum Side {
    Geom(usize),
    Flex(usize),
}

/// The contact parameters of one side, borrowed from the model's rows.
struct SideParams<'a> {
    priority: i32,
    condim: i32,
    gap: Real,
    solmix: Real,
    solref: &'a [Real; NREF],
    solimp: &'a [Real; NIMP],
    friction: &'a [Real; 3],
}

impl<'a> SideParams<'a> {
    // always inlined into its two calls in `mix_sides`: a call costs as much as the views
    #[inline(always)]
    fn of(m: &'a Model, side: Side) -> Self {
        match side {
            Side::Geom(g) => Self {
                priority: m.geom_priority[g],
                condim: m.geom_condim[g],
                gap: m.geom_gap[g],
                solmix: m.geom_solmix[g],
                solref: &m.geom_solref.as_chunks::<NREF>().0[g],
                solimp: &m.geom_solimp.as_chunks::<NIMP>().0[g],
                friction: &m.geom_friction.as_chunks::<3>().0[g],
            },
            Side::Flex(f) => Self {
                priority: m.flex_priority[f],
                condim: m.flex_condim[f],
                gap: m.flex_gap[f],
                solmix: m.flex_solmix[f],
                solref: &m.flex_solref.as_chunks::<NREF>().0[f],
                solimp: &m.flex_solimp.as_chunks::<NIMP>().0[f],
                friction: &m.flex_friction.as_chunks::<3>().0[f],
            },
        }
    }
}

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
    /// Inlined into the geom pairs' narrow phase: returned from a call, the parameters came back
    /// through memory written in pieces, and the wide loads that copied them on waited on
    /// failed store forwards (perf, hopper's `collide_geoms`).
    #[inline(always)]
    pub(super) fn mix(m: &Model, g1: usize, g2: usize) -> Result<Self, StepError> {
        Self::mix_inline(m, Side::Geom(g1), Side::Geom(g2))
    }

    /// As [`ContactParams::mix`], for sides that are geoms or flexes (a flex's parameters are
    /// its `flex_*` ones).
    pub(super) fn mix_sides(m: &Model, s1: Side, s2: Side) -> Result<Self, StepError> {
        Self::mix_inline(m, s1, s2)
    }

    /// [`ContactParams::mix_sides`], inlined where it is called.
    #[inline(always)]
    fn mix_inline(m: &Model, s1: Side, s2: Side) -> Result<Self, StepError> {
        let (a, b) = (SideParams::of(m, s1), SideParams::of(m, s2));
        let (p1, p2) = (a.priority, b.priority);
        let gap = max(a.gap, b.gap);
        let (condim, solref, solimp, fri) = if p1 != p2 {
            let s = if p1 > p2 { &a } else { &b };
            (s.condim, *s.solref, *s.solimp, *s.friction)
        } else {
            let (s1, s2) = (a.solmix, b.solmix);
            let mix = if s1 >= MINVAL && s2 >= MINVAL {
                s1 / (s1 + s2)
            } else if s1 < MINVAL && s2 < MINVAL {
                0.5
            } else if s1 < MINVAL {
                0.0
            } else {
                1.0
            };
            let (r1, r2) = (a.solref, b.solref);
            let solref = if r1[0] > 0.0 && r2[0] > 0.0 {
                core::array::from_fn(|i| mix * r1[i] + (1.0 - mix) * r2[i])
            } else {
                core::array::from_fn(|i| min(r1[i], r2[i]))
            };
            let (i1, i2) = (a.solimp, b.solimp);
            let (f1, f2) = (a.friction, b.friction);
            (
                a.condim.max(b.condim),
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

    /// These parameters with no gap (self-collisions, which ignore the margin too).
    pub(super) fn without_gap(self) -> Self {
        Self { gap: 0.0, ..self }
    }

    /// These parameters with condim `condim` (1 for a flex's internal collisions).
    pub(super) fn with_condim(self, condim: i32) -> Self {
        Self { condim, ..self }
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
