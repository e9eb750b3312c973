//! The compiler's plugin machinery with plugins of the test's own (`test.counter`,
//! `test.other`), registered from outside the crates as a user would: instances named in
//! `extension` and implicit ones, their numbering, configuration layout, state layout, the
//! sizes the plugins decide (sensor dimensions, activations), the checks of references, and
//! the MJB round trip. MuJoCo's own plugins are compared with MuJoCo in `tests/tests/compile.rs`.

use mjrs_alloc::OwnedModel;
use mjrs_core::model::Model;
use mjrs_core::plugin::{
    get_plugin, plugin_config, register_plugin, Plugin, PluginError, PLUGIN_ACTUATOR,
    PLUGIN_PASSIVE, PLUGIN_SENSOR,
};
use mjrs_core::types::*;
use mjrs_xml::{compile_str, XmlError};

/// Actuator, sensor and passive capabilities; sizes from its configuration.
struct Counter;

impl Plugin for Counter {
    fn name(&self) -> &'static str {
        "test.counter"
    }
    fn attributes(&self) -> &'static [&'static str] {
        &["dim", "act", "fail"]
    }
    fn capabilities(&self) -> u32 {
        PLUGIN_ACTUATOR | PLUGIN_SENSOR | PLUGIN_PASSIVE
    }
    fn needstage(&self) -> i32 {
        STAGE_VEL
    }
    /// One state value per actuator and sensor using the instance.
    fn nstate(&self, m: &Model, instance: usize) -> usize {
        let uses = |ids: &[i32]| ids.iter().filter(|&&i| i == instance as i32).count();
        uses(&m.actuator_plugin) + uses(&m.sensor_plugin)
    }
    fn nsensordata(&self, m: &Model, instance: usize, _sensor_id: usize) -> usize {
        number(m, instance, "dim").unwrap_or(2)
    }
    fn actuator_actdim(&self, m: &Model, instance: usize, _actuator_id: usize) -> usize {
        number(m, instance, "act").unwrap_or(0)
    }
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        match plugin_config(m, instance, "fail") {
            Some("") | None => Ok(()),
            Some(_) => Err(PluginError::failed("told to fail")),
        }
    }
}

/// A second plugin, with no capability that elements need.
struct Other;

impl Plugin for Other {
    fn name(&self) -> &'static str {
        "test.other"
    }
}

fn number(m: &Model, instance: usize, key: &str) -> Option<usize> {
    plugin_config(m, instance, key)?.parse().ok()
}

static COUNTER: Counter = Counter;
static OTHER: Other = Other;

fn register() -> usize {
    register_plugin(&OTHER).unwrap();
    register_plugin(&COUNTER).unwrap()
}

fn compile(xml: &str) -> Result<OwnedModel, XmlError> {
    register();
    compile_str(xml, "plugin.xml", "", None).map(|c| c.model)
}

fn fails_with(xml: &str, parts: &[&str]) {
    let msg = match compile(xml) {
        Ok(_) => panic!("compiled: {xml}"),
        Err(e) => e.to_string(),
    };
    for p in parts {
        assert!(msg.contains(p), "{msg:?} lacks {p:?}");
    }
}

/// Named instances first, implicit ones in reading order: actuators and sensors are read
/// before the world body.
const MODEL: &str = r#"
<mujoco>
  <extension>
    <plugin plugin="test.counter">
      <instance name="c">
        <config key="dim" value="3"/>
        <config key="act" value="2"/>
      </instance>
    </plugin>
    <plugin plugin="test.other"/>
  </extension>
  <worldbody>
    <body name="b">
      <joint name="j" type="slide"/>
      <geom size="0.1"/>
      <plugin plugin="test.counter"/>
    </body>
  </worldbody>
  <actuator>
    <plugin name="a0" joint="j" instance="c" dyntype="filter"/>
    <motor joint="j"/>
    <plugin name="a2" joint="j" plugin="test.counter">
      <config key="act" value="1"/>
    </plugin>
  </actuator>
  <sensor>
    <jointpos joint="j"/>
    <plugin name="s1" instance="c" objtype="body" objname="b"/>
    <plugin name="s2" plugin="test.counter"/>
    <clock/>
  </sensor>
</mujoco>"#;

