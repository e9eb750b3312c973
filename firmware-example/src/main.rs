//! mjrs on a Cortex-M4F: the f32 MJB blob of an inverted double pendulum in flash, `Model` and
//! `Data` carved from one `static` arena (no allocator is linked), an LQR computed on the device
//! from the model (`mjd_transitionFD` + Riccati), and 1000 steps of closed-loop balancing after
//! 1000 steps with zero control, every state logged with `defmt` over semihosting.
//!
//! Exit status (QEMU's, through semihosting): 0 when the task succeeds (the LQR balances, zero
//! control falls), 1 on any error, which is logged with its code first.
//!
//! Features pick the board (`board-mps2`, `board-netduino`) and the program: the control task
//! (default, or `lqr`), `bad-blob` (corrupted and truncated blobs must be refused cleanly),
//! `footprint` (cycles per step and per linearization of whatever blob is embedded), `pid` (a
//! two-link arm driven by MuJoCo's PID actuator plugin, registered on the device), `mpc` (a
//! cart-pole swung up and balanced by a nonlinear MPC planning through the model on the device)
//! or `hopper` (the same MPC standing and hopping Gymnasium's hopper). Several task features
//! build one program holding them all, which runs the task named on the semihosting command
//! line (QEMU: `-semihosting-config arg=NAME`; `run.sh` builds one such program per board).
#![no_std]
#![no_main]

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug;
use defmt_semihosting as _;
use mjrs_firmware_control as task;

mod clock;
#[cfg(feature = "bad-blob")]
mod corrupt;
#[cfg(feature = "footprint")]
mod footprint;
#[cfg(feature = "hopper")]
mod hopper;
#[cfg(feature = "mpc")]
mod mpc;
#[cfg(feature = "pid")]
mod pid;

/// Bytes of the static arena that holds the `Model` and the `Data`: RAM minus room for the
/// stack (measured use is logged at the end).
#[cfg(feature = "board-netduino")]
const ARENA_BYTES: usize = 96 * 1024;
#[cfg(not(feature = "board-netduino"))]
const ARENA_BYTES: usize = 3 * 1024 * 1024 + 896 * 1024;

