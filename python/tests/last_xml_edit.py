"""The change test_functions.py's mj_saveLastXML test makes to a model, shared with the fixture
generator (fixtures/generate_last_xml.py, which runs it on MuJoCo 3.1.6), and the changes to a
model with objects of every kind MuJoCo copies back (TREE_MODEL, as TREE_EDITS lists them; also
read by tests/tests/copy_back.rs and tests/fixtures/generate-copy-back.py)."""
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]

LAST_XML_MODEL = "tests/models/sensor_tendon.xml"

# what is compared after saving and compiling again: what MuJoCo copies back, and fields it does
# not (body_gravcomp, geom_condim, actuator_ctrllimited: saved unchanged)
LAST_XML_FIELDS = [
    "tendon_stiffness", "tendon_damping", "tendon_frictionloss", "tendon_range",
    "tendon_limited", "tendon_rgba", "tendon_width", "tendon_margin", "tendon_solref_lim",
    "actuator_gear", "actuator_gainprm", "actuator_biasprm", "actuator_dynprm",
    "actuator_ctrlrange", "actuator_ctrllimited", "actuator_forcerange",
    "actuator_forcelimited", "actuator_lengthrange", "sensor_noise", "sensor_cutoff",
    "body_gravcomp", "geom_condim", "body_mass", "geom_size", "jnt_range", "qpos0",
]
OPTIONS = ["timestep", "gravity", "impratio", "tolerance", "wind", "disableflags"]


def last_xml_edit(m):
    """Changes values of each kind MuJoCo copies back, and a few it does not."""
    m.opt.timestep = 0.003
    m.opt.gravity[:] = [0.0, 0.5, -9.0]
    m.opt.impratio = 2.0
    m.opt.tolerance = 1e-9
    m.opt.wind[:] = [0.1, 0.0, 0.0]
    m.vis.global_.fovy = 50.0
    m.vis.map.znear = 0.02
    m.tendon_stiffness[0] = 7.0
    m.tendon_damping[1] = 0.3
    m.tendon_frictionloss[2] = 0.05
    m.tendon_range[2] = [0.1, 0.9]
    m.tendon_rgba[0] = [1.0, 0.0, 0.0, 1.0]
    m.tendon_width[1] = 0.011
    m.tendon_solref_lim[0] = [0.03, 1.1]
    m.actuator_gear[0, 0] = 4.0
    m.actuator_gainprm[2, 0] = 7.0
    m.actuator_biasprm[2, 1] = -7.0
    m.actuator_ctrlrange[0] = [-2.0, 2.0]
    m.actuator_forcerange[3] = [-5.0, 5.0]
    m.actuator_dynprm[1, 0] = 0.02
    m.sensor_noise[0] = 0.01
    m.sensor_cutoff[5] = 0.4
    # not copied back by MuJoCo: the saved model has the loaded values
    m.body_gravcomp[1] = 1.0
    m.geom_condim[0] = 1
    m.actuator_ctrllimited[3] = 1


def last_xml_arrays(m):
    out = {name: np.array(getattr(m, name)) for name in LAST_XML_FIELDS}
    for name in OPTIONS:
        out["opt/" + name] = np.array(getattr(m.opt, name))
    out["vis/global_/fovy"] = np.array(m.vis.global_.fovy)
    out["vis/map/znear"] = np.array(m.vis.map.znear)
    return out


TREE_MODEL = "tests/models/copy_back.xml"
TREE_EDITS = "tests/fixtures/copy_back/edits.txt"


def read_edits(path=ROOT / TREE_EDITS):
    """The (field, row, values) of an edits file: `field row values...` per line, `stat.NAME`
    for a statistic."""
    edits = []
    for line in pathlib.Path(path).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            field, row, *values = line.split()
            edits.append((field, int(row), [float(v) for v in values]))
    return edits


def apply_edits(m, edits):
    """Sets the first values of each edit's row in `m` (a mujoco or mjrs MjModel)."""
    for field, row, values in edits:
        if field.startswith("stat."):
            setattr(m.stat, field[5:], values[0])
            continue
        a = getattr(m, field)
        if a.ndim == 1:
            a[row] = values[0]
        else:
            a[row, :len(values)] = values


def edited_rows(m, edits):
    """Each edit's row of `m` (its first values), keyed "field/row"."""
    out = {}
    for field, row, values in edits:
        if field.startswith("stat."):
            out[f"{field}/{row}"] = np.array([getattr(m.stat, field[5:])])
        else:
            a = getattr(m, field)
            out[f"{field}/{row}"] = np.array(a[row] if a.ndim == 1 else a[row, :len(values)],
                                             ndmin=1)
    return out
