"""MuJoCo's interactive viewer (`mujoco.viewer`) on mjrs's own viewer (MuJoCo's `simulate`
rebuilt on mjrs's UI framework, as `mjrs view` runs it).

`launch_passive(model, data)` opens the window and returns a `Handle` at once: the program
steps its model and data, and `handle.sync()` exchanges them with the window as MuJoCo's
passive viewer does: what the window changed (joint and control sliders, the physics options,
perturbations, resets, keyframes) goes into the data and model first, then the window shows
them until the next sync. `handle.cam` and `handle.opt` go both ways (the program's when it
changed them since the last sync), `handle.perturb` shows the window's perturbation, and the
geoms of `handle.user_scn` are added to the scene. `launch(model, data)` blocks: the window
steps the simulation in real time on a thread of its own until it is closed; the data (and the
model's options) then hold where it ended. `launch_from_path(path)` loads the file first.

The window runs on a thread that never takes the GIL; a process has one windowing connection
(the display of the first launch). Not available (errors saying so): `key_callback`,
`launch()` without a model (MuJoCo's empty window that loads dropped files), and
`update_hfield`/`update_mesh`/`update_texture` (the window uploads the model's assets once).
"""
import atexit
import threading
import weakref

from mjrs import _mjrs
from mjrs._mjrs import MjData, MjModel, MjvCamera, MjvOption, MjvPerturb, MjvScene

# the most geoms the window's scene holds (simulate's kMaxGeom), also user_scn's size
MAX_GEOM = 20000

__all__ = ["Handle", "launch", "launch_from_path", "launch_passive"]

# passive windows still open: closed at exit (as MuJoCo's viewer does), so that the window
# thread is not drawing while the interpreter goes
_OPEN = weakref.WeakSet()


@atexit.register
def _close_open_windows():
    for handle in list(_OPEN):
        handle.close()


class Handle:
    """A passive viewer's window: `sync()`, `is_running()`, `close()`, `lock()`, `cam`,
    `opt`, `perturb`, `user_scn`; a context manager that closes the window."""

    def __init__(self, viewer, model, data, cam, opt, pert, user_scn):
        self._viewer = viewer
        self._model, self._data = model, data
        self._cam, self._opt, self._pert, self._user_scn = cam, opt, pert, user_scn
        self._lock = threading.RLock()

    @property
    def cam(self):
        return self._cam

    @property
    def opt(self):
        return self._opt

    @property
    def perturb(self):
        return self._pert

    @property
    def user_scn(self):
        return self._user_scn

    def close(self):
        self._viewer.close()

    def is_running(self) -> bool:
        return self._viewer.is_running()

    def lock(self):
        """The lock `sync()` holds: while the program holds it, no sync exchanges the model and
        data (the window only ever reads its own copies of them)."""
        return self._lock

    def sync(self):
        """Exchanges the model and data with the window (nothing once it has closed)."""
        with self._lock:
            self._viewer.sync(self._model, self._data, self._cam, self._opt, self._pert,
                              self._user_scn)

    def _not_available(self, what):
        raise NotImplementedError(
            f"{what}: mjrs's viewer uploads the model's assets once, when the window opens")

    def update_hfield(self, hfieldid: int):
        self._not_available("update_hfield")

    def update_mesh(self, meshid: int):
        self._not_available("update_mesh")

    def update_texture(self, texid: int):
        self._not_available("update_texture")

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()


def launch_passive(model: MjModel, data: MjData, *, key_callback=None,
                   show_left_ui: bool = True, show_right_ui: bool = True) -> Handle:
    """Opens a window on `model` and `data` without blocking; the program steps them and calls
    `sync()`. Raises RuntimeError when no window can open (no display, no OpenGL)."""
    if not isinstance(model, MjModel):
        raise ValueError(f"`model` is not a mujoco.MjModel: got {model!r}")
    if not isinstance(data, MjData):
        raise ValueError(f"`data` is not a mujoco.MjData: got {data!r}")
    if key_callback is not None:
        raise NotImplementedError(
            "key_callback: mjrs's viewer does not call Python from its window thread")
    _mjrs.mj_forward(model, data)
    viewer = _mjrs._PassiveViewer(model, data, "mjrs", show_left_ui, show_right_ui)
    handle = Handle(viewer, model, data, MjvCamera(), MjvOption(), MjvPerturb(),
                    MjvScene(model, MAX_GEOM))
    handle.sync()  # the window's camera and options into the handle's
    _OPEN.add(handle)
    return handle


def launch(model: MjModel = None, data: MjData = None, *, loader=None,
           show_left_ui: bool = True, show_right_ui: bool = True) -> None:
    """Runs the viewer on `model` and `data` (a fresh data when None; or what `loader()`
    returns) until its window closes."""
    if loader is not None:
        if model is not None:
            raise ValueError("model and loader are both specified")
        model, data = loader()[:2]
    if model is None:
        if data is not None:
            raise ValueError("mjData is specified but mjModel is not")
        raise NotImplementedError(
            "launch() without a model: mjrs's viewer opens a given model (it has no empty "
            "window that loads dropped files); pass one, or use launch_from_path")
    if data is None:
        data = MjData(model)
    _mjrs._launch(model, data, "mjrs", show_left_ui, show_right_ui)


def launch_from_path(path: str) -> None:
    """Loads an MJCF (or `.mjb`) file and runs the viewer on it until its window closes."""
    if path.endswith(".mjb"):
        model = MjModel.from_binary_path(path)
    else:
        model = MjModel.from_xml_path(path)
    launch(model, MjData(model))
