//! Issue 22: sizes and files in the input that cannot be held are clear errors before anything
//! is allocated or read, never an abort, a panic or a process killed for memory. The cases
//! MuJoCo answers the same way are in the compile corpus (`compile/hostile/alloc/`); these are
//! the ones where MuJoCo dies, hangs or says "Caught an unknown exception!", and where mjrs has
//! its own limit: one buffer sized by the input holds at most MuJoCo's `INT_MAX` bytes
//! (`mjrs_xml::limits::MAX_BUFFER_BYTES`), one file at most `INT_MAX` bytes
//! (`mjrs_std::MAX_FILE_BYTES`), as MuJoCo's `mju_fileToMemory` reads.
//!
//! Every test here needs a few megabytes and a fraction of a second.

use std::path::{Path, PathBuf};
use std::process::Command;

use mjrs_alloc::{OwnedData, OwnedModel};
use mjrs_core::ArenaError;

/// The error message of compiling `xml`, which must fail.
fn compile_error(xml: &str) -> String {
    match mjrs_xml::compile_str(xml, "hostile.xml", "", None) {
        Ok(_) => panic!("compiles: {xml}"),
        Err(e) => e.to_string(),
    }
}

/// A model with one height field of `nrow` x `ncol` elevations given in the XML.
fn hfield_model(nrow: u64, ncol: u64) -> String {
    format!(
        r#"<mujoco><asset><hfield name="h" nrow="{nrow}" ncol="{ncol}" size="1 1 1 0.1"/></asset>
        <worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>"#
    )
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mjrs-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn height_fields_larger_than_a_buffer_are_refused_before_allocating() {
    // MuJoCo: "Caught an unknown exception!" (its int product overflows)
    for (nrow, ncol, values) in [
        (2_000_000_000, 2_000_000_000, "4000000000000000000 values"),
        (100_000, 100_000, "10000000000 values"),
        (65_536, 65_537, "4295032832 values"),
        // fits MuJoCo's int, but 8.6 GB of elevations
        (46_340, 46_340, "2147395600 values"),
    ] {
        let e = compile_error(&hfield_model(nrow, ncol));
        assert!(
            e.starts_with(&format!(
                "XML Error: Could not allocate memory for the elevation of hfield 'h' \
                 (nrow*ncol): {values} of 4 bytes, more than the 2147483647 bytes one buffer \
                 may take"
            )),
            "{nrow}x{ncol}: {e}"
        );
        assert!(e.contains("Element 'hfield', line 1"), "{e}");
    }
}

#[test]
fn keyframes_and_user_data_larger_than_a_buffer_are_refused() {
    // MuJoCo is killed for memory on <size nkey="2000000000"/>
    let cases = [
        ("nkey", "keyframes (<size nkey>)"),
        ("nuser_body", "body user data (<size nuser_body>)"),
        ("nuser_geom", "geom user data (<size nuser_geom>)"),
        // zeroed with every mjData: 16 GB written
        ("nuserdata", "mjData userdata (<size nuserdata>)"),
    ];
    for (attr, what) in cases {
        let xml = format!(
            r#"<mujoco><size {attr}="2000000000"/><worldbody><geom size="1"/></worldbody></mujoco>"#
        );
        let e = compile_error(&xml);
        assert!(
            e.starts_with(&format!("Error: Could not allocate memory for {what}: ")),
            "{attr}: {e}"
        );
        assert!(e.contains("more than the 2147483647 bytes"), "{attr}: {e}");
    }
}

#[test]
fn a_huge_arena_is_allocated_lazily_or_refused_never_aborted() {
    // 16 GB of arena, as MuJoCo accepts it: the heap maps it without touching it, or says no
    let xml =
        r#"<mujoco><size nstack="2000000000"/><worldbody><geom size="1"/></worldbody></mujoco>"#;
    match mjrs_xml::compile_str(xml, "hostile.xml", "", None) {
        // MuJoCo's narena for this model
        Ok(c) => assert_eq!(c.model.sizes().narena, 16_003_366_912),
        Err(e) => assert!(
            e.to_string()
                .starts_with("Error: engine error: Could not allocate memory\nmjData"),
            "{e}"
        ),
    }
}

/// A tiny model as an MJB blob whose header asks for `narena` arena bytes.
fn mjb_with_arena(narena: u64) -> Vec<u8> {
    let xml =
        r#"<mujoco><worldbody><body><freejoint/><geom size="1"/></body></worldbody></mujoco>"#;
    let mut model = mjrs_xml::compile_str(xml, "m.xml", "", None).unwrap().model;
    let mut blob = model.to_mjb(8).unwrap();
    // the size_t `narena` follows the 5 header ints and the 76 int sizes
    let at = 4 * (5 + 76);
    blob[at..at + 8].copy_from_slice(&narena.to_le_bytes());
    blob
}

#[test]
fn an_mjb_asking_for_an_impossible_arena_is_an_error() {
    let narena = 1u64 << 62;
    let model = OwnedModel::from_mjb(&mjb_with_arena(narena)).unwrap();
    let mut model = model;
    let err = OwnedData::new(&model.view()).unwrap_err();
    // beyond mjrs's largest arena (16 GiB): refused before the heap is asked
    assert_eq!(
        err,
        ArenaError::ArenaTooLarge {
            narena: narena as usize
        }
    );
    assert!(
        err.to_string().starts_with("Could not allocate memory: "),
        "{err}"
    );
}

#[test]
fn an_mjb_asking_for_more_user_data_than_a_buffer_is_an_error() {
    // mjData's userdata is zeroed when a data is made: 16 GB written for 2e9 numbers
    let xml =
        r#"<mujoco><size nuserdata="12345"/><worldbody><geom size="1"/></worldbody></mujoco>"#;
    let mut blob = mjrs_xml::compile_str(xml, "m.xml", "", None)
        .unwrap()
        .model
        .to_mjb(8)
        .unwrap();
    let sizes = 4 * 5..4 * (5 + 76);
    let at = sizes
        .step_by(4)
        .find(|&at| blob[at..at + 4] == 12345i32.to_le_bytes())
        .unwrap();
    blob[at..at + 4].copy_from_slice(&2_000_000_000i32.to_le_bytes());
    let err = OwnedModel::from_mjb(&blob).unwrap_err();
    assert_eq!(err.to_string(), "invalid MJB: size nuserdata = 2000000000");
}

#[test]
fn files_over_two_gigabytes_are_refused_before_reading() {
    // MuJoCo warns "File size over 2GB is not supported" and reads the file as empty
    let dir = scratch("big");
    let big = dir.join("big.xml");
    // sparse: no disk space, never read
    std::fs::File::create(&big)
        .unwrap()
        .set_len(mjrs_std::MAX_FILE_BYTES + 1)
        .unwrap();
    let xml = format!(r#"<mujoco><include file="{}"/></mujoco>"#, big.display());
    let e = compile_error(&xml);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        e.starts_with(
            "XML Error: File size over 2GB is not supported: 2147483648 bytes, at most \
             2147483647 are read."
        ),
        "{e}"
    );
}

#[test]
fn a_pipe_is_not_waited_on() {
    // MuJoCo's fopen blocks until something writes to the pipe; mjrs sizes it (no size: empty)
    let dir = scratch("fifo");
    let fifo = dir.join("fifo.xml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        std::fs::remove_dir_all(&dir).unwrap();
        return; // no mkfifo on this system: nothing to test
    }
    let xml = format!(r#"<mujoco><include file="{}"/></mujoco>"#, fifo.display());
    let e = compile_error(&xml);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        e.starts_with(&format!("XML Error: Empty file '{}'", fifo.display())),
        "{e}"
    );
}

#[test]
fn assets_that_are_devices_read_as_empty_files_as_in_mujoco() {
    // links to /dev/zero, which never ends: sized (0 bytes), never read; MuJoCo's messages
    let dir = scratch("devices");
    for ext in ["stl", "obj", "png", "skn"] {
        std::os::unix::fs::symlink("/dev/zero", dir.join(format!("zero.{ext}"))).unwrap();
    }
    let cases = [
        (
            r#"<mesh name="m" file="zero.stl"/>"#,
            "Error: STL file 'zero.stl' is empty",
        ),
        (
            r#"<mesh name="m" file="zero.obj"/>"#,
            "Error: at least 4 vertices required",
        ),
        (
            r#"<texture name="t" type="2d" file="zero.png"/>"#,
            "Error: empty PNG file 'zero.png'",
        ),
        (
            r#"<hfield name="h" file="zero.png" size="1 1 1 1"/>"#,
            "Error: empty PNG file 'zero.png'",
        ),
        (
            r#"<skin name="s" file="zero.skn"/>"#,
            "Error: SKN file 'zero.skn' is empty",
        ),
    ];
    let dirname = format!("{}/", dir.display());
    let errors: Vec<String> = cases
        .iter()
        .map(|(asset, _)| {
            let xml = format!("<mujoco><asset>{asset}</asset></mujoco>");
            match mjrs_xml::compile_str(&xml, "d.xml", &dirname, None) {
                Ok(_) => format!("{asset} compiles"),
                // MuJoCo's messages as it prints them for a model in the working directory
                Err(e) => e.to_string().replace(&dirname, ""),
            }
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    for ((asset, message), e) in cases.iter().zip(errors) {
        assert!(e.starts_with(message), "{asset}: {e}");
    }
}

/// A PNG of `width` x `height` 8-bit RGB whose image data is a few bytes, made `pad` bytes
/// longer by an ancillary chunk (so that the file could hold a large image's data).
fn png_claiming(width: u32, height: u32, pad: usize) -> Vec<u8> {
    let mut out = vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10];
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    for (ty, data) in [
        (*b"IHDR", ihdr),
        (*b"zzZz", vec![0u8; pad]),
        // a zlib stream of one empty stored block (its Adler-32 is 1)
        (
            *b"IDAT",
            vec![0x78, 0x01, 0x01, 0, 0, 0xff, 0xff, 0, 0, 0, 1],
        ),
        (*b"IEND", Vec::new()),
    ] {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(&ty);
        out.extend_from_slice(&data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    out
}

/// CRC-32 of PNG chunks (ISO 3309).
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// Compiles a model with a 2D texture from `png`, written to a scratch directory.
fn texture_error(png: &[u8], name: &str) -> String {
    let dir = scratch(name);
    std::fs::write(dir.join("t.png"), png).unwrap();
    let xml = r#"<mujoco><asset><texture name="t" type="2d" file="t.png"/></asset></mujoco>"#;
    let dirname = format!("{}/", dir.display());
    let result = mjrs_xml::compile_str(xml, "t.xml", &dirname, None);
    std::fs::remove_dir_all(&dir).unwrap();
    match result {
        Ok(_) => panic!("{name}: the texture compiles"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn png_image_data_larger_than_a_buffer_is_refused_before_inflating() {
    // 27000 x 27000 RGB: 2.2 GB of image data, which a 2.1 MB file could inflate to
    let e = texture_error(&png_claiming(27_000, 27_000, 2_200_000), "big-png");
    assert!(
        e.contains("Could not allocate memory for the PNG image data: 2187027000 bytes, more"),
        "{e}"
    );
    // a promise the file cannot keep is lodepng's "invalid decompressed idat size"
    let e = texture_error(&png_claiming(100_000, 100_000, 0), "huge-png");
    assert!(e.contains("invalid decompressed idat size"), "{e}");
}

#[test]
fn a_hundred_million_solver_iterations_run_as_in_mujoco() {
    // nothing is sized by the iteration cap; the solver stops when it converges
    let xml = r#"<mujoco><option iterations="100000000"/><worldbody>
        <geom type="plane" size="5 5 1"/>
        <body pos="0 0 .09"><freejoint/><geom size=".1"/></body></worldbody></mujoco>"#;
    let mut model = mjrs_xml::compile_str(xml, "m.xml", "", None).unwrap().model;
    let m = model.view();
    let mut data = OwnedData::new(&m).unwrap();
    let mut d = data.view();
    for _ in 0..100 {
        mjrs_core::step(&m, &mut d).unwrap();
    }
    assert!(d.ncon > 0 && d.solver_niter[0] < 100);
}

/// The `mjrs` binary next to the test executable's directory (`target/<profile>/mjrs`).
fn mjrs_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(Path::parent).unwrap();
    let bin = profile.join("mjrs");
    assert!(
        bin.exists(),
        "{} is missing: build the CLI first (cargo build --release)",
        bin.display()
    );
    bin
}

#[test]
fn the_cli_reports_sizes_it_cannot_hold_and_exits_1() {
    let dir = scratch("cli");
    let xml = dir.join("hfield.xml");
    std::fs::write(&xml, hfield_model(2_000_000_000, 2_000_000_000)).unwrap();
    let mjb = dir.join("arena.mjb");
    std::fs::write(&mjb, mjb_with_arena(1 << 62)).unwrap();
    let run = |cmd: &str, file: &Path| Command::new(mjrs_binary()).arg(cmd).arg(file).output();
    let (hfield, arena) = (run("model", &xml).unwrap(), run("data", &mjb).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    for (out, text) in [
        (
            hfield,
            "Could not allocate memory for the elevation of hfield 'h'",
        ),
        (arena, "Could not allocate memory: "),
    ] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(text), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