#[test]
fn instances_configuration_and_sizes() {
    let slot = register() as i32;
    let mut owned = compile(MODEL).unwrap();
    let m = owned.view();
    assert_eq!(m.nplugin, 4);
    assert_eq!(m.plugin, [slot; 4]);
    // instance 0 is the named one; 1 the actuator's, 2 the sensor's, 3 the body's
    assert_eq!(m.actuator_plugin, [0, -1, 1]);
    assert_eq!(m.sensor_plugin, [-1, 0, 2, -1]);
    assert_eq!(m.body_plugin, [-1, 3]);
    assert_eq!(m.geom_plugin, [-1]);
    // every attribute of the plugin, in its order, NUL-terminated
    let attr: &[u8] = b"3\x002\x00\x00\x001\x00\x00\x00\x00\x00\x00\x00\x00";
    assert_eq!(m.plugin_attr, attr);
    assert_eq!(m.npluginattr, attr.len());
    assert_eq!(m.plugin_attradr, [0, 5, 9, 12]);
    assert_eq!(plugin_config(&m, 0, "dim"), Some("3"));
    assert_eq!(plugin_config(&m, 1, "act"), Some("1"));
    assert_eq!(plugin_config(&m, 2, "dim"), Some(""));
    // state: instance 0 serves two elements, 1 and 2 one each, the body's none
    assert_eq!(m.plugin_statenum, [2, 1, 1, 0]);
    assert_eq!(m.plugin_stateadr, [0, 2, 3, 4]);
    assert_eq!(m.npluginstate, 4);
    // activations: the filter's, then the plugin's
    assert_eq!(m.actuator_actnum, [3, 0, 1]);
    assert_eq!(m.actuator_actadr, [0, -1, 3]);
    assert_eq!(m.na, 4);
    // plugin sensors: the plugin's dimension and stage
    assert_eq!(m.sensor_type[1], SENS_PLUGIN);
    assert_eq!(m.sensor_dim, [1, 3, 2, 1]);
    assert_eq!(m.sensor_adr, [0, 1, 4, 6]);
    assert_eq!(
        m.sensor_needstage,
        [STAGE_POS, STAGE_VEL, STAGE_VEL, STAGE_POS]
    );
    assert_eq!(m.sensor_objtype[1], OBJ_BODY);
    assert_eq!(m.sensor_objid[1], 1);
    assert_eq!(m.sensor_objtype[2], OBJ_UNKNOWN);
    assert_eq!(m.nsensordata, 7);
    // names: the named instance, then empty ones
    let name = |i: usize| {
        let adr = m.name_pluginadr[i] as usize;
        let end = m.names[adr..].iter().position(|&b| b == 0).unwrap();
        String::from_utf8(m.names[adr..adr + end].to_vec()).unwrap()
    };
    assert_eq!(name(0), "c");
    assert_eq!(name(3), "");
}

#[test]
fn mjb_round_trip_keeps_every_plugin_field() {
    let mut owned = compile(MODEL).unwrap();
    let blob = owned.to_mjb(8).unwrap();
    let mut loaded = OwnedModel::from_mjb(&blob).unwrap();
    assert_eq!(loaded.to_mjb(8).unwrap(), blob);
    let m = loaded.view();
    assert_eq!(m.nplugin, 4);
    assert_eq!(m.plugin_statenum, [2, 1, 1, 0]);
    assert_eq!(m.sensor_dim, [1, 3, 2, 1]);
}

#[test]
fn config_of_an_element_naming_an_instance_is_ignored() {
    // MuJoCo reads `config` only for implicit instances
    let xml = MODEL.replace(
        r#"<plugin name="a0" joint="j" instance="c" dyntype="filter"/>"#,
        r#"<plugin name="a0" joint="j" instance="c" dyntype="filter"><config key="x" value="1"/></plugin>"#,
    );
    let mut owned = compile(&xml).unwrap();
    assert_eq!(owned.view().nplugin, 4);
}

