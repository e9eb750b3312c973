"""Rendering against MuJoCo 3.1.6's images (fixtures/generate_render.py, whose functions run
here on mjrs): `mjrs.Renderer` on four models (colour within a mean difference of 6/255 per
channel, the bound of the Rust renderer's tests; segmentation equal on at least 99% of the
pixels; depth within 1e-4 relative on at least 99%), each Gymnasium v5 environment in
render_mode "rgb_array" (frames averaged over 2x2 blocks, as recorded) and one in
"depth_array", with `mujoco` swapped for `mjrs`, a frame with one of Gymnasium's markers; and
bad input. Headless through EGL (Mesa's
software device on machines without a GPU)."""
import sys
import threading

import numpy as np
import pytest

import mjrs
from conftest import FIXTURES, model_path

sys.path.insert(0, str(FIXTURES))
import generate_render as generator  # noqa: E402

COLOUR = 6.0  # mean absolute difference per channel, in 1/255
SHARE = 0.99


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "render.npz") as f:
        return {k: f[k] for k in f.files}


def assert_colour_close(ours, theirs, what):
    assert ours.shape == theirs.shape, what
    # a blank image would pass against another blank one: the references show something
    assert theirs.std() > 1, what
    mad = np.abs(ours.astype(np.int32) - theirs).reshape(-1, 3).mean(axis=0)
    assert (mad <= COLOUR).all(), f"{what}: mean difference {mad} per channel"


def assert_depth_close(ours, theirs, what):
    assert ours.shape == theirs.shape, what
    close = np.abs(ours - theirs) <= 1e-4 * np.abs(theirs)
    assert close.mean() >= SHARE, f"{what}: {100 * close.mean():.2f}% within 1e-4"


@pytest.mark.parametrize("name", list(generator.CASES))
def test_renderer_matches_mujoco(recorded, name):
    ours = generator.renderer_case(mjrs, *generator.CASES[name])
    theirs = {k: recorded[f"renderer/{name}/{k}"] for k in ("rgb", "segmentation", "depth")}
    assert_colour_close(ours["rgb"], theirs["rgb"], name)
    same = (ours["segmentation"] == theirs["segmentation"]).all(axis=2)
    assert same.mean() >= SHARE, f"{name}: {100 * same.mean():.2f}% of the segmentation equal"
    assert (theirs["segmentation"] >= 0).any(), name
    assert_depth_close(ours["depth"], theirs["depth"], name)


@pytest.mark.parametrize("env_id", generator.ENVS)
def test_gymnasium_rgb_array_matches_mujoco(recorded, mujoco_is_mjrs, env_id):
    frames = generator.frames(env_id, "rgb_array")
    assert frames.shape == (2, generator.GYM_HEIGHT, generator.GYM_WIDTH, 3)
    ours = np.array([generator.blocks(f) for f in frames])
    assert_colour_close(ours, recorded[f"gym/{env_id}/rgb"], env_id)


def test_gymnasium_depth_array_matches_mujoco(recorded, mujoco_is_mjrs):
    env_id = generator.DEPTH_ENV
    ours = generator.frames(env_id, "depth_array")[:, ::2, ::2]
    assert ours.dtype == np.float32
    assert_depth_close(ours, recorded[f"gym/{env_id}/depth"], env_id)


@pytest.mark.parametrize("legacy", [True, False])
def test_gymnasium_markers_match_mujoco(recorded, mujoco_is_mjrs, monkeypatch, legacy):
    """Gymnasium's `add_marker` sets the fields of the scene's geom at `ngeom` (its code for
    MuJoCo before 3.2, which it runs here), or calls `mjv_initGeom` on it (its code for later
    versions), then counts it: either way the sphere is drawn as MuJoCo 3.1.6 draws it."""
    from gymnasium.envs.mujoco import mujoco_rendering
    monkeypatch.setattr(mujoco_rendering, "_MUJOCO_MARKER_LEGACY_MODE", legacy)
    ours = generator.blocks(generator.marker_frame(mjrs))
    theirs = recorded["gym/marker/rgb"]
    assert_colour_close(ours, theirs, "marker")
    def red(img):
        return img[..., 0].astype(np.int32) - img[..., 1] > 80

    # the hopper has no red: the marker's blocks are
    assert red(theirs).sum() >= 20, "the marker is in the recorded frame"
    assert red(ours)[red(theirs)].mean() >= SHARE


@pytest.fixture(scope="module")
def hopper():
    m = mjrs.MjModel.from_xml_path(model_path("tests/models/hopper.xml"))
    d = mjrs.MjData(m)
    mjrs.mj_forward(m, d)
    return m, d


def test_renderer_refuses_sizes_beyond_the_offscreen_buffer(hopper):
    m, _ = hopper
    with pytest.raises(ValueError, match=r"Image width 641 > framebuffer width 640\. "):
        mjrs.Renderer(m, width=641)
    with pytest.raises(ValueError, match=r"Image height 481 > framebuffer height 480\. "):
        mjrs.Renderer(m, height=481)


