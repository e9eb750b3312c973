"""mj_ray, mjd_inverseFD, mj_setConst, mj_printModel/mj_printData (bit for bit and text for
text with MuJoCo 3.1.6, fixtures/generate_functions.py), mj_saveLastXML, pickling, and their
bad inputs."""
import copy
import hashlib
import pickle

import numpy as np
import pytest

import mjrs as mujoco
from conftest import FIXTURES, model_path
from function_cases import (ARM, HUMANOID, RAY_MODELS, SETCONST_FIELDS, SETCONST_STAT,
                            arm_after_steps, ray_filters, setconst_edit)
from last_xml_edit import (LAST_XML_MODEL, TREE_MODEL, apply_edits, edited_rows,
                           last_xml_arrays, last_xml_edit, read_edits)


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "functions.npz") as f:
        return {k: f[k] for k in f.files}


@pytest.fixture
def arm():
    m = mujoco.MjModel.from_xml_path(model_path(ARM))
    return m, mujoco.MjData(m)


@pytest.mark.parametrize("name", sorted(RAY_MODELS))
def test_ray_matches_mujoco(recorded, name):
    m = mujoco.MjModel.from_xml_path(model_path(RAY_MODELS[name]))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    pnt, vec = recorded[f"ray/{name}/pnt"], recorded[f"ray/{name}/vec"]
    dist = np.zeros(recorded[f"ray/{name}/dist"].shape)
    geomid = np.zeros(dist.shape, np.int32)
    gid = np.array([7], np.int32)
    for i in range(len(pnt)):
        for j, (group, static, exclude) in enumerate(ray_filters(m)):
            dist[i, j] = mujoco.mj_ray(m, d, pnt[i], vec[i], group, static, exclude, gid)
            geomid[i, j] = gid[0]
    assert np.array_equal(geomid, recorded[f"ray/{name}/geomid"])
    assert np.array_equal(dist, recorded[f"ray/{name}/dist"])
    assert (geomid >= 0).sum() > 20      # the rays do hit things


@pytest.mark.parametrize("name", sorted(RAY_MODELS))
def test_multi_ray_matches_mujoco(recorded, name):
    m = mujoco.MjModel.from_xml_path(model_path(RAY_MODELS[name]))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    pnt, vec = recorded[f"multiray/{name}/pnt"], recorded[f"multiray/{name}/vec"]
    dist = np.zeros(recorded[f"multiray/{name}/dist"].shape)
    geomid = np.zeros(dist.shape, np.int32)
    for j, (group, static, exclude) in enumerate(ray_filters(m)):
        for k, cutoff in enumerate([1e10, 0.5]):
            mujoco.mj_multiRay(m, d, pnt, vec.flatten(), group, static, exclude, geomid[j, k],
                               dist[j, k], len(vec), cutoff)
    assert np.array_equal(geomid, recorded[f"multiray/{name}/geomid"])
    assert np.array_equal(dist, recorded[f"multiray/{name}/dist"])


def test_multi_ray_bad_input(arm):
    m, d = arm
    geomid, dist = np.zeros(2, np.int32), np.zeros(2)
    down = np.array([0, 0, -1.0, 0, 0, -1.0])
    with pytest.raises(TypeError, match="dist and geomid should be of size nray"):
        mujoco.mj_multiRay(m, d, [0, 0, 1], down, None, 1, -1, geomid, dist, 3, 10.0)
    with pytest.raises(TypeError, match=r"vec should be of size 3\*nray"):
        mujoco.mj_multiRay(m, d, [0, 0, 1], down[:5], None, 1, -1, geomid, dist, 2, 10.0)
    with pytest.raises(mujoco.FatalError, match="mj_multiRay: vector length is too small"):
        mujoco.mj_multiRay(m, d, [0, 0, 1], np.zeros(6), None, 1, -1, geomid, dist, 2, 10.0)


