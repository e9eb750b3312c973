//! Error, warning and log handlers (MuJoCo's `mju_user_error`, `mju_user_warning` and its log),
//! warning texts (`mju_warningText`) and the report of warnings raised during a step
//! (`mj_warning`'s message).
//!
//! A handler is a plain `fn(&str)`, installed process-wide as MuJoCo's are; installation and
//! use are thread-safe. Without a handler, messages go to standard error as `ERROR: msg` and
//! `WARNING: msg`. Unlike MuJoCo, whose default error handler writes `MUJOCO_LOG.TXT`, waits for
//! Enter and exits the process, mjrs never exits and writes no file: the Rust API returns
//! errors as values, and [`error`] only tells the handler about them.

use std::sync::{PoisonError, RwLock};

use mjrs_core::data::WarningStat;
use mjrs_core::types::NWARNING;
use mjrs_core::types::{
    WARN_BADCTRL, WARN_BADQACC, WARN_BADQPOS, WARN_BADQVEL, WARN_CNSTRFULL, WARN_CONTACTFULL,
    WARN_INERTIA, WARN_VGEOMFULL,
};
use mjrs_core::Data;

/// A message handler, as MuJoCo's `void (*)(const char*)`.
pub type Handler = fn(&str);

/// One installed handler; `None` selects the default.
struct Slot(RwLock<Option<Handler>>);

impl Slot {
    const fn new() -> Self {
        Self(RwLock::new(None))
    }

    fn set(&self, h: Option<Handler>) {
        // a handler is a plain value: a panic elsewhere cannot leave it half-written
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = h;
    }

