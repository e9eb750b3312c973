//! The plugin `mujoco.sdf.sdflib` itself: MuJoCo's `SdfLib` class of `plugin/sdf/sdflib.cc`.
//!
//! MuJoCo's `init` builds an octree from the mesh of the first geom that names the instance and
//! keeps it in the object `plugin_data` points to; its distance and gradient find that object
//! through the `mjData` and instance they are given. Building needs far more memory than the
//! tree (node records of every depth, about 80 MB for MuJoCo's cow) and the tree itself (14 MB
//! for the cow) does not fit MuJoCo's arena, so here the tree is built once per mesh into
//! memory of the caller's and shared by every `Data` of the model: it is immutable and depends
//! only on the mesh, so sharing it changes no number. The trees are kept in a static table of
//! write-once cells ([`add_tree`]), keyed by a hash of the mesh as the plugin sees it; a
//! program with a heap registers a builder ([`set_builder`], as `mjrs-alloc` does), which the
//! plugin's `init` calls for a mesh whose tree is missing; a device builds its trees with
//! [`build`](super::build::build) into static memory and adds them before loading the model.
//! The instance's object holds the index of its tree.

use super::build::Mesh;
use super::{BuildError, OctreeHeader, OctreeSdf};
use crate::arena::{ArenaError, Stack};
use crate::hash::Fnv1a;
use crate::math::quat::rot_vec_quat;
use crate::model::Model;
use crate::plugin::once::Once;
use crate::plugin::{register_plugin, Plugin, PluginError, PLUGIN_SDF};
use crate::real::Real;
use crate::support::{v3, v4};
use crate::types::GEOM_SDF;

/// Most distinct meshes with an octree in one program.
pub const MAX_TREES: usize = 32;

/// An octree built for a mesh: the mesh's key ([`mesh_key`]), the scalars and the nodes.
#[derive(Clone, Copy, Debug)]
pub struct Tree {
    /// [`mesh_key`] of the mesh it was built from.
    pub key: u64,
    /// The octree's scalars.
    pub header: OctreeHeader,
    /// The octree's nodes and coefficients.
    pub nodes: &'static [u32],
}

impl Tree {
    /// The octree to query.
    pub fn sdf(&self) -> OctreeSdf<'static> {
        self.header.view(self.nodes)
    }
}

#[allow(clippy::declare_interior_mutable_const)] // only to initialise the array below
const NO_TREE: Once<Tree> = Once::new();
static TREES: [Once<Tree>; MAX_TREES] = [NO_TREE; MAX_TREES];

/// Builds the tree of instance `instance` of a model and adds it ([`add_tree`]).
pub type Builder = fn(&Model, usize) -> Result<(), BuildError>;

static BUILDER: Once<Builder> = Once::new();

/// Sets the function `init` calls for a mesh without a tree; false when one is set already.
pub fn set_builder(builder: Builder) -> bool {
    BUILDER.claim(builder)
}

/// Adds the tree of the mesh with key `tree.key`; adding a key again keeps the first tree.
/// [`BuildError::TableFull`] when all [`MAX_TREES`] cells are taken.
pub fn add_tree(tree: Tree) -> Result<usize, BuildError> {
    for (i, cell) in TREES.iter().enumerate() {
        if cell.claim(tree) {
            return Ok(i);
        }
        if cell.settled().is_some_and(|t| t.key == tree.key) {
            return Ok(i);
        }
    }
    Err(BuildError::TableFull)
}

/// The index of the tree of the mesh with key `key`, if it was added.
pub fn find_tree(key: u64) -> Option<usize> {
    TREES
        .iter()
        .position(|c| c.get().is_some_and(|t| t.key == key))
}

/// The tree at `index`.
pub fn tree(index: usize) -> Option<Tree> {
    TREES.get(index)?.get()
}

