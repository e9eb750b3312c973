//! Collision detection (MuJoCo's `engine_collision_driver.c` and the narrow-phase families):
//! `mj_collision` fills the contact array at the bottom of the arena.
//!
//! Not implemented yet: a model that can make contacts is refused with a clear error; models
//! with contacts disabled (or nothing that can touch) get no contacts, as in MuJoCo.

pub mod convex;

use crate::data::Data;
use crate::forward::StepError;
use crate::model::Model;
use crate::support::disabled;
use crate::types::*;

/// Collision detection (`mj_collision`): clears the arena, then would add every contact.
pub fn collision(m: &Model, d: &mut Data) -> Result<(), StepError> {
    d.ncon = 0;
    d.arena.clear();
    if disabled(m, DSBL_CONSTRAINT) || disabled(m, DSBL_CONTACT) || m.nconmax == 0 || m.nbody < 2 {
        return Ok(());
    }
    if may_collide(m) {
        return Err(StepError::Unsupported(
            "contacts (disable them or the constraint flag)",
        ));
    }
    Ok(())
}

/// Whether any geom pair passes MuJoCo's static filters (different weld bodies, matching
/// contype/conaffinity) or an explicit pair exists.
fn may_collide(m: &Model) -> bool {
    if m.npair > 0 {
        return true;
    }
    let weld = |g: usize| m.body_weldid[m.geom_bodyid[g] as usize];
    (0..m.ngeom).any(|a| {
        (a + 1..m.ngeom).any(|b| {
            let compatible = m.geom_contype[a] & m.geom_conaffinity[b] != 0
                || m.geom_contype[b] & m.geom_conaffinity[a] != 0;
            compatible && weld(a) != weld(b)
        })
    })
}
