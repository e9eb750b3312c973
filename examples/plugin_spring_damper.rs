//! A plugin written outside mjrs: a passive spring-damper, registered at start-up and named by
//! an MJCF model (`<extension>`, `<plugin instance>` in bodies):
//! `cargo run --release --example plugin_spring_damper`.
//!
//! The plugin `mjrs.example.spring_damper` pulls every hinge and slide joint of the bodies
//! naming an instance toward its `springref` with `stiffness` and damps it with `damping` (the
//! instance's configuration), adding `-stiffness * (qpos - qpos_spring) - damping * qvel` to
//! `qfrc_passive`: what a joint's own `stiffness` and `damping` attributes do. The example runs
//! the model both ways and prints how far apart the trajectories end (not at all: the same
//! arithmetic in the same order). With the default Euler integrator they would differ, because
//! Euler integrates a joint's own damping implicitly (`eulerdamp`), a plugin's force explicitly;
//! the model therefore turns `eulerdamp` off.
//!
//! A plugin is a `&'static` value implementing [`Plugin`]; its only per-`Data` storage is its
//! slice of `plugin_state` (none here), everything else comes from the `Model`.

use mjrs_core::plugin::{plugin_config, register_plugin, Plugin, PluginError, PLUGIN_PASSIVE};
use mjrs_core::types::{JNT_HINGE, JNT_SLIDE};
use mjrs_core::{Data, Model, Real, StepError};

/// The plugin's name, as models name it in `<extension><plugin plugin="...">`.
pub const NAME: &str = "mjrs.example.spring_damper";

/// The plugin: no state, the gains are read from the instance's configuration.
pub struct SpringDamper;

/// The registered object.
pub static SPRING_DAMPER: SpringDamper = SpringDamper;

/// A gain of the instance: its configuration value as a number, 0 when unset.
fn gain(m: &Model, instance: usize, key: &'static str) -> Result<Real, PluginError> {
    let text = plugin_config(m, instance, key).unwrap_or("").trim();
    if text.is_empty() {
        return Ok(0.0);
    }
    text.parse()
        .map_err(|_| PluginError::failed("spring_damper: stiffness and damping must be numbers"))
}

/// Calls `f(qpos address, dof address)` for each joint of the bodies naming `instance`.
fn for_each_joint(m: &Model, instance: usize, mut f: impl FnMut(usize, usize, i32)) {
    for b in 0..m.nbody {
        if usize::try_from(m.body_plugin[b]).ok() != Some(instance) {
            continue;
        }
        let first = m.body_jntadr[b].max(0) as usize;
        for j in first..first + m.body_jntnum[b] as usize {
            f(
                m.jnt_qposadr[j] as usize,
                m.jnt_dofadr[j] as usize,
                m.jnt_type[j],
            );
        }
    }
}

impl Plugin for SpringDamper {
    fn name(&self) -> &'static str {
        NAME
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["stiffness", "damping"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_PASSIVE
    }

    /// Refuses an instance whose gains are not numbers or whose bodies have joints other than
    /// hinges and slides (a ball joint's spring is not one number per dof).
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        gain(m, instance, "stiffness")?;
        gain(m, instance, "damping")?;
        let mut scalar = true;
        for_each_joint(m, instance, |_, _, ty| {
            scalar &= ty == JNT_HINGE || ty == JNT_SLIDE;
        });
        if !scalar {
            return Err(PluginError::failed(
                "spring_damper: bodies naming the plugin may have hinge and slide joints only",
            ));
        }
        Ok(())
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        // init checked the gains when the model was loaded
        let k = gain(m, instance, "stiffness").unwrap_or(0.0);
        let c = gain(m, instance, "damping").unwrap_or(0.0);
        for_each_joint(m, instance, |q, v, _| {
            let spring = -k * (d.qpos[q] - m.qpos_spring[q]);
            let damper = -c * d.qvel[v];
            d.qfrc_passive[v] += spring + damper;
        });
        Ok(())
    }
}

/// The example's model, a hinged arm carrying a slider, with `integrator` and `flags` (the
/// attributes of `<option><flag>`). With `builtin`, the joints' own `stiffness` and `damping`
/// do what the plugin does otherwise.
pub fn model_xml(integrator: &str, flags: &str, builtin: bool) -> String {
    let (extension, joint, plugin) = if builtin {
        ("", r#"stiffness="40" damping="0.3""#, "")
    } else {
        (
            r#"<extension>
    <plugin plugin="mjrs.example.spring_damper">
      <instance name="spring">
        <config key="stiffness" value="40"/>
        <config key="damping" value="0.3"/>
      </instance>
    </plugin>
  </extension>"#,
            "",
            r#"<plugin instance="spring"/>"#,
        )
    };
    format!(
        r#"<mujoco model="spring_damper">
  <compiler angle="radian"/>
  <option timestep="0.002" integrator="{integrator}">
    <flag {flags}/>
  </option>
  {extension}
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" axis="0 1 0" springref="0.4" {joint}/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      {plugin}
      <body name="slider" pos=".3 0 0">
        <joint name="slide" type="slide" axis="1 0 0" springref="-0.05" {joint}/>
        <geom type="box" size=".05 .05 .05"/>
        {plugin}
      </body>
    </body>
  </worldbody>
</mujoco>"#
    )
}

/// `qpos` and `qvel` after each of `steps` steps of `xml`'s model.
pub fn trajectory(xml: &str, steps: usize) -> Result<Vec<Vec<Real>>, Box<dyn std::error::Error>> {
    let mut model = mjrs_xml::compile_str(xml, "spring_damper.xml", "", None)?.model;
    let m = model.view();
    let mut data = mjrs_std::OwnedData::new(&m)?;
    let mut d = data.view();
    let mut out = Vec::with_capacity(steps);
    for _ in 0..steps {
        mjrs_core::step(&m, &mut d)?;
        out.push([&*d.qpos, &*d.qvel].concat());
    }
    Ok(out)
}

#[allow(dead_code)] // the conformance test includes this file for its items, not for `main`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    // once, before any model naming the plugin is compiled or loaded
    let slot = register_plugin(&SPRING_DAMPER)?;
    println!("{NAME} registered at slot {slot}");

    let flags = r#"eulerdamp="disable""#;
    let plugin = trajectory(&model_xml("Euler", flags, false), 1000)?;
    let builtin = trajectory(&model_xml("Euler", flags, true), 1000)?;
    let last = plugin.last().ok_or("no steps")?;
    println!(
        "after 2 s: hinge {:.6} rad, slide {:.6} m",
        last[0], last[1]
    );
    let gap = plugin
        .iter()
        .zip(&builtin)
        .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
        .fold(0.0, Real::max);
    println!("largest difference from the built-in spring-damper over 1000 steps: {gap:e}");
    Ok(())
}
