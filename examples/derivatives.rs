//! Finite-difference derivatives of a step (`mjd_transitionFD`):
//! `cargo run --release --example derivatives [-- MODEL.xml]`.
//!
//! `transition_fd` linearizes one step around the current state: `dx' = A dx + B du` and the
//! sensors `ds = C dx + D du`, with `x = (qpos, qvel, act)` in the tangent space (`2nv + na`).
//! The matrices are row-major in the caller's buffers; the scratch comes from the data's arena.
//! This is what an LQR or an MPC linearizes with (the firmware example computes an LQR from it
//! on a microcontroller). By default: a cart-pole with sensors, from its keyframe.

use mjrs_core::transition_fd;
use mjrs_std::OwnedData;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/models/deriv_cartpole.xml"
        )
        .to_string()
    });
    let mut model = mjrs_xml::load_xml(&path, None)?.model;
    let m = model.view();
    let mut data = OwnedData::new(&m)?;
    if m.nkey > 0 {
        data.reset_keyframe(&m, 0)?; // mj_resetDataKeyframe
    }
    let mut d = data.view();

    let ndx = 2 * m.nv + m.na;
    let (nu, ns) = (m.nu, m.nsensordata);
    let mut a = vec![0.0; ndx * ndx];
    let mut b = vec![0.0; ndx * nu];
    let mut c = vec![0.0; ns * ndx];
    let mut dd = vec![0.0; ns * nu];
    // eps 1e-6, centered differences; any of the four outputs may be None
    transition_fd(
        &m,
        &mut d,
        1e-6,
        true,
        Some(&mut a),
        Some(&mut b),
        Some(&mut c),
        Some(&mut dd),
    )?;

    print_matrix("A (state to next state)", &a, ndx, ndx);
    print_matrix("B (control to next state)", &b, ndx, nu);
    print_matrix("C (state to sensors)", &c, ns, ndx);
    print_matrix("D (control to sensors)", &dd, ns, nu);
    Ok(())
}

fn print_matrix(name: &str, x: &[f64], rows: usize, cols: usize) {
    println!("{name}: {rows} x {cols}");
    for r in 0..rows {
        let row: Vec<String> = x[r * cols..(r + 1) * cols]
            .iter()
            .map(|v| format!("{v:+10.5}"))
            .collect();
        println!("  {}", row.join(" "));
    }
}
