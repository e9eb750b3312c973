"""Jacobians, the mass matrix and the state vector agree with MuJoCo 3.1.6 bit for bit; wrong
output arrays are MuJoCo's TypeErrors."""
import numpy as np
import pytest

import mjrs as mujoco
from conftest import model_path


@pytest.fixture(scope="module")
def stepped():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/humanoid.xml"))
    d = mujoco.MjData(m)
    d.qvel[:] = np.linspace(-1, 1, m.nv)
    mujoco.mj_step(m, d, nstep=20)
    return m, d


def test_jacobians(stepped, trajectories):
    m, d = stepped
    for name, f, n in [("jac_body", mujoco.mj_jacBody, m.nbody),
                       ("jac_body_com", mujoco.mj_jacBodyCom, m.nbody),
                       ("jac_geom", mujoco.mj_jacGeom, m.ngeom),
                       ("jac_site", mujoco.mj_jacSite, m.nsite)]:
        for i in range(n):
            jp, jr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
            f(m, d, jp, jr, i)
            assert np.array_equal(np.stack([jp, jr]), trajectories[f"support/{name}"][i]), (name, i)
    jp, jr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    mujoco.mj_jac(m, d, jp, jr, np.array([0.1, -0.2, 0.3]), 5)
    assert np.array_equal(np.stack([jp, jr]), trajectories["support/jac"])
    jp2 = np.zeros((3, m.nv))
    mujoco.mj_jacBody(m, d, jp2, None, 3)       # either output may be None
    mujoco.mj_jacBody(m, d, jp, jr, 3)
    assert np.array_equal(jp, jp2)


def test_mass_matrix_and_state(stepped, trajectories):
    m, d = stepped
    full = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, full, d.qM)
    assert np.array_equal(full, trajectories["support/full_m"])
    res = np.zeros(m.nv)
    mujoco.mj_mulM(m, d, res, d.qvel)
    assert np.array_equal(res, trajectories["support/mul_m"])
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.zeros(mujoco.mj_stateSize(m, spec))
    mujoco.mj_getState(m, d, state, spec)
    assert np.array_equal(state, trajectories["support/state"])
    # setState into a fresh data restores the integration state: the next steps agree
    d2 = mujoco.MjData(m)
    mujoco.mj_setState(m, d2, state, spec)
    a, b = mujoco.MjData(m), d2
    mujoco.mj_setState(m, a, state, spec)
    mujoco.mj_step(m, a, nstep=5)
    mujoco.mj_step(m, b, nstep=5)
    assert np.array_equal(a.qpos, b.qpos)


def test_wrong_outputs_are_mujocos_type_errors(stepped):
    m, d = stepped
    with pytest.raises(TypeError, match=r"jacp should be of shape \(3, nv\)"):
        mujoco.mj_jacBody(m, d, np.zeros((3, 2)), None, 1)
    with pytest.raises(TypeError, match=r"jacr should be of shape \(3, nv\)"):
        mujoco.mj_jacSite(m, d, None, np.zeros((2, m.nv)), 0)
    with pytest.raises(TypeError):
        mujoco.mj_jacBody(m, d, np.zeros((3, m.nv), dtype=np.float32), None, 1)
    with pytest.raises(ValueError, match="invalid body id 99"):
        mujoco.mj_jacBody(m, d, None, None, 99)
    with pytest.raises(TypeError, match="M should be of size nM"):
        mujoco.mj_fullM(m, np.zeros((m.nv, m.nv)), np.zeros(3))
    with pytest.raises(TypeError, match=r"dst should be of shape \(nv, nv\)"):
        mujoco.mj_fullM(m, np.zeros((2, 2)), d.qM)
    with pytest.raises(TypeError, match="res should be of size nv"):
        mujoco.mj_mulM(m, d, np.zeros(2), d.qvel)
    with pytest.raises(TypeError, match=r"state size should equal mj_stateSize\(m, spec\)"):
        mujoco.mj_getState(m, d, np.zeros(3), mujoco.mjtState.mjSTATE_PHYSICS)
    with pytest.raises(mujoco.FatalError, match="invalid state spec"):
        mujoco.mj_stateSize(m, 1 << 20)


def test_transition_fd(trajectories):
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/humanoid.xml"))
    d = mujoco.MjData(m)
    d.qvel[:] = np.linspace(-1, 1, m.nv)
    mujoco.mj_step(m, d, nstep=20)
    nx = 2 * m.nv + m.na
    fd = {"A": np.zeros((nx, nx)), "B": np.zeros((nx, m.nu)),
          "C": np.zeros((m.nsensordata, nx)), "D": np.zeros((m.nsensordata, m.nu))}
    mujoco.mjd_transitionFD(m, d, 1e-6, 1, fd["A"], fd["B"], fd["C"], fd["D"])
    for k, v in fd.items():
        assert np.array_equal(v, trajectories[f"support/transition_fd_{k}"]), k
    with pytest.raises(TypeError, match=r"A should be of shape \(2\*nv\+na, 2\*nv\+na\)"):
        mujoco.mjd_transitionFD(m, d, 1e-6, 1, np.zeros((2, 2)), None, None, None)
