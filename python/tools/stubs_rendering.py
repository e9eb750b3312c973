"""The rendering part of the type stubs (mjrs/_mjrs.pyi): the classes and functions of
python/src/render.rs and python/src/scene.rs, appended by generate_stubs.py. Their enums are
generated with the others; `Renderer` (mjrs/renderer.py) carries its own annotations."""

RENDERING = '''
class MjStatistic:
    meaninertia: float
    meanmass: float
    meansize: float
    extent: float
    center: npt.NDArray[np.float64]

class MjvOption:
    def __init__(self) -> None: ...
    label: int
    frame: int
    geomgroup: npt.NDArray[np.uint8]
    sitegroup: npt.NDArray[np.uint8]
    jointgroup: npt.NDArray[np.uint8]
    tendongroup: npt.NDArray[np.uint8]
    actuatorgroup: npt.NDArray[np.uint8]
    flexgroup: npt.NDArray[np.uint8]
    skingroup: npt.NDArray[np.uint8]
    flags: npt.NDArray[np.uint8]
    bvh_depth: int
    flex_layer: int

class MjvCamera:
    def __init__(self) -> None: ...
    type: int
    fixedcamid: int
    trackbodyid: int
    lookat: npt.NDArray[np.float64]
    distance: float
    azimuth: float
    elevation: float

class MjvPerturb:
    def __init__(self) -> None: ...
    select: int
    flexselect: int
    skinselect: int
    active: int
    active2: int
    refpos: npt.NDArray[np.float64]
    refquat: npt.NDArray[np.float64]
    refselpos: npt.NDArray[np.float64]
    localpos: npt.NDArray[np.float64]
    localmass: float
    scale: float

class MjvGeom:
    type: int
    dataid: int
    objtype: int
    objid: int
    category: int
    texid: int
    texuniform: int
    texcoord: int
    segid: int
    texrepeat: npt.NDArray[np.float32]
    size: npt.NDArray[np.float32]
    pos: npt.NDArray[np.float32]
    mat: npt.NDArray[np.float32]
    rgba: npt.NDArray[np.float32]
    emission: float
    specular: float
    shininess: float
    reflectance: float
    label: str
    camdist: float
    modelrbound: float
    transparent: int

class MjvGeomList:
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int) -> MjvGeom: ...
    @overload
    def __getitem__(self, key: slice) -> list[MjvGeom]: ...

class MjvScene:
    def __init__(self, model: MjModel, maxgeom: int) -> None: ...
    @property
    def maxgeom(self) -> int: ...
    ngeom: int
    @property
    def nlight(self) -> int: ...
    flags: npt.NDArray[np.uint8]
    stereo: int
    framewidth: int
    @property
    def geoms(self) -> MjvGeomList: ...

class GLContext:
    def __init__(self, max_width: int, max_height: int) -> None: ...
    def make_current(self) -> None: ...
    def free(self) -> None: ...

class MjrRect:
    def __init__(self, left: int, bottom: int, width: int, height: int) -> None: ...
    left: int
    bottom: int
    width: int
    height: int

class MjrContext:
    def __init__(self, model: MjModel, fontscale: int) -> None: ...
    def free(self) -> None: ...
    readDepthMap: int
    @property
    def currentBuffer(self) -> int: ...
    @property
    def offWidth(self) -> int: ...
    @property
    def offHeight(self) -> int: ...
    @property
    def fontScale(self) -> int: ...

def mjv_defaultOption(opt: MjvOption) -> None: ...
def mjv_defaultCamera(cam: MjvCamera) -> None: ...
def mjv_defaultFreeCamera(m: MjModel, cam: MjvCamera) -> None: ...
def mjv_defaultPerturb(pert: MjvPerturb) -> None: ...
def mjv_initGeom(geom: MjvGeom, type: int, size: Array | None, pos: Array | None, mat: Array | None, rgba: npt.NDArray[np.float32] | None) -> None: ...
def mjv_updateScene(m: MjModel, d: MjData, opt: MjvOption, pert: MjvPerturb | None, cam: MjvCamera, catmask: int, scn: MjvScene) -> None: ...
def mjv_moveCamera(m: MjModel, action: int, reldx: float, reldy: float, scn: MjvScene, cam: MjvCamera) -> None: ...
def mjr_setBuffer(framebuffer: int, con: MjrContext) -> None: ...
def mjr_resizeOffscreen(width: int, height: int, con: MjrContext) -> None: ...
def mjr_render(viewport: MjrRect, scn: MjvScene, con: MjrContext) -> None: ...
def mjr_readPixels(rgb: npt.NDArray[np.uint8] | None, depth: npt.NDArray[np.float32] | None, viewport: MjrRect, con: MjrContext) -> None: ...
def mjr_overlay(font: int, gridpos: int, viewport: MjrRect, overlay: str | bytes, overlay2: str | bytes, con: MjrContext) -> None: ...
def mjr_maxViewport(con: MjrContext) -> MjrRect: ...
def mjr_finish() -> None: ...
def mjr_getError() -> int: ...

class _PassiveViewer:
    """The window of `mjrs.viewer.launch_passive` (its `Handle` holds one)."""
    def __init__(self, m: MjModel, d: MjData, title: str, show_left_ui: bool, show_right_ui: bool) -> None: ...
    def sync(self, m: MjModel, d: MjData, cam: MjvCamera, opt: MjvOption, pert: MjvPerturb, user_scn: MjvScene | None) -> None: ...
    def is_running(self) -> bool: ...
    def close(self) -> None: ...
    @property
    def frames(self) -> int: ...

def _launch(m: MjModel, d: MjData, title: str, show_left_ui: bool, show_right_ui: bool) -> None: ...
'''