/// The mesh whose tree instance `instance` uses (MuJoCo's `SdfLib::Create`): that of the first
/// geom naming the instance. MuJoCo falls back to geom 0 when no geom names it, and reads past
/// its arrays when that geom has no mesh; both are errors here.
pub fn instance_mesh(m: &Model, instance: usize) -> Result<usize, PluginError> {
    let geom = (0..m.ngeom)
        .find(|&g| usize::try_from(m.geom_plugin[g]).ok() == Some(instance))
        .ok_or(PluginError::failed(
            "mujoco.sdf.sdflib: no geom uses the plugin instance",
        ))?;
    let mesh = usize::try_from(m.geom_dataid[geom])
        .ok()
        .filter(|&k| k < m.nmesh && m.geom_type[geom] == GEOM_SDF)
        .ok_or(PluginError::failed(
            "mujoco.sdf.sdflib: the geom of the plugin instance has no mesh",
        ))?;
    Ok(mesh)
}

/// Vertex `i` of mesh `mesh` as the plugin sees it: the compiler's vertex moved back to the
/// mesh's own frame (rotated by `mesh_quat`, shifted by `mesh_pos` in [`Real`]), in `f32`.
#[allow(clippy::unnecessary_cast)] // Real is f32 in the f32 build
pub fn plugin_vertex(m: &Model, mesh: usize, i: usize) -> [f32; 3] {
    let adr = m.mesh_vertadr[mesh] as usize + i;
    let v: [Real; 3] = core::array::from_fn(|k| Real::from(m.mesh_vert[3 * adr + k]));
    let mut r = rot_vec_quat(&v, &v4(&m.mesh_quat)[mesh]);
    let pos = v3(&m.mesh_pos)[mesh];
    for k in 0..3 {
        r[k] += pos[k];
    }
    r.map(|x| x as f32)
}

/// The vertex indices of mesh `mesh` (3 per face), relative to its first vertex.
pub fn plugin_faces<'m>(m: &'m Model, mesh: usize) -> &'m [i32] {
    let adr = m.mesh_faceadr[mesh] as usize;
    let n = m.mesh_facenum[mesh] as usize;
    &m.mesh_face[3 * adr..3 * (adr + n)]
}

/// Writes the plugin's vertices ([`plugin_vertex`]) and faces of mesh `mesh` into `vertices`
/// (`mesh_vertnum` long) and `faces` (3 `mesh_facenum`), and returns them as a [`Mesh`].
pub fn plugin_mesh<'a>(
    m: &Model,
    mesh: usize,
    vertices: &'a mut [[f32; 3]],
    faces: &'a mut [u32],
) -> Result<Mesh<'a>, BuildError> {
    let nvert = m.mesh_vertnum[mesh] as usize;
    let src = plugin_faces(m, mesh);
    if vertices.len() < nvert || faces.len() < src.len() {
        return Err(BuildError::OutOfMemory);
    }
    for (i, v) in vertices[..nvert].iter_mut().enumerate() {
        *v = plugin_vertex(m, mesh, i);
    }
    for (f, &s) in faces.iter_mut().zip(src) {
        *f = u32::try_from(s).map_err(|_| BuildError::BadIndex)?;
    }
    Ok(Mesh {
        vertices: &vertices[..nvert],
        indices: &faces[..src.len()],
    })
}

/// FNV-1a of the plugin's vertices (their bits) and faces: the key of the mesh's tree.
pub fn mesh_key(m: &Model, mesh: usize) -> u64 {
    let mut h = Fnv1a::new();
    let mut eat = |w: u32| h.write(&w.to_le_bytes());
    let nvert = m.mesh_vertnum[mesh] as usize;
    eat(nvert as u32);
    for i in 0..nvert {
        for x in plugin_vertex(m, mesh, i) {
            eat(x.to_bits());
        }
    }
    for &f in plugin_faces(m, mesh) {
        eat(f as u32);
    }
    h.finish()
}

/// `mujoco.sdf.sdflib`.
pub struct SdfLibPlugin;