def test_renderer_bad_cameras_outputs_and_use_after_close(hopper):
    m, d = hopper
    with mjrs.Renderer(m, 24, 32) as r:
        with pytest.raises(ValueError, match='The camera "nope" does not exist.'):
            r.update_scene(d, camera="nope")
        with pytest.raises(ValueError, match=r"The camera id 7 is out of range \[-1, 1\)"):
            r.update_scene(d, camera=7)
        r.update_scene(d, camera=0)
        with pytest.raises(ValueError, match=r"Expected `out.shape == \(24, 32, 3\)`"):
            r.render(out=np.empty((32, 24, 3), np.uint8))
        out = np.empty((24, 32, 3), np.uint8)
        assert r.render(out=out) is out
        # the scene's flags are restored after a segmentation render
        flags = r.scene.flags.copy()
        r.enable_segmentation_rendering()
        assert r.render().shape == (24, 32, 2)
        assert np.array_equal(r.scene.flags, flags)
    with pytest.raises(RuntimeError, match="render cannot be called after close"):
        r.render()
    r.close()  # again: nothing


def test_renderers_in_turn_draw_what_each_draws_alone(hopper):
    """Each renderer has its own OpenGL context; rendering makes it current again (Gymnasium
    keeps one viewer per render mode)."""
    m, d = hopper
    with mjrs.Renderer(m, 24, 32) as a, mjrs.Renderer(m, 24, 32) as b:
        a.update_scene(d)
        b.update_scene(d, camera=0)
        alone_a, alone_b = a.render(), b.render()
        assert not np.array_equal(alone_a, alone_b)
        for _ in range(2):
            assert np.array_equal(a.render(), alone_a)
            assert np.array_equal(b.render(), alone_b)
    # a new GLContext leaves the current one current, as MuJoCo's does
    m_gl = mjrs.GLContext(32, 24)
    m_gl.make_current()
    con = mjrs.MjrContext(m, mjrs.mjtFontScale.mjFONTSCALE_100)
    mjrs.mjr_setBuffer(mjrs.mjtFramebuffer.mjFB_OFFSCREEN, con)
    scene, cam = mjrs.MjvScene(m, maxgeom=100), mjrs.MjvCamera()
    mjrs.mjv_defaultFreeCamera(m, cam)
    mjrs.mjv_updateScene(m, d, mjrs.MjvOption(), None, cam, mjrs.mjtCatBit.mjCAT_ALL, scene)
    rect, rgb = mjrs.MjrRect(0, 0, 32, 24), np.zeros((24, 32, 3), np.uint8)
    mjrs.mjr_render(rect, scene, con)
    mjrs.mjr_readPixels(rgb, None, rect, con)
    other = mjrs.GLContext(32, 24)
    again = np.zeros_like(rgb)
    mjrs.mjr_render(rect, scene, con)
    mjrs.mjr_readPixels(again, None, rect, con)
    assert np.array_equal(np.flipud(rgb), alone_a) and np.array_equal(again, rgb)
    con.free()
    other.free()
    m_gl.free()


def test_low_level_bad_input(hopper):
    m, d = hopper
    other = mjrs.MjModel.from_xml_path(model_path("tests/models/ant.xml"))
    with pytest.raises(ValueError, match="maxgeom must be >= 0"):
        mjrs.MjvScene(m, maxgeom=-1)
    scene, cam, opt = mjrs.MjvScene(m, maxgeom=100), mjrs.MjvCamera(), mjrs.MjvOption()
    with pytest.raises(ValueError, match="another model"):
        mjrs.mjv_updateScene(other, d, opt, None, cam, mjrs.mjtCatBit.mjCAT_ALL, scene)
    with pytest.raises(ValueError, match="lookat takes 3 values, got 2"):
        cam.lookat = [1, 2]
    with pytest.raises(ValueError, match="ngeom must be in"):
        scene.ngeom = 101
    with pytest.raises(ValueError, match="mjv_initGeom: mat takes 9 values, got 3"):
        mjrs.mjv_initGeom(scene.geoms[0], mjrs.mjtGeom.mjGEOM_BOX, None, None, [1, 0, 0], None)
    gl = mjrs.GLContext(32, 24)
    gl.make_current()
    con = mjrs.MjrContext(m, mjrs.mjtFontScale.mjFONTSCALE_100)
    rect = mjrs.MjrRect(0, 0, 32, 24)
    with pytest.raises(ValueError, match="rgb holds 10 values, the viewport needs 2304"):
        mjrs.mjr_readPixels(np.zeros(10, np.uint8), None, rect, con)
    with pytest.raises(ValueError, match="invalid mjtFramebuffer 5"):
        mjrs.mjr_setBuffer(5, con)
    con.free()
    with pytest.raises(mjrs.FatalError, match="the MjrContext was freed"):
        mjrs.mjr_render(rect, scene, con)
    gl.free()


def test_a_renderer_context_needs_a_current_opengl_context(hopper):
    m, _ = hopper
    errors = []

    def make():  # a new thread has no current context
        try:
            mjrs.MjrContext(m, mjrs.mjtFontScale.mjFONTSCALE_150)
        except mjrs.FatalError as e:
            errors.append(str(e))

    thread = threading.Thread(target=make)
    thread.start()
    thread.join()
    assert errors and "no OpenGL context is current" in errors[0]
