//! Meshes and skins: file decoders (STL, OBJ, MSH, SKN), processing, inertia, convex hull
//! (MuJoCo 3.1.6's `mjCMesh` and `mjCSkin`, `user_mesh.cc`).
//!
//! [`compile`] turns one [`Mesh`] spec into a [`CompiledMesh`] holding every `mesh_*` array of
//! that mesh plus what the geom compiler needs (volume, inertia box, principal frame, bounding
//! box); [`compile_skin`] does the same for a [`Skin`](crate::spec::Skin). The steps follow `mjCMesh::Compile`:
//!
//! 1. load the file (`stl`, `obj` with its number reader `strtold`, `msh`; skins: `skin`) or
//!    take the vertices and faces given in the XML;
//! 2. check sizes and face indices, note inconsistently oriented faces;
//! 3. build the convex hull graph when a colliding geom needs it or there are no faces
//!    (`hull`, on qhull through `mjrs-qhull-sys`);
//! 4. vertex normals, then transformations, volume, inertia and principal frame (`process`);
//! 5. face circumcenters and the face bounding volume hierarchy.
//!
//! Vertices are single precision as in MuJoCo; every step keeps MuJoCo's mix of `float` and
//! `double` arithmetic so the results are identical bit for bit.

pub mod gmsh;
mod hull;
mod msh;
mod obj;
mod process;
pub mod sdf;
mod skin;
mod stl;
mod strtold;

pub use skin::{compile_skin, CompiledSkin};

use crate::asset::AssetFile;
use crate::bvh::{self, Bvh};
use crate::cache;
use crate::error::XmlError;
use crate::spec::{Info, Mesh};
use crate::util;

/// `mjGEOM_SPHERE`.
const GEOM_SPHERE: i32 = 2;
/// `mjGEOM_CAPSULE`.
const GEOM_CAPSULE: i32 = 3;
/// `mjGEOM_ELLIPSOID`.
const GEOM_ELLIPSOID: i32 = 4;
/// `mjGEOM_CYLINDER`.
const GEOM_CYLINDER: i32 = 5;
/// `mjGEOM_BOX`.
const GEOM_BOX: i32 = 6;

/// Model-wide settings and per-mesh context that `mjCMesh::Compile` reads outside the mesh spec.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshOptions {
    /// `compiler/exactmeshinertia`.
    pub exactmeshinertia: bool,
    /// `compiler/convexhull`.
    pub convexhull: bool,
    /// A geom of type mesh (or sdf) that can collide uses this mesh (`set_needhull`).
    pub needhull: bool,
    /// `compiler/strippath`: error messages quote the file name without its directory.
    pub strippath: bool,
    /// The geom density of the mesh's default class (`def->Geom().density`, 1000 unless a class
    /// changes it): MuJoCo scales the inertia integrals with it, which changes the last bits
    /// of the inertia box.
    pub density: f64,
}

impl Default for MeshOptions {
    fn default() -> Self {
        Self {
            exactmeshinertia: false,
            convexhull: true,
            needhull: false,
            strippath: false,
            density: 1000.0,
        }
    }
}

/// One inertia type's results (`mjtGeomInertia`: volume or shell).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Inertial {
    /// Volume (shell: area), `volume_` / `surface_`.
    volume: f64,
    /// Center of mass in the mesh's frame, `pos_volume_` / `pos_surface_`.
    pos: [f64; 3],
    /// Principal axes, `quat_volume_` / `quat_surface_`.
    quat: [f64; 4],
    /// Half sizes of the box of equal inertia, `boxsz_volume_` / `boxsz_surface_`.
    boxsz: [f64; 3],
}

impl Default for Inertial {
    fn default() -> Self {
        Self {
            volume: 0.0,
            pos: [0.0; 3],
            quat: [1.0, 0.0, 0.0, 0.0],
            boxsz: [0.0; 3],
        }
    }
}

