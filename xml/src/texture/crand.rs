//! The C library's `rand()`, as glibc implements it, for the random dots of built-in textures.
//!
//! MuJoCo draws the dots of `mark="random"` with `rand()` and calls `srand(123)` at the start of
//! every compilation (`mjCModel::Compile`), so the dots are reproducible and the textures of a
//! model draw from one sequence in the order they are compiled. glibc's `rand()` is `random_r`
//! with its default state: the additive feedback generator `x[i] = x[i-3] + x[i-31]` (mod 2^32)
//! seeded by a Park-Miller sequence, whose first 310 outputs are discarded, and which returns
//! `x[i] >> 1`.

/// Degree of the feedback polynomial (`TYPE_3`'s `DEG_3`).
const DEG: usize = 31;
/// Separation of the two taps (`SEP_3`).
const SEP: usize = 3;

/// glibc's `rand()` state (`struct random_data` of `TYPE_3`).
#[derive(Clone, Debug)]
pub struct CRand {
    state: [u32; DEG],
    /// Front tap (`fptr`).
    f: usize,
    /// Rear tap (`rptr`).
    r: usize,
}

impl CRand {
    /// `RAND_MAX` of glibc.
    pub const RAND_MAX: i32 = i32::MAX;

    /// The state after `srand(seed)` (`__srandom_r`).
    pub fn new(seed: u32) -> Self {
        let seed = if seed == 0 { 1 } else { seed };
        let mut state = [0u32; DEG];
        state[0] = seed;
        // Park-Miller "minimal standard" generator on 32-bit signed words, computed with Schrage's
        // method exactly as glibc does (the word is an `int32_t`).
        let mut word = seed as i32;
        for s in state.iter_mut().skip(1) {
            let hi = word / 127_773;
            let lo = word % 127_773;
            word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += i32::MAX;
            }
            *s = word as u32;
        }
        let mut rng = Self {
            state,
            f: SEP,
            r: 0,
        };
        for _ in 0..10 * DEG {
            rng.next();
        }
        rng
    }

    /// The state MuJoCo's compiler starts every compilation with (`srand(123)`).
    pub fn mujoco() -> Self {
        Self::new(123)
    }

    /// The next number in `0..=RAND_MAX` (`rand()`, `__random_r`).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> i32 {
        let val = self.state[self.f].wrapping_add(self.state[self.r]);
        self.state[self.f] = val;
        self.f = (self.f + 1) % DEG;
        self.r = (self.r + 1) % DEG;
        (val >> 1) as i32
    }
}

impl Default for CRand {
    /// [`CRand::mujoco`].
    fn default() -> Self {
        Self::mujoco()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_glibc() {
        // First outputs of glibc's rand() after srand(1) (the default state) and srand(123).
        let mut r = CRand::new(1);
        let first: Vec<i32> = (0..5).map(|_| r.next()).collect();
        assert_eq!(
            first,
            [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
        );
        let mut r = CRand::mujoco();
        let first: Vec<i32> = (0..3).map(|_| r.next()).collect();
        assert_eq!(first, [128959393, 1692901013, 436085873]);
    }
}
