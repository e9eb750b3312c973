"""Every MjModel/MjData array has MuJoCo's name, shape and dtype; sizes and enums match."""
import numpy as np
import pytest

import mjrs as mujoco
from conftest import model_path

MODELS = ["humanoid", "hopper", "arm"]


def compare(obj, expected):
    missing, wrong = [], []
    for name, (kind, value) in expected.items():
        if not hasattr(obj, name):
            missing.append(name)
            continue
        got = getattr(obj, name)
        if kind == "int":
            if got != value:
                wrong.append(f"{name}: {got} != {value}")
        elif kind == "bytes":
            if not isinstance(got, bytes) or len(got) != value:
                wrong.append(f"{name}: not {value} bytes")
        else:
            shape, dtype = kind, value
            if not isinstance(got, np.ndarray):
                wrong.append(f"{name}: {type(got)} is not an array")
            elif list(got.shape) != shape or got.dtype.str != dtype:
                wrong.append(f"{name}: {got.shape} {got.dtype.str} != {tuple(shape)} {dtype}")
    return missing, wrong


@pytest.mark.parametrize("name", MODELS)
def test_model_fields_match_mujoco(layout, name):
    entry = layout["models"][name]
    m = mujoco.MjModel.from_xml_path(model_path(entry["path"]))
    missing, wrong = compare(m, entry["model"])
    assert not missing, f"missing MjModel attributes: {missing}"
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", MODELS)
def test_data_fields_match_mujoco(layout, name):
    entry = layout["models"][name]
    m = mujoco.MjModel.from_xml_path(model_path(entry["path"]))
    d = mujoco.MjData(m)
    # MuJoCo's arena bookkeeping and buffer sizes describe its own memory layout, not the data
    layout_only = {"narena", "nbuffer", "parena", "pbase", "pstack", "maxuse_arena",
                   "maxuse_stack", "threadpool", "maxuse_threadstack"}
    expected = {k: v for k, v in entry["data"].items() if k not in layout_only}
    missing, wrong = compare(d, expected)
    assert not missing, f"missing MjData attributes: {missing}"
    assert not wrong, "\n".join(wrong)


def test_option_matches_mujoco(layout):
    entry = layout["models"]["humanoid"]
    m = mujoco.MjModel.from_xml_path(model_path(entry["path"]))
    for name, value in entry["opt"].items():
        got = getattr(m.opt, name)
        assert repr(got) == value, name


def test_enums_match_mujoco(layout):
    physics = [n for n in layout["enums"] if hasattr(mujoco, n)]
    # the physics enums; the visualization and UI ones belong to the renderer
    for name in ["mjtObj", "mjtGeom", "mjtJoint", "mjtSensor", "mjtWarning", "mjtState",
                 "mjtDisableBit", "mjtEnableBit", "mjtIntegrator", "mjtSolver", "mjtCone"]:
        assert name in physics
    for name in physics:
        members = {k: int(v) for k, v in getattr(mujoco, name).__members__.items()}
        assert members == layout["enums"][name], name


def test_mjtnum_dtype():
    assert mujoco.MJTNUM_DTYPE is np.float64