/// What `mjCMesh::Process` found wrong, reported by `CheckMesh` when a geom asks for the
/// mesh's volume or inertia.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Validity {
    /// 1-based vertex ids of a half-edge used twice in the same direction, `invalidorientation_`.
    orientation: Option<(i32, i32)>,
    /// `validarea_`.
    area: bool,
    /// `validvolume_`: 1 valid, 0 too small, -1 negative.
    volume: i32,
    /// `valideigenvalue_`.
    eigenvalue: bool,
    /// `validinequality_`.
    inequality: bool,
}

/// A compiled mesh: the arrays `mjCModel::CopyObjects` writes to the model for it, and what
/// the geom compiler asks of it.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledMesh {
    /// `mesh_vert`: vertices, 3 per vertex, in the mesh's principal frame.
    pub vert: Vec<f32>,
    /// `mesh_normal`: normals, 3 per normal.
    pub normal: Vec<f32>,
    /// `mesh_texcoord`: texture coordinates, 2 per coordinate (empty: none).
    pub texcoord: Vec<f32>,
    /// `mesh_face`: vertex ids, 3 per face.
    pub face: Vec<i32>,
    /// `mesh_facenormal`: normal ids, 3 per face.
    pub facenormal: Vec<i32>,
    /// `mesh_facetexcoord`: texture coordinate ids, 3 per face (MuJoCo writes zeros instead
    /// when the mesh has no texture coordinates).
    pub facetexcoord: Vec<i32>,
    /// `mesh_graph`: the convex hull (empty: none).
    pub graph: Vec<i32>,
    /// `mesh_scale`.
    pub scale: [f64; 3],
    /// `mesh_pos`: set by the geom compiler (`GetOffsetPosPtr`), zero until then.
    pub offset_pos: [f64; 3],
    /// `mesh_quat`: set by the geom compiler (`GetOffsetQuatPtr`), identity until then.
    pub offset_quat: [f64; 4],
    /// The face hierarchy (`bvh_*` rows of the mesh, node ids are face ids).
    pub bvh: Bvh,
    /// Warnings MuJoCo prints while compiling the mesh (`mju_warning`).
    pub warnings: Vec<String>,
    name: String,
    id: usize,
    info: Info,
    exactmeshinertia: bool,
    volume: Inertial,
    shell: Inertial,
    aamm: [f64; 6],
    valid: Validity,
}

impl CompiledMesh {
    /// Number of vertices.
    pub fn nvert(&self) -> usize {
        self.vert.len() / 3
    }

    /// Number of normals.
    pub fn nnormal(&self) -> usize {
        self.normal.len() / 3
    }

    /// Number of texture coordinates (`mesh_texcoordnum`).
    pub fn ntexcoord(&self) -> usize {
        self.texcoord.len() / 2
    }

    /// Number of faces.
    pub fn nface(&self) -> usize {
        self.face.len() / 3
    }

    fn inertial(&self, shell: bool) -> &Inertial {
        if shell {
            &self.shell
        } else {
            &self.volume
        }
    }

    /// Volume, or area for a shell (`GetVolumeRef`). MuJoCo checks the mesh first
    /// (`CheckMesh`): call [`check`](Self::check) before, where MuJoCo asks for it.
    pub fn volume(&self, shell: bool) -> f64 {
        self.inertial(shell).volume
    }

    /// Half sizes of the box with the mesh's inertia (`GetInertiaBoxPtr`). MuJoCo checks the
    /// mesh first (`CheckMesh`): call [`check`](Self::check) before.
    pub fn inertia_box(&self, shell: bool) -> [f64; 3] {
        self.inertial(shell).boxsz
    }

    /// Center of mass in the mesh file's frame (`GetPosPtr`).
    pub fn pos(&self, shell: bool) -> [f64; 3] {
        self.inertial(shell).pos
    }