def test_ray_bad_input(arm):
    m, d = arm
    gid = np.zeros(1, np.int32)
    with pytest.raises(mujoco.FatalError, match="mj_ray: vector length is too small"):
        mujoco.mj_ray(m, d, [0, 0, 1], [0, 0, 0], None, 1, -1, gid)
    with pytest.raises(TypeError, match="geomid should be of size 1"):
        mujoco.mj_ray(m, d, [0, 0, 1], [0, 0, -1], None, 1, -1, np.zeros(2, np.int32))
    with pytest.raises(TypeError):
        mujoco.mj_ray(m, d, [0, 0, 1], [0, 0, -1], None, 1, -1, np.zeros(1))       # float64
    with pytest.raises(TypeError, match="geomgroup should be of size 6"):
        mujoco.mj_ray(m, d, [0, 0, 1], [0, 0, -1], np.ones(5, np.uint8), 1, -1, gid)
    with pytest.raises((TypeError, ValueError)):
        mujoco.mj_ray(m, d, [0, 0], [0, 0, -1], None, 1, -1, gid)
    other = mujoco.MjModel.from_xml_path(model_path(HUMANOID))
    with pytest.raises(ValueError, match="another model"):
        mujoco.mj_ray(other, d, [0, 0, 1], [0, 0, -1], None, 1, -1, gid)
    # geomgroup may be any array-like NumPy casts to uint8, as in MuJoCo's bindings
    down = np.array([0, 0, 1.0]), np.array([0, 0, -1.0])
    expected = mujoco.mj_ray(m, d, *down, np.ones(6, np.uint8), 1, -1, gid)
    assert mujoco.mj_ray(m, d, *down, np.ones(6, bool), 1, -1, gid) == expected
    assert mujoco.mj_ray(m, d, *down, [1] * 6, 1, -1, gid) == expected
    with pytest.raises(OverflowError):
        mujoco.mj_ray(m, d, *down, [300] * 6, 1, -1, gid)
    # NaN: no hit, as in MuJoCo
    assert mujoco.mj_ray(m, d, [np.nan, 0, 1], [0, 0, -1], None, 1, -1, gid) == -1
    assert gid[0] == -1


@pytest.mark.parametrize("flg", [0, 1])
def test_inverse_fd_matches_mujoco(recorded, arm, flg):
    m, d = arm
    arm_after_steps(mujoco, m, d)
    nv, ns = m.nv, m.nsensordata
    shapes = {"DfDq": (nv, nv), "DfDv": (nv, nv), "DfDa": (nv, nv), "DsDq": (nv, ns),
              "DsDv": (nv, ns), "DsDa": (nv, ns), "DmDq": (nv, m.nM)}
    out = {k: np.zeros(s) for k, s in shapes.items()}
    mujoco.mjd_inverseFD(m, d, 1e-6, flg, *out.values())
    for k, a in out.items():
        assert np.array_equal(a, recorded[f"inverse/{flg}/{k}"]), k
    # any subset may be None
    dfdq = np.zeros((nv, nv))
    arm_after_steps(mujoco, m, d)
    mujoco.mjd_inverseFD(m, d, 1e-6, flg, dfdq, None, None, None, None, None, None)
    assert np.array_equal(dfdq, recorded[f"inverse/{flg}/DfDq"])


def test_inverse_fd_bad_shapes(arm):
    m, d = arm
    nv = m.nv
    with pytest.raises(TypeError, match=r"DfDq should be of shape \(nv, nv\)"):
        mujoco.mjd_inverseFD(m, d, 1e-6, 0, np.zeros((nv, nv + 1)), None, None, None, None,
                             None, None)
    with pytest.raises(TypeError, match=r"DsDv should be of shape \(nv, nsensordata\)"):
        mujoco.mjd_inverseFD(m, d, 1e-6, 0, None, None, None, None, np.zeros((1, 1)), None,
                             None)
    with pytest.raises(TypeError, match=r"DmDq should be of shape \(nv, nM\)"):
        mujoco.mjd_inverseFD(m, d, 1e-6, 0, None, None, None, None, None, None,
                             np.zeros((nv, nv)))
    with pytest.raises(TypeError):
        mujoco.mjd_inverseFD(m, d, 1e-6, 0, np.zeros((nv, nv), np.float32), None, None, None,
                             None, None, None)


