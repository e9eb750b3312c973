"""Shared helpers of the Python tests: the fixtures recorded from MuJoCo 3.1.6 and the
repository's models. The tests import only mjrs (never mujoco)."""
import json
import pathlib

import numpy as np
import pytest

from control_law import controls  # noqa: F401 (the tests import it from here)

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
