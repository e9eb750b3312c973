//! Time to compile MJCF models: `cargo run --release -p mjrs-xml --example compile_time --
//! [--rounds N] M.xml...`. Prints, per model, the first compilation in the process (assets
//! decoded from their files) and the best of N more (decoded OBJ and PNG assets come from the
//! asset cache, as in MuJoCo).

use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 5;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(5);
        args.drain(i..(i + 2).min(args.len()));
    }
    for path in &args {
        let first = time(path);
        let best = (0..rounds)
            .map(|_| time(path))
            .fold(f64::INFINITY, f64::min);
        println!("{path} first {first:.6} then {best:.6}");
    }
}

/// Seconds to compile `path` once.
fn time(path: &str) -> f64 {
    let t = Instant::now();
    if let Err(e) = mjrs_xml::load_xml(path, None) {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    }
    t.elapsed().as_secs_f64()
}
