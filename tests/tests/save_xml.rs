//! The MJCF writer (`mjrs_xml::writer::write_xml`, MuJoCo's `mj_saveLastXML`): every model of
//! `tests/fixtures/compile-models.txt` that mjrs compiles is read into a spec, written back to
//! MJCF, and the text compiles (with the original's directory, so assets resolve) to a model
//! identical to the original's, field by field, bit for bit. Writing the spec read from the
//! written text gives the same text again. Models are compared both through their JSON dumps
//! (reals bit for bit, `-0` included) and in memory (names, paths, text data, visual settings).
//!
//! `MJRS_SAVE_ONLY=NAME` runs one model; `MJRS_SAVE_DIR=DIR` also stores each written text as
//! `DIR/NAME.xml` for inspection.

use mjrs_tests::model_diff::differences;
use mjrs_tests::{compare, fixtures};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A model of the corpus.
struct Entry {
    name: String,
    path: PathBuf,
    note: String,
}

fn corpus() -> Vec<Entry> {
    let text = std::fs::read_to_string(fixtures().join("compile-models.txt")).unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            Entry {
                name: c[0].to_string(),
                path: models.join(c[1]),
                note: c.get(2).unwrap_or(&"-").to_string(),
            }
        })
        .collect()
}

fn model_json(c: &mut mjrs_xml::Compilation) -> Value {
    serde_json::from_str(&mjrs::dump::model_json(&c.model.view())).unwrap()
}

/// Writes the model `text` (file `file` in `dir`) back to MJCF and compares the compiled models;
/// `Ok(None)` when mjrs does not compile the original.
fn check(text: &str, file: &str, dir: &str) -> Result<Option<String>, String> {
    let Ok(mut original) = mjrs_xml::compile_str(text, file, dir, None) else {
        return Ok(None);
    };
    let (spec, _) =
        mjrs_xml::parse_str(text, file, dir, None).map_err(|e| format!("parse: {e}"))?;
    let written = mjrs_xml::writer::write_xml(&spec).map_err(|e| format!("write: {e}"))?;
    // copying an unchanged model back (`mj_saveLastXML` right after loading) changes nothing
    let mut copied = spec.clone();
    {
        let m = original.model.view();
        mjrs_xml::writer::copy_back::copy_back(&mut copied, &m, &m)
            .map_err(|e| format!("copy back: {e}"))?;
    }
    let copied = mjrs_xml::writer::write_xml(&copied).map_err(|e| format!("write copied: {e}"))?;
    if copied != written {
        // only where MuJoCo saves a computed value (a muscle's length range): the same model
        let mut c = mjrs_xml::compile_str(&copied, file, dir, None)
            .map_err(|e| format!("compile copied text: {e}"))?;
        let (diffs, _) = differences(&original.model.view(), &c.model.view());
        if !diffs.is_empty() {
            return Err("copying the unchanged model back changed the model".into());
        }
    }
    let mut again = mjrs_xml::compile_str(&written, file, dir, None)
        .map_err(|e| format!("compile written text: {e}"))?;
    let report = compare(&model_json(&mut original), &model_json(&mut again));
    if !report.is_match(0.0) {
        return Err(format!("models differ:\n{}", report.summary(0.0)));
    }
    // the in-memory comparison also covers names, paths, text data and visual settings
    let (diffs, _) = differences(&original.model.view(), &again.model.view());
    if !diffs.is_empty() {
        let list: Vec<String> = diffs
            .iter()
            .map(|d| format!("{} {}", d.name, d.what))
            .collect();
        return Err(format!("models differ: {}", list.join("; ")));
    }
    let (spec2, _) = mjrs_xml::parse_str(&written, file, dir, None)
        .map_err(|e| format!("parse written text: {e}"))?;
    let rewritten = mjrs_xml::writer::write_xml(&spec2).map_err(|e| format!("write again: {e}"))?;
    // the reader keeps the comment only when nothing, not even white space, precedes it in
    // `mujoco` (MuJoCo's tinyxml2 has no white-space nodes): the written comment is lost
    if without_comment(&rewritten) != without_comment(&written) {
        return Err("writing the written model again gives another text".into());
    }
    Ok(Some(written))
}

