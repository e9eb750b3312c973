//! Load an MJCF model and step it: `cargo run --release --example simulate [-- MODEL.xml]`.
//!
//! `mjrs-xml` compiles the file (as `mj_loadXML`) into an `OwnedModel`, `mjrs-alloc` makes the
//! `Data`, and `mjrs-core` steps it. By default: Gymnasium's humanoid on its floor, falling over
//! with its motors off.

use mjrs_core::name::name2id;
use mjrs_core::types::OBJ_BODY;
use mjrs_std::OwnedData;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/assets/humanoid.xml").to_string());

    // mj_loadXML: schema check, defaults, assets, then the compiler; errors name file and line
    let compiled = mjrs_xml::load_xml(&path, None)?;
    for w in &compiled.warnings {
        eprintln!("warning: {w}");
    }
    let mut model = compiled.model;
    // `view()` gives the core's `Model` (edits to its options persist in `model`)
    let m = model.view();
    println!(
        "{path}: nq {} nv {} nu {} nbody {}, timestep {} s",
        m.nq, m.nv, m.nu, m.nbody, m.opt.timestep
    );

    // mj_makeData + mj_resetData; `view()` gives the core's `Data`
    let mut data = OwnedData::new(&m)?;
    let mut d = data.view();

    // follow the humanoid's torso (or body 1 of another model)
    let body = name2id(&m, OBJ_BODY, "torso").unwrap_or(1.min(m.nbody - 1));
    mjrs_core::forward(&m, &mut d)?; // positions of the initial state (mj_forward)
    let steps = (1.0 / m.opt.timestep).round() as usize; // one second of simulated time
    for k in 0..=steps {
        if k % (steps / 5).max(1) == 0 {
            let z = d.xpos[3 * body + 2];
            println!(
                "t = {:.3} s  body {body} height {z:.4} m  contacts {}",
                d.time, d.ncon
            );
        }
        mjrs_core::step(&m, &mut d)?; // mj_step; an error is a value, never a panic
    }
    Ok(())
}
