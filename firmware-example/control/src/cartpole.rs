//! The MPC tasks: Gymnasium's inverted pendulum (a cart on a 1 m half-rail carrying one hinged
//! pole, one motor on the cart; the hinge's limit removed so that the pole can hang) under the
//! iLQR MPC of [`mpc`](crate::mpc), at 50 control updates per second.
//!
//! The plant is not the planner's model: `model/cartpole_plant.mjb` has every mass and inertia
//! 10% larger and is integrated with RK4 at 0.01 s, while the planner rolls out the nominal
//! `model/cartpole.mjb` with the semi-implicit Euler integrator at 0.04 s. Two tasks:
//! [`Task::SwingUp`] starts hanging at rest and must bring the pole upright and hold it there;
//! [`Task::Push`] starts upright and must recover from a push on the pole.

use crate::mpc::{Cost, Planner, Settings, State, Updates, Wave, NX_MAX};
use crate::{mj, Aligned, Error, Sample};
use mj::math::scalar;
use mj::{Data, Model, Real};

/// The planner's model (`model/cartpole.mjb`): nominal masses, Euler at 0.07 s.
pub static PLAN_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!("../../model/cartpole.mjb"));
/// The plant (`model/cartpole_plant.mjb`): masses 10% larger, RK4 at 0.01 s.
pub static PLANT_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!("../../model/cartpole_plant.mjb"));

/// Plant steps per control update: 0.02 s, 50 updates per second.
pub const STEPS_PER_UPDATE: u32 = 2;
/// The planner: a 0.77 s horizon (11 Euler steps of 0.07 s), one forward pass per update: at
/// most 11 (1 + 1 + 4) = 66 planning steps per update.
pub const SETTINGS: Settings = Settings {
    horizon: 11,
    line_search: 1,
    regularization: 1e-3,
    fd_eps: crate::FD_EPS,
    fd_steps: 4,
    step_budget: STEP_BUDGET,
};
/// Planning steps one update may take: what fits 20 ms of a 168 MHz Cortex-M4F with the margin
/// of the cycles-per-instruction bound (see the README's MPC table).
pub const STEP_BUDGET: usize = 66;
/// State dimensions: cart and pole position, then their velocities.
pub const NX: usize = 4;
/// Controls: the cart's motor.
pub const NU: usize = 1;
/// Reals of the planner's scratch.
pub const SCRATCH: usize = SETTINGS.scratch_needed(NX, NU);

/// The cost: upright (pole angle 0, unwrapped, so that the swing-up has a direction from the
/// hanging pole), cart centred, both at rest, small forces.
pub const COST: Cost = Cost {
    target: [0.0; NX_MAX],
    q: [1.0, 10.0, 0.1, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    r: [0.01, 0.0, 0.0, 0.0],
    qf: [
        10.0, 100.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    ],
    wave: Wave::NONE,
};

/// Upright: the pole within this angle of vertical (rad).
pub const UPRIGHT_TOL: Real = 0.1;
/// Fallen (the push task): the pole more than this far from upright (rad).
pub const FALLEN_TILT: Real = 1.0;

/// A closed-loop task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// From hanging at rest: swing the pole up within [`SWING_UP_BY`] s and hold it upright to
    /// the end.
    SwingUp,
    /// From upright at rest: a horizontal push on the pole at [`PUSH_AT`] s, then balance.
    Push,
}

/// Seconds by which the swing-up must be upright for good.
pub const SWING_UP_BY: Real = 4.0;
/// When the push starts (s).
pub const PUSH_AT: Real = 1.0;
/// How long the push lasts (s).
pub const PUSH_FOR: Real = 0.1;
/// The push: a horizontal force on the pole's centre of mass (N).
pub const PUSH_FORCE: Real = 60.0;

impl Task {
    /// Control updates of the episode.
    pub fn updates(self) -> u32 {
        match self {
            Task::SwingUp => 300,
            Task::Push => 200,
        }
    }

    /// The tag of its log lines.
    pub fn tag(self) -> &'static str {
        match self {
            Task::SwingUp => "swingup",
            Task::Push => "push",
        }
    }

    /// Start (cart position, pole angle; upright is 0).
    fn start(self) -> [Real; 2] {
        match self {
            Task::SwingUp => [0.0, core::f32::consts::PI],
            Task::Push => [0.0, 0.0],
        }
    }
}