/// The text without its comment line (the one after the root element's start tag).
fn without_comment(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if lines
        .get(1)
        .is_some_and(|l| l.trim_start().starts_with("<!--"))
    {
        lines.remove(1);
    }
    lines.join("\n")
}

/// Models whose written text MuJoCo's reader refuses as well, with the reason.
const NOT_READABLE_WRITTEN: &[(&str, &str)] = &[
    (
        "xml_nesting_through_include",
        "the include spliced in nests 600 bodies in one file, past TinyXML2's 499 levels",
    ),
    (
        "xml_number_hex_subnormal_exact",
        "0x1p-1074 is exact in hexadecimal; written in decimal it is an inexact subnormal (ERANGE)",
    ),
];

#[test]
fn written_models_compile_to_the_same_model() {
    let only = std::env::var("MJRS_SAVE_ONLY").ok();
    let save_dir = std::env::var("MJRS_SAVE_DIR").ok();
    let (mut failures, mut nchecked, mut nskipped) = (Vec::new(), 0usize, 0usize);
    for e in corpus() {
        if matches!(e.note.as_str(), "error" | "unsupported" | "urdf")
            || NOT_READABLE_WRITTEN.iter().any(|(n, _)| *n == e.name)
        {
            continue;
        }
        if only.as_deref().is_some_and(|o| o != e.name) {
            continue;
        }
        let file = e.path.to_string_lossy().into_owned();
        let dir = mjrs_xml::reader::dom::resource_dir(&file).to_string();
        // a model in another encoding (the XML reader's ISO-8859-1 case) has no text to write back
        let Ok(text) = std::fs::read_to_string(&e.path) else {
            nskipped += 1;
            continue;
        };
        match check(&text, &file, &dir) {
            Ok(Some(written)) => {
                nchecked += 1;
                if let Some(d) = &save_dir {
                    std::fs::write(Path::new(d).join(format!("{}.xml", e.name)), written).unwrap();
                }
            }
            Ok(None) => nskipped += 1,
            Err(msg) => failures.push(format!("{}: {msg}", e.name)),
        }
    }
    println!(
        "{nchecked} models written and compiled back identically, {nskipped} not compiled by mjrs"
    );
    assert!(
        failures.is_empty(),
        "{} models differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        only.is_some() || nchecked > 100,
        "only {nchecked} models checked"
    );
}

