//! The viewer's physics thread (MuJoCo `simulate`'s `PhysicsLoop`): it steps the model in real
//! time (or slowed down) while the UI thread draws, both taking turns on one lock over the
//! model and data.

use mjrs_core::math::misc::{standard_normal, Rand};
use mjrs_core::real::MINVAL;
use mjrs_core::types::STATE_INTEGRATION;
use mjrs_core::{Data, Model, Real};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Real-time factors offered, in percent (`percentRealTime`, logarithmically spaced).
pub const PERCENT_REAL_TIME: [f64; 31] = [
    100.0, 80.0, 66.0, 50.0, 40.0, 33.0, 25.0, 20.0, 16.0, 13.0, 10.0, 8.0, 6.6, 5.0, 4.0, 3.3,
    2.5, 2.0, 1.6, 1.3, 1.0, 0.8, 0.66, 0.5, 0.4, 0.33, 0.25, 0.2, 0.16, 0.13, 0.1,
];

/// Largest distance between the simulated and the wall clock before they are synchronized
/// again, in simulated seconds (`syncMisalign`).
const SYNC_MISALIGN: f64 = 0.1;

/// Share of a screen refresh the physics may use per turn (`simRefreshFraction`).
const SIM_REFRESH_FRACTION: f64 = 0.7;

/// Screen refresh rate assumed, in Hz (`refresh_rate`).
const REFRESH_RATE: f64 = 60.0;

/// Most states in the history (`simulate` keeps the smaller of 2000 states and 100 MB).
const HISTORY_STATES: usize = 2000;
const HISTORY_BYTES: usize = 100_000_000;

/// What the physics and UI threads share: the model and data, and simulate's settings that
/// the physics reads.
pub struct Sim<'m, 'a, 'b> {
    /// The model (its options change from the UI).
    pub m: &'m mut Model<'a>,
    /// The data.
    pub d: &'m mut Data<'b>,
    /// Running (`run`); paused, the physics only recomputes the state (`mj_forward`).
    pub run: bool,
    /// Index in [`PERCENT_REAL_TIME`] (`real_time_index`).
    pub speed: usize,
    /// The speed changed: synchronize the clocks again.
    pub speed_changed: bool,
    /// Yield instead of sleeping between turns.
    pub busywait: bool,
    /// Wall time per simulated time, measured (`measured_slowdown`).
    pub measured_slowdown: f64,
    /// Control noise: standard deviation and rate (`ctrl_noise_std`, `ctrl_noise_rate`).
    pub noise_std: f64,
    /// See `noise_std`.
    pub noise_rate: f64,
    noise: Vec<Real>,
    rng: Rand,
    /// Past states for stepping back.
    pub history: History,
    /// Steps taken.
    pub steps: u64,
    /// Wall time of the last step.
    pub step_time: Duration,
    /// The last problem to show (a diverged simulation that was reset).
    pub message: Option<String>,
    /// Stop the physics thread.
    pub exit: bool,
}

