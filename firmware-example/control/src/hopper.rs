//! The hopper tasks: Gymnasium's hopper (a torso on a thigh, a leg and a foot in the sagittal
//! plane: 6 degrees of freedom, 3 hip/knee/ankle motors, frictional contacts with the floor)
//! under the iLQR MPC of [`mpc`](crate::mpc) with its three controls.
//!
//! The plant is not the planner's model: `model/hopper_plant.mjb` has every mass and inertia
//! 10% larger (`density="1100"`) and is integrated with RK4 at 0.002 s as Gymnasium does; the
//! planner rolls out the nominal `model/hopper.mjb` with the semi-implicit Euler integrator at
//! 0.01 s. Two tasks, each from the model's start (the foot 4 cm above the floor) with the
//! torso tilted: [`Task::Stand`] lands and stands upright over its foot; [`Task::Hop`] follows a
//! torso height that rises and falls (a periodic reference in the cost) in place.

use crate::mpc::{Cost, Planner, Settings, State, Updates, Wave, NX_MAX};
use crate::{mj, Aligned, Error, Sample};
use mj::{Data, Model, Real};

/// The planner's model (`model/hopper.mjb`): nominal masses, Euler at 0.01 s.
pub static PLAN_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!("../../model/hopper.mjb"));
/// The plant (`model/hopper_plant.mjb`): masses 10% larger, RK4 at 0.002 s.
pub static PLANT_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!("../../model/hopper_plant.mjb"));

/// Degrees of freedom: the torso's x and z slides and pitch hinge, thigh, leg and foot hinges.
pub const NV: usize = 6;
/// State dimensions: positions, then velocities.
pub const NX: usize = 2 * NV;
/// Controls: the thigh, leg and foot motors.
pub const NU: usize = 3;
/// Plant steps per control update: 0.02 s of simulated time.
pub const STEPS_PER_UPDATE: u32 = 10;
/// Knots of the plan (planning steps of 0.01 s).
pub const HORIZON: usize = 20;
/// Planning steps per `transition_fd` at most: the nominal step and one per control, velocity
/// and position (forward differences).
pub const FD_STEPS: usize = 1 + NU + 2 * NV;
/// The planner: up to four forward passes per update (with one, the line search of the
/// hopper finds no descent in most updates: contacts make the full step overshoot).
pub const SETTINGS: Settings = Settings {
    horizon: HORIZON,
    line_search: 4,
    regularization: 1e-2,
    fd_eps: crate::FD_EPS,
    fd_steps: FD_STEPS,
    step_budget: STEP_BUDGET,
};
/// Planning steps one update may take: what the settings take (the hopper has no real-time
/// budget; its rate is reported). A longer horizon or line search is refused.
pub const STEP_BUDGET: usize = HORIZON * (4 + 1 + FD_STEPS);
/// Reals of the planner's scratch.
pub const SCRATCH: usize = SETTINGS.scratch_needed(NX, NU);

/// Height of the torso's centre standing on the straight leg (m).
pub const STAND_HEIGHT: Real = 1.2;
/// The torso's pitch at the start (rad).
pub const START_PITCH: Real = 0.1;
/// Healthy (Gymnasium's hopper): the torso above this height (m) ...
pub const HEALTHY_HEIGHT: Real = 0.7;
/// ... and pitched less than this (rad).
pub const HEALTHY_PITCH: Real = 0.2;
/// Standing: the torso within this pitch at the end (rad).
pub const STAND_PITCH_TOL: Real = 0.05;
/// Hopping: the torso's height must swing at least this much (peak to peak, m) after the
/// first period, with the foot off the floor after some update.
pub const HOP_SWING: Real = 0.1;

/// The standing cost: torso at [`STAND_HEIGHT`] over the start point, upright, joints
/// straight, at rest; moderate torques.
pub const STAND_COST: Cost = Cost {
    target: target(),
    q: [
        1.0, 10.0, 10.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.01, 0.01, 0.01,
    ],
    r: [0.01, 0.01, 0.01, 0.0],
    qf: [
        10.0, 100.0, 100.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1, 0.1, 0.1,
    ],
    wave: Wave::NONE,
};

/// The hopping cost: the standing cost with the torso's height following a wave of
/// [`HOP_AMPLITUDE`] and [`HOP_PERIOD`].
pub const HOP_COST: Cost = Cost {
    q: [
        1.0, 50.0, 10.0, 0.1, 0.1, 0.1, 0.1, 0.0, 0.1, 0.01, 0.01, 0.01,
    ],
    wave: Wave {
        index: 1,
        amplitude: HOP_AMPLITUDE,
        period: HOP_PERIOD,
    },
    ..STAND_COST
};
/// Amplitude of the torso height's reference (m).
pub const HOP_AMPLITUDE: Real = 0.15;
/// Period of the torso height's reference (s).
pub const HOP_PERIOD: Real = 0.5;

const fn target() -> [Real; NX_MAX] {
    let mut t = [0.0; NX_MAX];
    t[1] = STAND_HEIGHT;
    t
}

/// A closed-loop task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Land and stand upright over the foot.
    Stand,
    /// Bob the torso up and down in place after the periodic reference.
    Hop,
}

impl Task {
    /// Control updates of the episode: short (CI) or long (`run.sh hopper-long`).
    pub fn updates(self, long: bool) -> u32 {
        match (self, long) {
            (Task::Stand, false) => 25,
            (Task::Hop, false) => 50,
            (Task::Stand, true) => 100,
            (Task::Hop, true) => 200,
        }
    }

