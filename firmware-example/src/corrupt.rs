//! The `bad-blob` program: corrupted and truncated copies of the blob must give an error code,
//! never a fault. Damage to the header, the sizes or the length must be refused by the loader;
//! a flipped byte among the arrays may still be a loadable model (a changed mass, say), which
//! then must simulate or stop with an error, without a fault.

use crate::clock;
use mjrs_firmware_control as task;

/// Steps simulated when a damaged blob still loads.
const STEPS: u32 = 200;
/// Random single-byte flips in the array region.
const FLIPS: u32 = 24;

/// Runs every corruption; returns `false` (the run's status is an error: the blob is corrupt)
/// after logging how each was handled, or after a damage that the loader should have refused
/// and did not.
pub fn run(arena: &'static mut [u8]) -> bool {
    let blob = &task::BLOB.0;
    let t0 = clock::now();
    let (copy, arena) = arena.split_at_mut(blob.len());
    let mut refused_all = true;

    for keep in [0, 3, 4, 19, 20, 100, blob.len() / 2, blob.len() - 1] {
        copy.copy_from_slice(blob);
        refused_all &= must_refuse("truncated", keep as u32, &copy[..keep], arena);
    }
    // header words: id, sizeof(mjtNum), counts of ints / size_ts / arrays; then the sizes
    for (offset, value) in [
        (0, 0x00u8),
        (4, 5),
        (8, 77),
        (16, 0xFF),
        (20, 0x80),
        (23, 0x7F),
    ] {
        copy.copy_from_slice(blob);
        copy[offset] = value;
        refused_all &= must_refuse("header byte", offset as u32, copy, arena);
    }
    copy.copy_from_slice(blob);
    refused_all &= must_refuse_longer(copy, arena);

    let mut rng = 0x2545_f491u32;
    let (mut refused, mut ran) = (0, 0);
    for _ in 0..FLIPS {
        copy.copy_from_slice(blob);
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        let at = 24 + rng as usize % (blob.len() - 24);
        copy[at] ^= 1 << (rng >> 29);
        match simulate(copy, arena) {
            Err(e) => {
                refused += 1;
                defmt::println!(
                    "bad blob: flipped byte {=usize}: error code {=u8}: {}",
                    at,
                    e.code(),
                    e
                );
            }
            Ok(warnings) => {
                ran += 1;
                defmt::println!(
                    "bad blob: flipped byte {=usize}: loads; {=u32} steps ran, {=u32} warnings",
                    at,
                    STEPS,
                    warnings
                );
            }
        }
    }
    defmt::println!(
        "bad blob: {=u32} random flips: {=u32} refused with an error code, {=u32} loaded and simulated",
        FLIPS, refused, ran
    );
    defmt::println!(
        "bad blob: {=str}; {=u64} {=str}",
        if refused_all {
            "every damaged header, size and length refused, no fault"
        } else {
            "NOT every damage refused"
        },
        clock::since(t0),
        clock::unit()
    );
    false
}

/// Loading `bytes` must fail; logs the error code.
fn must_refuse(what: &str, at: u32, bytes: &[u8], arena: &mut [u8]) -> bool {
    match task::load(bytes, arena) {
        Err(e) => {
            defmt::println!(
                "bad blob: {=str} {=u32}: error code {=u8}: {}",
                what,
                at,
                e.code(),
                e
            );
            true
        }
        Ok(_) => {
            defmt::error!("bad blob: {=str} {=u32}: loaded", what, at);
            false
        }
    }
}

/// A blob with a byte too many must be refused too ("Model file is too large").
fn must_refuse_longer(copy: &mut [u8], arena: &mut [u8]) -> bool {
    let (longer, arena) = arena.split_at_mut(copy.len() + 1);
    longer[..copy.len()].copy_from_slice(copy);
    longer[copy.len()] = 0;
    must_refuse("longer by", 1, longer, arena)
}

/// Loads `bytes` and simulates [`STEPS`] steps with zero controls; returns the number of
/// warnings raised.
fn simulate(bytes: &[u8], arena: &mut [u8]) -> Result<u32, task::Error> {
    let (m, mut d, _) = task::load(bytes, arena)?;
    for _ in 0..STEPS {
        task::mj::step(&m, &mut d)?;
    }
    Ok(d.warning.iter().map(|w| w.number.max(0) as u32).sum())
}
