//! Printing in MuJoCo's text formats (`mjrs_core::print`) against MuJoCo 3.1.6's own output
//! (`fixtures/generate-print.sh`, models of `fixtures/print-models.txt`):
//! * `print_model` is identical, line for line, to `mj_printModel` of the same MJB;
//! * `print_data` after the same steps of the control law and `mj_forward` is identical to
//!   `mj_printData` except for the lines of [`MAY_DIFFER`]: the peak stack and arena use, which
//!   measure mjrs's own arena (scratch sizes and alignment differ from MuJoCo's). Run-state
//!   sections are compared as they come: the WARNING section (present in the `print_warning`
//!   model, absent elsewhere) must match, and TIMER is absent on both sides because neither
//!   has a clock; a separate test gives mjrs a clock and checks that the section appears;
//! * with custom float formats (`%.8g`, `%+.3e`), `print_formatted_model` / `_data` match
//!   `mj_printFormattedModel` / `_Data` the same way;
//! * `FloatFormat` writes what glibc's `snprintf` writes for 22 formats and 810 doubles;
//! * `print_mat` / `print_mat_sparse` write what `mju_printMat` / `mju_printMatSparse` write.
//!
//! The f32 build prints the same lines with its own numbers: every line has the same words,
//! with numbers in the same places.

use mjrs_core::print::{self, FloatFormat};
use mjrs_tests::fixtures;
use std::path::PathBuf;

/// Labels of the `print_data` lines allowed to differ from MuJoCo's (memory use of the arena).
const MAY_DIFFER: &[&str] = &["maxuse_stack", "maxuse_arena"];

struct Case {
    name: String,
    key: Option<i32>,
    steps: usize,
}

fn dir() -> PathBuf {
    fixtures().join("print")
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("print-models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            Case {
                name: c[0].to_string(),
                key: c[2].parse().ok(),
                steps: c[3].parse().unwrap(),
            }
        })
        .collect()
}

fn reference(name: &str, what: &str) -> String {
    std::fs::read_to_string(dir().join(format!("{name}.{what}.txt"))).unwrap()
}

/// mjrs's model and data printouts of a case, with the f64 or the f32 core.
macro_rules! printouts {
    ($core:ident, $case:expr) => {{
        let case = $case;
        let blob = std::fs::read(dir().join(format!("{}.mjb", case.name))).unwrap();
        let (_, texts) = mjrs_tests::simulate!($core, blob, case.key, case.steps, |m, d| {
            $core::forward(&m, d).unwrap();
            let (mut model, mut data) = (String::new(), String::new());
            $core::print::print_model(&m, &mut model).unwrap();
            $core::print::print_data(&m, d, &mut data).unwrap();
            (model, data)
        });
        texts
    }};
}

