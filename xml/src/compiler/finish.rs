//! The end of compilation: total mass, keyframe quaternions, the engine-side constants
//! (`mj_setConst`), automatic spring-dampers, actuator length ranges and statistics overrides
//! (the end of `TryCompile`). The computations themselves live in `mjrs_core::setconst`, so
//! that a device can run them on a model it loaded.

use mjrs_alloc::{OwnedData, OwnedModel};
use mjrs_core::arena::MAX_ARENA;
use mjrs_core::model::Model;
use mjrs_core::setconst;
use mjrs_core::support::normalize_quat;
use mjrs_core::types::*;
use mjrs_core::ArenaError;

use super::Compiler;
use crate::error::XmlError;
use crate::util::defined;

/// MuJoCo's error when `mj_makeModel` or `mj_makeData` cannot get its buffer, followed by what
/// was too large and by how much.
pub(super) fn no_memory(what: &str, e: ArenaError) -> XmlError {
    let size = match e {
        ArenaError::NoHeap { needed } => format!("{needed} bytes"),
        ArenaError::ArenaTooLarge { .. } => {
            format!("more than mjrs's largest arena, {MAX_ARENA} bytes")
        }
        other => other.to_string(),
    };
    XmlError::model(format!(
        "engine error: Could not allocate memory\n{what}: {size}"
    ))
}

impl Compiler<'_> {
    /// Makes the model, then everything `TryCompile` does after `CopyObjects`.
    pub(super) fn build_model(&mut self) -> Result<OwnedModel, XmlError> {
        let mut owned = self.make_model()?;
        {
            let mut m = owned.view();
            self.init_plugin_instances(&m)?;
            if self.spec.settotalmass > 0.0 {
                setconst::set_total_mass(&mut m, self.spec.settotalmass);
            }
            normalize_key_quats(&mut m);
        }
        let mut data = {
            let m = owned.view();
            let what = format!("mjData with an arena of {} bytes (<size memory>)", m.narena);
            OwnedData::new(&m).map_err(|e| no_memory(&what, e))?
        };
        {
            let mut m = owned.view();
            let saved = m.opt.disableflags;
            m.opt.disableflags |= DSBL_CONTACT;
            let mut d = data.view();
            setconst::set_const(&mut m, &mut d)
                .map_err(|e| XmlError::model(format!("engine error: {e}")))?;
            let springdamper: Vec<[f64; 2]> =
                self.joints.iter().map(|j| j.s.springdamper).collect();
            setconst::auto_spring_damper(&mut m, &springdamper);
            setconst::set_length_ranges(&mut m, &mut d, &self.lr_opt())
                .map_err(|e| XmlError::model(e.to_string()))?;
            m.opt.disableflags = saved;
            let st = &self.spec.stat;
            if defined(st.extent) {
                m.stat.extent = st.extent;
            }
            if defined(st.meaninertia) {
                m.stat.meaninertia = st.meaninertia;
            }
            if defined(st.meanmass) {
                m.stat.meanmass = st.meanmass;
            }
            if defined(st.meansize) {
                m.stat.meansize = st.meansize;
            }
            if defined(st.center[0]) {
                m.stat.center = st.center;
            }
        }
        Ok(owned)
    }

    /// `compiler/lengthrange` as the core's options.
    fn lr_opt(&self) -> setconst::LROpt {
        let o = &self.spec.lropt;
        setconst::LROpt {
            mode: o.mode,
            useexisting: o.useexisting,
            uselimit: o.uselimit,
            accel: o.accel,
            maxforce: o.maxforce,
            timeconst: o.timeconst,
            timestep: o.timestep,
            inttotal: o.inttotal,
            interval: o.interval,
            tolrange: o.tolrange,
        }
    }
}

/// `mj_normalizeQuat` on every keyframe's positions.
fn normalize_key_quats(m: &mut Model) {
    let nq = m.sizes().nq;
    for k in 0..m.sizes().nkey {
        let mut q = m.key_qpos[k * nq..(k + 1) * nq].to_vec();
        normalize_quat(m, &mut q);
        m.key_qpos[k * nq..(k + 1) * nq].copy_from_slice(&q);
    }
}
