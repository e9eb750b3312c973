//! Cycle counting (the Cortex-M DWT cycle counter, or instructions under QEMU), and the
//! stack's high-water mark.
//!
//! The stack grows down from the top of RAM towards the static arena; nothing stops it from
//! running into the arena, so the firmware measures how deep it went: [`start`] fills the free
//! RAM below the stack with a pattern and [`stack_used`] finds the lowest word overwritten.

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{DWT, SYST};
use cortex_m_rt::exception;

/// The SysTick reload value: its whole 24-bit range.
const RELOAD: u32 = 0x00FF_FFFF;
/// Wraps of the SysTick counter, counted by its exception.
static WRAPS: AtomicU32 = AtomicU32::new(0);
/// Does the DWT cycle counter run? (QEMU does not implement it.)
static DWT_COUNTS: AtomicBool = AtomicBool::new(false);
/// SysTick ticks per 2^20 instructions, calibrated by [`calibrate`].
static TICKS_PER_MI: AtomicU32 = AtomicU32::new(1 << 20);

/// Fill word of the unused stack.
const PAINT: u32 = 0xDEAD_BEEF;

extern "C" {
    // from cortex-m-rt's link.x: the first free byte after .bss/.uninit, and the stack's top
    static __sheap: u32;
    static _stack_start: u32;
}

/// Starts the counters and paints the free RAM below the current stack frame.
///
/// QEMU has no DWT cycle counter, but under `-icount shift=0` every instruction advances
/// virtual time by the same amount, so the SysTick timer counts instructions at a fixed rate:
/// a loop of known length calibrates that rate.
pub fn start() {
    if let Some(mut p) = cortex_m::Peripherals::take() {
        p.DCB.enable_trace();
        p.DWT.enable_cycle_counter();
        p.SYST.set_clock_source(SystClkSource::Core);
        p.SYST.set_reload(RELOAD);
        p.SYST.clear_current();
        p.SYST.enable_interrupt();
        p.SYST.enable_counter();
        // the counter reads 0 until its first reload
        while SYST::get_current() == 0 {}
    }
    let c0 = DWT::cycle_count();
    calibrate();
    DWT_COUNTS.store(DWT::cycle_count() != c0, Relaxed);
    let (low, _) = stack_bounds();
    let sp = cortex_m::register::msp::read() as usize;
    // leave a little room below this frame for the painting itself
    let mut a = low;
    while a + 4 <= sp - 64 {
        // SAFETY: [low, sp - 64) is RAM above every static and below the live stack frames.
        unsafe { core::ptr::write_volatile(a as *mut u32, PAINT) };
        a += 4;
    }
}

/// The free RAM: from the end of the statics to the top of the stack.
fn stack_bounds() -> (usize, usize) {
    // only the addresses of the linker symbols are taken, never their contents
    (
        core::ptr::addr_of!(__sheap) as usize,
        core::ptr::addr_of!(_stack_start) as usize,
    )
}

/// Deepest stack use since [`start`], in bytes.
pub fn stack_used() -> usize {
    let (low, top) = stack_bounds();
    let mut a = low;
    // SAFETY: reads of RAM words between the statics and the stack top.
    while a < top && unsafe { core::ptr::read_volatile(a as *const u32) } == PAINT {
        a += 4;
    }
    top - a
}

/// The counter now: the DWT cycle counter on hardware, else (QEMU) the SysTick-based
/// instruction count; see [`unit`].
pub fn now() -> u64 {
    if dwt_counts() {
        u64::from(DWT::cycle_count())
    } else {
        systick_instructions()
    }
}

/// Counter units since `t0` (with the DWT, one wrap of its 32-bit counter at most).
pub fn since(t0: u64) -> u64 {
    if dwt_counts() {
        u64::from((DWT::cycle_count()).wrapping_sub(t0 as u32))
    } else {
        systick_instructions() - t0
    }
}

/// What [`now`] counts.
pub fn unit() -> &'static str {
    if dwt_counts() {
        "cycles (DWT)"
    } else {
        "instructions (QEMU -icount: SysTick ticks times instructions per tick)"
    }
}

/// SysTick ticks since [`start`] (64 bits: the wraps counted by the exception).
fn ticks() -> u64 {
    loop {
        let wraps = WRAPS.load(Relaxed);
        let current = SYST::get_current();
        if WRAPS.load(Relaxed) == wraps {
            return u64::from(wraps) * u64::from(RELOAD + 1) + u64::from(RELOAD - current);
        }
    }
}

/// Instructions executed since [`start`], from the SysTick ticks and the calibrated rate.
fn systick_instructions() -> u64 {
    (ticks() << 20) / u64::from(TICKS_PER_MI.load(Relaxed).max(1))
}

/// Measures SysTick ticks per 2^20 instructions with a loop of two instructions per turn.
fn calibrate() {
    const TURNS: u32 = 1 << 21; // 2^22 instructions
    let t0 = ticks();
    // SAFETY: a register-only countdown loop; it touches no memory and no other register.
    unsafe {
        core::arch::asm!(
            "2:",
            "subs {n}, {n}, #1",
            "bne 2b",
            n = inout(reg) TURNS => _,
            options(nomem, nostack),
        );
    }
    let per_mi = (ticks() - t0) / 4;
    TICKS_PER_MI.store(per_mi.clamp(1, u64::from(u32::MAX)) as u32, Relaxed);
}

fn dwt_counts() -> bool {
    DWT_COUNTS.load(Relaxed)
}

#[exception]
fn SysTick() {
    WRAPS.fetch_add(1, Relaxed);
}

/// The core the firmware runs on, from the CPUID register's part number.
#[cfg(any(feature = "mpc", feature = "hopper"))]
pub fn core_name() -> &'static str {
    // SAFETY: a read of the architectural CPUID base register.
    let cpuid = unsafe { (*cortex_m::peripheral::CPUID::PTR).base.read() };
    match (cpuid >> 4) & 0xfff {
        0xc24 => "Cortex-M4",
        0xc27 => "Cortex-M7",
        0xc23 => "Cortex-M3",
        _ => "another core",
    }
}