/// The label of a `SIZES` line (`  maxuse_stack          4496` -> `maxuse_stack`).
fn label(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Line-by-line differences of `ours` from `reference`, except lines whose label is in
/// `allowed` on both sides.
fn differences(reference: &str, ours: &str, allowed: &[&str]) -> Vec<String> {
    let (r, o): (Vec<&str>, Vec<&str>) = (reference.lines().collect(), ours.lines().collect());
    let mut out = Vec::new();
    if r.len() != o.len() {
        out.push(format!("{} lines, MuJoCo has {}", o.len(), r.len()));
    }
    for (i, (a, b)) in r.iter().zip(&o).enumerate() {
        let excused = label(a) == label(b) && allowed.contains(&label(a));
        if a != b && !excused {
            out.push(format!("line {}: MuJoCo {a:?}, mjrs {b:?}", i + 1));
        }
    }
    if reference.ends_with('\n') != ours.ends_with('\n') {
        out.push("final newline differs".into());
    }
    out
}

#[test]
fn model_and_data_print_as_mujoco_prints_them() {
    let mut failures = Vec::new();
    for case in cases() {
        let (model, data) = printouts!(mjrs_core, &case);
        for (what, ours, allowed) in [("model", &model, &[][..]), ("data", &data, MAY_DIFFER)] {
            let reference = reference(&case.name, what);
            let diffs = differences(&reference, ours, allowed);
            if !diffs.is_empty() {
                failures.push(format!(
                    "{} {what}: {}",
                    case.name,
                    diffs[..diffs.len().min(5)].join("; ")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn formatted_printouts_match_mujoco() {
    for (name, fmt, tag) in [("kitchen_sink", "%.8g", "g8"), ("humanoid", "%+.3e", "e3")] {
        let format = FloatFormat::parse(fmt).unwrap();
        let blob = std::fs::read(dir().join(format!("{name}.mjb"))).unwrap();
        let header = mjrs_core::mjb::read_header(&blob).unwrap();
        let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
        let m = mjrs_core::mjb::load(&blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
        mjrs_core::forward(&m, &mut d).unwrap();
        let (mut model, mut data) = (String::new(), String::new());
        print::print_formatted_model(&m, &mut model, &format).unwrap();
        print::print_formatted_data(&m, &d, &mut data, &format).unwrap();
        for (what, ours, allowed) in [("model", &model, &[][..]), ("data", &data, MAY_DIFFER)] {
            let reference = reference(name, &format!("{what}.{tag}"));
            let diffs = differences(&reference, ours, allowed);
            assert!(
                diffs.is_empty(),
                "{name} {what} {fmt}: {:?}",
                &diffs[..diffs.len().min(5)]
            );
        }
    }
}

#[test]
fn run_state_sections_are_compared_honestly() {
    // a warning counted by both simulators shows in both printouts
    let warn = reference("print_warning", "data");
    assert!(warn.contains("WARNING\n    5:  lastinfo = 2   number = 1\n"));
    let (_, ours) = printouts!(
        mjrs_core,
        &cases()
            .into_iter()
            .find(|c| c.name == "print_warning")
            .unwrap()
    );
    assert!(ours.contains("WARNING\n    5:  lastinfo = 2   number = 1\n"));
    // no fixture was printed with a clock, so TIMER is absent on both sides
    for case in cases() {
        assert!(!reference(&case.name, "data").contains("TIMER"));
    }
    // with a clock, mjrs times the pipeline and prints the section as MuJoCo does
    fn clock() -> f64 {
        use std::sync::atomic::{AtomicU32, Ordering};
        static TICKS: AtomicU32 = AtomicU32::new(0);
        f64::from(TICKS.fetch_add(1, Ordering::Relaxed)) * 0.25
    }
    let blob = std::fs::read(dir().join("humanoid.mjb")).unwrap();
    let (_, text) = mjrs_tests::simulate!(mjrs_core, blob, None::<i32>, 1, |m, d| {
        d.callbacks.time = Some(clock);
        mjrs_core::step(&m, d).unwrap();
        let mut s = String::new();
        print::print_data(&m, d, &mut s).unwrap();
        s
    });
    let timer = text.split("TIMER\n").nth(1).expect("TIMER section");
    let lines: Vec<&str> = timer.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 15, "{lines:?}");
    assert!(lines[0].starts_with("    0:  duration = "), "{}", lines[0]);
    assert!(lines[0].ends_with("   number = 1"), "{}", lines[0]);
}

#[test]
fn float_format_matches_glibc_printf() {
    let text = std::fs::read_to_string(dir().join("printf.txt")).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        let mut parts = line.splitn(3, '\t');
        let (fmt, bits, want) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let x = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
        let mut got = String::new();
        FloatFormat::parse(fmt).unwrap().write(&mut got, x).unwrap();
        if got != want {
            failures.push(format!("{fmt} of {x:e}: printf {want:?}, mjrs {got:?}"));
        }
        n += 1;
    }
    assert!(n > 17000, "{n} cases");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn matrix_printers_match_mujoco() {
    let text = std::fs::read_to_string(dir().join("printmat.json")).unwrap();
    let cases: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ints = |v: &serde_json::Value| -> Vec<i32> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap() as i32)
            .collect()
    };
    for case in cases.as_array().unwrap() {
        let mat: Vec<f64> = case["mat"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| f64::from_bits(u64::from_str_radix(b.as_str().unwrap(), 16).unwrap()))
            .collect();
        let nr = case["nr"].as_u64().unwrap() as usize;
        let mut ours = String::new();
        if case["kind"] == "dense" {
            let nc = case["nc"].as_u64().unwrap() as usize;
            print::print_mat(&mut ours, &mat, nr, nc).unwrap();
        } else {
            let (nnz, adr, ind) = (
                ints(&case["rownnz"]),
                ints(&case["rowadr"]),
                ints(&case["colind"]),
            );
            print::print_mat_sparse(&mut ours, &mat, nr, &nnz, &adr, &ind).unwrap();
        }
        assert_eq!(ours, case["out"].as_str().unwrap());
    }
}

/// A line with every number replaced by `#`.
fn skeleton(line: &str) -> String {
    line.split_whitespace()
        .map(|w| {
            let w = w.trim_end_matches(':');
            if w.parse::<f64>().is_ok() || w == "-nan" {
                "#"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn f32_build_prints_the_same_lines() {
    let mut failures = Vec::new();
    for case in cases() {
        let (model, data) = printouts!(mjrs_core_f32, &case);
        // the model's numbers are the reference's rounded to f32; after the steps, the data may
        // differ in contacts and solver iterations, so only the arrays from ENERGY up to
        // CONTACT (fixed sizes) are compared
        for (what, ours) in [("model", model), ("data", data)] {
            let reference = reference(&case.name, what);
            let cut = |s: &str| {
                let s = &s[s.find("ENERGY =").unwrap()..];
                s.split("CONTACT\n").next().unwrap().to_string()
            };
            let (r, o) = if what == "data" {
                (cut(&reference), cut(&ours))
            } else {
                (reference, ours)
            };
            let (r, o): (Vec<String>, Vec<String>) = (
                r.lines().map(skeleton).collect(),
                o.lines().map(skeleton).collect(),
            );
            if r != o {
                let first = r.iter().zip(&o).position(|(a, b)| a != b);
                failures.push(format!(
                    "{} {what}: {} vs {} lines, first difference at {first:?}",
                    case.name,
                    r.len(),
                    o.len()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