/// How an episode went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// Time after which the pole stayed within [`UPRIGHT_TOL`] of upright to the end (s), or
    /// `None` if it was not upright at the end.
    pub upright_from: Option<Real>,
    /// Largest tilt after the push began (the push task; 0 for the swing-up) (rad).
    pub max_tilt: Real,
    /// Tilt at the end (rad).
    pub final_tilt: Real,
    /// Largest distance of the cart from the rail's centre (m).
    pub max_cart: Real,
    /// The planner's updates.
    pub updates: Updates,
    /// The task's criterion met.
    pub success: bool,
}

/// The tilt of the pole from upright, wrapped to `[0, pi]`.
pub fn tilt(theta: Real) -> Real {
    scalar::atan2(scalar::sin(theta), scalar::cos(theta)).abs()
}

/// Checks that the two models are the cart-pole the tasks were written for.
pub fn check(plant: &Model, plan: &Model) -> Result<(), Error> {
    let cartpole = |m: &Model| m.nq == 2 && m.nv == 2 && m.nu == 1 && m.na == 0 && m.nbody == 3;
    if cartpole(plant) && cartpole(plan) {
        Ok(())
    } else {
        Err(Error::Shape)
    }
}

/// Runs `task` in closed loop: the plant (`pm`, `pd`) from the task's start, the planner
/// planning with `mm` (its rollouts in `md`) for `cost` at every update; `now` reads the clock that times
/// the updates, `sample` gets the state after every update (time, cart, pole, their
/// velocities, the control, the plan's cost, the planner's error code or 0).
#[allow(clippy::too_many_arguments)]
pub fn episode(
    task: Task,
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
    pd.qpos.copy_from_slice(&task.start());
    planner.reset();
    let pole = 2;
    let mut out = Outcome {
        upright_from: Some(0.0),
        max_tilt: 0.0,
        final_tilt: 0.0,
        max_cart: 0.0,
        updates: Updates::default(),
        success: false,
    };
    for update in 1..=task.updates() {
        let mut u = [0.0];
        let x = State {
            time: pd.time,
            qpos: &pd.qpos[..],
            qvel: &pd.qvel[..],
        };
        let code = out
            .updates
            .plan(planner, mm, md, &x, cost, &mut u, &mut now);
        pd.ctrl[0] = u[0];
        for _ in 0..STEPS_PER_UPDATE {
            let pushing = task == Task::Push && pd.time >= PUSH_AT && pd.time < PUSH_AT + PUSH_FOR;
            pd.xfrc_applied[6 * pole] = if pushing { PUSH_FORCE } else { 0.0 };
            mj::step(pm, pd)?;
        }
        let t = tilt(pd.qpos[1]);
        track(task, &mut out, pd.time, t, pd.qpos[0]);
        let values = [
            pd.time,
            pd.qpos[0],
            pd.qpos[1],
            pd.qvel[0],
            pd.qvel[1],
            u[0],
            planner.cost,
            Real::from(code),
        ];
        sample(&Sample::of_values(update, &values));
    }
    out.final_tilt = tilt(pd.qpos[1]);
    out.success = match task {
        Task::SwingUp => out.upright_from.is_some_and(|t| t <= SWING_UP_BY),
        Task::Push => out.max_tilt <= FALLEN_TILT && out.upright_from.is_some(),
    };
    Ok(out)
}

/// Updates the outcome's record with the state after an update at `time`.
fn track(task: Task, out: &mut Outcome, time: Real, tilt: Real, cart: Real) {
    out.max_cart = out.max_cart.max(cart.abs());
    if tilt > UPRIGHT_TOL {
        out.upright_from = None;
    } else if out.upright_from.is_none() {
        out.upright_from = Some(time);
    }
    if task == Task::Push && time >= PUSH_AT {
        out.max_tilt = out.max_tilt.max(tilt);
    }
}

/// A planner with the task's [`SETTINGS`] in `scratch`.
pub fn planner(scratch: &mut [Real]) -> Result<Planner<'_>, Error> {
    Planner::new(SETTINGS, NX, NU, scratch).map_err(Error::Mpc)
}
