"""The control law of the recorded trajectories, shared by the fixture generator (run with
mujoco 3.1.6) and the tests (run on mjrs): a smooth, deterministic signal inside each
actuator's range."""
import numpy as np


def controls(m, i):
    """The control of step i for model m (MuJoCo's or mjrs's: the same fields)."""
    j = np.arange(m.nu)
    u = 0.8 * np.sin(0.05 * i + 0.7 * j)
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    limited = m.actuator_ctrllimited.astype(bool)
    return np.where(limited, lo + (u + 1) / 2 * (hi - lo), u)
