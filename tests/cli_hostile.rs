//! The `mjrs` binary on hostile and unusual command lines: hangs are refused up front, output
//! paths that are links, FIFOs, devices, read-only files or directories are handled as
//! `mjrs_std::output` documents, and every refusal is one message about the value with a
//! non-zero exit status (2 for arguments clap rejects, 1 for the rest).
//!
//! This is an integration test of the root package (not of `mjrs-tests`), because only there
//! does Cargo build the binary and name it in `CARGO_BIN_EXE_mjrs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A model MuJoCo loads although its time never advances.
const TIMESTEP_0: &str = r#"<mujoco><option timestep="0"/><worldbody><body><joint type="hinge"/>
<geom size=".1"/></body></worldbody></mujoco>"#;

/// One hinge: a model every command runs in a moment.
const PENDULUM: &str = r#"<mujoco><worldbody><body><joint type="hinge"/><geom size=".1"/>
</body></worldbody></mujoco>"#;

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mjrs-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `xml` as `name` in `dir`.
fn model(dir: &Path, name: &str, xml: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, xml).unwrap();
    path
}

/// Runs `mjrs` with `args`, stdin closed.
fn mjrs<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjrs"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Asserts the run exited with `code` and its stderr holds `needle`; returns stderr.
fn fails(out: &Output, code: i32, needle: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    // Rust's Debug formatting of errors never reaches the user
    for debug in ["Os {", "kind:", "Error {", "Custom {"] {
        assert!(!err.contains(debug), "Debug formatting in: {err}");
    }
    err
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn a_zero_timestep_loads_but_cannot_run_for_a_duration() {
    let dir = scratch("timestep0");
    let m = model(&dir, "ts0.xml", TIMESTEP_0);
    // MuJoCo compiles the model: so does mjrs
    assert!(mjrs(&[Path::new("model"), &m]).status.success());
    let out = mjrs(&[
        "simulate".as_ref(),
        m.as_os_str(),
        "--duration".as_ref(),
        "1".as_ref(),
    ]);
    fails(&out, 1, "the model's timestep is 0");
    // a step count is finite whatever the timestep
    let out = mjrs(&[
        "traj".as_ref(),
        m.as_os_str(),
        "--steps".as_ref(),
        "3".as_ref(),
    ]);
    assert!(out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn durations_must_be_finite_non_negative_and_bounded() {
    for (value, needle) in [
        ("inf", "infinite"),
        ("-inf", "infinite"),
        ("nan", "not a number"),
        ("-1", "negative"),
        ("ten", "expected a finite number"),
    ] {
        let out = mjrs(&["simulate", "--duration", value]);
        fails(&out, 2, &format!("invalid value '{value}' for '--duration"));
        fails(&out, 2, needle);
    }
    let out = mjrs(&["simulate", "--duration", "1e300"]);
    fails(&out, 1, "mjrs runs at most 1000000000 steps");
}

#[test]
fn step_counts_get_a_message_about_the_value() {
    let dir = scratch("steps");
    let m = model(&dir, "pendulum.xml", PENDULUM);
    let m = m.to_str().unwrap();
    let png = dir.join("x.png");
    let png = png.to_str().unwrap();
    for cmd in [
        vec!["speed", m],
        vec!["rollout", m],
        vec!["traj", m],
        vec!["data", m],
        vec!["inverse", m],
        vec!["deriv", m],
        vec!["print", "data", m],
        vec!["scene", m],
        vec!["render", m, "-o", png],
    ] {
        for (value, needle) in [
            ("-1", "it is negative"),
            ("18446744073709551615", "more than 1000000000"),
            ("1.5", "expected a whole number"),
        ] {
            let mut args = cmd.clone();
            args.extend(["--steps", value]);
            let out = mjrs(&args);
            fails(&out, 2, needle);
            fails(&out, 2, &format!("invalid value '{value}' for '--steps"));
        }
    }
    fails(&mjrs(&["speed", m, "--steps", "0"]), 2, "less than 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn outputs_that_would_grow_without_bound_are_refused_before_running() {
    let dir = scratch("bounds");
    let m = model(&dir, "pendulum.xml", PENDULUM);
    let m = m.to_str().unwrap();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let run = |args: &[&str]| mjrs(args);
    fails(
        &run(&["traj", m, "--steps", "1000000000", "-o", out]),
        1,
        "at most 1000000 (raise --every",
    );
    fails(
        &run(&["traj", m, "--steps", "10", "--every", "0"]),
        2,
        "less than 1",
    );
    let many = ["rollout", m, "--batch", "100000", "--steps", "100000"];
    fails(&run(&many), 1, "mjrs runs at most 1000000000");
    let kept = [
        "rollout", m, "--batch", "1000", "--steps", "100000", "-o", out,
    ];
    fails(&run(&kept), 1, "MiB");
    let frames = ["render", m, "-o", out, "--every", "1", "--steps", "1000000"];
    fails(&run(&frames), 1, "at most 100000 (raise --every");
    assert_eq!(entries(&dir), ["pendulum.xml"], "nothing written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_numbers_get_a_message_about_the_value() {
    let dir = scratch("numbers");
    let m = model(&dir, "pendulum.xml", PENDULUM);
    let m = m.to_str().unwrap();
    fails(
        &mjrs(&["data", m, "--key", "-1"]),
        1,
        "keyframe -1 does not exist",
    );
    fails(&mjrs(&["deriv", m, "--eps", "nan"]), 2, "not a number");
    fails(
        &mjrs(&["deriv", m, "--eps", "-1e-6"]),
        2,
        "must be positive",
    );
    fails(
        &mjrs(&["speed", m, "--threads", "1000"]),
        2,
        "from 1 to 128",
    );
    fails(&mjrs(&["rollout", m, "--threads", "-2"]), 2, "negative");
    let png = dir.join("x.png");
    let render = ["render", m, "-o", png.to_str().unwrap(), "--width", "-5"];
    fails(&mjrs(&render), 1, "image size -5x480 must be positive");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scene_flags_help_lists_the_flags() {
    let out = mjrs(&["scene", "--flags", "help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for name in [
        "contactforce",
        "static",
        "convexhull",
        "--frame:",
        "--label:",
    ] {
        assert!(text.contains(name), "{name} missing from: {text}");
    }
    fails(&mjrs(&["scene"]), 1, "scene needs a MODEL file");
}

#[test]
fn a_symlinked_target_is_refused_and_its_target_kept() {
    let dir = scratch("symlink");
    std::fs::write(dir.join("real"), b"keep").unwrap();
    std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
    fails(
        &mjrs(&[Path::new("schema"), Path::new("-o"), &dir.join("link")]),
        1,
        "symbolic link",
    );
    assert_eq!(std::fs::read(dir.join("real")).unwrap(), b"keep");
    assert!(std::fs::symlink_metadata(dir.join("link"))
        .unwrap()
        .is_symlink());
    assert_eq!(entries(&dir), ["link", "real"], "no temporary file left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_symlink_beside_the_target_is_never_followed() {
    let dir = scratch("planted");
    let victim = scratch("planted-victim").join("victim");
    std::fs::write(&victim, b"victim").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join(".mjrs-planted.tmp")).unwrap();
    let out = mjrs(&[Path::new("schema"), Path::new("-o"), &dir.join("out.txt")]);
    assert!(out.status.success());
    assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
    assert_eq!(entries(&dir), [".mjrs-planted.tmp", "out.txt"]);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(victim.parent().unwrap()).unwrap();
}

#[test]
fn a_read_only_target_is_refused() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("readonly");
    let file = dir.join("ro.txt");
    std::fs::write(&file, b"old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    fails(
        &mjrs(&[Path::new("schema"), Path::new("-o"), &file]),
        1,
        "read-only",
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"old");
    assert_eq!(entries(&dir), ["ro.txt"]);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_regular_target_is_replaced_with_its_permissions() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("replace");
    let file = dir.join("out.txt");
    std::fs::write(&file, b"old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert!(mjrs(&[Path::new("schema"), Path::new("-o"), &file])
        .status
        .success());
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    assert!(meta.len() > 1000);
    assert_eq!(entries(&dir), ["out.txt"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_target_is_refused() {
    let dir = scratch("dir");
    std::fs::create_dir(dir.join("sub")).unwrap();
    fails(
        &mjrs(&[Path::new("schema"), Path::new("-o"), &dir.join("sub")]),
        1,
        "is a directory",
    );
    assert_eq!(entries(&dir), ["sub"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_is_written_in_place() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    match Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {}
        // no mkfifo program: nothing to test with
        _ => return eprintln!("skipped: mkfifo is not available"),
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = mjrs(&[Path::new("schema"), Path::new("-o"), &fifo]);
    if !out.status.success() {
        // release the reader, which waits for a writer, before failing
        drop(std::fs::OpenOptions::new().write(true).open(&fifo));
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = mjrs(&["schema"]).stdout;
    // `-o` writes the text, standard output adds a newline
    assert_eq!(reader.join().unwrap(), expected[..expected.len() - 1]);
    assert_eq!(entries(&dir), ["pipe"], "the FIFO stays a FIFO");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_device_fails_the_command() {
    fails(
        &mjrs(&["schema", "-o", "/dev/full"]),
        1,
        "No space left on device",
    );
    let dir = scratch("full");
    let m = model(&dir, "pendulum.xml", PENDULUM);
    let mjb = [
        Path::new("compile"),
        &m,
        Path::new("-o"),
        Path::new("/dev/full"),
    ];
    fails(&mjrs(&mjb), 1, "No space left on device");
    // standard output on a full device: an error, not a panic
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mjrs"))
        .arg("schema")
        .stdout(full)
        .output()
        .unwrap();
    fails(
        &out,
        1,
        "cannot write to standard output: No space left on device",
    );
    assert!(mjrs(&["schema", "-o", "/dev/null"]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Boxes that fall into contact after about 0.43 s and then outgrow the model's arena: a
/// failure after some frames are written.
fn falling_boxes() -> String {
    let bodies: String = (0..16)
        .map(|i| {
            let (x, y) = (0.3 * f64::from(i % 4), 0.3 * f64::from(i / 4));
            format!(
                r#"<body pos="{x} {y} 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>"#
            )
        })
        .collect();
    format!(
        r#"<mujoco><size memory="32000"/><worldbody><geom type="plane" size="3 3 .1"/>{bodies}
</worldbody></mujoco>"#
    )
}

#[test]
fn render_every_needs_a_new_or_empty_directory_and_cleans_up_on_failure() {
    let dir = scratch("frames");
    let m = model(&dir, "boxes.xml", &falling_boxes());
    let render = |out: &Path| {
        let args = [
            "--every", "50", "--steps", "600", "--width", "64", "--height", "48",
        ];
        let mut cmd = vec![Path::new("render"), &m, Path::new("-o"), out];
        cmd.extend(args.iter().map(Path::new));
        mjrs(&cmd)
    };
    // a directory with something in it is refused
    let taken = dir.join("taken");
    std::fs::create_dir(&taken).unwrap();
    std::fs::write(taken.join("mine"), b"mine").unwrap();
    fails(&render(&taken), 1, "not an empty directory");
    assert_eq!(entries(&taken), ["mine"]);
    // the parent must exist: the clean-up removes only what was made
    fails(&render(&dir.join("a/b")), 1, "cannot create");
    assert!(!dir.join("a").exists());
    // a new directory: made, then removed with its frames when stepping fails
    fails(&render(&dir.join("new")), 1, "arena out of memory");
    assert!(!dir.join("new").exists());
    // an empty directory: kept, emptied again
    std::fs::create_dir(dir.join("empty")).unwrap();
    fails(&render(&dir.join("empty")), 1, "arena out of memory");
    assert!(entries(&dir.join("empty")).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_latin1_model_saves_with_its_bytes_and_compiles_to_the_same_model() {
    let dir = scratch("latin1");
    let input = dir.join("cafe.xml");
    let mut xml = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n".to_vec();
    xml.extend_from_slice(
        b"<mujoco model=\"caf\xe9\"><worldbody><geom name=\"b\xe9\" size=\"1\"/>",
    );
    xml.extend_from_slice(b"</worldbody></mujoco>");
    std::fs::write(&input, xml).unwrap();
    let saved = dir.join("saved.xml");
    let out = mjrs(&[
        "save".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        saved.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&saved).unwrap();
    // the raw byte, not the UTF-8 of a stand-in character
    assert!(bytes.windows(5).any(|w| w == b"caf\xe9\""), "{bytes:?}");
    let json = |path: &Path| {
        let out = mjrs(&["model".as_ref(), path.as_os_str()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(json(&input), json(&saved));
    std::fs::remove_dir_all(&dir).unwrap();
}
