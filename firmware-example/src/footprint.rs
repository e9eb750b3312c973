//! The `footprint` program: what the embedded blob costs on this device. Loads it, runs
//! [`STEPS`] steps with zero controls and times them, times one linearization
//! (`mjd_transitionFD`, forward differences) at the final state, and logs the memory: Model and
//! Data bytes, the peak of the Data's arena, the stack.

use crate::clock;
use mjrs_firmware_control as task;
use task::mj;

/// Steps timed.
const STEPS: u32 = task::FOOTPRINT_STEPS;

/// Reals of the static scratch for the transition matrices `A` and `B`.
#[cfg(feature = "board-netduino")]
pub const SCRATCH: usize = 2 * 1024;
#[cfg(not(feature = "board-netduino"))]
pub const SCRATCH: usize = 16 * 1024;

pub fn run(
    arena: &'static mut [u8],
    slots: &'static mut [task::Slots<'static>; 2],
    scratch: &'static mut [mj::Real],
) -> bool {
    match measure(arena, &mut slots[0], scratch) {
        Ok(()) => true,
        Err(e) => {
            defmt::error!("error code {=u8}: {}", e.code(), e);
            false
        }
    }
}

fn measure(
    arena: &'static mut [u8],
    slots: &'static mut task::Slots<'static>,
    scratch: &mut [mj::Real],
) -> Result<(), task::Error> {
    let blob = &task::BLOB.0;
    let (m, d, fp) = task::load_into(slots, blob, arena)?;
    let load_stack = clock::stack_used();
    defmt::println!(
        "footprint: nq {=usize} nv {=usize} nu {=usize} nbody {=usize} ngeom {=usize}; blob {=usize} B, Model {=usize} B, Data {=usize} B (arena {=usize} B of it)",
        m.nq, m.nv, m.nu, m.nbody, m.ngeom, blob.len(), fp.model_bytes, fp.data_bytes, m.narena
    );
    let t0 = clock::now();
    let mut ncon = 0;
    for _ in 0..STEPS {
        mj::step(m, d)?;
        ncon += d.ncon;
    }
    let per_step = clock::since(t0) / u64::from(STEPS);
    defmt::println!(
        "footprint: digest after {=u32} steps {=u32:08x}",
        STEPS,
        task::digest(d)
    );

    let nx = 2 * m.nv + m.na;
    let fd = if nx * (nx + m.nu) <= scratch.len() {
        let (a, b) = scratch.split_at_mut(nx * nx);
        let t1 = clock::now();
        mj::transition_fd(
            m,
            d,
            task::FD_EPS,
            false,
            Some(a),
            Some(&mut b[..nx * m.nu]),
            None,
            None,
        )
        .map_err(task::Error::Fd)?;
        clock::since(t1)
    } else {
        defmt::println!(
            "footprint: transition_fd skipped: A and B need {=usize} reals of scratch",
            nx * (nx + m.nu)
        );
        0
    };
    defmt::println!(
        "footprint: {=str}: {=u64} per step ({=u32} steps, {=usize} contacts on average), {=u64} per transition_fd",
        clock::unit(), per_step, STEPS, ncon / STEPS as usize, fd
    );
    defmt::println!(
        "footprint: arena peak {=usize} B of {=usize} B; stack {=usize} B loading, {=usize} B at most",
        d.arena.state.maxuse_arena,
        m.narena,
        load_stack,
        clock::stack_used()
    );
    Ok(())
}