/// Lock the shared state; a panic on the other thread leaves it usable.
pub fn lock<'s, 'm, 'a, 'b>(sim: &'s Mutex<Sim<'m, 'a, 'b>>) -> MutexGuard<'s, Sim<'m, 'a, 'b>> {
    sim.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<'m, 'a, 'b> Sim<'m, 'a, 'b> {
    /// Shared state over `m` and `d`, running unless `paused`, at the model's real-time
    /// factor (the nearest of the offered ones, as simulate chooses it).
    pub fn new(m: &'m mut Model<'a>, d: &'m mut Data<'b>, paused: bool) -> Self {
        let history = History::new(m, d);
        let speed = nearest_speed(f64::from(m.vis.global.realtime));
        let nu = m.nu;
        Sim {
            m,
            d,
            run: !paused,
            speed,
            speed_changed: true,
            busywait: false,
            measured_slowdown: 1.0,
            noise_std: 0.0,
            noise_rate: 0.0,
            noise: vec![0.0; nu],
            rng: Rand::default(),
            history,
            steps: 0,
            step_time: Duration::ZERO,
            message: None,
            exit: false,
        }
    }

    /// One step, timed; a failed step resets the data (simulate goes on after a divergence).
    pub fn step(&mut self) {
        let t = Instant::now();
        let result = mjrs_core::step(self.m, self.d);
        self.step_time = t.elapsed();
        self.steps += 1;
        if let Err(e) = result {
            self.message = Some(format!("simulation reset: {e}"));
            mjrs_core::io::reset_data(self.m, self.d);
            self.forward();
        }
    }

    /// Recompute the state from the positions and velocities.
    pub fn forward(&mut self) {
        if let Err(e) = mjrs_core::forward(self.m, self.d) {
            self.message = Some(e.to_string());
        }
    }

    /// Control noise (an Ornstein-Uhlenbeck process) replaces the controls when its scale
    /// is not zero.
    fn inject_noise(&mut self) {
        if self.noise_std == 0.0 {
            return;
        }
        let rate = (-self.m.opt.timestep / self.noise_rate.max(MINVAL)).exp();
        let scale = self.noise_std * (1.0 - rate * rate).sqrt();
        for (n, c) in self.noise.iter_mut().zip(self.d.ctrl.iter_mut()) {
            *n = rate * *n + scale * standard_normal(&mut self.rng).0;
            *c = *n;
        }
    }

    /// One turn of the physics: running, step until the simulated clock catches up with the
    /// wall clock (times the speed), within a share of a screen refresh; paused, recompute.
    fn turn(&mut self, sync: &mut Option<(Instant, f64)>) {
        if !self.run {
            self.forward();
            self.speed_changed = true;
            return;
        }
        let start = Instant::now();
        self.inject_noise();
        let slowdown = 100.0 / PERCENT_REAL_TIME[self.speed];
        let stepped = match *sync {
            Some((cpu, sim)) if !self.speed_changed => {
                let elapsed_cpu = start.duration_since(cpu).as_secs_f64();
                let elapsed_sim = self.d.time - sim;
                let misaligned = (elapsed_cpu / slowdown - elapsed_sim).abs() > SYNC_MISALIGN;
                if elapsed_sim < 0.0 || misaligned {
                    self.resync(sync, start)
                } else {
                    self.catch_up((cpu, sim), start, slowdown, elapsed_cpu, elapsed_sim)
                }
            }
            _ => self.resync(sync, start),
        };
        if stepped {
            self.history.add(self.m, self.d);
        }
    }

    /// Take the clocks' offset from now and step once.
    fn resync(&mut self, sync: &mut Option<(Instant, f64)>, now: Instant) -> bool {
        *sync = Some((now, self.d.time));
        self.speed_changed = false;
        self.step();
        true
    }

    /// Step while the simulation lags the wall clock, within the time of a refresh.
    fn catch_up(
        &mut self,
        (cpu, sim): (Instant, f64),
        start: Instant,
        slowdown: f64,
        elapsed_cpu: f64,
        elapsed_sim: f64,
    ) -> bool {
        let refresh = Duration::from_secs_f64(SIM_REFRESH_FRACTION / REFRESH_RATE);
        let before = self.d.time;
        let mut stepped = false;
        while Duration::from_secs_f64(((self.d.time - sim) * slowdown).max(0.0)) < cpu.elapsed()
            && start.elapsed() < refresh
        {
            if !stepped && elapsed_sim != 0.0 {
                self.measured_slowdown = elapsed_cpu / elapsed_sim;
            }
            self.step();
            stepped = true;
            // a reset went back in time
            if self.d.time < before {
                break;
            }
        }
        stepped
    }
}

/// The offered speed nearest to `realtime` (a fraction of real time), on a log scale.
fn nearest_speed(realtime: f64) -> usize {
    let desired = (100.0 * realtime).ln();
    let error = |k: usize| (PERCENT_REAL_TIME[k].ln() - desired).abs();
    (0..PERCENT_REAL_TIME.len())
        .min_by(|&a, &b| error(a).total_cmp(&error(b)))
        .unwrap_or(0)
}

/// The physics thread: turns until asked to exit, sleeping a millisecond (or yielding when
/// busy-waiting) between turns so that the UI thread gets the lock.
pub fn run(sim: &Mutex<Sim>) {
    let mut sync = None;
    loop {
        let (running, busy) = {
            let s = lock(sim);
            if s.exit {
                return;
            }
            (s.run, s.busywait)
        };
        if running && busy {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut s = lock(sim);
        if s.exit {
            return;
        }
        s.turn(&mut sync);
    }
}

/// A ring of past integration states (simulate's history, scrubbed with the left arrow and
/// the history slider).
pub struct History {
    size: usize,
    states: Vec<Real>,
    cursor: usize,
    len: usize,
}

impl History {
    /// A history of the current state, repeated (nothing when one state does not fit).
    fn new(m: &Model, d: &Data) -> History {
        let size = mjrs_core::state::state_size(m, STATE_INTEGRATION).unwrap_or(0);
        let bytes = size * core::mem::size_of::<Real>();
        let len = HISTORY_BYTES
            .checked_div(bytes)
            .map_or(0, |n| n.min(HISTORY_STATES));
        let mut states = vec![0.0; size * len];
        if len > 0
            && mjrs_core::state::get_state(m, d, &mut states[..size], STATE_INTEGRATION).is_ok()
        {
            for k in 1..len {
                states.copy_within(..size, k * size);
            }
        }
        History {
            size,
            states,
            cursor: 0,
            len,
        }
    }

    /// Number of states kept.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Record the current state (`AddToHistory`).
    pub fn add(&mut self, m: &Model, d: &Data) {
        if self.len == 0 {
            return;
        }
        self.cursor = (self.cursor + 1) % self.len;
        let at = self.cursor * self.size;
        // the sizes are the model's: this cannot fail
        let _ = mjrs_core::state::get_state(
            m,
            d,
            &mut self.states[at..at + self.size],
            STATE_INTEGRATION,
        );
    }

    /// Load the state `scrub` (0 the newest, negative older) into `d` (`LoadScrubState`).
    pub fn load(&self, m: &Model, d: &mut Data, scrub: i32) {
        if self.len == 0 {
            return;
        }
        let n = self.len as i64;
        let i = ((i64::from(scrub) + self.cursor as i64) % n + n) % n;
        let at = i as usize * self.size;
        let _ =
            mjrs_core::state::set_state(m, d, &self.states[at..at + self.size], STATE_INTEGRATION);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_speed_picks_the_nearest_offered_one() {
        assert_eq!(nearest_speed(1.0), 0);
        assert_eq!(PERCENT_REAL_TIME[nearest_speed(0.5)], 50.0);
        assert_eq!(PERCENT_REAL_TIME[nearest_speed(0.0009)], 0.1);
        assert_eq!(nearest_speed(5.0), 0);
    }
}