def test_set_const_matches_mujoco(recorded):
    m = mujoco.MjModel.from_xml_path(model_path(HUMANOID))
    d = mujoco.MjData(m)
    setconst_edit(m)
    before = m.body_subtreemass.copy()
    mujoco.mj_setConst(m, d)
    assert not np.array_equal(before, m.body_subtreemass)
    for f in SETCONST_FIELDS:
        assert np.array_equal(getattr(m, f), recorded[f"setconst/{f}"]), f
    for f in SETCONST_STAT:
        assert np.array_equal(np.array(getattr(m.stat, f)), recorded[f"setconst/stat.{f}"]), f


def test_set_const_rejects_another_models_data(arm):
    m, _ = arm
    other = mujoco.MjModel.from_xml_path(model_path(HUMANOID))
    with pytest.raises(ValueError, match="another model"):
        mujoco.mj_setConst(m, mujoco.MjData(other))


@pytest.mark.parametrize("what", ["model", "data", "fmodel", "fdata"])
def test_print_matches_mujoco(recorded, arm, tmp_path, what):
    m, d = arm
    arm_after_steps(mujoco, m, d)
    path = tmp_path / f"{what}.txt"
    if what == "model":
        mujoco.mj_printModel(m, str(path))
    elif what == "data":
        mujoco.mj_printData(m, d, str(path))
    elif what == "fmodel":
        mujoco.mj_printFormattedModel(m, str(path), "%+.5e")
    else:
        mujoco.mj_printFormattedData(m, d, str(path), "%+.5e")
    # the peak stack and arena use measure mjrs's own arena (as in tests/tests/print.rs)
    text = b"".join(line for line in path.read_bytes().splitlines(keepends=True)
                    if not line.startswith((b"  maxuse_stack ", b"  maxuse_arena ")))
    sha, length = recorded[f"print/{what}"]
    assert len(text) == int(length)
    assert hashlib.sha256(text).hexdigest() == sha


def test_print_to_unwritable_file_warns(arm, tmp_path):
    m, d = arm
    with pytest.warns(RuntimeWarning, match="Could not open file"):
        mujoco.mj_printData(m, d, str(tmp_path / "missing" / "data.txt"))
    # MuJoCo warns about a float format it refuses and prints with its default
    with pytest.warns(RuntimeWarning, match="Received invalid float_format"):
        mujoco.mj_printFormattedModel(m, str(tmp_path / "formatted.txt"), "%d")
    mujoco.mj_printModel(m, str(tmp_path / "default.txt"))
    assert (tmp_path / "formatted.txt").read_text() == (tmp_path / "default.txt").read_text()


def test_save_last_xml_round_trips(tmp_path):
    m = mujoco.MjModel.from_xml_path(model_path(HUMANOID))
    path = tmp_path / "saved.xml"
    mujoco.mj_saveLastXML(str(path), m)
    again = mujoco.MjModel.from_xml_path(str(path))
    for name in ["body_pos", "body_mass", "geom_size", "jnt_range", "actuator_gear", "qpos0",
                 "dof_M0", "body_subtreemass"]:
        assert np.array_equal(getattr(m, name), getattr(again, name)), name
    # the saved model is now the last one: saving it again gives the same text
    mujoco.mj_saveLastXML(str(tmp_path / "again.xml"), again)
    assert (tmp_path / "again.xml").read_text() == path.read_text()


def test_save_last_xml_to_standard_output(capsys):
    m = mujoco.MjModel.from_xml_string("<mujoco model='tiny'><worldbody><geom size='1'/>"
                                       "</worldbody></mujoco>")
    mujoco.mj_saveLastXML("", m)
    out = capsys.readouterr().out
    assert out.startswith('<mujoco model="tiny">') and "<geom" in out


