"""`mjrs.viewer` (MuJoCo's `mujoco.viewer`) under a virtual X server: a passive viewer follows
the program's data through `sync()`, takes its camera and its `user_scn` geoms, closes on
request and as a context manager; bad uses raise exceptions (no display, another model's
data, the API mjrs's viewer lacks), never crash."""
import time

import numpy as np
import pytest

import mjrs
import mjrs.viewer
from conftest import model_path, screen


@pytest.fixture
def hopper():
    m = mjrs.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    return m, mjrs.MjData(m)


def settle(handle, frames=3, timeout=120):
    """Syncs until the window has drawn a few frames since (a software OpenGL device on a
    loaded machine may take a second or more per frame)."""
    handle.sync()
    target = handle._viewer.frames + frames
    end = time.time() + timeout
    while handle._viewer.frames < target:
        assert time.time() < end, "the window stopped drawing"
        time.sleep(0.02)
        handle.sync()


def red(pixels):
    """How many pixels are pure red (a geom the test adds; nothing else in the scene is)."""
    r, g, b = (pixels[..., k].astype(int) for k in range(3))
    return int(((r > 200) & (g < 40) & (b < 40)).sum())


def test_passive_viewer_follows_the_program(xvfb, hopper):
    m, d = hopper
    with mjrs.viewer.launch_passive(m, d) as handle:
        follows(xvfb, m, d, handle)
    assert not handle.is_running()
    handle.sync()  # as in MuJoCo: nothing once the window closed
    handle.close()


def follows(xvfb, m, d, handle):
    assert handle.is_running()
    # the window's free camera came into the handle at launch
    assert handle.cam.distance > 0 and handle.cam.type == mjrs.mjtCamera.mjCAMERA_FREE
    steps = 0
    start = time.time()
    while time.time() - start < 1.0:
        mjrs.mj_step(m, d)
        handle.sync()
        steps += 1
    assert steps > 50, "sync does not wait for the window's frames"
    assert d.time == pytest.approx(steps * m.opt.timestep)
    settle(handle)
    shown = screen(xvfb)
    assert len(np.unique(shown.reshape(-1, 3), axis=0)) > 200, "panels and the scene"
    assert red(shown) == 0

    # a geom of user_scn is drawn: a red box in front of the camera
    with handle.lock():
        scn = handle.user_scn
        mjrs.mjv_initGeom(scn.geoms[0], mjrs.mjtGeom.mjGEOM_BOX, [0.3, 0.3, 0.3],
                          np.array(handle.cam.lookat), np.eye(3).ravel(), [1, 0, 0, 1])
        scn.ngeom = 1
    settle(handle)
    assert red(screen(xvfb)) > 1000

    # the program's camera goes to the window, and stays: further away, the box is smaller
    near = red(screen(xvfb))
    distance = 3 * handle.cam.distance
    handle.cam.distance = distance
    settle(handle)
    assert handle.cam.distance == distance
    far = red(screen(xvfb))
    assert 0 < far < near / 2, (near, far)


def test_passive_viewer_as_a_context_manager_and_again(xvfb, hopper):
    m, d = hopper
    for _ in range(2):  # one windowing connection serves the windows one after the other
        with mjrs.viewer.launch_passive(m, d, show_left_ui=False, show_right_ui=False) as h:
            for _ in range(20):
                mjrs.mj_step(m, d)
                h.sync()
            assert h.is_running()
        assert not h.is_running()


def test_viewer_bad_uses(xvfb, hopper, monkeypatch):
    m, d = hopper
    other = mjrs.MjModel.from_xml_path(model_path("tests/models/ant.xml"))
    with pytest.raises(ValueError, match="is not a mujoco.MjModel"):
        mjrs.viewer.launch_passive(d, d)
    with pytest.raises(ValueError, match="another model"):
        mjrs.viewer.launch_passive(other, d)
    with pytest.raises(NotImplementedError, match="key_callback"):
        mjrs.viewer.launch_passive(m, d, key_callback=print)
    with pytest.raises(NotImplementedError, match="without a model"):
        mjrs.viewer.launch()
    with mjrs.viewer.launch_passive(m, d) as h:
        with pytest.raises(NotImplementedError, match="update_mesh"):
            h.update_mesh(0)
        h._data = mjrs.MjData(other)
        with pytest.raises(ValueError, match="another model"):
            h.sync()
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(RuntimeError, match="no display: set DISPLAY"):
        mjrs.viewer.launch_passive(m, d)
    with pytest.raises(RuntimeError, match="no display: set DISPLAY"):
        mjrs.viewer.launch(m, d)
