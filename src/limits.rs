//! What the command line may ask for: the parsers of its numeric arguments (a message about the
//! value, negative numbers included, instead of clap's defaults) and the bounds that keep every
//! command finite in time and memory.
//!
//! * At most [`MAX_STEPS`] steps per command, all rollouts of a batch together (a `--duration` is converted with the model's
//!   timestep, which must then be positive): the stepping commands use no more memory as they
//!   run, so this bounds their time (hours at the step rates of large models).
//! * `traj` records at most [`MAX_RECORDS`] states and [`MAX_JSON_BYTES`] of JSON; `rollout`
//!   keeps at most [`MAX_BUFFER_BYTES`] of controls, states and sensor values, and with `-o` at
//!   most [`MAX_JSON_BYTES`] of JSON; `render --every` writes at most [`MAX_FRAMES`] frames.
//!   These are checked before anything runs.

/// Most steps one command runs (all the rollouts of a batch together).
pub const MAX_STEPS: u64 = 1_000_000_000;
/// Most JSON text a recording command may produce, estimated before it runs.
pub const MAX_JSON_BYTES: u64 = 256 << 20;
/// Most bytes of numbers `rollout` may hold in memory.
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;
/// Most states `traj` records (each costs eleven strings in memory besides its numbers).
pub const MAX_RECORDS: u64 = 1_000_000;
/// Most PNG frames of `render --every` (about an hour of video at 30 frames per second).
pub const MAX_FRAMES: u64 = 100_000;
/// The longest JSON text of one number with its separator (`-2.2250738585072014e-308,`).
const BYTES_PER_NUMBER: u64 = 25;

/// The limits in one sentence, for `mjrs --help`.
pub fn summary() -> String {
    format!(
        "Limits: at most {MAX_STEPS} steps per command (a --duration needs a positive timestep), \
         {MAX_RECORDS} recorded states and {} MiB of JSON for traj, {} MiB of buffers for \
         rollout, {MAX_FRAMES} frames for render --every.",
        MAX_JSON_BYTES >> 20,
        MAX_BUFFER_BYTES >> 20
    )
}

/// A whole number from `LO` to `HI` (a count of steps, frames, threads...).
pub fn count<const LO: u64, const HI: u64>(text: &str) -> Result<usize, String> {
    let expected = || format!("expected a whole number from {LO} to {HI}");
    let t = text.trim();
    if t.starts_with('-') && t.len() > 1 {
        return Err(format!("it is negative; {}", expected()));
    }
    let n: u64 = t.parse().map_err(|_| expected())?;
    if n < LO {
        return Err(format!("it is less than {LO}; {}", expected()));
    }
    if n > HI {
        return Err(format!(
            "it is more than {HI}, the most mjrs accepts here; {}",
            expected()
        ));
    }
    usize::try_from(n).map_err(|_| expected())
}

/// Step counts: 0 to [`MAX_STEPS`].
pub fn steps(text: &str) -> Result<usize, String> {
    count::<0, MAX_STEPS>(text)
}

/// Step counts of commands that need at least one step: 1 to [`MAX_STEPS`].
pub fn some_steps(text: &str) -> Result<usize, String> {
    count::<1, MAX_STEPS>(text)
}

/// Counts that must be at least one (`--every`, `--batch`, `--frames`): 1 to [`MAX_STEPS`].
pub fn positive(text: &str) -> Result<usize, String> {
    count::<1, MAX_STEPS>(text)
}

/// Worker threads: 1 to MuJoCo's `mjMAXTHREAD`.
pub fn threads(text: &str) -> Result<usize, String> {
    count::<1, { mjrs_std::thread_pool::MAXTHREAD as u64 }>(text)
}

/// A finite number, with a message naming what is wrong otherwise.
fn finite(text: &str) -> Result<f64, String> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a finite number".to_string())?;
    if x.is_nan() {
        return Err("it is not a number; expected a finite number".into());
    }
    if x.is_infinite() {
        return Err("it is infinite; expected a finite number".into());
    }
    Ok(x)
}