def test_save_last_xml_refusals(tmp_path):
    m = mujoco.MjModel.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
    with pytest.raises(mujoco.FatalError, match="File not found"):
        mujoco.mj_saveLastXML(str(tmp_path / "missing" / "x.xml"), m)
    other = mujoco.MjModel.from_xml_path(model_path(ARM))
    with pytest.raises(mujoco.FatalError, match="incompatible models in CopyBack"):
        mujoco.mj_saveLastXML(str(tmp_path / "x.xml"), m)
    assert not (tmp_path / "x.xml").exists()
    # a changed pose the text cannot give: the geom's class orients it by Euler angles, which
    # would override a saved quaternion
    m = mujoco.MjModel.from_xml_string(
        "<mujoco><default><geom euler='0 0 30'/></default>"
        "<worldbody><geom size='1'/></worldbody></mujoco>")
    m.geom_quat[0] = [0, 1, 0, 0]
    with pytest.raises(mujoco.FatalError, match="class 'main' gives an alternative orientation"):
        mujoco.mj_saveLastXML(str(tmp_path / "x.xml"), m)


def test_save_last_xml_copies_changed_values_back(tmp_path):
    # as MuJoCo 3.1.6 (mjs_copyBack): options, visual, tendon, actuator and sensor values changed
    # after loading are saved; fields MuJoCo does not copy back are saved as loaded
    m = mujoco.MjModel.from_xml_path(model_path(LAST_XML_MODEL))
    last_xml_edit(m)
    mujoco.mj_saveLastXML(str(tmp_path / "saved.xml"), m)
    again = last_xml_arrays(mujoco.MjModel.from_xml_path(str(tmp_path / "saved.xml")))
    with np.load(FIXTURES / "last_xml.npz") as expected:
        # (tree/...: the next test's)
        names = [k for k in expected.files if not k.startswith("tree/")]
        assert set(names) == set(again)
        for name in names:
            if name == "actuator_lengthrange":
                # the computed range is saved; MuJoCo writes it with 6 significant digits, mjrs
                # with 17 (the writer's documented difference)
                assert np.allclose(again[name], expected[name], rtol=1e-5, atol=0), name
            else:
                assert np.array_equal(again[name], expected[name]), name


def test_save_last_xml_copies_tree_values_back(tmp_path):
    # bodies, joints, dofs, geoms, sites, cameras, lights, materials, height fields, pairs,
    # equalities, custom data, keyframes and statistics, changed in frames, classes, fromto, mesh
    # fits and degrees: saved as MuJoCo 3.1.6 saves them (MuJoCo prints six digits, mjrs 17, so
    # the saved values agree to six digits; the changed ones are saved exactly)
    edits = read_edits()
    m = mujoco.MjModel.from_xml_path(model_path(TREE_MODEL))
    apply_edits(m, edits)
    changed = edited_rows(m, edits)
    mujoco.mj_saveLastXML(str(tmp_path / "saved.xml"), m)
    again = edited_rows(mujoco.MjModel.from_xml_path(str(tmp_path / "saved.xml")), edits)
    with np.load(FIXTURES / "last_xml.npz") as f:
        expected = {k[len("tree/"):]: f[k] for k in f.files if k.startswith("tree/")}
    assert set(expected) == set(again)
    for key in expected:
        assert np.allclose(again[key], expected[key], rtol=2e-5, atol=1e-8), key
    # a body's mass inferred from its geoms is inferred again; the mesh frame is undone and
    # applied again, a hinge range in degrees converted (as MuJoCo's writer does)
    assert again["body_mass/3"] != changed["body_mass/3"]
    for key in changed:
        if key not in ("body_mass/3", "geom_pos/4", "jnt_range/1"):
            assert np.array_equal(again[key], changed[key]), key


def test_model_pickles_and_copies(arm, trajectories):
    m, _ = arm
    for clone in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
        assert clone is not m
        for name in ["body_pos", "geom_size", "qpos0", "actuator_ctrlrange", "names"]:
            assert np.array_equal(getattr(clone, name), getattr(m, name)), name
        state, _ = mujoco.rollout.rollout(clone, mujoco.MjData(clone),
                                          trajectories["rollout/initial_state"],
                                          trajectories["rollout/control"])
        assert np.array_equal(state, trajectories["rollout/state"])
    with pytest.raises(ValueError):
        mujoco._mjrs._model_from_mjb(b"not an mjb file")