    /// Principal axes in the mesh file's frame (`GetQuatPtr`).
    pub fn quat(&self, shell: bool) -> [f64; 4] {
        self.inertial(shell).quat
    }

    /// Axis-aligned bounding box (min, max) of the vertices in the principal frame (`aamm_`),
    /// before rounding to single precision; `[1e10, 1e10, 1e10, -1e10, -1e10, -1e10]` when
    /// neither the volume nor the surface was valid.
    pub fn aamm(&self) -> [f64; 6] {
        self.aamm
    }

    /// Does the mesh have texture coordinates (`HasTexcoord`)?
    pub fn has_texcoord(&self) -> bool {
        !self.texcoord.is_empty()
    }

    /// Drops the texture coordinates (`DelTexcoord`).
    ///
    /// Note that MuJoCo 3.1.6 calls `DelTexcoord` for `discardvisual` *before* compiling the
    /// meshes, and `mjCMesh::Compile` reloads them: compiled models keep their texture
    /// coordinates, so the compiler should not call this on a compiled mesh.
    pub fn del_texcoord(&mut self) {
        self.texcoord.clear();
    }

    fn error(&self, message: String) -> XmlError {
        XmlError::compile(message, &self.name, self.id, &self.info)
    }

    /// `CheckMesh`: the errors MuJoCo raises when a geom asks for the volume or inertia box
    /// of a malformed mesh (`GetVolumeRef`, `GetInertiaBoxPtr`: from `mjCGeom::GetVolume`,
    /// `mjCGeom::SetInertia` and [`fit_geom`](Self::fit_geom)).
    pub fn check(&self, shell: bool) -> Result<(), XmlError> {
        let name = &self.name;
        if let Some((a, b)) = self.valid.orientation {
            if self.exactmeshinertia {
                return Err(self.error(format!(
                    "faces of mesh '{name}' have inconsistent orientation. Please check the \
                     faces containing the vertices {a} and {b}."
                )));
            }
        }
        if !self.valid.area && shell {
            return Err(self.error(format!("mesh surface area is too small: {name}")));
        }
        if self.valid.volume < 0 && !shell {
            return Err(self.error(format!(
                "mesh volume is negative (misoriented triangles): {name}"
            )));
        }
        if self.valid.volume == 0 && !shell {
            return Err(self.error(format!("mesh volume is too small: {name}")));
        }
        if !self.valid.eigenvalue {
            return Err(self.error(format!(
                "eigenvalue of mesh inertia must be positive: {name}"
            )));
        }
        if !self.valid.inequality {
            return Err(self.error(format!(
                "eigenvalues of mesh inertia violate A + B >= C: {name}"
            )));
        }
        Ok(())
    }

