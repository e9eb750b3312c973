//! `mjrs`: the command-line tool. Every command prints one clear line and exits non-zero on
//! error. JSON output has the shapes of `../shared/mjref/mjref` so that the two diff field by field.

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "mjrs", version, about = "MuJoCo-compatible physics simulator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate a model (a bundled humanoid when none is given) and summarize the run.
    Simulate {
        /// Model file (.mjb); default: the bundled humanoid.
        model: Option<PathBuf>,
        /// Simulated seconds.
        #[arg(long, default_value_t = 10.0)]
        duration: f64,
        /// Start from this keyframe.
        #[arg(long)]
        key: Option<i32>,
        /// Leave the controls at zero instead of the sine control law.
        #[arg(long)]
        zero_ctrl: bool,
    },
    /// Steps per second of mjrs on a model, as JSON in the shape of `mjref speed`.
    Speed {
        /// Model file (.mjb).
        model: PathBuf,
        /// Number of steps.
        #[arg(long, default_value_t = 10000)]
        steps: usize,
        /// Start from this keyframe.
        #[arg(long)]
        key: Option<i32>,
    },
    /// Print every Model field as JSON (the shape of `mjref model`).
    Model {
        /// Model file (.mjb).
        model: PathBuf,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print every Data field after mj_forward (or after N steps of the control law) as JSON,
    /// the shape of `mjref data`.
    Data {
        /// Model file (.mjb).
        model: PathBuf,
        /// Start from this keyframe.
        #[arg(long)]
        key: Option<i32>,
        /// Steps of the control law before the final forward pass.
        #[arg(long, default_value_t = 0)]
        steps: usize,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print a trajectory under the control law as JSON, the shape of `mjref traj`.
    Traj {
        /// Model file (.mjb).
        model: PathBuf,
        /// Number of steps.
        #[arg(long, default_value_t = 100)]
        steps: usize,
        /// Start from this keyframe.
        #[arg(long)]
        key: Option<i32>,
        /// Leave the controls at zero instead of the sine control law.
        #[arg(long)]
        zero_ctrl: bool,
        /// Record every k-th step.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Rewrite an MJB file (MuJoCo 3.1.6 binary model), optionally with a 4-byte mjtNum.
    Mjb {
        /// Input model (.mjb).
        input: PathBuf,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
        /// Write mjtNum as 4-byte floats (for f32 builds; MuJoCo itself reads only 8).
        #[arg(long)]
        f32: bool,
    },
}

/// A loaded model and the buffer behind it.
struct Loaded {
    header: mjrs_core::ModelHeader,
    buf: Vec<u8>,
}

impl Loaded {
    /// The model; the buffer holds a validated model of these sizes (see `load`).
    fn model(&mut self) -> Result<mjrs_core::Model<'_>, String> {
        mjrs_core::Model::view(&self.header, &mut self.buf).map_err(|e| e.to_string())
    }
}

/// The default model of `mjrs simulate`: Gymnasium's humanoid (MIT license), compiled by
/// MuJoCo 3.1.6 with constraints disabled until mjrs has contacts (`assets/README.md`).
const BUNDLED_HUMANOID: &[u8] = include_bytes!("../assets/humanoid.mjb");

fn load(path: &Path) -> Result<Loaded, String> {
    let blob = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    load_blob(&blob, &path.display().to_string())
}

fn load_blob(blob: &[u8], what: &str) -> Result<Loaded, String> {
    let err = |e: mjrs_core::mjb::MjbError| format!("{what}: {e}");
    let header = mjrs_core::mjb::read_header(blob).map_err(err)?;
    let bytes = header.model_bytes().map_err(|e| err(e.into()))?;
    let mut buf = vec![0u8; bytes];
    let header = mjrs_core::mjb::load(blob, &mut buf).map_err(err)?.header();
    Ok(Loaded { header, buf })
}

/// A zeroed buffer for a `Data` of model `m`.
fn data_buffer(m: &mjrs_core::Model) -> Result<Vec<u8>, String> {
    Ok(vec![
        0u8;
        mjrs_core::Data::bytes_needed(m.sizes())
            .map_err(|e| e.to_string())?
    ])
}

/// A fresh `Data`, reset to keyframe `key` if given (`mj_resetDataKeyframe`).
fn start<'a>(
    m: &mjrs_core::Model,
    mem: &'a mut [u8],
    key: Option<i32>,
) -> Result<mjrs_core::Data<'a>, String> {
    let mut d = mjrs_core::Data::new(m, mem).map_err(|e| e.to_string())?;
    if let Some(k) = key {
        mjrs_core::io::reset_data_keyframe(m, &mut d, k);
    }
    Ok(d)
}