    /// The tag of its log lines.
    pub fn tag(self) -> &'static str {
        match self {
            Task::Stand => "stand",
            Task::Hop => "hop",
        }
    }

    /// The task's cost.
    pub fn cost(self) -> &'static Cost {
        match self {
            Task::Stand => &STAND_COST,
            Task::Hop => &HOP_COST,
        }
    }
}

/// How an episode went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// The torso stayed healthy (above [`HEALTHY_HEIGHT`], within [`HEALTHY_PITCH`]).
    pub healthy: bool,
    /// Lowest and highest torso height after the first hop period (m).
    pub height: [Real; 2],
    /// Largest pitch of the torso (rad).
    pub max_pitch: Real,
    /// Pitch at the end (rad).
    pub final_pitch: Real,
    /// Largest distance of the torso from its start (m).
    pub max_drift: Real,
    /// Updates after which the plant touched the floor nowhere (in flight).
    pub flight: u32,
    /// The planner's updates.
    pub updates: Updates,
    /// The task's criterion met.
    pub success: bool,
}

/// Checks that the two models are the hopper the tasks were written for.
pub fn check(plant: &Model, plan: &Model) -> Result<(), Error> {
    let hopper = |m: &Model| m.nq == NV && m.nv == NV && m.nu == NU && m.na == 0 && m.nbody == 5;
    if hopper(plant) && hopper(plan) {
        Ok(())
    } else {
        Err(Error::Shape)
    }
}

/// Runs `task` in closed loop for [`Task::updates`]: the plant (`pm`, `pd`) from the start, the
/// planner planning with `mm` (its rollouts in `md`) for `cost` at every update; `now` reads the
/// clock that times the updates; `sample` gets three lines per update: `time, qpos[6], cost`,
/// `qvel[6], ctrl[0..2]` and `ctrl[2], error code (0: none), step size, plant contacts` (the
/// rest 0).
#[allow(clippy::too_many_arguments)]
pub fn episode(
    task: Task,
    long: bool,
    pm: &Model,
    pd: &mut Data,
    mm: &Model,
    md: &mut Data,
    planner: &mut Planner,
    cost: &Cost,
    mut now: impl FnMut() -> u64,
    mut sample: impl FnMut(&Sample),
) -> Result<Outcome, Error> {
    check(pm, mm)?;
    mj::io::reset_data(pm, pd);
    pd.qpos[2] = START_PITCH;
    planner.reset();
    let mut out = Outcome {
        healthy: true,
        height: [Real::INFINITY, Real::NEG_INFINITY],
        max_pitch: 0.0,
        final_pitch: 0.0,
        max_drift: 0.0,
        flight: 0,
        updates: Updates::default(),
        success: false,
    };
    let updates = task.updates(long);
    for update in 1..=updates {
        let mut u = [0.0; NU];
        let x = State {
            time: pd.time,
            qpos: &pd.qpos[..],
            qvel: &pd.qvel[..],
        };
        let code = out
            .updates
            .plan(planner, mm, md, &x, cost, &mut u, &mut now);
        pd.ctrl.copy_from_slice(&u);
        for _ in 0..STEPS_PER_UPDATE {
            mj::step(pm, pd)?;
        }
        track(&mut out, pd, pd.time >= HOP_PERIOD);
        log(update, pd, &u, planner, code, &mut sample);
    }
    out.final_pitch = pd.qpos[2];
    let swing = out.height[1] - out.height[0];
    out.success = out.healthy
        && match task {
            Task::Stand => out.final_pitch.abs() <= STAND_PITCH_TOL,
            Task::Hop => swing >= HOP_SWING && out.flight > 0,
        };
    Ok(out)
}

/// Updates the outcome's record with the plant's state after an update (`settled`: the first
/// hop period is over, heights count).
fn track(out: &mut Outcome, pd: &Data, settled: bool) {
    let (x, z, pitch) = (pd.qpos[0], pd.qpos[1], pd.qpos[2]);
    out.healthy &= z > HEALTHY_HEIGHT && pitch.abs() < HEALTHY_PITCH;
    out.max_pitch = out.max_pitch.max(pitch.abs());
    out.max_drift = out.max_drift.max(x.abs());
    if settled {
        out.height = [out.height[0].min(z), out.height[1].max(z)];
    }
    if pd.ncon == 0 {
        out.flight += 1;
    }
}

/// The three sample lines of an update (see [`episode`]).
fn log(
    update: u32,
    pd: &Data,
    u: &[Real; NU],
    planner: &Planner,
    code: u8,
    sample: &mut impl FnMut(&Sample),
) {
    let q = &pd.qpos;
    let v = &pd.qvel;
    let contacts = pd.ncon as Real;
    sample(&Sample::of_values(
        update,
        &[pd.time, q[0], q[1], q[2], q[3], q[4], q[5], planner.cost],
    ));
    sample(&Sample::of_values(
        update,
        &[v[0], v[1], v[2], v[3], v[4], v[5], u[0], u[1]],
    ));
    sample(&Sample::of_values(
        update,
        &[
            u[2],
            Real::from(code),
            planner.alpha,
            contacts,
            0.0,
            0.0,
            0.0,
            0.0,
        ],
    ));
}

/// A planner with the task's [`SETTINGS`] in `scratch`.
pub fn planner(scratch: &mut [Real]) -> Result<Planner<'_>, Error> {
    Planner::new(SETTINGS, NX, NU, scratch).map_err(Error::Mpc)
}