    /// `FitGeom`: sizes a primitive geom (`gtype`: sphere, capsule, cylinder, ellipsoid, box)
    /// to the mesh, by its inertia box or, with `compiler/fitaabb`, by its bounding box.
    /// `size` holds the geom's size on entry (entries the type does not use are kept, then
    /// scaled by `fitscale` like the others) and the fitted size on return. Returns the geom's
    /// offset in the mesh frame (`meshpos`), which the geom compiler composes with
    /// [`quat`](Self::quat) and stores as the mesh's `mesh_pos`.
    pub fn fit_geom(
        &self,
        gtype: i32,
        size: &mut [f64; 3],
        fitscale: f64,
        shell: bool,
        fitaabb: bool,
    ) -> Result<[f64; 3], XmlError> {
        let mut meshpos = self.pos(shell);
        if !fitaabb {
            self.check(shell)?;
            let b = self.inertia_box(shell);
            match gtype {
                GEOM_SPHERE => size[0] = (b[0] + b[1] + b[2]) / 3.0,
                GEOM_CAPSULE => {
                    size[0] = (b[0] + b[1]) / 2.0;
                    size[1] = max(0.0, b[2] - size[0] / 2.0);
                }
                GEOM_CYLINDER => {
                    size[0] = (b[0] + b[1]) / 2.0;
                    size[1] = b[2];
                }
                GEOM_ELLIPSOID | GEOM_BOX => *size = b,
                _ => {
                    return Err(
                        self.error(format!("invalid geom type in fitting mesh {}", self.name))
                    )
                }
            }
        } else {
            let a = &self.aamm;
            let cen = [
                (a[0] + a[3]) / 2.0,
                (a[1] + a[4]) / 2.0,
                (a[2] + a[5]) / 2.0,
            ];
            for k in 0..3 {
                meshpos[k] += cen[k];
            }
            let verts = self
                .vert
                .chunks_exact(3)
                .map(|v| [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]);
            match gtype {
                GEOM_SPHERE => {
                    size[0] = 0.0;
                    for v in verts {
                        size[0] = max(size[0], util::dist3(&v, &cen));
                    }
                }
                GEOM_CAPSULE | GEOM_CYLINDER => {
                    let radial = |v: &[f64; 3]| {
                        ((v[0] - cen[0]) * (v[0] - cen[0]) + (v[1] - cen[1]) * (v[1] - cen[1]))
                            .sqrt()
                    };
                    size[0] = 0.0;
                    size[1] = 0.0;
                    for v in verts.clone() {
                        size[0] = max(size[0], radial(&v));
                        size[1] = max(size[1], (v[2] - cen[2]).abs());
                    }
                    // a capsule's caps are round: only what sticks out above them counts
                    if gtype == GEOM_CAPSULE {
                        size[1] = 0.0;
                        for v in verts {
                            let h = size[0] * (radial(&v) / size[0]).acos().sin();
                            size[1] = max(size[1], (v[2] - cen[2]).abs() - h);
                        }
                    }
                }
                GEOM_ELLIPSOID | GEOM_BOX => {
                    size[0] = a[3] - cen[0];
                    size[1] = a[4] - cen[1];
                    size[2] = a[5] - cen[2];
                }
                _ => return Err(self.error(format!("invalid fittype in mesh {}", self.name))),
            }
        }
        for s in size.iter_mut() {
            *s *= fitscale;
        }
        Ok(meshpos)
    }
}

/// `mju_max`.
fn max(a: f64, b: f64) -> f64 {
    if a >= b {
        a
    } else {
        b
    }
}

/// `mju_min`.
fn min(a: f64, b: f64) -> f64 {
    if a <= b {
        a
    } else {
        b
    }
}

/// The mesh data while it is being compiled (`mjCMesh`'s working vectors).
#[derive(Clone, Debug, Default, PartialEq)]
struct MeshData {
    vert: Vec<f32>,
    normal: Vec<f32>,
    texcoord: Vec<f32>,
    face: Vec<i32>,
    facenormal: Vec<i32>,
    facetexcoord: Vec<i32>,
}

impl MeshData {
    fn nvert(&self) -> usize {
        self.vert.len() / 3
    }

    fn nface(&self) -> usize {
        self.face.len() / 3
    }
}

impl MeshData {
    /// Bytes held, for the asset cache.
    fn bytes(&self) -> usize {
        4 * (self.vert.len() + self.normal.len() + self.texcoord.len())
            + 4 * (self.face.len() + self.facenormal.len() + self.facetexcoord.len())
    }

    /// The faces with the other orientation: their second and third corners swapped.
    fn flip_faces(&mut self) {
        for ids in [&mut self.face, &mut self.facenormal, &mut self.facetexcoord] {
            for tri in ids.chunks_exact_mut(3) {
                tri.swap(1, 2);
            }
        }
    }
}