#[test]
fn references_are_checked() {
    register();
    let mismatch = MODEL.replace(
        r#"instance="c" objtype"#,
        r#"instance="c" plugin="test.other" objtype"#,
    );
    fails_with(
        &mismatch,
        &[
            "'plugin' attribute does not match that of the instance",
            "Element name 's1', id 1",
        ],
    );
    let wrong_capability = MODEL.replace(
        r#"<plugin name="s2" plugin="test.counter"/>"#,
        r#"<plugin name="s2" plugin="test.other"/>"#,
    );
    fails_with(
        &wrong_capability,
        &["plugin 'test.other' does not support sensors", "'s2', id 2"],
    );
    let geom = MODEL.replace(
        r#"<geom size="0.1"/>"#,
        r#"<geom name="g" size="0.1"><plugin instance="c"/></geom>"#,
    );
    fails_with(
        &geom,
        &[
            "plugin 'test.counter' does not support sign distance fields",
            "'g', id 0",
        ],
    );
    let unknown = MODEL.replace(
        r#"<plugin name="s2" plugin="test.counter"/>"#,
        r#"<plugin name="s2" plugin="test.nope"/>"#,
    );
    fails_with(
        &unknown,
        &["unrecognized plugin 'test.nope'", "Element name 's2'"],
    );
    let bad_key = MODEL.replace(r#"key="dim" value="3""#, r#"key="dims" value="3""#);
    fails_with(
        &bad_key,
        &[
            "unrecognized attribute 'plugin:dims' for plugin test.counter'",
            "name 'c', id 0",
        ],
    );
}

#[test]
fn init_failure_is_a_compile_error() {
    let xml = MODEL.replace(
        r#"<config key="act" value="1"/>"#,
        r#"<config key="act" value="1"/><config key="fail" value="yes"/>"#,
    );
    fails_with(
        &xml,
        &["plugin->init failed for plugin id 1", "told to fail"],
    );
}

#[test]
fn registered_plugin_slots_are_the_model_slots() {
    let slot = register();
    assert_eq!(get_plugin("test.counter").map(|(s, _)| s), Some(slot));
    let other = get_plugin("test.other").unwrap().0;
    let xml = r#"<mujoco><extension><plugin plugin="test.other"><instance name="o"/></plugin>
        </extension></mujoco>"#;
    let mut owned = compile(xml).unwrap();
    assert_eq!(owned.view().plugin, [other as i32]);
}

#[test]
fn first_party_plugins_missing_from_the_build_are_named() {
    // a first-party name this build lacks is refused as unsupported, not as unknown (the
    // compiler registers the ones it has first)
    mjrs_core::plugin::register_first_party();
    let missing = mjrs_core::plugin::FIRST_PARTY
        .iter()
        .find(|n| get_plugin(n).is_none());
    if let Some(name) = missing {
        let xml = format!(r#"<mujoco><extension><plugin plugin="{name}"/></extension></mujoco>"#);
        match compile(&xml) {
            Err(e @ XmlError::Unsupported { .. }) => assert!(e.to_string().contains(name)),
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
    }
    fails_with(
        r#"<mujoco><extension><plugin plugin="test.none"/></extension></mujoco>"#,
        &["XML Error: unknown plugin 'test.none'", "line 1"],
    );
}

#[test]
fn meshes_from_sdf_plugins_are_checked() {
    fails_with(
        r#"<mujoco><extension><plugin plugin="test.counter"><instance name="c"/></plugin></extension>
        <asset><mesh name="m"><plugin/></mesh></asset></mujoco>"#,
        &["neither 'plugin' nor 'instance' is specified for mesh 'm', (id = 0)"],
    );
    fails_with(
        r#"<mujoco><extension><plugin plugin="test.counter"><instance name="c"/></plugin></extension>
        <asset><mesh name="m" scale="2 1 1"><plugin instance="c"/></mesh></asset></mujoco>"#,
        &["attribute scale is not compatible with SDFs in mesh 'm', (id = 0)"],
    );
    fails_with(
        r#"<mujoco><extension><plugin plugin="test.counter"><instance name="c"/></plugin></extension>
        <asset><mesh name="m"><plugin instance="c"/></mesh></asset></mujoco>"#,
        &["plugin 'test.counter' does not support signed distance fields"],
    );
}

#[test]
fn keyframe_activations_include_the_plugins() {
    // MuJoCo 3.1.6 checks a keyframe's `act` against the activations without the plugins' and
    // then writes past its arrays (it crashes); mjrs sizes keyframes with all of them
    let with_key = |act: &str| {
        MODEL.replace(
            "</sensor>",
            &format!("</sensor><keyframe><key act=\"{act}\"/></keyframe>"),
        )
    };
    let mut owned = compile(&with_key("1 2 3 4")).unwrap();
    assert_eq!(owned.view().key_act, [1.0, 2.0, 3.0, 4.0]);
    fails_with(
        &with_key("1 2 3"),
        &["key 0: invalid act size, expected length 4"],
    );
}

#[test]
fn plugin_of_a_mesh_read_from_a_file_is_refused() {
    register();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mesh/");
    let xml = r#"<mujoco><extension><plugin plugin="test.counter"/></extension>
        <asset><mesh name="m" file="cube.obj"><plugin plugin="test.counter"/></mesh></asset>
        </mujoco>"#;
    let err = compile_str(xml, "plugin.xml", dir, None)
        .map(|_| ())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("implicit plugin instance 0 is not used"),
        "{err}"
    );
}

/// Answers sizes no model can hold.
struct Huge;

impl Plugin for Huge {
    fn name(&self) -> &'static str {
        "test.huge"
    }
    fn capabilities(&self) -> u32 {
        PLUGIN_SENSOR
    }
    fn nsensordata(&self, _m: &Model, _instance: usize, _sensor_id: usize) -> usize {
        usize::MAX
    }
    fn nstate(&self, _m: &Model, _instance: usize) -> usize {
        1 << 30
    }
}

static HUGE: Huge = Huge;

#[test]
fn sizes_a_plugin_cannot_mean_are_errors() {
    register_plugin(&HUGE).unwrap();
    let xml = r#"<mujoco><extension><plugin plugin="test.huge"/></extension>
        <sensor><plugin plugin="test.huge"/></sensor></mujoco>"#;
    fails_with(
        xml,
        &["plugin 'test.huge' (instance 0) gives a sensor dimension"],
    );
    let two = r#"<mujoco><extension><plugin plugin="test.huge"/></extension>
        <sensor><plugin plugin="test.huge"/><plugin plugin="test.huge"/></sensor></mujoco>"#;
    let _ = compile(two).map(|_| ()).unwrap_err();
}
