"""Headless OpenGL through EGL (`mujoco.egl`): `GLContext(max_width, max_height)` with
`make_current()` and `free()`. mjrs makes its contexts with its own EGL loader (Mesa's software
device first, then any other), so PyOpenGL is not needed."""

from mjrs._mjrs import GLContext  # noqa: F401