/// The vertices and faces of a surface mesh file for `flexcomp type="mesh"` (`MakeMesh`): STL
/// (repeated vertices merged), OBJ (checked, then repeated vertices merged) or MuJoCo's MSH,
/// by the extension `ext` (lower case, with the dot). `name` names the file in messages, which
/// are MuJoCo's: the loaders' errors (`mjCError`) start with "Error: ", the checks' do not.
pub fn flexcomp_surface(
    ext: &str,
    bytes: &[u8],
    name: &str,
) -> Result<(Vec<f32>, Vec<i32>), String> {
    let loader = |e: LoadError| format!("Error: {e}");
    let data = match ext {
        ".stl" => stl::load(bytes, name, true).map_err(loader)?,
        ".msh" => msh::load(bytes, name, true).map_err(loader)?,
        _ => {
            let mut data = obj::load(bytes, name, true).map_err(loader)?;
            if data.vert.is_empty() || data.face.is_empty() {
                return Err("Vertex and face data required".into());
            }
            if data.vert.len() % 3 != 0 {
                return Err("Vertex data must be multiple of 3".into());
            }
            if data.face.len() % 3 != 0 {
                return Err("Face data must be multiple of 3".into());
            }
            stl::remove_repeated(&mut data).map_err(loader)?;
            data
        }
    };
    Ok((data.vert, data.face))
}

/// `obj::load` through the asset cache, which keeps the right-handed decoding (MuJoCo's
/// `LoadOBJ` caches too).
fn load_obj_cached(file: &AssetFile, righthand: bool) -> Result<MeshData, LoadError> {
    file.readable("OBJ")?;
    let decode = || obj::load(&file.bytes, &file.path, true);
    let mut data = cache::decoded(
        cache::Kind::Obj,
        &file.path,
        &file.bytes,
        decode,
        MeshData::bytes,
    )?;
    if !righthand {
        data.flip_faces();
    }
    Ok(data)
}

/// What a file decoder reports as failure: the message, formatted by the caller into an
/// error about the mesh.
type LoadError = String;

