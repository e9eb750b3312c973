"""Bad input gives Python exceptions with MuJoCo's messages, never a crash of the interpreter."""
import numpy as np
import pytest

import mjrs as mujoco
from conftest import model_path

PENDULUM = """<mujoco><worldbody><body><joint name="j"/><geom size=".1" fromto="0 0 0 0 0 1"
type="capsule"/></body></worldbody><actuator><motor joint="j"/></actuator></mujoco>"""


@pytest.fixture
def pair():
    m = mujoco.MjModel.from_xml_string(PENDULUM)
    return m, mujoco.MjData(m)


def test_wrong_shapes_and_dtypes_on_assignment(pair):
    m, d = pair
    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        d.qpos = np.zeros(3)
    with pytest.raises(ValueError, match="could not broadcast"):
        d.xpos = np.zeros((2, 2))
    with pytest.raises(ValueError, match="could not convert string to float"):
        d.ctrl = "abc"
    with pytest.raises(ValueError, match="could not broadcast"):
        m.geom_rgba = np.zeros(5)
    with pytest.raises(ValueError):
        m.body("world").pos = [1, 2]
    with pytest.raises(TypeError):
        m.opt.timestep = "fast"
    # the failed writes changed nothing
    assert np.all(d.qpos == 0) and np.all(m.geom_rgba[0] == np.float32([0.5, 0.5, 0.5, 1]))


def test_data_of_another_model(pair):
    m, d = pair
    other = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    for f in (mujoco.mj_step, mujoco.mj_forward, mujoco.mj_inverse, mujoco.mj_resetData,
              mujoco.mj_rnePostConstraint):
        with pytest.raises(ValueError, match="MjData was made for another model"):
            f(other, d)
    with pytest.raises(ValueError, match="another model"):
        mujoco.mj_resetDataKeyframe(other, d, 0)
    with pytest.raises(TypeError):
        mujoco.MjData(3)
    with pytest.raises(TypeError):
        mujoco.mj_step(m, m)
    with pytest.raises(TypeError):
        mujoco.mj_step(m, d, nstep="a")
    # a model of the same sizes is not another model (the check is of sizes, not identity)
    twin = mujoco.MjModel.from_xml_string(PENDULUM)
    mujoco.mj_step(twin, d)
    mujoco.mj_step(m, d)
    assert d.time == 2 * m.opt.timestep


def test_writes_to_read_only_fields(pair):
    m, d = pair
    for obj, name in [(m, "nq"), (m, "nbody"), (m, "names"), (m, "opt"), (d, "ncon"),
                      (d, "nefc"), (d, "efc_J"), (d, "contact"), (d, "model"), (d, "warning")]:
        with pytest.raises(AttributeError, match="has no setter"):
            setattr(obj, name, 1)
    with pytest.raises(AttributeError, match="no attribute"):
        m.no_such_field = 1
    with pytest.raises(AttributeError):
        d.no_such_field


def test_nan_controls_warn_and_keep_stepping(pair):
    m, d = pair
    d.ctrl[0] = np.nan
    mujoco.mj_step(m, d)
    # MuJoCo: "Nan, Inf or huge value in CTRL at ACTUATOR 0", counted, controls ignored
    assert d.warning[mujoco.mjtWarning.mjWARN_BADCTRL].number == 1
    assert d.warning.number[mujoco.mjtWarning.mjWARN_BADCTRL] == 1
    assert np.all(np.isfinite(d.qpos)) and np.all(np.isfinite(d.qacc))
    d.qpos[0] = np.inf
    mujoco.mj_step(m, d)
    assert d.warning[mujoco.mjtWarning.mjWARN_BADQPOS].number == 1
    assert np.all(np.isfinite(d.qpos))


def test_fatal_errors_are_exceptions():
    xml = PENDULUM.replace("<worldbody>", '<option integrator="RK4"><flag invdiscrete="enable"/>'
                           "</option><worldbody>")
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    with pytest.raises(mujoco.FatalError, match="discrete inverse dynamics is not supported by "
                                                "RK4 integrator"):
        mujoco.mj_inverse(m, d)
    assert issubclass(mujoco.FatalError, Exception)


def test_bad_models_and_names(pair, tmp_path):
    m, d = pair
    with pytest.raises(ValueError, match="Schema violation: unrecognized element"):
        mujoco.MjModel.from_xml_string("<mujoco><bad/></mujoco>")
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_path(str(tmp_path / "missing.xml"))
    bad = tmp_path / "bad.mjb"
    bad.write_bytes(b"\x00" * 20)
    with pytest.raises(ValueError):
        mujoco.MjModel.from_binary_path(str(bad))
    with pytest.raises(KeyError, match="Invalid name 'zz'. Valid names: \\['j'\\]"):
        d.joint("zz")
    with pytest.raises(IndexError, match="Invalid index 3. Valid indices from 0 to 0"):
        m.jnt(3)
    with pytest.raises(TypeError):
        m.jnt(1.5)
    assert mujoco.mj_name2id(m, 999, "j") == -1
    assert mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, -5) is None
    mujoco.mj_resetDataKeyframe(m, d, 5)   # no such keyframe: a plain reset, as MuJoCo
    assert d.time == 0.0