    fn get(&self) -> Option<Handler> {
        *self.0.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Calls the handler, or `default`; outside the lock, so a handler may install handlers.
    fn call(&self, msg: &str, default: Handler) {
        self.get().unwrap_or(default)(msg);
    }
}

static ERROR: Slot = Slot::new();
static WARNING: Slot = Slot::new();
static LOG: Slot = Slot::new();

/// Installs the error handler (`mju_user_error`); `None` restores the default, which prints
/// `ERROR: msg` to standard error and, unlike MuJoCo's, does not exit.
pub fn set_error_handler(h: Option<Handler>) {
    ERROR.set(h);
}

/// Installs the warning handler (`mju_user_warning`); `None` restores the default, which
/// prints `WARNING: msg` to standard error.
pub fn set_warning_handler(h: Option<Handler>) {
    WARNING.set(h);
}

/// Installs the log handler (MuJoCo's `mju_writeLog`, which appends to `MUJOCO_LOG.TXT`);
/// `None` restores the default, which prints the message to standard error.
pub fn set_log_handler(h: Option<Handler>) {
    LOG.set(h);
}

/// Restores every default handler (`mju_clearHandlers`).
pub fn clear_handlers() {
    for slot in [&ERROR, &WARNING, &LOG] {
        slot.set(None);
    }
}

/// Reports an error (`mju_error`) to the error handler. It returns: mjrs reports errors as
/// values, this only makes them visible.
pub fn error(msg: &str) {
    ERROR.call(msg, |m| eprintln!("ERROR: {m}"));
}

/// Reports a warning (`mju_warning`) to the warning handler.
pub fn warning(msg: &str) {
    WARNING.call(msg, |m| eprintln!("WARNING: {m}"));
}

/// Writes a message to the log handler (`mju_writeLog`).
pub fn log(msg: &str) {
    LOG.call(msg, |m| eprintln!("{m}"));
}

/// MuJoCo's text for warning `warning` (a `WARN_*` index) with its `info` value
/// (`mju_warningText`), e.g. "Nan, Inf or huge value in QACC at DOF 3. The simulation is
/// unstable." MuJoCo passes `info` on as a `size_t`, so a negative value prints as its 64-bit
/// two's complement, as here.
pub fn warning_text(warning: i32, info: i32) -> String {
    let info = i64::from(info) as u64;
    match warning {
        WARN_INERTIA => {
            format!("Inertia matrix is too close to singular at DOF {info}. Check model.")
        }
        WARN_CONTACTFULL => format!(
            "Too many contacts. Either the arena memory is full, or nconmax is specified and is \
             exceeded. Increase arena memory allocation, or increase/remove nconmax. \
             (ncon = {info})"
        ),
        WARN_CNSTRFULL => format!(
            "Insufficient arena memory for the number of constraints generated. Increase arena \
             memory allocation above {} bytes.",
            write_num_bytes(info)
        ),
        WARN_VGEOMFULL => {
            format!("Pre-allocated visual geom buffer is full. Increase maxgeom above {info}.")
        }
        WARN_BADQPOS => unstable("QPOS", "DOF", info),
        WARN_BADQVEL => unstable("QVEL", "DOF", info),
        WARN_BADQACC => unstable("QACC", "DOF", info),
        WARN_BADCTRL => unstable("CTRL", "ACTUATOR", info),
        _ => format!("Unknown warning type {warning}."),
    }
}

/// The text of the four bad-value warnings.
fn unstable(what: &str, index: &str, info: u64) -> String {
    format!("Nan, Inf or huge value in {what} at {index} {info}. The simulation is unstable.")
}

/// A byte count as MuJoCo writes it (`mju_writeNumBytes`): with the largest suffix of K, M, G,
/// T, P, E that divides it exactly, else in plain bytes, cut to the 19 characters of MuJoCo's
/// buffer (only counts of 10^19 and more are cut).
pub fn write_num_bytes(n: u64) -> String {
    for (shift, suffix) in [
        (60, 'E'),
        (50, 'P'),
        (40, 'T'),
        (30, 'G'),
        (20, 'M'),
        (10, 'K'),
    ] {
        let unit = 1u64 << shift;
        if n >= unit && n.is_multiple_of(unit) {
            return format!("{}{suffix}", n >> shift);
        }
    }
    let mut text = n.to_string();
    text.truncate(19);
    text
}

/// `x` as C's `printf("%.4f")`: as Rust's `{:.4}` (both round the exact binary value half to
/// even), except that C writes NaN as `nan` or `-nan`.
fn c_fixed4(x: f64) -> String {
    match (x.is_nan(), x.is_sign_negative()) {
        (true, false) => "nan".to_owned(),
        (true, true) => "-nan".to_owned(),
        _ => format!("{x:.4}"),
    }
}

/// Reports warnings raised during simulation the way MuJoCo prints them.
///
/// The core counts warnings in `d.warning[i].number` and keeps the last `info` in
/// `d.warning[i].lastinfo` without printing. MuJoCo's `mj_warning` prints
/// "`<text>` Time = `%.4f`." the first time a warning is raised, that is when its counter
/// leaves zero. Call [`WarningReporter::report`] after each step: each counter that left zero
/// since the previous call is reported once through [`warning`]. A counter that dropped since
/// the previous call was reset (`reset_data`) and counts as new again, as in MuJoCo.
#[derive(Clone, Debug, Default)]
pub struct WarningReporter {
    seen: [i32; NWARNING as usize],
}

impl WarningReporter {
    /// A reporter that has seen no warnings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reports the new warnings of `d` with time `d.time`, returning how many. After a step,
    /// `d.time` is one timestep past the time MuJoCo prints for warnings raised during that
    /// step; use [`WarningReporter::report_at`] with the time before the step to match it.
    #[allow(clippy::useless_conversion)] // `Real` is `f32` when mjrs-core's `f32` feature is on
    pub fn report(&mut self, d: &Data) -> usize {
        self.report_at(d, f64::from(d.time))
    }

    /// Reports the new warnings of `d` as raised at `time`, returning how many.
    pub fn report_at(&mut self, d: &Data, time: f64) -> usize {
        let messages = self.new_warnings(&d.warning, time);
        for m in &messages {
            warning(m);
        }
        messages.len()
    }

    /// MuJoCo's messages for the counters in `stats` (indexed by `WARN_*`) that left zero
    /// since the previous call, as raised at `time`; updates what the reporter has seen.
    pub fn new_warnings(&mut self, stats: &[WarningStat], time: f64) -> Vec<String> {
        let mut out = Vec::new();
        for (i, (seen, stat)) in self.seen.iter_mut().zip(stats).enumerate() {
            let raised = stat.number > 0 && (*seen == 0 || stat.number < *seen);
            if raised {
                let text = warning_text(i as i32, stat.lastinfo);
                out.push(format!("{text} Time = {}.", c_fixed4(time)));
            }
            *seen = stat.number;
        }
        out
    }
}