#[entry]
fn main() -> ! {
    // cortex-m-rt turns a `static mut` declared here into a `&'static mut`: safe, and placed
    // in .bss rather than built on the stack
    static mut ARENA: task::Aligned<[u8; ARENA_BYTES]> = task::Aligned([0; ARENA_BYTES]);
    // where the loaders build the `Model` and `Data` views (two pairs: the MPC's plant and
    // planner), in .bss rather than on the stack
    static mut SLOTS: [task::Slots<'static>; 2] = [task::Slots::new(), task::Slots::new()];
    #[cfg(feature = "footprint")]
    static mut FD: [task::mj::Real; footprint::SCRATCH] = [0.0; footprint::SCRATCH];
    clock::start();
    #[cfg(feature = "footprint")]
    let status = footprint::run(&mut ARENA.0, SLOTS, FD);
    #[cfg(not(feature = "footprint"))]
    let status = run(&mut ARENA.0, SLOTS);
    defmt::println!("stack: {=usize} bytes used at most", clock::stack_used());
    exit(status)
}

/// A task program: the static arena and the loaders' slots in, the exit status out.
#[cfg(pick)]
type Task = fn(&'static mut [u8], &'static mut [task::Slots<'static>; 2]) -> bool;

/// The one task built in (build.rs: no `cfg(pick)`).
#[cfg(not(any(pick, feature = "footprint")))]
fn run(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    #[cfg(lqr)]
    let task = run_lqr;
    #[cfg(feature = "bad-blob")]
    let task = run_bad_blob;
    #[cfg(feature = "pid")]
    let task = run_pid;
    #[cfg(feature = "mpc")]
    let task = run_mpc;
    #[cfg(feature = "hopper")]
    let task = run_hopper;
    task(arena, slots)
}

/// The task named on the semihosting command line (QEMU: `-semihosting-config
/// arg=NAME`), among the several built in: one program per board runs every task in CI
/// instead of one whole-program LTO build per task.
#[cfg(pick)]
fn run(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    let mut line = [0u8; 32];
    // SAFETY: the host writes at most `line.len()` bytes, the command line and its NUL, into
    // `line`, whose address and length the parameter block carries.
    let status =
        unsafe { cortex_m_semihosting::syscall!(GET_CMDLINE, line.as_mut_ptr(), line.len()) };
    let name = line.split(|&b| b == 0).next().unwrap_or(&[]);
    match picked(name).filter(|_| status == 0) {
        Some(task) => task(arena, slots),
        None => {
            defmt::error!(
                "no task {=[u8]:a} in this build (semihosting command line status {=usize})",
                name,
                status
            );
            false
        }
    }
}

/// The built-in task called `name`.
#[cfg(pick)]
fn picked(name: &[u8]) -> Option<Task> {
    match name {
        #[cfg(lqr)]
        b"lqr" => Some(run_lqr),
        #[cfg(feature = "bad-blob")]
        b"bad-blob" => Some(run_bad_blob),
        #[cfg(feature = "pid")]
        b"pid" => Some(run_pid),
        #[cfg(feature = "mpc")]
        b"mpc" => Some(run_mpc),
        #[cfg(feature = "hopper")]
        b"hopper" => Some(run_hopper),
        _ => None,
    }
}

#[cfg(lqr)]
fn run_lqr(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    match control_task(arena, &mut slots[0]) {
        Ok(success) => success,
        Err(e) => {
            defmt::error!("error code {=u8}: {}", e.code(), e);
            false
        }
    }
}

#[cfg(feature = "bad-blob")]
fn run_bad_blob(arena: &'static mut [u8], _: &'static mut [task::Slots<'static>; 2]) -> bool {
    corrupt::run(arena)
}

#[cfg(feature = "pid")]
fn run_pid(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    pid::run(arena, &mut slots[0])
}

#[cfg(feature = "mpc")]
fn run_mpc(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    mpc::run(arena, slots)
}

#[cfg(feature = "hopper")]
fn run_hopper(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    hopper::run(arena, slots)
}

/// Loads the blob, computes the LQR gains, runs the zero-control and the LQR episode, and says
/// whether the controller balanced the poles where zero control let them fall.
#[cfg(lqr)]
fn control_task(
    arena: &'static mut [u8],
    slots: &'static mut task::Slots<'static>,
) -> Result<bool, task::Error> {
    let blob = &task::BLOB.0;
    let (m, d, fp) = task::load_into(slots, blob, arena)?;
    defmt::println!(
        "load: stack {=usize} bytes used at most",
        clock::stack_used()
    );
    defmt::println!(
        "model: nq {=usize} nv {=usize} nu {=usize}; blob {=usize} B, Model {=usize} B, Data {=usize} B (arena {=usize} B)",
        m.nq, m.nv, m.nu, blob.len(), fp.model_bytes, fp.data_bytes, ARENA_BYTES
    );

    let t0 = clock::now();
    let (k, iterations) = task::lqr_gains(m, d)?;
    let lqr_cycles = clock::since(t0);
    defmt::println!(
        "LQR on the device: K = {=[?]} after {=u32} Riccati iterations",
        k,
        iterations
    );

    let zero = task::episode(m, d, None, |s| log_sample("zero", s))?;
    report("zero control", &zero);
    let lqr = task::episode(m, d, Some(&k), |s| log_sample("lqr", s))?;
    report("LQR", &lqr);

    let (step_cycles, control_cycles) = time_loop(m, d, &k)?;
    defmt::println!(
        "{=str}: {=u64} per step, {=u64} per control law, {=u64} per LQR update (transition_fd + Riccati)",
        clock::unit(), step_cycles, control_cycles, lqr_cycles
    );
    let success = lqr.balanced && zero.fallen;
    defmt::println!(
        "task: {=str}",
        if success {
            "success: the LQR balances the poles, zero control lets them fall"
        } else {
            "FAILED"
        }
    );
    Ok(success)
}

/// Cycles per step and per evaluation of the control law, averaged over one LQR episode.
#[cfg(lqr)]
fn time_loop(
    m: &task::mj::Model,
    d: &mut task::mj::Data,
    k: &[task::mj::Real; task::NX],
) -> Result<(u64, u64), task::Error> {
    task::start(m, d);
    let (mut step, mut control) = (0, 0);
    for _ in 0..task::STEPS {
        let t0 = clock::now();
        d.ctrl[0] = task::control(m, d, k);
        control += clock::since(t0);
        let t1 = clock::now();
        task::mj::step(m, d)?;
        step += clock::since(t1);
    }
    let n = u64::from(task::STEPS);
    Ok((step / n, control / n))
}

/// One state, as bits, in the line format the host program prints too.
#[cfg(any(lqr, feature = "pid", feature = "mpc", feature = "hopper"))]
fn log_sample(tag: &str, s: &task::Sample) {
    let b = &s.bits;
    defmt::println!(
        "x {=str} {=u32} {=u32:x} {=u32:x} {=u32:x} {=u32:x} {=u32:x} {=u32:x} {=u32:x} {=u32:x}",
        tag,
        s.step,
        b[0],
        b[1],
        b[2],
        b[3],
        b[4],
        b[5],
        b[6],
        b[7]
    );
}

#[cfg(lqr)]
fn report(name: &str, o: &task::Outcome) {
    defmt::println!(
        "{=str}: after {=u32} steps tilt {=f32} and {=f32} rad, cart at {=f32} m, largest tilt {=f32} rad: {=str}",
        name,
        task::STEPS,
        o.final_tilt[0],
        o.final_tilt[1],
        o.final_cart,
        o.max_tilt,
        if o.balanced { "balanced" } else if o.fallen { "fallen" } else { "neither" }
    );
}

/// Ends the QEMU run with status 0 or 1.
fn exit(success: bool) -> ! {
    debug::exit(if success {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::wfi();
    }
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    defmt::error!("HardFault at pc {=u32:x}", frame.pc());
    exit(false)
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    defmt::error!("panic");
    exit(false)
}