/// A model using what the corpus seldom does: frames interleaved with objects, classes on
/// frames, alternative orientations in classes, shortcuts with `inheritrange`, camera user data
/// cleared by a class, custom data, keyframes, escaped text.
const FEATURES: &str = r#"<mujoco model="features &amp; &quot;more&quot;">
  <!-- a comment -->
  <compiler angle="radian" eulerseq="zyx" boundmass="0.01" settotalmass="5"/>
  <option timestep="0.001" gravity="0 0 -9.8" integrator="RK4" actuatorgroupdisable="2 5">
    <flag warmstart="disable" energy="enable"/>
  </option>
  <size memory="2M" nuserdata="3" nkey="2" nuser_geom="2"/>
  <visual>
    <global offwidth="800" ellipsoidinertia="true"/>
    <rgba haze="0.1 0.2 0.3 1"/>
  </visual>
  <statistic extent="3" center="0 0 1"/>
  <default>
    <geom size="0.1" euler="0.1 0.2 0.3" user="1 2"/>
    <camera user="5 6"/>
    <position kp="10" inheritrange="1"/>
    <default class="arm">
      <joint range="-1 1" limited="true" damping="0.5"/>
      <camera fovy="30"/>
      <general gainprm="3" biasprm="0 -3 -0.5"/>
      <default class="hand">
        <geom type="box" size="0.01 0.02 0.03" quat="0 1 0 0"/>
        <intvelocity kp="4" inheritrange="0.5"/>
      </default>
    </default>
  </default>
  <custom>
    <numeric name="n" size="3" data="1 2"/>
    <text name="t" data="line one&#10;line&#9;two"/>
    <tuple name="tp"><element objtype="body" objname="b1" prm="0.5"/></tuple>
  </custom>
  <asset>
    <texture name="grid" type="2d" builtin="checker" width="64" height="64" rgb1="0.1 0.2 0.3" mark="edge"/>
    <material name="m" texture="grid" texrepeat="2 2" rgba="0.7 0.6 0.5 1"/>
    <hfield name="h" nrow="2" ncol="3" size="1 1 0.5 0.1" elevation="1 2 3 4 5 6"/>
    <mesh name="tet" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" material="m"/>
    <frame name="f0" pos="0 0 0.1" zaxis="0 1 1">
      <site name="s0"/>
    </frame>
    <body name="b1" pos="0 0 1" childclass="arm" gravcomp="0.5">
      <inertial pos="0 0 0" mass="1" fullinertia="2 2 2 0.1 0.2 0.3"/>
      <joint name="j1" axis="1 0 0"/>
      <frame name="f1" pos="0.1 0 0" euler="0 0 1">
        <geom name="g1" class="hand"/>
        <frame pos="0 0.2 0" childclass="hand">
          <geom name="g2" type="capsule" fromto="0 0 0 0 0 0.3"/>
          <camera name="c1"/>
        </frame>
      </frame>
      <geom name="g3"/>
      <camera name="c2" class="main" mode="trackcom" user="7"/>
      <light name="l1" directional="true" pos="0 0 3"/>
      <frame pos="0 0 -0.5">
        <body name="b2" pos="0 0 -0.1">
          <joint name="j2" type="slide" axis="0 0 1" range="-0.1 0.1"/>
          <geom name="g4" type="mesh" mesh="tet"/>
          <site name="s2" size="0.02"/>
        </body>
      </frame>
    </body>
    <body name="b3" childclass="arm" mocap="false" pos="0 1 0">
      <freejoint name="free"/>
      <geom name="g5" class="main" size="0.05"/>
    </body>
    <body name="mocap" mocap="true" pos="1 1 1" axisangle="0 0 1 0.5">
      <geom name="g6" type="box" size="0.1 0.1 0.1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <contact>
    <pair geom1="g3" geom2="floor" condim="4" friction="1 1 0.01 0.001 0.001"/>
    <exclude body1="b1" body2="b2"/>
  </contact>
  <equality>
    <weld body1="b3" relpose="0 0 0 1 0 0 0" torquescale="2"/>
    <joint joint1="j2" polycoef="0 2"/>
  </equality>
  <tendon>
    <fixed name="ft" range="0 1" limited="true"><joint joint="j1" coef="0.5"/><joint joint="j2" coef="-1"/></fixed>
    <spatial name="st" width="0.01"><site site="s0"/><geom geom="g5"/><site site="s2"/><pulley divisor="2"/><site site="s2"/><site site="s0"/></spatial>
  </tendon>
  <actuator>
    <position name="p1" joint="j1"/>
    <position name="p2" class="arm" joint="j1" kp="5" kv="1" inheritrange="0.8"/>
    <intvelocity name="iv" class="hand" joint="j2" actrange="-1 1" inheritrange="0"/>
    <motor name="mt" tendon="ft" gear="2" ctrlrange="-1 1"/>
    <muscle name="mu" tendon="st" range="0.75 1.05" lengthrange="0.1 0.5"/>
    <damper name="dp" joint="j2" kv="3" ctrlrange="0 1"/>
  </actuator>
  <sensor>
    <jointpos name="jp" joint="j1" noise="0.1"/>
    <framepos objtype="body" objname="b1" reftype="site" refname="s0"/>
    <distance geom1="g1" body2="b3"/>
    <user name="u" dim="2" needstage="vel" datatype="positive" user="1"/>
    <clock cutoff="10"/>
  </sensor>
  <keyframe>
    <key name="k" time="1.5" qpos="0.1 0.01 0 0 1 1 0 0 0" mpos="1 1 2"/>
    <key ctrl="0 0 0 0.5 0 0.2"/>
  </keyframe>
