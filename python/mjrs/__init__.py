"""mjrs: MuJoCo 3.1.6-compatible physics in Rust with MuJoCo's Python API.

    import mjrs as mujoco
    m = mujoco.MjModel.from_xml_path("humanoid.xml")
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=10)
"""

from mjrs._mjrs import *  # noqa: F401,F403
from mjrs._mjrs import MJTNUM_DTYPE, FatalError, MjData, MjModel  # noqa: F401

from mjrs import _enums, rollout  # noqa: E402,F401
from mjrs.renderer import Renderer  # noqa: E402,F401

__version__ = "3.1.6"
