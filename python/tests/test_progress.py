"""Progress bars of long batches (tqdm, optional): rollout(progress=True) shows one and gives
the same results; without tqdm, asking for one says what is missing."""
import sys

import numpy as np
import pytest

import mjrs as mujoco
from mjrs import rollout
from conftest import model_path


@pytest.fixture(scope="module")
def arm():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/rollout_arm.xml"))
    return m, mujoco.MjData(m)


@pytest.mark.parametrize("nthread", [1, 2])
def test_progress_bar_same_results(arm, trajectories, capsys, nthread):
    pytest.importorskip("tqdm")
    m, d = arm
    initial = np.repeat(trajectories["rollout/initial_state"], 50, axis=0)
    control = np.repeat(trajectories["rollout/control"][:, :20], 50, axis=0)
    quiet = rollout.rollout(m, d, initial, control, nthread=nthread)
    shown = rollout.rollout(m, d, initial, control, nthread=nthread, progress=True)
    assert all(np.array_equal(a, b) for a, b in zip(quiet, shown))
    err = capsys.readouterr().err
    assert "rollout" in err and "100%" in err and f"{len(initial)}/{len(initial)}" in err


def test_progress_without_tqdm(arm, trajectories, monkeypatch):
    m, d = arm
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)     # import tqdm.auto fails
    with pytest.raises(ImportError, match="progress=True needs tqdm"):
        rollout.rollout(m, d, trajectories["rollout/initial_state"],
                        trajectories["rollout/control"], progress=True)
