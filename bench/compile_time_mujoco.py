"""MuJoCo's side of bench/compile.sh: per model, the first MjModel.from_xml_path in the process
and the best of N more (MuJoCo then takes decoded OBJ and PNG assets from its asset cache).
Needs the Python package mujoco==3.1.6."""
import sys
import time

import mujoco


def seconds(path):
    t = time.perf_counter()
    mujoco.MjModel.from_xml_path(path)
    return time.perf_counter() - t


rounds = int(sys.argv[1])
for path in sys.argv[2:]:
    first = seconds(path)
    best = min(seconds(path) for _ in range(rounds))
    print(f"{path} first {first:.6f} then {best:.6f}")
