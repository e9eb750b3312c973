//! The firmware's control task on the host: the same f32 blob, the same controller crate, the
//! same `libm` math, so every state must have the same bits as on the device.
//!
//! ```text
//! mjrs-firmware-host               run the task, print the log lines the device prints
//! mjrs-firmware-host compare LOG   run the task and compare its states with the device's log
//!                                  (defmt-print --log-format "{s}" output); exit 1 on any difference
//! ```

use mjrs_firmware_control as task;
use std::process::ExitCode;

/// One state line in the device's format (`x TAG STEP BITS...`, hex without padding).
fn line(tag: &str, s: &task::Sample) -> String {
    let bits: Vec<String> = s.bits.iter().map(|b| format!("{b:x}")).collect();
    format!("x {tag} {} {}", s.step, bits.join(" "))
}

/// Runs the task; returns the state lines and a summary.
fn run() -> Result<(Vec<String>, String), task::Error> {
    let mut arena = vec![0u8; 1 << 20];
    let (m, mut d, fp) = task::load(&task::BLOB.0, &mut arena)?;
    let (k, iterations) = task::lqr_gains(&m, &mut d)?;
    let mut lines = Vec::new();
    let zero = task::episode(&m, &mut d, None, |s| lines.push(line("zero", s)))?;
    let lqr = task::episode(&m, &mut d, Some(&k), |s| lines.push(line("lqr", s)))?;
    let summary = format!(
        "host: Model {} B, Data {} B; K = {k:?} after {iterations} Riccati iterations\n\
         zero control: {zero:?}\nLQR: {lqr:?}\ntask: {}",
        fp.model_bytes,
        fp.data_bytes,
        if lqr.balanced && zero.fallen {
            "success"
        } else {
            "FAILED"
        }
    );
    Ok((lines, summary))
}

/// Compares the host's state lines with the `x` lines of a device log.
fn compare(host: &[String], log: &str) -> Result<usize, String> {
    let device: Vec<&str> = log.lines().filter(|l| l.starts_with("x ")).collect();
    for (i, (h, d)) in host.iter().zip(&device).enumerate() {
        if h != d {
            return Err(format!(
                "state {} differs:\n  host   {h}\n  device {d}",
                i + 1
            ));
        }
    }
    if host.len() != device.len() {
        return Err(format!(
            "the host logged {} states, the device {}",
            host.len(),
            device.len()
        ));
    }
    Ok(host.len())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (lines, summary) = match run() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("host: error code {}: {e:?}", e.code());
            return ExitCode::FAILURE;
        }
    };
    match args.as_slice() {
        [] => {
            for l in &lines {
                println!("{l}");
            }
            println!("{summary}");
            ExitCode::SUCCESS
        }
        [cmd, path] if cmd == "compare" => {
            let log = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("cannot read {path}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            match compare(&lines, &log) {
                Ok(n) => {
                    println!("trajectories: {n} states, device and host bit-identical");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    println!("trajectories: NOT bit-identical: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("usage: mjrs-firmware-host [compare DEVICE_LOG]");
            ExitCode::FAILURE
        }
    }
}
