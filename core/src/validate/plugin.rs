//! Plugin instances: every slot registered, the state layout each plugin asks for, the
//! configuration addresses, the elements that name an instance, and the plugin's own check of
//! the instance (`init`).

use super::{err, expect, expect_size, index_or_none, rule, Check, Problem};
use crate::plugin::{
    get_plugin_at_slot, Plugin, FIRST_PARTY, PLUGIN_ACTUATOR, PLUGIN_SDF, PLUGIN_SENSOR,
};
use crate::types::*;
use crate::Model;

/// Instances first (their plugins are looked up once here), then the elements naming them.
pub(super) fn validate(m: &Model) -> Check {
    let mut stateadr = 0i64;
    for i in 0..m.nplugin {
        let p = registered(m, i)?;
        expect("plugin_stateadr", i, m.plugin_stateadr[i], stateadr)?;
        expect(
            "plugin_statenum",
            i,
            m.plugin_statenum[i],
            p.nstate(m, i) as i64,
        )?;
        stateadr += i64::from(m.plugin_statenum[i]);
        let attradr = m.plugin_attradr[i];
        let in_range = usize::try_from(attradr).is_ok_and(|a| a <= m.npluginattr);
        rule(in_range, "plugin_attradr", i, "outside plugin_attr")?;
    }
    expect_size("npluginstate", m.npluginstate as i64, stateadr)?;
    references(m)
}

/// Each plugin's own check of its instance (MuJoCo's `init`), once the rest of the model is
/// known to be consistent, since a plugin may read any of it.
pub(super) fn init(m: &Model) -> Check {
    for i in 0..m.nplugin {
        let p = registered(m, i)?;
        p.init(m, i)
            .map_err(|e| err("plugin", i, Problem::Plugin(e.message)))?;
    }
    Ok(())
}

/// The plugin at instance `i`'s slot, which must be registered.
fn registered(m: &Model, i: usize) -> Result<&'static dyn Plugin, super::ValidationError> {
    let slot = m.plugin[i];
    let found = usize::try_from(slot).ok().and_then(get_plugin_at_slot);
    found.ok_or_else(|| {
        let name = usize::try_from(slot)
            .ok()
            .and_then(|s| FIRST_PARTY.get(s).copied());
        err(
            "plugin",
            i,
            Problem::NotRegistered {
                slot: i64::from(slot),
                name,
            },
        )
    })
}

/// The instance element `e` of `field` names, with `capability`, if it names one.
fn instance(
    m: &Model,
    field: &'static str,
    e: usize,
    v: i32,
    capability: u32,
) -> Result<Option<&'static dyn Plugin>, super::ValidationError> {
    let Some(i) = index_or_none(field, e, v, m.nplugin)? else {
        return Ok(None);
    };
    let p = registered(m, i)?;
    if capability != 0 {
        rule(
            p.capabilities() & capability != 0,
            field,
            e,
            "the plugin lacks this capability",
        )?;
    }
    Ok(Some(p))
}

fn references(m: &Model) -> Check {
    for b in 0..m.nbody {
        instance(m, "body_plugin", b, m.body_plugin[b], 0)?;
    }
    for g in 0..m.ngeom {
        let sdf = instance(m, "geom_plugin", g, m.geom_plugin[g], 0)?;
        if m.geom_type[g] == GEOM_SDF {
            let has_sdf = sdf.is_some_and(|p| p.capabilities() & PLUGIN_SDF != 0);
            rule(
                has_sdf,
                "geom_plugin",
                g,
                "an sdf geom needs an SDF plugin instance",
            )?;
        }
    }
    for u in 0..m.nu {
        instance(
            m,
            "actuator_plugin",
            u,
            m.actuator_plugin[u],
            PLUGIN_ACTUATOR,
        )?;
    }
    for s in 0..m.nsensor {
        let p = instance(m, "sensor_plugin", s, m.sensor_plugin[s], PLUGIN_SENSOR)?;
        if m.sensor_type[s] == SENS_PLUGIN {
            let p = p.ok_or(err(
                "sensor_plugin",
                s,
                Problem::Rule("a plugin sensor needs an instance"),
            ))?;
            let i = m.sensor_plugin[s] as usize;
            expect(
                "sensor_dim",
                s,
                m.sensor_dim[s],
                p.nsensordata(m, i, s) as i64,
            )?;
        }
    }
    Ok(())
}

/// Activation variables a plugin adds to actuator `u` (0 without a plugin), for the layout of
/// `act`. Call after [`validate`] has checked the instance.
pub(super) fn actuator_actdim(m: &Model, u: usize) -> usize {
    let Ok(i) = usize::try_from(m.actuator_plugin[u]) else {
        return 0;
    };
    crate::plugin::instance_plugin(m, i).map_or(0, |p| p.actuator_actdim(m, i, u))
}