fn step(m: &mjrs_core::Model, d: &mut mjrs_core::Data) -> Result<(), String> {
    mjrs_core::step(m, d).map_err(|e| format!("at time {}: {e}", d.time))
}

fn write_output(output: Option<&Path>, text: &str) -> Result<(), String> {
    match output {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
        }
        None => {
            println!("{text}");
            Ok(())
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Simulate {
            model,
            duration,
            key,
            zero_ctrl,
        } => {
            let mut loaded = match &model {
                Some(path) => load(path)?,
                None => load_blob(BUNDLED_HUMANOID, "bundled humanoid")?,
            };
            let mut m = loaded.model()?;
            m.opt.enableflags |= mjrs_core::types::ENBL_ENERGY;
            let name = model
                .as_ref()
                .map_or("bundled humanoid".into(), |p| p.display().to_string());
            mjrs::simulate::run(&m, &name, duration, key, !zero_ctrl)
        }
        Command::Speed { model, steps, key } => {
            let mut loaded = load(&model)?;
            let m = loaded.model()?;
            let report = mjrs::simulate::speed(&m, steps, key)?;
            println!("{}", report.to_json(&model.display().to_string()));
            Ok(())
        }
        Command::Data {
            model,
            key,
            steps,
            output,
        } => {
            let mut loaded = load(&model)?;
            let m = loaded.model()?;
            let mut mem = data_buffer(&m)?;
            let mut d = start(&m, &mut mem, key)?;
            for _ in 0..steps {
                mjrs::control::sine(&m, &mut d);
                step(&m, &mut d)?;
            }
            mjrs_core::forward(&m, &mut d).map_err(|e| e.to_string())?;
            write_output(output.as_deref(), &mjrs::dump::data_json(&m, &d))
        }
        Command::Traj {
            model,
            steps,
            key,
            zero_ctrl,
            every,
            output,
        } => {
            let mut loaded = load(&model)?;
            let m = loaded.model()?;
            let mut mem = data_buffer(&m)?;
            let mut d = start(&m, &mut mem, key)?;
            let mut rec = mjrs::dump::Trajectory::new(every, zero_ctrl);
            for i in 0..steps {
                if !zero_ctrl {
                    mjrs::control::sine(&m, &mut d);
                }
                step(&m, &mut d)?;
                if (i + 1) % every.max(1) == 0 {
                    rec.record(&d);
                }
            }
            write_output(output.as_deref(), &rec.finish())
        }
        Command::Model { model, output } => {
            let mut loaded = load(&model)?;
            let m = loaded.model()?;
            write_output(output.as_deref(), &mjrs::dump::model_json(&m))
        }
        Command::Mjb { input, output, f32 } => {
            let mut loaded = load(&input)?;
            let m = loaded.model()?;
            let real_bytes = if f32 { 4 } else { 8 };
            let mut out = vec![0u8; mjrs_core::mjb::save_size(&m, real_bytes)];
            let n = mjrs_core::mjb::save(&m, &mut out, real_bytes).map_err(|e| e.to_string())?;
            std::fs::write(&output, &out[..n])
                .map_err(|e| format!("cannot write {}: {e}", output.display()))
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mjrs: {e}");
            ExitCode::FAILURE
        }
    }
}
