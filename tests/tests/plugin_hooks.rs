//! The plugin stages of the pipeline, with a plugin of this test's own that records what the
//! engine asks of it: where each capability is computed, that `advance` follows every
//! integrator once per step, that resets keep the state for the plugin's `reset`, that copies
//! and the state API carry plugin state, and that sensor plugins of the velocity stage see
//! `subtree_linvel` computed for them.

use mjrs_core::io::{copy_data, reset_data};
use mjrs_core::plugin::{
    instance_state, plugin_config, register_plugin, Plugin, PLUGIN_ACTUATOR, PLUGIN_PASSIVE,
    PLUGIN_SENSOR,
};
use mjrs_core::types::*;
use mjrs_core::{forward, get_state, state_size, step, Data, Model, Real, StepError};

/// Counts and forces through every capability but SDF.
struct Hooks;

impl Plugin for Hooks {
    fn name(&self) -> &'static str {
        "test.hooks"
    }
    fn attributes(&self) -> &'static [&'static str] {
        &["gain", "push"]
    }
    fn capabilities(&self) -> u32 {
        PLUGIN_ACTUATOR | PLUGIN_SENSOR | PLUGIN_PASSIVE
    }
    fn needstage(&self) -> i32 {
        STAGE_VEL
    }
    fn nstate(&self, _m: &Model, _instance: usize) -> usize {
        2
    }
    fn nsensordata(&self, _m: &Model, _instance: usize, _sensor_id: usize) -> usize {
        3
    }
    fn reset(&self, _m: &Model, state: &mut [Real], _instance: usize) {
        state.copy_from_slice(&[1.5, 0.0]);
    }
    fn advance(&self, m: &Model, d: &mut Data, instance: usize) {
        instance_state(m, d.plugin_state, instance)[1] += 1.0;
    }
    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        capability: u32,
    ) -> Result<(), StepError> {
        let number = |key| {
            plugin_config(m, instance, key)
                .unwrap()
                .parse::<Real>()
                .unwrap()
        };
        match capability {
            PLUGIN_ACTUATOR => {
                for u in (0..m.nu).filter(|&u| m.actuator_plugin[u] == instance as i32) {
                    d.actuator_force[u] = number("gain") * d.ctrl[u];
                }
            }
            PLUGIN_PASSIVE => d.qfrc_passive[0] += number("push"),
            PLUGIN_SENSOR => {
                let s = (0..m.nsensor)
                    .find(|&s| m.sensor_plugin[s] == instance as i32)
                    .unwrap();
                let adr = m.sensor_adr[s] as usize;
                let steps = instance_state(m, d.plugin_state, instance)[1];
                let reading = [d.time, steps, d.subtree_linvel[3]];
                d.sensordata[adr..adr + 3].copy_from_slice(&reading);
            }
            _ => panic!("capability {capability}"),
        }
        Ok(())
    }
}

static HOOKS: Hooks = Hooks;

const MODEL: &str = r#"
<mujoco>
  <option integrator="INTEGRATOR"/>
  <extension>
    <plugin plugin="test.hooks">
      <instance name="h">
        <config key="gain" value="2.5"/>
        <config key="push" value="0.25"/>
      </instance>
    </plugin>
  </extension>
  <worldbody>
    <body name="b">
      <joint name="j" type="slide" axis="1 0 0"/>
      <geom size=".1" mass="2"/>
    </body>
  </worldbody>
  <actuator>
    <plugin joint="j" instance="h"/>
  </actuator>
  <sensor>
    <plugin instance="h" cutoff="0.5"/>
  </sensor>
</mujoco>
"#;

fn with_model(integrator: &str, f: impl FnOnce(&Model, &mut Data)) {
    register_plugin(&HOOKS).unwrap();
    let xml = MODEL.replace("INTEGRATOR", integrator);
    let mut owned = mjrs_xml::compile_str(&xml, "hooks.xml", "", None)
        .unwrap()
        .model;
    let m = owned.view();
    let mut buf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut buf).unwrap();
    f(&m, &mut d);
}

#[test]
fn model_fields_name_the_instance() {
    with_model("Euler", |m, _| {
        assert_eq!((m.nplugin, m.npluginstate), (1, 2));
        assert_eq!(m.actuator_plugin[0], 0);
        assert_eq!(m.sensor_plugin[0], 0);
        assert_eq!((m.sensor_type[0], m.sensor_dim[0]), (SENS_PLUGIN, 3));
        assert_eq!(m.sensor_needstage[0], STAGE_VEL);
        assert_eq!(plugin_config(m, 0, "gain"), Some("2.5"));
        assert_eq!(plugin_config(m, 0, "nothing"), None);
    });
}

#[test]
fn each_capability_runs_in_its_stage_and_advance_once_per_step() {
    for integrator in ["Euler", "RK4", "implicit", "implicitfast"] {
        with_model(integrator, |m, d| {
            assert_eq!(d.plugin_state, [1.5, 0.0], "reset at creation");
            d.ctrl[0] = 0.1;
            for _ in 0..5 {
                step(m, d).unwrap();
            }
            assert_eq!(
                d.plugin_state[1], 5.0,
                "{integrator}: advance once per step"
            );
            forward(m, d).unwrap();
            assert_eq!(d.actuator_force[0], 2.5 * 0.1);
            assert_eq!(d.qfrc_actuator[0], d.actuator_force[0]);
            assert_eq!(d.qfrc_passive[0], 0.25);
            // time, steps (clipped by the cutoff), and the subtree velocity the stage computed
            // for the plugin although no built-in sensor asked for it
            assert_eq!(d.sensordata[0], 0.5_f64.min(d.time));
            assert_eq!(d.sensordata[1], 0.5);
            assert_eq!(d.sensordata[2], d.qvel[0].clamp(-0.5, 0.5));
            assert_ne!(d.qvel[0], 0.0);
        });
    }
}

#[test]
fn reset_copy_and_state_api_carry_plugin_state() {
    with_model("Euler", |m, d| {
        for _ in 0..3 {
            step(m, d).unwrap();
        }
        let mut buf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut copy = Data::new(m, &mut buf).unwrap();
        copy_data(&mut copy, d).unwrap();
        assert_eq!(copy.plugin_state, [1.5, 3.0]);
        let n = state_size(m, STATE_PLUGIN).unwrap();
        let mut state = vec![0.0; n];
        get_state(m, d, &mut state, STATE_PLUGIN).unwrap();
        assert_eq!(state, [1.5, 3.0]);
        reset_data(m, d);
        assert_eq!(
            d.plugin_state,
            [1.5, 0.0],
            "the plugin's reset runs on reset"
        );
    });
}
