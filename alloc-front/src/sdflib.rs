//! The octree builder of `mujoco.sdf.sdflib` for programs with a heap: the core builds into
//! caller memory, so this gives it memory from the heap ([`BuildBuffers`]), retrying with twice
//! as much when the tree outgrows it, and keeps the finished tree for the rest of the program
//! (one per distinct mesh, shared by every model and data that use the mesh, as the plugin's
//! table expects).
//!
//! The f32 command line compiles this file a second time against `mjrs-core-f32` (`super::mj`
//! is the core of the precision).

use super::mj::plugin::sdf::sdflib::build::{
    build, BuildMemory, BuildSizes, CacheEntry, Mesh, NodeInfo,
};
use super::mj::plugin::sdf::sdflib::mesh::{
    BvhNode, GridEntry, HalfEdge, MeshScratch, TriangleData,
};
use super::mj::plugin::sdf::sdflib::plugin::{
    add_tree, instance_mesh, mesh_key, plugin_mesh, set_builder, Tree,
};
use super::mj::plugin::sdf::sdflib::{BuildError, OctreeHeader};
use super::mj::Model;
use alloc::boxed::Box;
use alloc::vec::Vec;

/// Octree words of the first attempt.
const FIRST_CAPACITY: usize = 1 << 20;
/// Octree words past which the builder gives up: 128 MiB of nodes, ten times MuJoCo's cow (the
/// node records then take about 1.3 GB more).
pub const MAX_CAPACITY: usize = 1 << 25;

/// Sets [`build_instance`] as the plugin's builder (once per program; later calls do nothing).
pub fn register_builder() {
    let _ = set_builder(build_instance);
}

/// `n` copies of `value`, or [`BuildError::OutOfMemory`] when the heap has no room.
fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, BuildError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| BuildError::OutOfMemory)?;
    v.resize(n, value);
    Ok(v)
}

/// Heap memory of one octree construction, sized by [`BuildSizes`].
pub struct BuildBuffers {
    triangles: Vec<TriangleData>,
    vertex_normals: Vec<[f32; 3]>,
    half_edges: Vec<HalfEdge>,
    merged_edges: Vec<HalfEdge>,
    parent: Vec<u32>,
    loose: Vec<u32>,
    grids: [Vec<GridEntry>; 2],
    bvh: Vec<BvhNode>,
    order: Vec<u32>,
    caches: [Vec<CacheEntry>; 2],
    nodes: Vec<u32>,
    leaf_of: Vec<u32>,
    infos: Vec<NodeInfo>,
    refine: Vec<NodeInfo>,
    to_subdivide: Vec<u32>,
}

impl BuildBuffers {
    /// Memory for a mesh of `nvert` vertices and `nface` triangles and an octree of at most
    /// `capacity` words; [`BuildError::OutOfMemory`] when the heap has no room.
    pub fn new(nvert: usize, nface: usize, capacity: usize) -> Result<Self, BuildError> {
        let s = BuildSizes::new(nvert, nface, capacity);
        let cache = ([0u32; 3], 0u32);
        Ok(Self {
            triangles: filled(s.faces, TriangleData::default())?,
            vertex_normals: filled(s.vertices, [0.0f32; 3])?,
            half_edges: filled(s.half_edges, (0, 0))?,
            merged_edges: filled(s.half_edges, (0, 0))?,
            parent: filled(s.vertices, 0)?,
            loose: filled(s.vertices, 0)?,
            grids: [filled(s.vertices, (0, 0))?, filled(s.vertices, (0, 0))?],
            bvh: filled(s.bvh, BvhNode::default())?,
            order: filled(s.faces, 0)?,
            caches: [filled(s.cache, cache)?, filled(s.cache, cache)?],
            nodes: filled(s.nodes, 0)?,
            leaf_of: filled(s.nodes, 0)?,
            infos: filled(s.infos, NodeInfo::default())?,
            refine: filled(s.refine, NodeInfo::default())?,
            to_subdivide: filled(s.to_subdivide, 0)?,
        })
    }

    /// The memory as [`build`] takes it.
    pub fn memory(&mut self) -> BuildMemory<'_> {
        let [g0, g1] = &mut self.grids;
        let [c0, c1] = &mut self.caches;
        BuildMemory {
            triangles: &mut self.triangles,
            vertex_normals: &mut self.vertex_normals,
            mesh: MeshScratch {
                half_edges: &mut self.half_edges,
                merged_edges: &mut self.merged_edges,
                parent: &mut self.parent,
                loose: &mut self.loose,
                grids: [g0, g1],
            },
            bvh: &mut self.bvh,
            order: &mut self.order,
            caches: [c0, c1],
            nodes: &mut self.nodes,
            leaf_of: &mut self.leaf_of,
            infos: &mut self.infos,
            refine: &mut self.refine,
            to_subdivide: &mut self.to_subdivide,
        }
    }
}

/// Builds the octree of `mesh` with room for `capacity` words: its scalars and its words.
pub fn build_tree(mesh: Mesh<'_>, capacity: usize) -> Result<(OctreeHeader, Vec<u32>), BuildError> {
    let mut buffers = BuildBuffers::new(mesh.vertices.len(), mesh.indices.len() / 3, capacity)?;
    let (header, tree) = build(mesh, buffers.memory())?;
    let len = tree.len();
    let mut nodes = buffers.nodes;
    nodes.truncate(len);
    nodes.shrink_to_fit();
    Ok((header, nodes))
}

/// Builds the octree of instance `instance`'s mesh and adds it to the plugin's table: with
/// [`build_tree`] from a million words, doubling up to [`MAX_CAPACITY`].
pub fn build_instance(m: &Model, instance: usize) -> Result<(), BuildError> {
    let mesh_id = instance_mesh(m, instance).map_err(|_| BuildError::NoFaces)?;
    let nvert = m.mesh_vertnum[mesh_id] as usize;
    let nface = m.mesh_facenum[mesh_id] as usize;
    let mut vertices = filled(nvert, [0.0f32; 3])?;
    let mut faces = filled(3 * nface, 0u32)?;
    let mesh = plugin_mesh(m, mesh_id, &mut vertices, &mut faces)?;
    let mut capacity = FIRST_CAPACITY;
    loop {
        match build_tree(mesh, capacity) {
            Err(BuildError::TooLarge) if capacity < MAX_CAPACITY => capacity *= 2,
            Err(e) => return Err(e),
            Ok((header, nodes)) => {
                let nodes: &'static [u32] = Box::leak(nodes.into_boxed_slice());
                add_tree(Tree {
                    key: mesh_key(m, mesh_id),
                    header,
                    nodes,
                })?;
                return Ok(());
            }
        }
    }
}