/// A number for a message: plain when short, in scientific notation when huge.
fn shown(x: f64) -> String {
    if x.abs() < 1e15 {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// `--duration`: finite seconds, not negative (converted to steps by [`duration_steps`]).
pub fn duration(text: &str) -> Result<f64, String> {
    let x = finite(text)?;
    if x < 0.0 {
        return Err("it is negative; expected seconds, 0 or more".into());
    }
    Ok(x)
}

/// `--eps`: a positive, finite finite-difference step.
pub fn eps(text: &str) -> Result<f64, String> {
    let x = finite(text)?;
    if x <= 0.0 {
        return Err("the perturbation must be positive".into());
    }
    Ok(x)
}

/// The steps that simulate `duration` seconds at `timestep`: refused when the timestep is not
/// positive and finite (MuJoCo loads such a model, but time would never reach the duration) or
/// when there would be more than [`MAX_STEPS`].
pub fn duration_steps(duration: f64, timestep: f64) -> Result<u64, String> {
    if !(timestep.is_finite() && timestep > 0.0) {
        return Err(format!(
            "the model's timestep is {timestep}: simulating --duration {} s needs a positive, \
             finite timestep (<option timestep=\"...\"/>)",
            shown(duration)
        ));
    }
    let steps = (duration / timestep).ceil();
    if steps > MAX_STEPS as f64 {
        return Err(format!(
            "--duration {} s is {} steps of {timestep} s; mjrs runs at most {MAX_STEPS} steps \
             ({} s of this model)",
            shown(duration),
            shown(steps),
            shown(MAX_STEPS as f64 * timestep)
        ));
    }
    Ok(steps as u64)
}

/// `traj` records `steps / every` states of `per_state` numbers: within [`MAX_RECORDS`] and
/// [`MAX_JSON_BYTES`].
pub fn check_traj(steps: usize, every: usize, per_state: usize) -> Result<(), String> {
    let records = (steps / every.max(1)) as u64;
    if records > MAX_RECORDS {
        return Err(format!(
            "--steps {steps} --every {every} records {records} states; at most {MAX_RECORDS} \
             (raise --every or lower --steps)"
        ));
    }
    check_json(records.saturating_mul(per_state as u64), "--steps/--every")
}

/// JSON of `numbers` numbers must stay within [`MAX_JSON_BYTES`]; `what` names the arguments to
/// change.
pub fn check_json(numbers: u64, what: &str) -> Result<(), String> {
    let bytes = numbers.saturating_mul(BYTES_PER_NUMBER);
    if bytes > MAX_JSON_BYTES {
        return Err(format!(
            "the output would hold {numbers} numbers, up to {} MiB of JSON; at most {} MiB \
             (lower {what})",
            bytes >> 20,
            MAX_JSON_BYTES >> 20
        ));
    }
    Ok(())
}

/// `rollout` holds `nroll` initial states of `nstate` numbers and `nroll x nstep x per_step`
/// numbers (controls, kept outputs) of 8 bytes each: within [`MAX_BUFFER_BYTES`].
pub fn check_rollout(
    nroll: usize,
    nstep: usize,
    nstate: usize,
    per_step: usize,
) -> Result<(), String> {
    let per_rollout = (nstep as u64)
        .saturating_mul(per_step as u64)
        .saturating_add(nstate as u64);
    let total_steps = (nroll as u64).saturating_mul(nstep as u64);
    if total_steps > MAX_STEPS {
        return Err(format!(
            "--batch {nroll} --steps {nstep} is {total_steps} steps; mjrs runs at most \
             {MAX_STEPS} (lower --batch or --steps)"
        ));
    }
    let bytes = (nroll as u64).saturating_mul(per_rollout).saturating_mul(8);
    if bytes > MAX_BUFFER_BYTES {
        return Err(format!(
            "--batch {nroll} --steps {nstep} needs {} MiB for the states, controls and outputs; \
             at most {} MiB (lower --batch or --steps)",
            bytes >> 20,
            MAX_BUFFER_BYTES >> 20
        ));
    }
    Ok(())
}

/// `render --every`: `steps / every + 1` frames, within [`MAX_FRAMES`].
pub fn check_frames(steps: usize, every: usize) -> Result<usize, String> {
    let frames = steps / every.max(1) + 1;
    if frames as u64 > MAX_FRAMES {
        return Err(format!(
            "--steps {steps} --every {every} makes {frames} frames; at most {MAX_FRAMES} \
             (raise --every or lower --steps)"
        ));
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_name_what_is_wrong() {
        assert_eq!(steps("12"), Ok(12));
        assert!(steps("-1").unwrap_err().contains("negative"));
        assert!(steps("18446744073709551615")
            .unwrap_err()
            .contains("more than"));
        assert!(some_steps("0").unwrap_err().contains("less than 1"));
        assert!(steps("1.5").unwrap_err().contains("whole number"));
    }

    #[test]
    fn durations_are_finite_and_bounded() {
        assert!(duration("nan").unwrap_err().contains("not a number"));
        assert!(duration("inf").unwrap_err().contains("infinite"));
        assert!(duration("-1").unwrap_err().contains("negative"));
        assert_eq!(duration_steps(1.0, 0.002), Ok(500));
        assert!(duration_steps(1.0, 0.0)
            .unwrap_err()
            .contains("timestep is 0"));
        assert!(duration_steps(1e300, 0.002)
            .unwrap_err()
            .contains("at most"));
    }
}
