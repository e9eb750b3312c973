"""Shared helpers of the Python tests: the fixtures recorded from MuJoCo 3.1.6 and the
repository's models. The tests import only mjrs (never mujoco)."""
import json
import pathlib

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures"


@pytest.fixture(scope="session")
def layout():
    return json.loads((FIXTURES / "layout.json").read_text())


@pytest.fixture(scope="session")
def trajectories():
    with np.load(FIXTURES / "trajectories.npz") as f:
        return {k: f[k] for k in f.files}


def model_path(relative):
    return str(ROOT / relative)


def controls(m, i):
    """The generator's control of step i (fixtures/generate.py)."""
    j = np.arange(m.nu)
    u = 0.8 * np.sin(0.05 * i + 0.7 * j)
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    limited = m.actuator_ctrllimited.astype(bool)
    return np.where(limited, lo + (u + 1) / 2 * (hi - lo), u)