def test_statistic_is_a_live_view():
    m = mujoco.MjModel.from_xml_path(model_path(HUMANOID))
    assert {"center", "extent", "meaninertia", "meanmass", "meansize"} <= set(dir(m.stat))
    m.stat.extent = 7.5
    m.stat.center[:] = [1, 2, 3]
    assert m.stat.extent == 7.5 and list(m.stat.center) == [1, 2, 3]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        m.stat.nothing
    with pytest.raises(TypeError):
        m.stat.meanmass = "heavy"
    with pytest.raises(AttributeError, match="read-only|no setter"):
        m.stat = None


def test_peak_use_counters_are_writable(arm):
    m, d = arm
    mujoco.mj_step(m, d, nstep=20)
    d.maxuse_con = 0
    d.maxuse_efc = 0
    assert d.maxuse_con == 0 and d.maxuse_efc == 0
    mujoco.mj_step(m, d)
    assert d.maxuse_con == d.ncon and d.maxuse_efc == d.nefc
    with pytest.raises(OverflowError):
        d.maxuse_con = -1
    with pytest.raises(AttributeError, match="no setter"):
        d.ncon = 0


def data_arrays(d):
    """Every NumPy array of a data, by name (plugin_data locates each data's own objects)."""
    arrays = {}
    for name in dir(d):
        value = getattr(d, name)
        if isinstance(value, np.ndarray) and name != "plugin_data":
            arrays[name] = value.copy()
    return arrays


def assert_same_data(a, b):
    left, right = data_arrays(a), data_arrays(b)
    assert left.keys() == right.keys()
    for name in left:
        assert np.array_equal(left[name], right[name], equal_nan=True), name
    for name in ["time", "ncon", "nefc", "ne", "nf", "nl", "nnzJ", "nisland", "maxuse_con"]:
        assert getattr(a, name) == getattr(b, name), name


@pytest.mark.parametrize("path", [ARM, "tests/models/plugin/pid_integral.xml",
                                  "tests/models/plugin/plugin_cable_small.xml"])
def test_data_pickles_and_copies(path):
    # as MuJoCo: a data pickles with its model and every field; the copy steps as the original.
    # Plugin models too: the unpickled data makes its own plugin objects, as a fresh data does
    m = mujoco.MjModel.from_xml_path(model_path(path))
    d = mujoco.MjData(m)
    d.ctrl[:] = 0.3
    mujoco.mj_step(m, d, nstep=25)
    assert d.ncon > 0 or d.nefc > 0 or path != ARM
    for clone in (pickle.loads(pickle.dumps(d)), copy.copy(d), copy.deepcopy(d)):
        assert clone is not d
        assert_same_data(clone, d)
        mujoco.mj_step(clone.model, clone, nstep=25)
    mujoco.mj_step(m, d, nstep=25)
    assert_same_data(clone, d)
    if m.nplugin:
        assert clone.plugin_state.size == 0 or np.any(clone.plugin_state != 0)
    # a data and its model pickled together keep sharing the model
    m2, d2 = pickle.loads(pickle.dumps((m, d)))
    assert d2.model is m2


def test_bad_data_pickles_raise(arm):
    m, d = arm
    mujoco.mj_step(m, d, nstep=10)
    load, (model, state) = d.__reduce__()
    for bad in (state[:-1], state[: len(state) // 2], state[:4], b"", b"not a state" * 9,
                state + b"\0"):
        with pytest.raises(ValueError, match="cannot unpickle MjData"):
            load(model, bad)
    other = mujoco.MjModel.from_xml_path(model_path(HUMANOID))
    with pytest.raises(ValueError, match="another model"):
        load(other, state)
    # corrupted bytes anywhere (counts, arena marks and positions, array lengths): a data or a
    # ValueError, never a crash
    for at in range(8, len(state), max(1, len(state) // 150)):
        corrupt = state[:at] + b"\xff" * 8 + state[at + 8:]
        try:
            load(model, corrupt)
        except ValueError as e:
            assert "cannot unpickle MjData" in str(e)
