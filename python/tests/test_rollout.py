"""mjrs.rollout.rollout gives MuJoCo 3.1.6's states and sensor values, on one thread or many."""
import numpy as np
import pytest

import mjrs as mujoco
from mjrs import rollout
from conftest import model_path


@pytest.fixture(scope="module")
def arm():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/rollout_arm.xml"))
    return m, mujoco.MjData(m)


@pytest.mark.parametrize("nthread", [1, 2, 3])
def test_rollout_matches_mujoco(arm, trajectories, nthread):
    m, d = arm
    state, sensordata = rollout.rollout(m, d, trajectories["rollout/initial_state"],
                                        trajectories["rollout/control"], nthread=nthread)
    assert state.shape == trajectories["rollout/state"].shape
    assert np.array_equal(state, trajectories["rollout/state"])
    assert np.array_equal(sensordata, trajectories["rollout/sensordata"])
    # again with the same data (on threads: the pool and worker datas it kept, which the
    # module's data also kept from the other thread counts): the same results
    again, _ = rollout.rollout(m, d, trajectories["rollout/initial_state"],
                               trajectories["rollout/control"], nthread=nthread)
    assert np.array_equal(again, state)


def test_singleton_dimensions_are_repeated(arm, trajectories):
    m, d = arm
    initial = trajectories["rollout/initial_state"][:1]
    control = trajectories["rollout/control"][:1, :1]       # one control for every step
    state, _ = rollout.rollout(m, d, initial, control, nstep=7)
    assert state.shape == (1, 7, initial.shape[1])
    many, _ = rollout.rollout(m, d, np.repeat(initial, 4, axis=0), control, nstep=7)
    assert many.shape[0] == 4 and np.array_equal(many[3], state[0])


def test_bad_rollout_arguments(arm, trajectories):
    m, d = arm
    initial = trajectories["rollout/initial_state"]
    with pytest.raises(ValueError, match="trailing dimension of initial_state"):
        rollout.rollout(m, d, initial[:, :3])
    with pytest.raises(ValueError, match="control_spec can only contain bits in mjSTATE_USER"):
        rollout.rollout(m, d, initial, control_spec=int(mujoco.mjtState.mjSTATE_QPOS))
    with pytest.raises(ValueError, match="inconsistent"):
        rollout.rollout(m, d, initial, np.zeros((2, 5, m.nu)))
    with pytest.raises(ValueError, match="must be a numpy array"):
        rollout.rollout(m, d, initial.tolist())
    with pytest.raises(ValueError, match="a thread pool needs"):
        rollout.rollout(m, d, initial, nthread=100000)
    other = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    with pytest.raises(ValueError, match="another model"):
        rollout.rollout(other, d, np.zeros((1, mujoco.mj_stateSize(other, mujoco.mjtState.mjSTATE_FULLPHYSICS))))
