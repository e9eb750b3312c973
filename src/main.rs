//! `mjrs`: the command-line tool. Every command prints one clear line and exits non-zero on
//! error. JSON output has the shapes of `../shared/mjref/mjref` so that the two diff field by field.

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mjrs_alloc::{OwnedData, OwnedModel};
use mjrs_core::Model;

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
        /// Model file (.xml or .mjb); default: the bundled humanoid.
        model: Option<PathBuf>,
        /// Simulated seconds.
        #[arg(long, default_value_t = 10.0, value_parser = mjrs::limits::duration, allow_hyphen_values = true)]
        duration: f64,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Leave the controls at zero instead of the sine control law.
        #[arg(long)]
        zero_ctrl: bool,
        /// Run the f32 core (the model converted as `mjrs compile --f32` converts it), as a
        /// device would.
        #[arg(long)]
        f32: bool,
    },
    /// Interactive viewer (MuJoCo's `simulate` conventions; F1 in the window lists the keys).
    /// Needs a display (X11; Xvfb works); `mjrs render` does not.
    View {
        /// Model file (.xml or .mjb); default: the bundled humanoid.
        model: Option<PathBuf>,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Start paused.
        #[arg(long)]
        paused: bool,
        /// Window size in pixels, WIDTHxHEIGHT.
        #[arg(long, default_value = "1200x800")]
        size: String,
        /// Close after this many frames (scripted runs).
        #[arg(long, value_parser = mjrs::limits::positive, allow_negative_numbers = true)]
        frames: Option<usize>,
        /// Save the last frame as a PNG (with --frames: the frame it closes on).
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
    /// Steps per second of mjrs on a model, as JSON in the shape of `mjref speed`.
    Speed {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Number of steps.
        #[arg(long, default_value_t = 10000, value_parser = mjrs::limits::some_steps, allow_negative_numbers = true)]
        steps: usize,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Run the f32 core (the model converted as `mjrs compile --f32` converts it), as a
        /// device would.
        #[arg(long)]
        f32: bool,
        /// Bind a thread pool of this many workers to the data (`mju_bindThreadPool`): inertia
        /// and collision of each step run at the same time.
        #[arg(long, conflicts_with = "f32", value_parser = mjrs::limits::threads, allow_negative_numbers = true)]
        threads: Option<usize>,
        /// Instead of stepping, time N loads of the MJB file from memory (allocation, copy,
        /// validation) against N copies of its bytes; prints the best of each as JSON. With
        /// --f32: loads into the f32 core on one reused buffer, as a device loads from flash.
        #[arg(long, value_name = "N", conflicts_with_all = ["threads", "key"], value_parser = mjrs::limits::positive, allow_negative_numbers = true)]
        load: Option<usize>,
    },
    /// Roll out a batch of open-loop trajectories on a thread pool and print the total steps
    /// per second (rollout r follows the control law with its clock shifted by 0.1 r seconds).
    Rollout {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Number of rollouts.
        #[arg(long, default_value_t = 64, value_parser = mjrs::limits::positive, allow_negative_numbers = true)]
        batch: usize,
        /// Steps per rollout.
        #[arg(long, default_value_t = 1000, value_parser = mjrs::limits::some_steps, allow_negative_numbers = true)]
        steps: usize,
        /// Worker threads (default: the machine's cores).
        #[arg(long, value_parser = mjrs::limits::threads, allow_negative_numbers = true)]
        threads: Option<usize>,
        /// Start every rollout from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Also write the state and sensordata after every step as JSON to this file.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print every Model field as JSON (the shape of `mjref model`).
    Model {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print every Data field after mj_forward (or after N steps of the control law) as JSON,
    /// the shape of `mjref data`.
    Data {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Steps of the control law before the final forward pass.
        #[arg(long, default_value_t = 0, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// Run the f32 core (the model converted as `mjrs compile --f32` converts it), as a
        /// device would.
        #[arg(long)]
        f32: bool,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Inverse dynamics on the state after N steps of the control law and a forward pass, as
    /// JSON in the shape of `mjref inverse` (qfrc_inverse, efc_force, sensordata, cacc,
    /// cfrc_int, cfrc_ext).
    Inverse {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Steps of the control law before the forward and inverse passes.
        #[arg(long, default_value_t = 0, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print the model or the data in MuJoCo's own text format (`mj_printModel` /
    /// `mj_printData`), the data after N steps of the control law and a forward pass, as
    /// `mjref print` does.
    Print {
        /// What to print.
        what: PrintWhat,
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Steps of the control law before the final forward pass.
        #[arg(long, default_value_t = 0, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// printf format for floats (`mj_printFormattedModel`): %[flags][width][.precision]
        /// and one of f, g, G, e, E.
        #[arg(long, default_value = "% -9.2g", allow_hyphen_values = true)]
        float_format: String,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print the MJCF schema (every element, how often it may appear, its attributes) as
    /// MuJoCo's `mj_printSchema` prints it.
    Schema {
        /// An HTML table instead of text.
        #[arg(long)]
        html: bool,
        /// With --html: nesting as CSS padding instead of `&nbsp;`.
        #[arg(long)]
        pad: bool,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print a trajectory under the control law as JSON, the shape of `mjref traj`.
    Traj {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Number of steps.
        #[arg(long, default_value_t = 100, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Leave the controls at zero instead of the sine control law.
        #[arg(long)]
        zero_ctrl: bool,
        /// Record every k-th step.
        #[arg(long, default_value_t = 1, value_parser = mjrs::limits::positive, allow_negative_numbers = true)]
        every: usize,
        /// Run the f32 core (the model converted as `mjrs compile --f32` converts it), as a
        /// device would.
        #[arg(long)]
        f32: bool,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print the finite-difference transition matrices of one step (mjd_transitionFD) at the
    /// state after N steps of the control law as JSON, the shape of `mjref deriv`: A, B, and
    /// C, D when the model has sensors.
    Deriv {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Steps of the control law before differencing (no forward pass follows them).
        #[arg(long, default_value_t = 0, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// Finite-difference perturbation.
        #[arg(long, default_value_t = 1e-6, value_parser = mjrs::limits::eps, allow_hyphen_values = true)]
        eps: f64,
        /// Centered instead of forward differences.
        #[arg(long)]
        centered: bool,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print the abstract scene (`mjv_updateScene`: default options, default free camera, all
    /// categories) after N steps of the control law and a forward pass, as JSON in the shape of
    /// `mjref scene`: geoms and lights (and the flex arrays of `mjvScene` for models with flexes).
    Scene {
        /// Model file (.xml or .mjb); not needed with `--flags help`.
        model: Option<PathBuf>,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Steps of the control law before the forward pass.
        #[arg(long, default_value_t = 0, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// Visualization flags to switch on (`contactforce`) or off (`-static`), comma
        /// separated; MuJoCo's flag names in lower case (`mjrs scene --flags help` lists them).
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        flags: Vec<String>,
        /// Frames to draw: none, body, geom, site, camera, light, contact or world.
        #[arg(long, default_value = "none")]
        frame: String,
        /// What to label: none, body, joint, geom, site, camera, light, tendon, actuator,
        /// constraint, flex, skin, selection, selpnt, contactpoint, contactforce or island.
        #[arg(long, default_value = "none")]
        label: String,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Render an image of the state after N steps of the control law and a forward pass,
    /// offscreen (headless, no display needed), as `mjref render` does: PNG, default free
    /// camera unless --camera, size at most the model's offscreen buffer (640x480 by default).
    Render {
        /// Model file (.xml or .mjb).
        model: PathBuf,
        /// Output PNG file.
        #[arg(short, long)]
        output: PathBuf,
        /// Start from this keyframe.
        #[arg(long, allow_negative_numbers = true)]
        key: Option<i32>,
        /// Steps of the control law before the forward pass.
        #[arg(long, default_value_t = 0, value_parser = mjrs::limits::steps, allow_negative_numbers = true)]
        steps: usize,
        /// Camera id or name; -1 is the default free camera.
        #[arg(long, default_value = "-1", allow_hyphen_values = true)]
        camera: String,
        /// Image width in pixels.
        #[arg(long, default_value_t = 640, allow_negative_numbers = true)]
        width: i32,
        /// Image height in pixels.
        #[arg(long, default_value_t = 480, allow_negative_numbers = true)]
        height: i32,
        /// Segmentation image: each pixel is ((objid+1)&255, (objid+1)>>8, objtype+1), 0 for
        /// background.
        #[arg(long)]
        segment: bool,
        /// Follow this body (name or id) with a tracking camera instead of --camera.
        #[arg(long)]
        track: Option<String>,
        /// Visualization flags to switch on (`contactforce`) or off (`-static`), as for
        /// `mjrs scene`.
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        flags: Vec<String>,
        /// Rendering flags to switch on or off: shadow, wireframe, reflection, additive,
        /// skybox, fog, haze, segment, idcolor, cullface (e.g. `wireframe,-shadow`).
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        rnd: Vec<String>,
        /// Frames to draw (as for `mjrs scene`).
        #[arg(long, default_value = "none")]
        frame: String,
        /// What to label (as for `mjrs scene`).
        #[arg(long, default_value = "none")]
        label: String,
        /// Video: a frame every K steps (from step 0 to --steps) into the directory given by
        /// -o, as frame-000000.png...; also video.mp4 there when ffmpeg is on the PATH.
        #[arg(long, value_name = "K", value_parser = mjrs::limits::positive, allow_negative_numbers = true)]
        every: Option<usize>,
    },
    /// Compile an MJCF (or URDF) model to an MJB file (MuJoCo 3.1.6's binary model format),
    /// optionally with a 4-byte mjtNum for f32 builds.
    Compile {
        /// Input model (.xml).
        input: PathBuf,
        /// Output file (.mjb).
        #[arg(short, long)]
        output: PathBuf,
        /// Write mjtNum as 4-byte floats (for f32 builds; MuJoCo itself reads only 8).
        #[arg(long)]
        f32: bool,
    },
    /// Save an MJCF (or URDF) model as MJCF (MuJoCo's `mj_saveLastXML`): the output compiles
    /// to the same model.
    Save {
        /// Input model (.xml).
        input: PathBuf,
        /// Output file (.xml).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Rewrite a model as an MJB file (MuJoCo 3.1.6 binary model), optionally with a 4-byte
    /// mjtNum.
    Mjb {
        /// Input model (.mjb or .xml).
        input: PathBuf,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
        /// Write mjtNum as 4-byte floats (for f32 builds; MuJoCo itself reads only 8).
        #[arg(long)]
        f32: bool,
    },
}

/// What `mjrs print` prints.
#[derive(Clone, Copy, clap::ValueEnum)]
enum PrintWhat {
    /// The model (`mj_printModel`).
    Model,
    /// The data (`mj_printData`).
    Data,
}

/// The default model of `mjrs simulate`: Gymnasium's humanoid standing on a floor (MIT
/// license, `assets/README.md`), compiled from its MJCF when the command runs.
const BUNDLED_HUMANOID: &str = include_str!("../assets/humanoid.xml");

/// Is this a model in XML (MJCF or URDF) rather than MJB? By extension, else by content.
fn is_xml(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("mjb") => false,
        Some(e) if e.eq_ignore_ascii_case("xml") || e.eq_ignore_ascii_case("urdf") => true,
        // read as the model loaders read (a device or pipe is empty), so /dev/zero cannot hang
        _ => mjrs_std::read_file(path)
            .is_ok_and(|b| b.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'<')),
    }
}

/// Loads a model: MJCF/URDF files are compiled (warnings go to stderr), MJB files are read
/// and validated. Errors are one clear message.
fn load(path: &Path) -> Result<OwnedModel, String> {
    if is_xml(path) {
        let c = mjrs_xml::load_xml(path, None).map_err(|e| e.to_string())?;
        for w in &c.warnings {
            eprintln!("mjrs: warning: {w}");
        }
        Ok(c.model)
    } else {
        mjrs_std::mjb_file::load_mjb(path, None).map_err(|e| e.to_string())
    }
}

/// The MJCF text `mj_saveLastXML` writes for the model in `input`: with the values of
/// `changed` copied back first (MuJoCo's `mjs_copyBack`) when it is given.
fn saved_xml(input: &Path, changed: Option<&Model>) -> Result<Vec<u8>, String> {
    let file = input.to_string_lossy().into_owned();
    let bytes = mjrs_std::read_file(input).map_err(|e| format!("cannot read {file}: {e}"))?;
    let dir = mjrs_xml::reader::dom::resource_dir(&file).to_string();
    // bytes, as `compile` reads them: a model in any encoding saves if it compiles
    let res = mjrs_xml::FileResources::new(None);
    let (mut spec, warnings) =
        mjrs_xml::reader::read_mjcf(&bytes, &file, &dir, &res).map_err(|e| e.to_string())?;
    for w in &warnings {
        eprintln!("mjrs: warning: {w}");
    }
    // MuJoCo saves only models that compile
    let mut compiled =
        mjrs_xml::compiler::compile(spec.clone(), &res).map_err(|e| e.to_string())?;
    if let Some(changed) = changed {
        mjrs_xml::writer::copy_back::copy_back(&mut spec, &compiled.model.view(), changed)
            .map_err(|e| e.to_string())?;
    }
    let xml = mjrs_xml::writer::write_xml(&spec).map_err(|e| e.to_string())?;
    // names read from a file that is not UTF-8 go back as the bytes they were, as MuJoCo
    // writes them
    Ok(mjrs_xml::reader::tinyxml::raw_bytes(&xml).into_owned())
}

/// The bundled humanoid, compiled.
fn bundled_humanoid() -> Result<OwnedModel, String> {
    mjrs_xml::compile_str(BUNDLED_HUMANOID, "humanoid.xml", "", None)
        .map(|c| c.model)
        .map_err(|e| format!("bundled humanoid: {e}"))
}

/// Writes `m` as an MJB file, with 8- or 4-byte `mjtNum`.
fn write_mjb(m: &Model, output: &Path, f32: bool) -> Result<(), String> {
    let out = if f32 {
        mjrs::f32::blob(m)?
    } else {
        let mut out = vec![0u8; mjrs_core::mjb::save_size(m, 8)];
        let n = mjrs_core::mjb::save(m, &mut out, 8).map_err(|e| e.to_string())?;
        out.truncate(n);
        out
    };
    mjrs_std::write_file(output, &out)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))
}

/// A fresh data for `m`, reset to keyframe `key` if given.
fn start(m: &Model, key: Option<i32>) -> Result<OwnedData, String> {
    mjrs::simulate::new_data(m, key)
}

use mjrs::stepping::run_control;

/// Writes a command's output to the file `-o` names, or to standard output.
fn write_output(output: Option<&Path>, text: &str) -> Result<(), String> {
    match output {
        Some(p) => {
            mjrs_std::write_file(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
        }
        None => mjrs::stdout::println(text),
    }
}

/// Numbers `traj` records per state: time, qpos, qvel, act, ctrl, qacc, sensordata,
/// qfrc_constraint, energy (2), ncon and nefc.
fn traj_numbers(m: &Model) -> usize {
    1 + m.nq + 3 * m.nv + m.na + m.nu + m.nsensordata + 4
}

/// What `render --every` tells when done: the frames and the video, if any.
fn print_frames(frames: &mjrs::render::Frames, dir: &Path) -> Result<(), String> {
    let video = match &frames.video {
        Some(v) => format!("video: {}", v.display()),
        None => "no video (ffmpeg not found or failed); frames kept".into(),
    };
    mjrs::stdout::println(&format!(
        "{} frames in {}\n{video}",
        frames.count,
        dir.display()
    ))
}

/// Runs one command.
fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::View {
            model,
            key,
            paused,
            size,
            frames,
            screenshot,
        } => {
            let (w, h) = size
                .split_once('x')
                .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                .filter(|&(w, h): &(u32, u32)| w > 0 && h > 0)
                .ok_or_else(|| format!("--size {size}: expected WIDTHxHEIGHT, e.g. 1200x800"))?;
            let mut owned = match &model {
                Some(path) => load(path)?,
                None => bundled_humanoid()?,
            };
            let mut m = owned.view();
            let mut data = start(&m, key)?;
            let mut d = data.view();
            let title = model
                .as_ref()
                .map_or("bundled humanoid".into(), |p| p.display().to_string());
            let opts = mjrs_gl::viewer::Options {
                title: format!("mjrs: {title}"),
                size: (w, h),
                paused,
                frames: frames.map(|n| n as u64),
                screenshot,
                any_thread: false,
                script: Vec::new(),
                reload: model.clone().map(|path| {
                    mjrs_gl::viewer::Reload(std::sync::Arc::new(move |m: &mut Model| {
                        let mut fresh = load(&path)?;
                        let copied = m.copy_from(&fresh.view());
                        copied.map_err(|_| {
                            "the model's sizes changed: open it again with mjrs view".to_string()
                        })
                    }))
                }),
                save_xml: model.clone().filter(|p| is_xml(p)).map(|path| {
                    mjrs_gl::viewer::SaveXml(std::sync::Arc::new(move |m: &Model| {
                        saved_xml(&path, Some(m))
                    }))
                }),
                ..Default::default()
            };
            let summary = mjrs_gl::viewer::run(&mut m, &mut d, opts)?;
            match frames {
                Some(_) => mjrs::stdout::println(&format!(
                    "{} frames, {} steps",
                    summary.frames, summary.steps
                )),
                None => Ok(()),
            }
        }
        Command::Simulate {
            model,
            duration,
            key,
            zero_ctrl,
            f32,
        } => {
            let mut owned = match &model {
                Some(path) => load(path)?,
                None => bundled_humanoid()?,
            };
            let mut m = owned.view();
            m.opt.enableflags |= mjrs_core::types::ENBL_ENERGY;
            let name = model
                .as_ref()
                .map_or("bundled humanoid".into(), |p| p.display().to_string());
            if f32 {
                mjrs::f32::with_f32(&m, key, |m, d, _| {
                    mjrs::f32::stepping::simulate(m, d, &name, duration, !zero_ctrl)
                })
            } else {
                mjrs::simulate::run(&m, &name, duration, key, !zero_ctrl)
            }
        }
        Command::Speed {
            model,
            load: Some(loads),
            f32,
            ..
        } => {
            let blob = mjrs_std::read_file(&model)
                .map_err(|e| format!("cannot read '{}': {e}", model.display()))?;
            let report = mjrs::load_speed::load_speed(&blob, loads, f32)?;
            mjrs::stdout::println(&report.to_json(&model.display().to_string()))
        }
        Command::Speed {
            model,
            steps,
            key,
            f32,
            threads,
            load: None,
        } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            let report = if f32 {
                mjrs::f32::with_f32(&m, key, |m, d, bytes| {
                    mjrs::f32::stepping::speed(m, d, steps, bytes)
                })?
            } else {
                mjrs::simulate::speed(&m, steps, key, threads)?
            };
            mjrs::stdout::println(&report.to_json(&model.display().to_string()))
        }
        Command::Rollout {
            model,
            batch,
            steps,
            threads,
            key,
            output,
        } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            let threads = threads.unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map_or(1, std::num::NonZeroUsize::get)
                    // a pool has at most MuJoCo's mjMAXTHREAD workers
                    .min(mjrs_std::thread_pool::MAXTHREAD)
            });
            let batch = mjrs::rollout::Batch {
                nroll: batch,
                nstep: steps,
                threads,
                key,
            };
            let result = mjrs::rollout::run(&m, batch, output.is_some())?;
            if let Some(path) = &output {
                let json = result.outputs_json(batch, m.nsensordata);
                write_output(Some(path), &json)?;
            }
            mjrs::stdout::println(&result.to_json(&model.display().to_string(), batch))
        }
        Command::Data {
            model,
            key,
            steps,
            f32,
            output,
        } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            let json = if f32 {
                mjrs::f32::with_f32(&m, key, |m, d, _| mjrs::f32::stepping::data(m, d, steps))?
            } else {
                mjrs::stepping::data(&m, &mut start(&m, key)?.view(), steps)?
            };
            write_output(output.as_deref(), &json)
        }
        Command::Inverse {
            model,
            key,
            steps,
            output,
        } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            let mut data = start(&m, key)?;
            let mut d = data.view();
            run_control(&m, &mut d, steps)?;
            mjrs_core::forward(&m, &mut d).map_err(|e| e.to_string())?;
            mjrs_core::inverse(&m, &mut d).map_err(|e| e.to_string())?;
            write_output(output.as_deref(), &mjrs::dump::inverse_json(&m, &d))
        }
        Command::Deriv {
            model,
            key,
            steps,
            eps,
            centered,
            output,
        } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            let mut data = start(&m, key)?;
            let mut d = data.view();
            run_control(&m, &mut d, steps)?;
            let json = mjrs::dump::deriv_json(&m, &mut d, eps, centered)
                .map_err(|e| format!("at time {}: {e}", d.time))?;
            write_output(output.as_deref(), &json)
        }
        Command::Schema { html, pad, output } => {
            write_output(output.as_deref(), &mjrs_xml::print_schema(html, pad))
        }
        Command::Print {
            what,
            model,
            key,
            steps,
            float_format,
            output,
        } => {
            let format = mjrs_core::print::FloatFormat::parse(&float_format)
                .map_err(|e| format!("--float-format '{float_format}': {e}"))?;
            let mut owned = load(&model)?;
            let m = owned.view();
            let mut text = String::new();
            match what {
                PrintWhat::Model => mjrs_core::print::print_formatted_model(&m, &mut text, &format),
                PrintWhat::Data => {
                    let mut data = start(&m, key)?;
                    let mut d = data.view();
                    run_control(&m, &mut d, steps)?;
                    mjrs_core::forward(&m, &mut d).map_err(|e| e.to_string())?;
                    mjrs_core::print::print_formatted_data(&m, &d, &mut text, &format)
                }
            }
            .map_err(|_| "formatting failed".to_string())?;
            match output {
                Some(p) => mjrs_std::write_file(&p, text)
                    .map_err(|e| format!("cannot write {}: {e}", p.display())),
                None => mjrs::stdout::print(&text),
            }
        }
        Command::Traj {
            model,
            steps,
            key,
            zero_ctrl,
            every,
            f32,
            output,
        } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            mjrs::limits::check_traj(steps, every, traj_numbers(&m))?;
            let json = if f32 {
                mjrs::f32::with_f32(&m, key, |m, d, _| {
                    mjrs::f32::stepping::traj(m, d, steps, zero_ctrl, every)
                })?
            } else {
                mjrs::stepping::traj(&m, &mut start(&m, key)?.view(), steps, zero_ctrl, every)?
            };
            write_output(output.as_deref(), &json)
        }
        Command::Render {
            model,
            output,
            key,
            steps,
            camera,
            width,
            height,
            segment,
            track,
            flags,
            rnd,
            frame,
            label,
            every,
        } => {
            if let Some(every) = every {
                mjrs::limits::check_frames(steps, every)?;
            }
            let opt = mjrs::render::Options {
                camera,
                width,
                height,
                segment,
                vis: mjrs::scene::options(&flags, &frame, &label)?,
                rnd: mjrs::render::rnd_flags(&rnd)?,
                track,
            };
            let mut owned = load(&model)?;
            let m = owned.view();
            let mut renderer = mjrs::render::Renderer::new(&m, opt)?;
            let mut data = start(&m, key)?;
            let mut d = data.view();
            if let Some(every) = every {
                let frames =
                    mjrs::render::write_frames(&mut renderer, &m, &mut d, steps, every, &output)?;
                return print_frames(&frames, &output);
            }
            run_control(&m, &mut d, steps)?;
            mjrs_core::forward(&m, &mut d).map_err(|e| e.to_string())?;
            let img = renderer.image(&m, &mut d)?;
            mjrs::render::write_png(&output, width as u32, height as u32, &img)
        }
        Command::Scene {
            model,
            key,
            steps,
            flags,
            frame,
            label,
            output,
        } => {
            if flags.iter().any(|f| f == "help") {
                return mjrs::stdout::print(&mjrs::scene::flags_help());
            }
            let opt = mjrs::scene::options(&flags, &frame, &label)?;
            let model = model.ok_or("scene needs a MODEL file (or --flags help)")?;
            let mut owned = load(&model)?;
            let m = owned.view();
            let mut data = start(&m, key)?;
            let mut d = data.view();
            run_control(&m, &mut d, steps)?;
            mjrs_core::forward(&m, &mut d).map_err(|e| e.to_string())?;
            write_output(
                output.as_deref(),
                &mjrs::scene::scene_json_with(&m, &mut d, &opt)?,
            )
        }
        Command::Model { model, output } => {
            let mut owned = load(&model)?;
            let m = owned.view();
            write_output(output.as_deref(), &mjrs::dump::model_json(&m))
        }
        Command::Save { input, output } => {
            let bytes = saved_xml(&input, None)?;
            mjrs_std::write_file(&output, bytes)
                .map_err(|e| format!("cannot write {}: {e}", output.display()))
        }
        Command::Mjb { input, output, f32 } | Command::Compile { input, output, f32 } => {
            let mut owned = load(&input)?;
            let m = owned.view();
            write_mjb(&m, &output, f32)
        }
    }
}

/// The command line, with the limits of [`mjrs::limits`] at the end of `mjrs --help`.
fn parse() -> Cli {
    let matches = Cli::command()
        .after_help(mjrs::limits::summary())
        .get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

fn main() -> ExitCode {
    let cli = parse();
    if let Some(notice) = mjrs::fast_notice() {
        eprintln!("mjrs: {notice}");
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mjrs: {e}");
            ExitCode::FAILURE
        }
    }
}
