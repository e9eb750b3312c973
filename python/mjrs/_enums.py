"""MuJoCo's enums as a module (`mujoco._enums`), for code that names them there (Gymnasium's
marker code checks `isinstance(value, mujoco._enums.mjtGeom)`)."""

from mjrs import _mjrs

globals().update({name: getattr(_mjrs, name) for name in dir(_mjrs) if name.startswith("mjt")})
