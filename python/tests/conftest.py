"""Shared helpers of the Python tests: the fixtures recorded from MuJoCo 3.1.6 and the
repository's models. The tests import only mjrs (never mujoco)."""
import json
import pathlib
import sys

import numpy as np
import pytest

import mjrs

from control_law import controls  # noqa: F401 (the tests import it from here)

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures"


@pytest.fixture(scope="session")
def layout():
    return json.loads((FIXTURES / "layout.json").read_text())


@pytest.fixture(scope="session")
def trajectories():
    with np.load(FIXTURES / "trajectories.npz") as f:
        return {k: f[k] for k in f.files}


@pytest.fixture
def mujoco_is_mjrs():
    """Gymnasium's `import mujoco` finds mjrs (there is no mujoco in this environment)."""
    previous = sys.modules.get("mujoco")
    sys.modules["mujoco"] = mjrs
    yield
    if previous is None:
        del sys.modules["mujoco"]
    else:
        sys.modules["mujoco"] = previous


def model_path(relative):
    return str(ROOT / relative)


@pytest.fixture(scope="session")
def xvfb(tmp_path_factory):
    """A virtual X server for the window tests, DISPLAY set to it for the whole session (a
    process has one windowing connection: glfw's and the viewer's event loop stay on it). Its
    screen is also a file (`-fbdir`), so a test reads what the server shows: `screen()`."""
    import os
    import shutil
    import subprocess

    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is needed for the window tests (Debian: apt-get install xvfb)")
    fbdir = tmp_path_factory.mktemp("xvfb")
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp",
         "-fbdir", str(fbdir)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    display = ":" + server.stdout.readline().decode().strip()
    previous = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield fbdir
    if previous is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = previous
    server.kill()
    server.wait()


def screen(fbdir):
    """The virtual screen's pixels (rows from the top, RGB), read from the XWD file Xvfb keeps
    of it: a header of 32-bit big-endian fields, the colour map, then 32-bit pixels."""
    raw = (fbdir / "Xvfb_screen0").read_bytes()
    header = np.frombuffer(raw[:100], ">u4")
    size, width, height = header[0], header[4], header[5]
    bits, line, ncolors = header[11], header[12], header[19]
    assert bits == 32 and header[7] == 0, "a 24-bit screen of little-endian 32-bit pixels"
    start = size + 12 * ncolors
    pixels = np.frombuffer(raw[start:start + line * height], "<u4")
    pixels = pixels.reshape(height, line // 4)[:, :width]
    return np.stack([(pixels >> s) & 255 for s in (16, 8, 0)], -1).astype(np.uint8)
