"""Stepping from Python gives MuJoCo 3.1.6's trajectories; named access reads MuJoCo's rows."""
import numpy as np
import pytest

import mjrs as mujoco
from conftest import controls, model_path

MODELS = ["humanoid", "hopper", "arm"]


@pytest.mark.parametrize("name", MODELS)
def test_step_trajectory_matches_mujoco(layout, trajectories, name):
    entry = layout["models"][name]
    m = mujoco.MjModel.from_xml_path(model_path(entry["path"]))
    d = mujoco.MjData(m)
    for i in range(entry["steps"]):
        d.ctrl[:] = controls(m, i)
        mujoco.mj_step(m, d)
        for key in ("qpos", "qvel", "act", "sensordata"):
            expected = trajectories[f"{name}/{key}"][i]
            # the exact build reproduces MuJoCo bit for bit
            assert np.array_equal(getattr(d, key), expected), f"{key} differs at step {i + 1}"
        assert d.time == trajectories[f"{name}/time"][i]


@pytest.mark.parametrize("name", MODELS)
def test_named_access_matches_mujoco(layout, name):
    entry = layout["models"][name]
    m = mujoco.MjModel.from_xml_path(model_path(entry["path"]))
    d = mujoco.MjData(m)
    for i in range(entry["steps"]):
        d.ctrl[:] = controls(m, i)
        mujoco.mj_step(m, d)
    for owner, group, key, attr, expected in entry["named"]:
        obj = m if owner == "model" else d
        got = getattr(getattr(obj, group)(key), attr)
        assert np.array_equal(got, np.array(expected, dtype=got.dtype)), (owner, group, key, attr)


def test_nstep_equals_repeated_steps():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    a, b = mujoco.MjData(m), mujoco.MjData(m)
    a.ctrl[:] = b.ctrl[:] = 0.3
    mujoco.mj_step(m, a, nstep=25)
    for _ in range(25):
        mujoco.mj_step(m, b)
    assert np.array_equal(a.qpos, b.qpos) and a.time == b.time


def test_views_are_zero_copy_and_keep_their_owner_alive():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    d = mujoco.MjData(m)
    qpos = d.qpos
    qpos[1] = 0.25                    # a write through a view is a write to the data
    assert d.qpos[1] == 0.25
    d.qpos = np.arange(m.nq)          # assignment copies into the same memory
    assert qpos[3] == 3.0
    mass = m.body_mass
    del m, d
    import gc
    gc.collect()
    assert qpos[3] == 3.0 and mass.shape[0] > 1  # the views keep model and data alive


def test_option_is_live():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    m.opt.timestep = 0.001
    m.opt.gravity[2] = -1.0
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d)
    assert d.time == 0.001 and m.opt.gravity[2] == -1.0
    m.opt.gravity = [0, 0, -2.0]
    assert m.opt.gravity[2] == -2.0


def test_reset_and_keyframe():
    xml = """<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
             <keyframe><key name="k" qpos="0.5" time="2"/></keyframe></mujoco>"""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    assert d.qpos[0] == 0.5 and d.time == 2.0
    mujoco.mj_resetData(m, d)
    assert d.qpos[0] == 0.0 and d.time == 0.0
    assert mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, "k") == 0
    assert mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, "nope") == -1
    assert mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, 0) == "j"
    assert mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, 5) is None


def test_assets_and_binary(tmp_path):
    xml = """<mujoco><asset><mesh name="t" file="tet.stl"/></asset>
             <worldbody><body><freejoint/><geom type="mesh" mesh="t"/></body></worldbody></mujoco>"""
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)   # the mesh is not on disk
    m = mujoco.MjModel.from_xml_string(xml, assets={"tet.stl": TETRAHEDRON_STL})
    assert m.nmesh == 1 and m.mesh_vertnum[0] == 4



def test_binary_model_steps_like_its_xml():
    # MuJoCo's own compile of the Gymnasium hopper (core/tests/data), against our compile
    a = mujoco.MjModel.from_binary_path(model_path("core/tests/data/gym_hopper.mjb"))
    assert a.nq == 6 and a.nu == 3
    d = mujoco.MjData(a)
    d.ctrl[:] = 0.5
    mujoco.mj_step(a, d, nstep=50)
    assert np.all(np.isfinite(d.qpos)) and d.time == pytest.approx(50 * a.opt.timestep)
    with pytest.raises(ValueError):
        mujoco.MjModel.from_binary_path(model_path("tests/models/hopper.xml"))


def test_inverse_recovers_applied_forces():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    d = mujoco.MjData(m)
    d.qfrc_applied[:] = 0.1
    mujoco.mj_forward(m, d)
    qacc = d.qacc.copy()
    mujoco.mj_inverse(m, d)
    assert np.allclose(d.qacc, qacc)
    assert np.allclose(d.qfrc_inverse, d.qfrc_applied + d.qfrc_actuator, atol=1e-6)


def test_contacts():
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    d = mujoco.MjData(m)
    for _ in range(200):
        mujoco.mj_step(m, d)
    assert d.ncon > 0 and len(d.contact) == d.ncon
    assert d.contact.dist.shape == (d.ncon,) and d.contact.frame.shape == (d.ncon, 9)
    c = d.contact[0]
    assert isinstance(c.dist, float) and c.pos.shape == (3,)
    assert c.geom1 == d.contact.geom1[0]
    assert d.efc_J.shape[0] == d.nefc * m.nv or d.efc_J.shape == (d.nefc, m.nv)


def _tetrahedron_stl():
    import struct
    v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    out = bytearray(80) + struct.pack("<I", len(faces))
    for f in faces:
        out += struct.pack("<3f", 0, 0, 0)
        for i in f:
            out += struct.pack("<3f", *[0.1 * x for x in v[i]])
        out += b"\0\0"
    return bytes(out)


TETRAHEDRON_STL = _tetrahedron_stl()


def test_stepping_releases_the_gil():
    import threading
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/humanoid.xml"))
    d = mujoco.MjData(m)
    started = threading.Event()

    def run():
        started.set()
        mujoco.mj_step(m, d, nstep=400)

    t = threading.Thread(target=run)
    t.start()
    started.wait()
    spins = 0
    while t.is_alive():   # runs only while the other thread's mj_step does not hold the GIL
        spins += 1
    t.join()
    assert d.time == pytest.approx(400 * m.opt.timestep)
    assert spins > 1000


def test_copy_is_independent():
    import copy
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=10)
    e = copy.copy(d)
    assert np.array_equal(e.qpos, d.qpos) and e.time == d.time and e.model is d.model
    mujoco.mj_step(m, e)
    assert e.time > d.time
    m2 = copy.deepcopy(m)
    m2.body_mass[1] = 99.0
    assert m.body_mass[1] != 99.0 and m2.nq == m.nq
