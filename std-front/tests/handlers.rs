//! Handlers, warning texts and the warning reporter. The handlers are process-wide, so the
//! tests that install one hold `SERIAL` while they run.

mod common;

use std::sync::{Mutex, MutexGuard, PoisonError};

use mjrs_core::types::{
    WARN_BADCTRL, WARN_BADQACC, WARN_BADQPOS, WARN_BADQVEL, WARN_CNSTRFULL, WARN_CONTACTFULL,
    WARN_INERTIA, WARN_VGEOMFULL,
};
use mjrs_std::{
    clear_handlers, error, load_mjb, log, set_error_handler, set_log_handler, set_warning_handler,
    warning, warning_text, OwnedData, WarningReporter,
};

static SERIAL: Mutex<()> = Mutex::new(());
static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

fn record(prefix: &str, msg: &str) {
    SEEN.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(format!("{prefix}{msg}"));
}

fn take_seen() -> Vec<String> {
    core::mem::take(&mut *SEEN.lock().unwrap_or_else(PoisonError::into_inner))
}

#[test]
fn installed_handlers_receive_messages_and_none_restores_the_default() {
    let _serial = serial();
    take_seen();
    set_error_handler(Some(|m| record("E:", m)));
    set_warning_handler(Some(|m| record("W:", m)));
    set_log_handler(Some(|m| record("L:", m)));
    error("bad thing");
    warning("odd thing");
    log("note");
    assert_eq!(take_seen(), ["E:bad thing", "W:odd thing", "L:note"]);

    set_warning_handler(None);
    warning("to stderr"); // the default prints and returns
    error("to the handler");
    assert_eq!(take_seen(), ["E:to the handler"]);
    clear_handlers();
    error("to stderr, and the process goes on");
    assert!(take_seen().is_empty());
}

#[test]
fn a_handler_may_install_handlers() {
    let _serial = serial();
    take_seen();
    set_error_handler(Some(|m| {
        record("E:", m);
        set_error_handler(None);
    }));
    error("once");
    error("then the default");
    assert_eq!(take_seen(), ["E:once"]);
    clear_handlers();
}

#[test]
fn warning_texts_are_mujocos() {
    let cases = [
        (
            WARN_INERTIA,
            2,
            "Inertia matrix is too close to singular at DOF 2. Check model.",
        ),
        (
            WARN_CONTACTFULL,
            100,
            "Too many contacts. Either the arena memory is full, or nconmax is specified and \
             is exceeded. Increase arena memory allocation, or increase/remove nconmax. \
             (ncon = 100)",
        ),
        (
            WARN_CNSTRFULL,
            1 << 20,
            "Insufficient arena memory for the number of constraints generated. Increase \
             arena memory allocation above 1M bytes.",
        ),
        (
            WARN_VGEOMFULL,
            1000,
            "Pre-allocated visual geom buffer is full. Increase maxgeom above 1000.",
        ),
        (
            WARN_BADQPOS,
            0,
            "Nan, Inf or huge value in QPOS at DOF 0. The simulation is unstable.",
        ),
        (
            WARN_BADQVEL,
            1,
            "Nan, Inf or huge value in QVEL at DOF 1. The simulation is unstable.",
        ),
        (
            WARN_BADQACC,
            3,
            "Nan, Inf or huge value in QACC at DOF 3. The simulation is unstable.",
        ),
        (
            WARN_BADCTRL,
            4,
            "Nan, Inf or huge value in CTRL at ACTUATOR 4. The simulation is unstable.",
        ),
        (8, 0, "Unknown warning type 8."),
        (-1, 0, "Unknown warning type -1."),
    ];
    for (w, info, text) in cases {
        assert_eq!(warning_text(w, info), text);
    }
}

#[test]
fn byte_counts_and_negative_infos_print_as_in_c() {
    let above = |info| {
        let t = warning_text(WARN_CNSTRFULL, info);
        let start = t.find("above ").unwrap() + 6;
        t[start..t.len() - " bytes.".len()].to_owned()
    };
    assert_eq!(above(0), "0");
    assert_eq!(above(1536), "1536");
    assert_eq!(above(3072), "3K");
    assert_eq!(above(1 << 30), "1G");
    assert_eq!(above(1 << 30 | 1 << 10), "1048577K");
    // `int` passed on as `size_t`
    assert!(warning_text(WARN_INERTIA, -1).contains("DOF 18446744073709551615."));
}

#[test]
fn the_reporter_reports_each_warning_when_its_counter_leaves_zero() {
    let _serial = serial();
    take_seen();
    set_warning_handler(Some(|m| record("", m)));
    let mut model = load_mjb(common::pendulum_path(), None).unwrap();
    let m = model.view();
    let mut data = OwnedData::new(&m).unwrap();
    let mut reporter = WarningReporter::new();
    let mut d = data.view();
    assert_eq!(reporter.report(&d), 0);

    d.time = 0.25;
    d.warning[WARN_BADQACC as usize].number = 1;
    d.warning[WARN_BADQACC as usize].lastinfo = 1;
    assert_eq!(reporter.report(&d), 1);
    let qacc = "Nan, Inf or huge value in QACC at DOF 1. The simulation is unstable.";
    assert_eq!(take_seen(), [format!("{qacc} Time = 0.2500.")]);

    // raised again: MuJoCo prints only the first time
    d.warning[WARN_BADQACC as usize].number = 3;
    d.warning[WARN_CONTACTFULL as usize].number = 1;
    d.warning[WARN_CONTACTFULL as usize].lastinfo = 7;
    assert_eq!(reporter.report_at(&d, 0.125), 1);
    let seen = take_seen();
    assert!(seen[0].ends_with("(ncon = 7) Time = 0.1250."), "{seen:?}");

    // reset clears the counters; raised afterwards, it is new again
    data_reset(&mut reporter, &mut d);
    d.warning[WARN_BADQACC as usize].number = 1;
    d.warning[WARN_BADQACC as usize].lastinfo = 0;
    assert_eq!(reporter.report_at(&d, 1.0), 1);
    let qacc0 = qacc.replace("DOF 1", "DOF 0");
    assert_eq!(take_seen(), [format!("{qacc0} Time = 1.0000.")]);
    clear_handlers();
}

/// Counters back to zero, as `reset_data` leaves them, seen by the reporter.
fn data_reset(reporter: &mut WarningReporter, d: &mut mjrs_core::Data) {
    for w in d.warning.iter_mut() {
        *w = Default::default();
    }
    assert_eq!(reporter.report(d), 0);
}

#[test]
fn new_warnings_formats_time_as_printf() {
    let mut stats = [mjrs_core::data::WarningStat::default(); 8];
    stats[WARN_BADQPOS as usize].number = 1;
    let mut reporter = WarningReporter::new();
    let msgs = reporter.new_warnings(&stats, 0.03125);
    assert!(msgs[0].ends_with(" Time = 0.0312."), "{msgs:?}");
    let mut reporter = WarningReporter::new();
    let msgs = reporter.new_warnings(&stats, f64::NAN);
    assert!(msgs[0].ends_with(" Time = nan."), "{msgs:?}");
    // counter dropped without passing through zero: a reset happened in between
    stats[WARN_BADQPOS as usize].number = 1;
    let mut reporter = WarningReporter::new();
    reporter.new_warnings(&stats, 0.0);
    stats[WARN_BADQPOS as usize].number = 5;
    assert!(reporter.new_warnings(&stats, 0.0).is_empty());
    stats[WARN_BADQPOS as usize].number = 2;
    assert_eq!(reporter.new_warnings(&stats, 0.0).len(), 1);
}