/// The plugin's static.
pub static SDFLIB: SdfLibPlugin = SdfLibPlugin;

/// Registers `mujoco.sdf.sdflib` at its fixed slot.
pub fn register() {
    let _ = register_plugin(&SDFLIB);
}

/// The tree index kept in an instance's object, if the object holds one.
fn object_tree(object: &[u8]) -> Option<Tree> {
    let word: [u8; 8] = object.get(..8)?.try_into().ok()?;
    let index = u64::from_le_bytes(word).checked_sub(1)?;
    tree(usize::try_from(index).ok()?)
}

impl Plugin for SdfLibPlugin {
    fn name(&self) -> &'static str {
        "mujoco.sdf.sdflib"
    }

    fn attributes(&self) -> &'static [&'static str] {
        // MuJoCo declares it and never reads it
        &["aabb"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_SDF
    }

    /// Finds the instance's mesh and makes sure its tree exists, building it with the
    /// registered builder when it does not.
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        let mesh = instance_mesh(m, instance)?;
        if find_tree(mesh_key(m, mesh)).is_some() {
            return Ok(());
        }
        let builder = BUILDER.get().ok_or(PluginError::failed(
            "mujoco.sdf.sdflib: the mesh's octree is not built and no builder is set \
             (sdflib::set_builder, or add the tree with sdflib::add_tree)",
        ))?;
        builder(m, instance).map_err(|e| PluginError::failed(e.message()))?;
        find_tree(mesh_key(m, mesh))
            .map(|_| ())
            .ok_or(PluginError::failed(
                "mujoco.sdf.sdflib: the builder did not add the mesh's octree",
            ))
    }

    fn object_bytes(&self, _m: &Model, _instance: usize) -> usize {
        8
    }

    /// The index of the instance's tree, plus one (0: none, when `init` was not run).
    fn init_object(
        &self,
        m: &Model,
        instance: usize,
        object: &mut [u8],
        _stack: &mut Stack,
    ) -> Result<(), ArenaError> {
        let index = instance_mesh(m, instance)
            .ok()
            .and_then(|mesh| find_tree(mesh_key(m, mesh)));
        if let (Some(i), Some(word)) = (index, object.get_mut(..8)) {
            word.copy_from_slice(&(i as u64 + 1).to_le_bytes());
        }
        Ok(())
    }

    /// The octree's distance ([`OctreeSdf::plugin_distance`]); NaN for an instance without a
    /// tree (a model whose plugins were not initialized).
    fn sdf_distance(&self, point: &[Real; 3], _attributes: &[Real], object: &[u8]) -> Real {
        object_tree(object).map_or(Real::NAN, |t| t.sdf().plugin_distance(point))
    }

    fn sdf_gradient(&self, point: &[Real; 3], _attributes: &[Real], object: &[u8]) -> [Real; 3] {
        object_tree(object).map_or([Real::NAN; 3], |t| t.sdf().plugin_gradient(point))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static NODES: [u32; 2] = [super::super::IS_LEAF | 1, 0];

    #[test]
    fn a_key_added_twice_keeps_its_first_tree() {
        let key = 0x5eed_0000_0000_0001;
        let t = Tree {
            key,
            header: OctreeHeader::default(),
            nodes: &NODES,
        };
        let i = add_tree(t).unwrap();
        assert_eq!(add_tree(Tree { nodes: &[], ..t }), Ok(i));
        assert_eq!(find_tree(key), Some(i));
        assert_eq!(tree(i).unwrap().nodes.len(), 2);
        assert_eq!(find_tree(key + 1), None);
        // the object names the tree by index + 1; anything else finds none
        let object = (i as u64 + 1).to_le_bytes();
        assert_eq!(object_tree(&object).map(|t| t.key), Some(key));
        assert!(object_tree(&0u64.to_le_bytes()).is_none());
        assert!(object_tree(&[1, 2]).is_none());
    }
}
