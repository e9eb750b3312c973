"""`Renderer`: MuJoCo's Python renderer class (`mujoco.Renderer`) over mjrs's low-level API
(`MjvScene`, `MjrContext`, `mjv_updateScene`, `mjr_render`, `mjr_readPixels`), headless
through EGL. Colour, depth (metres along the view axis) and segmentation ((object id, object
type) per pixel) images as MuJoCo 3.1.6 makes them."""

from __future__ import annotations

import numpy as np

from mjrs import _mjrs
from mjrs import gl_context


def _size_message(what, size, buffer, attribute):
    return (f"Image {what} {size} > framebuffer {what} {buffer}. Either reduce the image\n"
            f"{what} or specify a larger offscreen framebuffer in the model XML using the\n"
            f"clause:\n<visual>\n  <global {attribute}=\"my_{what}\"/>\n</visual>")


class Renderer:
    """Renders a model's scenes into NumPy arrays (MuJoCo's `mujoco.Renderer`)."""

    def __init__(self, model: _mjrs.MjModel, height: int = 240, width: int = 320,
                 max_geom: int = 10000) -> None:
        """A renderer of `width` x `height` pixels for `model`, at most the model's offscreen
        buffer (`<visual><global offwidth=... offheight=...>`); `ValueError` otherwise."""
        buffer_width = model.vis.global_.offwidth
        buffer_height = model.vis.global_.offheight
        if width > buffer_width:
            raise ValueError(_size_message("width", width, buffer_width, "offwidth"))
        if height > buffer_height:
            raise ValueError(_size_message("height", height, buffer_height, "offheight"))
        self._width = width
        self._height = height
        self._model = model
        self._mjr_context = None
        self._gl_context = None
        self._scene = _mjrs.MjvScene(model, maxgeom=max_geom)
        self._scene_option = _mjrs.MjvOption()
        self._rect = _mjrs.MjrRect(0, 0, width, height)
        if gl_context.GLContext is not None:
            self._gl_context = gl_context.GLContext(width, height)
            self._gl_context.make_current()
        self._mjr_context = _mjrs.MjrContext(model, _mjrs.mjtFontScale.mjFONTSCALE_150)
        _mjrs.mjr_setBuffer(_mjrs.mjtFramebuffer.mjFB_OFFSCREEN, self._mjr_context)
        self._mjr_context.readDepthMap = _mjrs.mjtDepthMap.mjDEPTH_ZEROFAR
        self._depth_rendering = False
        self._segmentation_rendering = False

    @property
    def model(self) -> _mjrs.MjModel:
        return self._model

    @property
    def scene(self) -> _mjrs.MjvScene:
        return self._scene

    @property
    def height(self) -> int:
        return self._height

    @property
    def width(self) -> int:
        return self._width

    def enable_depth_rendering(self) -> None:
        self._segmentation_rendering = False
        self._depth_rendering = True

    def disable_depth_rendering(self) -> None:
        self._depth_rendering = False

    def enable_segmentation_rendering(self) -> None:
        self._segmentation_rendering = True
        self._depth_rendering = False

    def disable_segmentation_rendering(self) -> None:
        self._segmentation_rendering = False

    def render(self, *, out: np.ndarray | None = None) -> np.ndarray:
        """The scene as pixels, top row first: (height, width, 3) uint8 colours; with depth
        rendering (height, width) float32 distances; with segmentation rendering (height,
        width, 2) int32 (object id, object type), -1 for the background. Into `out` when
        given (of that shape)."""
        if self._mjr_context is None:
            raise RuntimeError("render cannot be called after close.")
        flags = self._scene.flags.copy()
        # depth is read from the segmentation pass too: flat colours, no blending
        if self._depth_rendering or self._segmentation_rendering:
            self._scene.flags[_mjrs.mjtRndFlag.mjRND_SEGMENT] = True
            self._scene.flags[_mjrs.mjtRndFlag.mjRND_IDCOLOR] = True
        if self._gl_context:
            self._gl_context.make_current()
        if self._depth_rendering:
            shape, dtype = (self._height, self._width), np.float32
        else:
            shape, dtype = (self._height, self._width, 3), np.uint8
        if out is None:
            out = np.empty(shape, dtype=dtype)
        elif out.shape != shape:
            raise ValueError(
                f"Expected `out.shape == {shape}`. Got `out.shape={out.shape}` instead. When "
                "using depth rendering, the out array should be of shape `(width, height)` "
                "and otherwise (width, height, 3). Got `(self.height, self.width)="
                f"{(self.height, self.width)}` and `self._depth_rendering="
                f"{self._depth_rendering}`.")
        try:
            _mjrs.mjr_render(self._rect, self._scene, self._mjr_context)
            if self._depth_rendering:
                out = self._read_depth(out)
            elif self._segmentation_rendering:
                out = self._read_segmentation(out)
            else:
                self._read_rgb(out)
        finally:
            np.copyto(self._scene.flags, flags)
        out[:] = np.flipud(out)
        return out

    def _read_rgb(self, out):
        if out.dtype == np.uint8 and out.flags.c_contiguous:
            _mjrs.mjr_readPixels(out, None, self._rect, self._mjr_context)
        else:
            rgb = np.empty(out.shape, np.uint8)
            _mjrs.mjr_readPixels(rgb, None, self._rect, self._mjr_context)
            out[:] = rgb

    def _read_depth(self, out):
        depth = np.empty((self._height, self._width), np.float32)
        _mjrs.mjr_readPixels(None, depth, self._rect, self._mjr_context)
        # the reversed-Z buffer's value back to distance, with the projection's float32
        # coefficients as OpenGL has them, the division in float64
        extent = self._model.stat.extent
        znear = np.float32(self._model.vis.map.znear * extent)
        zfar = np.float32(self._model.vis.map.zfar * extent)
        c = -(zfar + znear) / (zfar - znear)
        d = -(np.float32(2) * zfar * znear) / (zfar - znear)
        c = np.float32(-0.5) * c - np.float32(0.5)
        d = np.float32(-0.5) * d
        out[:] = (d / (depth.astype(np.float64) + c)).astype(np.float32)
        return out

    def _read_segmentation(self, out):
        rgb = np.empty((self._height, self._width, 3), np.uint8)
        _mjrs.mjr_readPixels(rgb, None, self._rect, self._mjr_context)
        rgb = rgb.astype(np.uint32)
        segid = rgb[:, :, 0] + rgb[:, :, 1] * (1 << 8) + rgb[:, :, 2] * (1 << 16)
        ngeom = self._scene.ngeom
        # colour segid + 1 shows scene geom segid; 0 is the background
        objects = np.full((ngeom + 1, 2), -1, dtype=np.int32)
        for g in self._scene.geoms[:ngeom]:
            if g.segid != -1:
                objects[g.segid + 1] = (g.objid, g.objtype)
        return objects[np.where(segid <= ngeom, segid, 0)]

    def update_scene(self, data: _mjrs.MjData, camera: int | str | _mjrs.MjvCamera = -1,
                     scene_option: _mjrs.MjvOption | None = None) -> None:
        """Updates the scene from `data`, seen from `camera`: a model camera's id or name, -1
        for the model's default free camera, or an `MjvCamera`."""
        if not isinstance(camera, _mjrs.MjvCamera):
            camera_id = camera
            if isinstance(camera_id, str):
                camera_id = _mjrs.mj_name2id(self._model, _mjrs.mjtObj.mjOBJ_CAMERA, camera_id)
                if camera_id == -1:
                    raise ValueError(f'The camera "{camera}" does not exist.')
            if camera_id < -1 or camera_id >= self._model.ncam:
                raise ValueError(f"The camera id {camera_id} is out of range "
                                 f"[-1, {self._model.ncam}).")
            camera = _mjrs.MjvCamera()
            camera.fixedcamid = camera_id
            if camera_id == -1:
                camera.type = _mjrs.mjtCamera.mjCAMERA_FREE
                _mjrs.mjv_defaultFreeCamera(self._model, camera)
            else:
                camera.type = _mjrs.mjtCamera.mjCAMERA_FIXED
        _mjrs.mjv_updateScene(self._model, data, scene_option or self._scene_option, None,
                              camera, _mjrs.mjtCatBit.mjCAT_ALL, self._scene)

    def close(self) -> None:
        """Frees the OpenGL resources; `render` raises afterwards. Also as a context
        manager: `with Renderer(model) as renderer: ...`."""
        if self._mjr_context:
            self._mjr_context.free()
        self._mjr_context = None
        if self._gl_context:
            self._gl_context.free()
        self._gl_context = None

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.close()

    def __del__(self) -> None:
        # a constructor that raised leaves no context behind
        if hasattr(self, "_mjr_context"):
            self.close()
