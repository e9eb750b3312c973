"""The OpenGL context class the renderer uses (`mujoco.gl_context`), chosen by the MUJOCO_GL
environment variable as MuJoCo chooses it. mjrs renders headless through EGL only: MUJOCO_GL
unset, empty, "egl" or one of MuJoCo's "enable" spellings selects it; "disable" (and its
spellings) leaves `GLContext` as None; any other value ("glfw", "osmesa") makes `GLContext`
raise a RuntimeError saying so (when a context is made, so that importing mjrs for physics
alone works whatever MUJOCO_GL says), not silently replaced by EGL."""

import os

_MUJOCO_GL = os.environ.get("MUJOCO_GL", "").lower().strip()
_DISABLED = ("disable", "disabled", "off", "false", "0")
_EGL = ("", "egl", "enable", "enabled", "on", "true", "1")

if _MUJOCO_GL in _DISABLED:
    GLContext = None
elif _MUJOCO_GL in _EGL:
    from mjrs.egl import GLContext  # noqa: F401
else:
    def GLContext(max_width, max_height):  # noqa: N802 (MuJoCo's class name)
        raise RuntimeError(
            f"invalid value for environment variable MUJOCO_GL: {_MUJOCO_GL}: mjrs renders "
            "headless through EGL only (MUJOCO_GL=egl)")