/// `mjCMesh::Compile`.
///
/// `file` holds the bytes of `spec.file` (the caller resolves `meshdir`, `strippath` and the
/// VFS); `None` when `spec.file` is empty, or when the file could not be found: MuJoCo's
/// "resource not found" error is then raised after the content-type checks, where MuJoCo opens
/// the file. Messages quote the file as `file.path` (MuJoCo's resource name).
pub fn compile(
    spec: &Mesh,
    id: usize,
    file: Option<&AssetFile>,
    opts: &MeshOptions,
) -> Result<CompiledMesh, XmlError> {
    let error = |message: String| XmlError::compile(message, &spec.name, id, &spec.info);

    let asset_type = asset_content_type(&spec.file, &spec.content_type)
        .ok_or_else(|| error("invalid format for content_type".into()))?;

    let mut data = MeshData::default();
    let from_file = !spec.file.is_empty();
    if from_file {
        let file_name = if opts.strippath {
            util::strippath(&spec.file)
        } else {
            spec.file.as_str()
        };
        if asset_type.is_empty() {
            return Err(error(format!(
                "unknown mesh content type for file: '{file_name}'"
            )));
        }
        if !matches!(
            asset_type.as_str(),
            "model/stl" | "model/obj" | "model/vnd.mujoco.msh"
        ) {
            return Err(error(format!("unsupported content type: '{asset_type}'")));
        }
        let file = file.ok_or_else(|| {
            XmlError::model(format!(
                "resource not found via provider or OS filesystem: '{file_name}'"
            ))
        })?;
        let righthand = spec.scale[0] * spec.scale[1] * spec.scale[2] > 0.0;
        let loaded = match asset_type.as_str() {
            "model/stl" => file
                .readable("STL")
                .and_then(|b| stl::load(b, &file.path, righthand)),
            "model/obj" => load_obj_cached(file, righthand),
            _ => file
                .readable("MSH")
                .and_then(|b| msh::load(b, &file.path, righthand)),
        };
        data = loaded.map_err(error)?;

        // the file's data and the spec's may not both be given
        let spec_facenormal: &[i32] = &[];
        let spec_facetexcoord: &[i32] = &[];
        take_unless_repeated(&mut data.vert, &spec.uservert, "vertex").map_err(error)?;
        take_unless_repeated(&mut data.normal, &spec.usernormal, "normal").map_err(error)?;
        take_unless_repeated(&mut data.texcoord, &spec.usertexcoord, "texcoord").map_err(error)?;
        take_unless_repeated(&mut data.face, &spec.userface, "face").map_err(error)?;
        // MuJoCo compares the file's face normals with the spec's *normals* here
        if !data.facenormal.is_empty() && !spec.usernormal.is_empty() {
            return Err(error("repeated facenormal specification".into()));
        }
        if data.facenormal.is_empty() {
            data.facenormal = spec_facenormal.to_vec();
        }
        take_unless_repeated(&mut data.facetexcoord, spec_facetexcoord, "facetexcoord")
            .map_err(error)?;
    } else if spec.plugin.is_some() {
        return Err(XmlError::Unsupported {
            what: "meshes generated from SDF plugins".into(),
            element: "mesh".into(),
            line: spec.info.line,
            file: spec.info.file.clone().unwrap_or_default(),
        });
    } else {
        data.vert = spec.uservert.clone();
        data.normal = spec.usernormal.clone();
        data.texcoord = spec.usertexcoord.clone();
        data.face = spec.userface.clone();
    }

    // sizes
    if data.vert.len() < 12 {
        return Err(error("at least 4 vertices required".into()));
    }
    if !data.vert.len().is_multiple_of(3) {
        return Err(error("vertex data must be a multiple of 3".into()));
    }
    if !data.normal.len().is_multiple_of(3) {
        return Err(error("normal data must be a multiple of 3".into()));
    }
    if !data.texcoord.len().is_multiple_of(2) {
        return Err(error("texcoord must be a multiple of 2".into()));
    }
    if !data.face.len().is_multiple_of(3) {
        return Err(error("face data must be a multiple of 3".into()));
    }
    if !data.texcoord.is_empty()
        && data.texcoord.len() != 2 * data.nvert()
        && data.facetexcoord.is_empty()
        && asset_type != "model/obj"
    {
        return Err(error(
            "texcoord must be 2*nv if face texcoord indices are not provided in an OBJ file".into(),
        ));
    }
    let nvert = data.nvert();
    for (i, &v) in data.face.iter().enumerate() {
        if v < 0 || v as usize >= nvert {
            return Err(error(format!(
                "in face {}, vertex index {v} does not exist",
                i / 3
            )));
        }
    }

    let orientation = process::inconsistent_orientation(&data);

    let mut warnings = Vec::new();
    let mut graph = Vec::new();
    if (opts.convexhull && opts.needhull) || data.face.is_empty() {
        graph = hull::make_graph(&data.vert).map_err(error)?;
        if graph.is_empty() {
            warnings.push("Could not construct convex hull graph".to_string());
        }
    }
    if data.face.is_empty() {
        data.face = hull::graph_faces(&graph).ok_or_else(|| error("qhull error".into()))?;
    }

    if data.normal.is_empty() {
        process::make_normal(&mut data, spec.smoothnormal);
    }
    if !data.facenormal.is_empty() && data.facenormal.len() != data.face.len() {
        return Err(error(
            "face data must have the same size as face normal data".into(),
        ));
    }
    if data.facetexcoord.is_empty() && !data.texcoord.is_empty() {
        data.facetexcoord = data.face.clone();
    }
    if data.facenormal.is_empty() {
        data.facenormal = data.face.clone();
    }

    let processed = process::process(&mut data, spec, opts);
    warnings.extend(processed.warnings);

    let center = process::make_center(&data);
    let tree = face_bvh(&data, &center);
    if tree.too_deep {
        // MuJoCo warns for every node below the limit; a mesh's hierarchy has no name
        warnings.push("max tree depth exceeded in body=".to_string());
    }

    Ok(CompiledMesh {
        vert: data.vert,
        normal: data.normal,
        texcoord: data.texcoord,
        face: data.face,
        facenormal: data.facenormal,
        facetexcoord: data.facetexcoord,
        graph,
        scale: spec.scale,
        offset_pos: [0.0; 3],
        offset_quat: [1.0, 0.0, 0.0, 0.0],
        bvh: tree,
        warnings,
        name: spec.name.clone(),
        id,
        info: spec.info.clone(),
        exactmeshinertia: opts.exactmeshinertia,
        volume: processed.volume,
        shell: processed.shell,
        aamm: processed.aamm,
        valid: Validity {
            orientation,
            ..processed.valid
        },
    })
}

