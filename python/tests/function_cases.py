"""The cases of test_functions.py, shared with the generator that records them from mujoco
3.1.6 (fixtures/generate_functions.py): models, ray filters, the arm's state, the humanoid's
edit before mj_setConst and the fields compared after it. `mj` is the module under test or
MuJoCo's."""
import numpy as np

RAY_MODELS = {"hfield": "tests/models/convex_hfield.xml",
              "objects": "tests/models/multiple_objects.xml"}
ARM = "tests/models/rollout_arm.xml"
HUMANOID = "tests/models/humanoid.xml"
SETCONST_FIELDS = ["body_subtreemass", "dof_M0", "body_invweight0", "dof_invweight0",
                   "tendon_length0", "tendon_invweight0", "actuator_length0", "actuator_acc0",
                   "cam_pos0", "cam_poscom0", "cam_mat0", "light_pos0", "light_poscom0",
                   "light_dir0", "qpos_spring"]
SETCONST_STAT = ["meaninertia", "meanmass", "meansize", "extent", "center"]


def ray_filters(m):
    """(geomgroup, flg_static, bodyexclude) combinations: none, static excluded, one body
    excluded, groups 0 and 2 only, every group but 0."""
    last = m.nbody - 1
    return [(None, 1, -1), (None, 0, -1), (None, 1, last),
            (np.array([1, 0, 1, 0, 0, 0], np.uint8), 1, -1),
            (np.array([0, 1, 1, 1, 1, 1], np.uint8), 1, -1)]


def arm_after_steps(mj, m, d, n=50):
    """The arm after n steps of a fixed control, forwarded."""
    mj.mj_resetData(m, d)
    for i in range(n):
        d.ctrl[:] = 0.5 * np.sin(0.1 * i + np.arange(m.nu))
        mj.mj_step(m, d)
    mj.mj_forward(m, d)


def setconst_edit(m):
    """The changes to the humanoid before mj_setConst."""
    m.body_mass[1:] *= 1.5
    m.dof_armature[:] += 0.02
    m.jnt_axis[3] = [0.0, 0.6, 0.8]
