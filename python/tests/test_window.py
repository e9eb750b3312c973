"""Window rendering under a virtual X server: Gymnasium's `render_mode="human"` (its own glfw
window, with `MjrContext`, `mjr_render` and `mjr_overlay` drawing into glfw's OpenGL context)
shows on the screen the frame `render_mode="rgb_array"` returns, and an `MjrContext` of a
window refuses to draw while its context is not current."""

import glfw
import gymnasium as gym
import numpy as np
import pytest

import mjrs
from conftest import model_path, screen


pytestmark = pytest.mark.usefixtures("mujoco_is_mjrs")


W, H = 480, 360


def window_pixels(fbdir, window):
    x, y = glfw.get_window_pos(window)
    return screen(fbdir)[y:y + H, x:x + W]


def test_human_window_shows_the_rgb_array_frame(xvfb):
    actions = np.random.default_rng(0).uniform(-1, 1, (12, 3))
    human = gym.make("Hopper-v5", render_mode="human", width=W, height=H)
    human.reset(seed=1)
    viewer = human.unwrapped.mujoco_renderer.viewer
    # the menu's overlay drew text; hidden (its H key) the window shows the scene alone
    with_menu = window_pixels(xvfb, viewer.window)
    viewer._hide_menu = True
    for a in actions[:6]:
        human.step(a)
    early = window_pixels(xvfb, viewer.window)
    # an offscreen environment in between: its EGL context and glfw's take turns
    offscreen = gym.make("Hopper-v5", render_mode="rgb_array", width=W, height=H)
    offscreen.reset(seed=1)
    for a in actions:
        offscreen.step(a)
    frame = offscreen.render()
    for a in actions[6:]:
        human.step(a)
    shown = window_pixels(xvfb, viewer.window)
    human.close()
    offscreen.close()

    diff = np.abs(shown.astype(int) - frame.astype(int))
    # the window has no multisampling: edges differ, the rest is the same image
    assert diff.mean() < 0.5, diff.mean()
    assert (diff.max(-1) > 16).mean() < 0.01
    assert len(np.unique(shown.reshape(-1, 3), axis=0)) > 500, "floor, sky, hopper"
    assert np.abs(early.astype(int) - shown.astype(int)).mean() > 0.1, "the hopper moved"
    assert np.abs(with_menu.astype(int) - early.astype(int)).max() > 100, "the menu's text"


def test_a_window_context_draws_only_while_current(xvfb):
    m = mjrs.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    d = mjrs.MjData(m)
    mjrs.mj_forward(m, d)
    assert glfw.init()
    glfw.window_hint(glfw.VISIBLE, 0)
    window = glfw.create_window(64, 48, "mjrs", None, None)
    glfw.make_context_current(window)
    con = mjrs.MjrContext(m, mjrs.mjtFontScale.mjFONTSCALE_100)
    mjrs.mjr_setBuffer(mjrs.mjtFramebuffer.mjFB_WINDOW, con)
    assert con.currentBuffer == mjrs.mjtFramebuffer.mjFB_WINDOW
    scene, cam = mjrs.MjvScene(m, 100), mjrs.MjvCamera()
    mjrs.mjv_updateScene(m, d, mjrs.MjvOption(), None, cam, mjrs.mjtCatBit.mjCAT_ALL, scene)
    rect = mjrs.MjrRect(0, 0, 64, 48)
    mjrs.mjr_render(rect, scene, con)
    rgb = np.zeros((48, 64, 3), np.uint8)
    mjrs.mjr_readPixels(rgb, None, rect, con)
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 20
    mjrs.mjv_moveCamera(m, mjrs.mjtMouse.mjMOUSE_ZOOM, 0, -0.05, scene, cam)
    glfw.make_context_current(None)
    with pytest.raises(mjrs.FatalError, match="not current on this thread"):
        mjrs.mjr_render(rect, scene, con)
    con.free()  # the window's context keeps its resources until it goes
    glfw.destroy_window(window)
    glfw.terminate()


def test_one_environment_switches_between_window_and_offscreen(xvfb):
    """Gymnasium keeps a viewer per render mode and makes its context current at each switch:
    glfw's GLX context and mjrs's EGL one take turns on the thread."""
    actions = np.random.default_rng(1).uniform(-1, 1, (3, 3))
    both = gym.make("Hopper-v5", render_mode="human", width=W, height=H)
    alone = gym.make("Hopper-v5", render_mode="rgb_array", width=W, height=H)
    both.reset(seed=2)
    alone.reset(seed=2)
    for a in actions:
        both.step(a)
        alone.step(a)
        frame = both.unwrapped.mujoco_renderer.render("rgb_array")
        assert np.array_equal(frame, alone.render())
    both.close()
    alone.close()