/// `GetAssetContentType`: the sanitized `content_type` when given, else the type by the
/// file's extension ("" when unknown); `None` when `content_type` is malformed.
fn asset_content_type(file: &str, content_type: &str) -> Option<String> {
    if content_type.is_empty() {
        Some(util::ext_to_content_type(file).to_string())
    } else {
        let (ty, subtype) = util::parse_content_type(content_type)?;
        Some(format!("{ty}/{subtype}"))
    }
}

/// Takes the spec's data for a field the file did not give; both given is an error.
fn take_unless_repeated<T: Clone>(
    from_file: &mut Vec<T>,
    from_spec: &[T],
    what: &str,
) -> Result<(), LoadError> {
    if !from_file.is_empty() && !from_spec.is_empty() {
        return Err(format!("repeated {what} specification"));
    }
    if from_file.is_empty() {
        *from_file = from_spec.to_vec();
    }
    Ok(())
}

/// The face hierarchy: one leaf per face, its box around the face's vertices and its position
/// at the face's circumcenter (`SetBoundingVolume`, `CreateBVH`).
fn face_bvh(data: &MeshData, center: &[f64]) -> Bvh {
    let leaves: Vec<bvh::BoundingVolume> = data
        .face
        .chunks_exact(3)
        .enumerate()
        .map(|(i, f)| {
            let mut aamm = [1e10, 1e10, 1e10, -1e10, -1e10, -1e10];
            for &v in f {
                let p = &data.vert[3 * v as usize..3 * v as usize + 3];
                for k in 0..3 {
                    // mjMIN, mjMAX: on ties the vertex wins
                    let x = f64::from(p[k]);
                    aamm[k] = if aamm[k] < x { aamm[k] } else { x };
                    aamm[k + 3] = if aamm[k + 3] > x { aamm[k + 3] } else { x };
                }
            }
            bvh::BoundingVolume {
                contype: 1,
                conaffinity: 1,
                aabb: [
                    0.5 * (aamm[0] + aamm[3]),
                    0.5 * (aamm[1] + aamm[4]),
                    0.5 * (aamm[2] + aamm[5]),
                    0.5 * (aamm[3] - aamm[0]),
                    0.5 * (aamm[4] - aamm[1]),
                    0.5 * (aamm[5] - aamm[2]),
                ],
                pos: [center[3 * i], center[3 * i + 1], center[3 * i + 2]],
                quat: None,
                id: i as i32,
            }
        })
        .collect();
    bvh::build(&leaves, &[0.0; 3], &[1.0, 0.0, 0.0, 0.0])
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    #[test]
    fn cached_obj_decoding_is_the_decoding_in_either_orientation() {
        let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nvt 0 0\nvt 1 0\n\
                    f 1/1/1 2/2/1 3/1/1 4/2/1\n";
        let file = AssetFile {
            path: "mesh_cache_test_quad.obj".into(),
            bytes: text.as_bytes().to_vec(),
            read_failed: false,
        };
        for righthand in [false, true, false, true] {
            let direct = obj::load(&file.bytes, &file.path, righthand).unwrap();
            assert_eq!(load_obj_cached(&file, righthand).unwrap(), direct);
        }
    }
}
