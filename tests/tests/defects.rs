//! Regression tests for the defects issue 11 lists (found by reading the core, two reproduced
//! with models MuJoCo 3.1.6 steps): each once panicked or disagreed with itself.

use mjrs_alloc::OwnedModel;
use mjrs_tests::{compile_model, fixtures, read_json};

fn compile_text(xml: &str) -> OwnedModel {
    mjrs_xml::compile_str(xml, "test.xml", "", None)
        .unwrap()
        .model
}

/// qpos and qvel after `steps` steps of the control law, as bits.
fn run(owned: &mut OwnedModel, steps: usize) -> (Vec<u64>, Vec<u64>, Vec<f64>) {
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs::stepping::run_control(&m, &mut d, steps).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect();
    (bits(d.qpos), bits(d.qvel), d.ten_length.to_vec())
}

/// The repeated-joint model with the two entries of joint j1 given as one.
fn summed(xml: &str) -> String {
    let repeated = "      <joint joint=\"j1\" coef=\"1\"/>\n      <joint joint=\"j1\" coef=\"2\"/>";
    assert!(xml.contains(repeated));
    xml.replace(repeated, "      <joint joint=\"j1\" coef=\"3\"/>")
}

fn model_text(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn a_fixed_tendon_listing_a_joint_twice_acts_as_its_summed_coefficient() {
    // sparse Jacobian, PGS, tendon friction loss: the sparse projection once indexed past
    // its row buffer
    let xml = model_text("defect_tendon_repeated_joint.xml");
    let (q1, v1, len1) = run(&mut compile_text(&xml), 200);
    let (q2, v2, len2) = run(&mut compile_text(&summed(&xml)), 200);
    assert_eq!((q1, v1), (q2, v2));
    assert!((len1[0] - len2[0]).abs() < 1e-12, "{len1:?} {len2:?}");
    // the pendulum moved: friction loss did not freeze it
    assert!(f64::from_bits(run(&mut compile_text(&xml), 200).0[0]).abs() > 0.1);
}

#[test]
fn a_tendon_equality_on_such_a_tendon_steps_and_couples_the_tendons() {
    // the equality's row combination once overran its buffer (MuJoCo 3.1.6 stops here with
    // "constraint Jacobian mis-allocation")
    let xml = model_text("defect_tendon_repeated_equality.xml");
    let (q1, v1, len) = run(&mut compile_text(&xml), 200);
    let (q2, v2, _) = run(&mut compile_text(&summed(&xml)), 200);
    assert_eq!((q1, v1), (q2, v2));
    assert!((len[0] - len[1]).abs() < 0.05, "tendon lengths {len:?}");
}

#[test]
fn a_fixed_tendon_listing_a_joint_more_often_than_there_are_dofs_loads_and_steps() {
    // found by the property tests' model generator: with one dof, a sparse Jacobian row holds
    // one entry, and the third listing of j0 once wrote past `ten_J` (a panic in the compiler's
    // own forward pass); the MJB loader refused such a model that the compiler had written
    let xml = |list: &str| {
        format!(
            r#"<mujoco><option jacobian="sparse"/><worldbody><body>
              <joint name="j0" axis="0 1 0" limited="true" range="-1 1"/>
              <geom size=".1" pos=".2 0 0"/></body></worldbody>
              <tendon><fixed name="t" limited="true" range="-.1 .1" frictionloss=".1">{list}</fixed>
              </tendon></mujoco>"#
        )
    };
    let mut listed = compile_text(&xml(
        r#"<joint joint="j0" coef="1"/><joint joint="j0" coef="2"/>
        <joint joint="j0" coef="-.5"/>"#,
    ));
    let mut once = compile_text(&xml(r#"<joint joint="j0" coef="2.5"/>"#));
    let mut loaded = OwnedModel::from_mjb(&listed.to_mjb(8).unwrap()).unwrap();
    let listed_run = run(&mut listed, 100);
    let (q, v, _) = run(&mut once, 100);
    assert_eq!((&listed_run.0, &listed_run.1), (&q, &v));
    assert_eq!(listed_run, run(&mut loaded, 100));
}

#[test]
fn rk4_without_degrees_of_freedom_advances_time_as_mujoco() {
    let mut owned = compile_model("defect_rk4_no_dof.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    let ours: serde_json::Value =
        serde_json::from_str(&mjrs::stepping::traj(&m, &mut d, 200, false, 50).unwrap()).unwrap();
    let reference = read_json(&fixtures().join("defects/defect_rk4_no_dof.json"));
    assert_eq!(ours["time"], reference["time"]);
    assert_eq!(ours["energy"], reference["energy"]);
}

#[test]
fn nan_positions_and_tendon_lengths_add_no_limit_rows() {
    // the row counter and the row builder compared NaN differently ("Jacobian
    // mis-allocation"); MuJoCo adds no limit row for a NaN distance
    let xml = r#"<mujoco>
      <worldbody>
        <body>
          <joint name="a" type="hinge" range="-.5 .5" axis="0 1 0"/>
          <joint name="b" type="slide" range="-.1 .1" axis="1 0 0"/>
          <geom type="sphere" size=".1" pos=".2 0 0"/>
        </body>
      </worldbody>
      <tendon>
        <fixed range="-.2 .2"><joint joint="a" coef="1"/><joint joint="b" coef="1"/></fixed>
      </tendon>
    </mujoco>"#;
    for jacobian in ["dense", "sparse"] {
        let text = xml.replace(
            "<mujoco>",
            &format!("<mujoco><option jacobian=\"{jacobian}\"/>"),
        );
        let mut owned = compile_text(&text);
        let m = owned.view();
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        // both joints far outside their ranges: two joint rows and one tendon row
        d.qpos.copy_from_slice(&[2.0, 1.0]);
        mjrs_core::forward(&m, &mut d).unwrap();
        assert_eq!(d.nefc, 3, "{jacobian}");
        d.qpos[0] = f64::NAN;
        mjrs_core::forward(&m, &mut d).unwrap();
        // joint a and the tendon (its length is NaN) add nothing; joint b still does
        assert_eq!(d.nefc, 1, "{jacobian}");
        assert!(d.ten_length[0].is_nan());
    }
}

#[test]
fn endless_iteration_settings_are_refused_before_any_work() {
    // mpr_iterations = i32::MAX with mpr_tolerance = -1 once ran for hours per step: the
    // tolerance that can never be met is refused, a large cap alone is not (as in MuJoCo)
    let mut owned = compile_model("convex_drop.xml");
    let mut m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::step(&m, &mut d).unwrap();
    let base = m.opt;
    type Edit = fn(&mut mjrs_core::model::Options);
    let cases: [(&str, Edit); 6] = [
        ("mpr_iterations", |o| o.mpr_iterations = -1),
        ("mpr_tolerance", |o| o.mpr_tolerance = -1.0),
        ("opt.tolerance", |o| o.tolerance = f64::NAN),
        ("opt.iterations", |o| o.iterations = -1),
        ("ls_iterations", |o| o.ls_iterations = -1),
        ("noslip_tolerance", |o| o.noslip_tolerance = -1e-9),
    ];
    for (name, set) in cases {
        m.opt = base;
        set(&mut m.opt);
        let time = d.time;
        let err = mjrs_core::step(&m, &mut d).unwrap_err();
        assert!(err.to_string().contains(name), "{name}: {err}");
        assert_eq!(d.time, time, "{name}: the state is untouched");
        assert!(mjrs_core::forward(&m, &mut d).is_err());
    }
    // zero tolerances and huge caps with tolerances that can be met are fine
    m.opt = base;
    m.opt.tolerance = 0.0;
    mjrs_core::step(&m, &mut d).unwrap();
    m.opt = base;
    m.opt.iterations = 100_000_000;
    m.opt.mpr_iterations = i32::MAX;
    mjrs_core::step(&m, &mut d).unwrap();
}

#[test]
fn data_views_refuse_headers_whose_arena_marks_do_not_fit() {
    use mjrs_core::{ArenaError, Data};
    let mut owned = compile_model("convex_drop.xml");
    let m = owned.view();
    let mut buf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let header = {
        let mut d = Data::new(&m, &mut buf).unwrap();
        for _ in 0..300 {
            mjrs_core::step(&m, &mut d).unwrap();
        }
        d.header()
    };
    // the header as it is views the same data
    assert!(Data::view(&header, &mut buf).unwrap().ncon > 0);
    let bad = |edit: fn(&mut mjrs_core::DataHeader)| {
        let mut h = header.clone();
        edit(&mut h);
        h
    };
    for h in [
        bad(|h| h.arena.parena = usize::MAX / 2),
        bad(|h| h.arena.pstack = usize::MAX),
        bad(|h| h.arena_fields[0].0 = usize::MAX / 4),
    ] {
        assert!(matches!(
            Data::view(&h, &mut buf),
            Err(ArenaError::BadHeader)
        ));
    }
}