</mujoco>
"#;

/// More of the same: camera intrinsics, classes for every element kind, frames around bodies,
/// every transmission, the other actuator shortcuts, more sensors.
const MORE: &str = r#"<mujoco model="more">
  <compiler angle="degree" autolimits="true" inertiafromgeom="auto" fusestatic="false">
    <lengthrange mode="muscle" tolrange="0.1" useexisting="false"/>
  </compiler>
  <option o_solref="0.01 2" cone="elliptic" jacobian="sparse" solver="CG" iterations="20">
    <flag override="enable" contact="enable" gravity="disable"/>
  </option>
  <visual>
    <headlight ambient="0.2 0.2 0.2" active="0"/>
    <map znear="0.02"/>
    <scale com="0.5"/>
    <quality shadowsize="1024"/>
  </visual>
  <default>
    <default class="cam">
      <camera sensorsize="0.01 0.01" resolution="100 80" focal="0.02 0.02" axisangle="1 0 0 90"/>
      <site type="box" size="0.01 0.02 0.03" rgba="0 1 0 1"/>
      <light castshadow="false" diffuse="0.5 0.5 0.5" dir="0 -1 0"/>
      <geom fluidshape="ellipsoid" fluidcoef="0.4 0.2 1.4 0.9 0.9" solimp="0.8 0.9" friction="0.5"/>
      <pair condim="6" solreffriction="-100 -10"/>
      <equality solref="0.05 0.5" active="false"/>
      <tendon springlength="0.3" stiffness="10" rgba="1 0 0 1"/>
      <mesh scale="2 2 2"/>
      <material emission="0.5" texuniform="true"/>
      <joint type="ball" springdamper="0.5 1" actuatorfrcrange="-5 5"/>
    </default>
  </default>
  <asset>
    <mesh name="box" class="cam" vertex="-1 -1 -1 1 -1 -1 -1 1 -1 1 1 -1 -1 -1 1 1 -1 1 -1 1 1 1 1 1" refpos="0.1 0 0"/>
    <material name="shiny" class="cam" specular="0.9"/>
  </asset>
  <worldbody>
    <light name="spot" class="cam" target="b1" mode="targetbody" pos="0 0 2"/>
    <body name="b1" pos="0 0 1" childclass="cam" xyaxes="0 1 0 -1 0 0">
      <joint name="ball"/>
      <geom name="g1" type="mesh" mesh="box" material="shiny"/>
      <site name="s1" pos="0 0 0.1"/>
      <site name="s2" pos="0 0.1 0.2"/>
      <camera name="cam1" principalpixel="2 3" sensorsize="0.01 0.01" resolution="100 80"/>
      <camera name="cam2" class="main" fovy="60" resolution="640 480" euler="10 20 30"/>
      <frame name="fa" quat="0 0 0 1">
        <body name="b2" pos="0.3 0 0">
          <joint name="slide" type="slide" axis="1 0 0" range="-0.2 0.2"/>
          <geom name="g2" class="main" type="cylinder" size="0.05 0.1"/>
          <site name="s3" type="sphere" size="0.01"/>
        </body>
        <geom name="g3" class="main" type="ellipsoid" size="0.1 0.05 0.02" pos="0 0.3 0"/>
      </frame>
      <body name="b3" pos="-0.3 0 0">
        <joint name="hinge" class="main" axis="0 1 0"/>
        <geom name="g4" class="main" size="0.05"/>
        <site name="s4" class="main"/>
      </body>
      <frame name="fb" zaxis="1 0 0">
        <site name="s5"/>
        <body name="b4" pos="0 0 -0.5">
          <joint name="h2" class="main" range="-45 45"/>
          <geom name="g5" class="main" size="0.03" mass="0.2"/>
        </body>
      </frame>
      <geom name="g6" class="main" size="0.02" pos="0 0 -0.3"/>
    </body>
  </worldbody>
  <contact>
    <pair class="cam" geom1="g2" geom2="g4" margin="0.01"/>
  </contact>
  <equality>
    <connect class="cam" body1="b2" body2="b3" anchor="0 0 0"/>
    <weld body1="b4" anchor="0.1 0 0" solimp="0.8"/>
    <joint joint1="h2" joint2="hinge"/>
  </equality>
  <tendon>
    <spatial name="t1" class="cam" springlength="0.2 0.4"><site site="s1"/><site site="s3"/></spatial>
    <fixed name="t2" class="cam"><joint joint="slide" coef="1"/></fixed>
  </tendon>
  <actuator>
    <cylinder name="cyl" joint="slide" diameter="0.1" bias="1 2 3" timeconst="0.2"/>
    <adhesion name="adh" body="b3" gain="5" ctrlrange="0 2"/>
    <velocity name="vel" joint="hinge" kv="2" forcerange="-1 1"/>
    <general name="crank" cranksite="s1" slidersite="s2" cranklength="0.1" dynprm="0.5 0.1" dyntype="filter" actdim="1" actearly="true"/>
    <motor name="site" site="s4" refsite="s5" gear="1 2 3 4 5 6"/>
    <position name="ir" joint="h2" kp="3" dampratio="0.7" timeconst="0.05" inheritrange="0.9"/>
    <general name="jip" jointinparent="hinge" user="1 2 3"/>
  </actuator>
  <sensor>
    <camprojection site="s1" camera="cam1"/>
    <touch site="s2" user="0.5"/>
    <fromto body1="b2" geom2="g4" cutoff="1"/>
    <frameangacc objtype="site" objname="s3"/>
    <ballquat joint="ball"/>
    <tendonpos tendon="t1"/>
    <actuatorfrc actuator="cyl"/>
  </sensor>
