//! The octree builder of `mujoco.sdf.sdflib` for programs with a heap: the core builds into
//! caller memory, so this gives it memory from the heap, retrying with twice as much when the
//! tree outgrows it, and keeps the finished tree for the rest of the program (one per distinct
//! mesh, shared by every model and data that use the mesh, as the plugin's table expects).

use alloc::boxed::Box;
use alloc::vec::Vec;
use mjrs_core::plugin::sdf::sdflib::build::{build, BuildMemory, NodeInfo, CACHE_SIZE};
use mjrs_core::plugin::sdf::sdflib::mesh::{BvhNode, TriangleData};
use mjrs_core::plugin::sdf::sdflib::plugin::{
    add_tree, instance_mesh, mesh_key, plugin_mesh, set_builder, Tree,
};
use mjrs_core::plugin::sdf::sdflib::BuildError;
use mjrs_core::Model;

/// Octree words of the first attempt.
const FIRST_CAPACITY: usize = 1 << 20;
/// Octree words past which the builder gives up: 128 MiB of nodes, ten times MuJoCo's cow (the
/// node records then take about 1.3 GB more).
const MAX_CAPACITY: usize = 1 << 25;

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

/// Builds the octree of instance `instance`'s mesh and adds it to the plugin's table.
pub fn build_instance(m: &Model, instance: usize) -> Result<(), BuildError> {
    let mesh_id = instance_mesh(m, instance).map_err(|_| BuildError::NoFaces)?;
    let nvert = m.mesh_vertnum[mesh_id] as usize;
    let nface = m.mesh_facenum[mesh_id] as usize;
    let mut vertices = filled(nvert, [0.0f32; 3])?;
    let mut faces = filled(3 * nface, 0u32)?;
    let mesh = plugin_mesh(m, mesh_id, &mut vertices, &mut faces)?;
    let mut capacity = FIRST_CAPACITY;
    loop {
        match build_with(mesh, capacity) {
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

/// One attempt with room for `capacity` octree words (node records in proportion: a tree has
/// about one record per 57 words).
fn build_with(
    mesh: mjrs_core::plugin::sdf::sdflib::build::Mesh<'_>,
    capacity: usize,
) -> Result<(mjrs_core::plugin::sdf::sdflib::OctreeHeader, Vec<u32>), BuildError> {
    let sizes = BuildMemory::sizes(mesh.vertices.len(), mesh.indices.len() / 3);
    let mut triangles = filled(sizes[0], TriangleData::default())?;
    let mut normals = filled(sizes[1], [0.0f32; 3])?;
    let mut half_edges = filled(sizes[2], (0u64, 0u32))?;
    let mut bvh = filled(sizes[3], BvhNode::default())?;
    let mut order = filled(sizes[4], 0u32)?;
    let mut cache0 = filled(CACHE_SIZE, ([0u32; 3], 0u32))?;
    let mut cache1 = filled(CACHE_SIZE, ([0u32; 3], 0u32))?;
    let mut nodes = filled(capacity, 0u32)?;
    let mut leaf_of = filled(capacity, 0u32)?;
    let mut infos = filled(capacity / 32 + 1024, NodeInfo::default())?;
    let mut refine = filled(capacity / 64 + 1024, NodeInfo::default())?;
    let mut to_subdivide = filled(capacity / 4, 0u32)?;
    let (header, tree) = build(
        mesh,
        BuildMemory {
            triangles: &mut triangles,
            vertex_normals: &mut normals,
            half_edges: &mut half_edges,
            bvh: &mut bvh,
            order: &mut order,
            caches: [&mut cache0, &mut cache1],
            nodes: &mut nodes,
            leaf_of: &mut leaf_of,
            infos: &mut infos,
            refine: &mut refine,
            to_subdivide: &mut to_subdivide,
        },
    )?;
    let len = tree.len();
    nodes.truncate(len);
    nodes.shrink_to_fit();
    Ok((header, nodes))
}
