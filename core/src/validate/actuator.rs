//! Actuators: transmission targets, dynamics/gain/bias types, activation layout.

use super::{enum_in, err, expect, expect_size, index, index_or_none, Check, Problem};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    let mut act = 0usize;
    for u in 0..m.nu {
        transmission(m, u)?;
        enum_in(
            "actuator_dyntype",
            u,
            m.actuator_dyntype[u],
            DYN_NONE,
            DYN_USER,
        )?;
        enum_in(
            "actuator_gaintype",
            u,
            m.actuator_gaintype[u],
            GAIN_FIXED,
            GAIN_USER,
        )?;
        enum_in(
            "actuator_biastype",
            u,
            m.actuator_biastype[u],
            BIAS_NONE,
            BIAS_USER,
        )?;
        act = activation(m, u, act)?;
    }
    expect_size("na", m.na as i64, act as i64)
}

/// `actuator_trnid` by transmission type: a joint, two sites (crank, slider), a tendon, a
/// site with an optional reference site, or a body. Unused second ids are -1.
fn transmission(m: &Model, u: usize) -> Check {
    let (id, id2) = (m.actuator_trnid[2 * u], m.actuator_trnid[2 * u + 1]);
    let (first, second) = ("actuator_trnid", 2 * u);
    match m.actuator_trntype[u] {
        TRN_JOINT | TRN_JOINTINPARENT => {
            index(first, second, id, m.njnt)?;
            expect(first, second + 1, id2, -1)
        }
        TRN_SLIDERCRANK => {
            index(first, second, id, m.nsite)?;
            index(first, second + 1, id2, m.nsite).map(drop)
        }
        TRN_TENDON => {
            index(first, second, id, m.ntendon)?;
            expect(first, second + 1, id2, -1)
        }
        TRN_SITE => {
            index(first, second, id, m.nsite)?;
            index_or_none(first, second + 1, id2, m.nsite).map(drop)
        }
        TRN_BODY => {
            index(first, second, id, m.nbody)?;
            expect(first, second + 1, id2, -1)
        }
        other => Err(err(
            "actuator_trntype",
            u,
            Problem::BadEnum(i64::from(other)),
        )),
    }
}

/// `actuator_actnum` (0 without dynamics, 1 for built-in dynamics, at least 1 for user
/// dynamics) and `actuator_actadr` (packed in actuator order, -1 when stateless). Returns the
/// next activation address.
fn activation(m: &Model, u: usize, adr: usize) -> Result<usize, super::ValidationError> {
    let num = m.actuator_actnum[u];
    // a plugin's activation variables come on top of the dynamics' own
    let own = i64::from(num) - super::plugin::actuator_actdim(m, u) as i64;
    let ok = match m.actuator_dyntype[u] {
        DYN_NONE => own == 0,
        DYN_USER => own >= 1,
        _ => own == 1,
    };
    if !ok {
        return Err(err(
            "actuator_actnum",
            u,
            Problem::Rule(
                "must be 0 without dynamics, 1 for built-in dynamics, >= 1 for user, plus the \
                 plugin's activation variables",
            ),
        ));
    }
    let expected = if num == 0 { -1 } else { adr as i64 };
    expect("actuator_actadr", u, m.actuator_actadr[u], expected)?;
    let end = adr + num as usize;
    if end > m.na {
        return Err(err(
            "actuator_actnum",
            u,
            Problem::Span {
                adr: adr as i64,
                num: i64::from(num),
                len: m.na as i64,
            },
        ));
    }
    Ok(end)
}