</mujoco>
"#;

/// Plugins: named instances of two runs of one plugin (their order numbers them), an implicit
/// instance with its configuration, an actuator plugin with a class and activation dynamics.
const PLUGINS: &str = r#"<mujoco model="plugins">
  <extension>
    <plugin plugin="mujoco.pid">
      <instance name="b"><config key="kp" value="3"/><config key="ki" value="1"/></instance>
    </plugin>
    <plugin plugin="mujoco.pid">
      <instance name="a"><config key="kp" value="2"/></instance>
    </plugin>
  </extension>
  <default>
    <default class="c"><general ctrlrange="-1 1" gear="2"/></default>
  </default>
  <worldbody>
    <body><joint name="j1" type="slide"/><geom size=".1"/></body>
    <body pos="1 0 0"><joint name="j2"/><geom size=".1"/></body>
  </worldbody>
  <actuator>
    <plugin joint="j1" instance="a" class="c" dyntype="filter" dynprm="0.5"/>
    <plugin joint="j2" plugin="mujoco.pid" actearly="true">
      <config key="kp" value="5"/><config key="slewmax" value="4"/>
    </plugin>
    <plugin joint="j2" instance="b"/>
  </actuator>
</mujoco>
"#;

#[test]
fn written_features_compile_to_the_same_model() {
    let dir = format!(
        "{}/",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .display()
    );
    for (name, text) in [("features", FEATURES), ("more", MORE), ("plugins", PLUGINS)] {
        let file = format!("{name}.xml");
        match check(text, &file, &dir) {
            Ok(Some(written)) => {
                if let Ok(d) = std::env::var("MJRS_SAVE_DIR") {
                    std::fs::write(Path::new(&d).join(&file), written).unwrap();
                }
            }
            Ok(None) => panic!(
                "{name} does not compile: {:?}",
                mjrs_xml::compile_str(text, &file, &dir, None).err()
            ),
            Err(msg) => panic!("{name}: {msg}"),
        }
    }
}
