//! SdfLib's octree construction as MuJoCo's plugin runs it: `OctreeSdf(mesh, box, 8, 3, 1e-3,
//! CONTINUITY, 1)`, which is `initOctreeWithContinuityNoDelay` with nearest-triangle queries
//! (`VHQueries`), tricubic leaves and the trapezoidal error rule.
//!
//! Breadth first, depth by depth: a node samples the distance (and gradient) at its 19 edge,
//! face and centre midpoints, fits a tricubic polynomial to its 8 corners, and becomes a leaf
//! when the polynomial's squared error at the midpoints, integrated by the trapezoidal rule, is
//! below the threshold (or at the maximum depth). To keep the field continuous across leaves of
//! different sizes, a node that subdivides next to a leaf replaces its samples on their common
//! face by the leaf's polynomial where that is accurate enough, and subdivides the leaf where it
//! is not (the "nodes to subdivide", refined again after each depth).
//!
//! Memory comes from the caller ([`BuildMemory`]); nothing is allocated. The node records of
//! every depth stay alive until the end, as SdfLib keeps them, because a leaf may be subdivided
//! later from its record.

use super::glm::{self, Vec3};
use super::mesh::{self, Bvh, BvhNode, MeshScratch, TriangleData};
use super::tricubic::{self, CornerValues, VALUES_PER_VERTEX};
use super::{BuildError, OctreeHeader, CHILDREN_INDEX, IS_LEAF, NUM_COEFFICIENTS};

/// Maximum depth (MuJoCo's 8).
const MAX_DEPTH: u32 = 8;
/// Depth of the start grid (MuJoCo's 3: 8 cells per axis).
const START_DEPTH: u32 = 3;
/// The depth the subdivision starts from (`START_OCTREE_DEPTH`, the smaller of it and the
/// start grid's).
const FIRST_DEPTH: u32 = 1;
/// The error threshold relative to the mesh's diagonal (MuJoCo's 1e-3).
const TERMINATION_THRESHOLD: f32 = 1e-3;
/// Marked node (`OctreeNode::MARK_MASK`): subdivided during the refinement of a depth.
const MARK: u32 = 1 << 30;
/// Entries of a vertex cache (`VHQueries`: 32 per axis).
pub const CACHE_SIZE: usize = 1 << 15;
/// No node record (a leaf whose record is unknown).
const NONE: u32 = u32::MAX;

/// The 8 corners of a node, x fastest (`childrens`).
const CORNERS: [Vec3; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [-1.0, 1.0, 1.0],
    [1.0, 1.0, 1.0],
];

/// The 19 midpoints of a node's edges, faces and centre (`nodeSamplePoints`).
const MIDPOINTS: [Vec3; 19] = [
    [0.0, -1.0, -1.0],
    [-1.0, 0.0, -1.0],
    [0.0, 0.0, -1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, -1.0],
    [-1.0, -1.0, 0.0],
    [0.0, -1.0, 0.0],
    [1.0, -1.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [-1.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, -1.0, 1.0],
    [-1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0],
];

/// For each neighbour direction and side (`neigbourMasks`), the midpoints (bit 18 - i for
/// midpoint i) on the face, edge or corner shared with that neighbour.
const NEIGHBOUR_MASKS: [u32; 24] = [
    0b00100010010010001000,
    0b00001000100100100010,
    0,
    0,
    0b01000011100000010000,
    0b00000100000011100001,
    0,
    0,
    0b00000010000000000000,
    0b00000000100000000000,
    0b00000000000010000000,
    0b00000000000000100000,
    0b01111100000000000000,
    0b00000000000000011111,
    0,
    0,
    0b00100000000000000000,
    0b00001000000000000000,
    0b00000000000000001000,
    0b00000000000000000010,
    0b01000000000000000000,
    0b00000100000000000000,
    0b00000000000000010000,
    0b00000000000000000001,
];

/// For each child, which midpoints (or the parent's own corner, `None` + corner index) become
/// its 8 corners.
const CHILD_CORNERS: [[Corner; 8]; 8] = {
    use Corner::{Mid as M, Own as O};
    [
        [O(0), M(0), M(1), M(2), M(5), M(6), M(8), M(9)],
        [M(0), O(1), M(2), M(3), M(6), M(7), M(9), M(10)],
        [M(1), M(2), O(2), M(4), M(8), M(9), M(11), M(12)],
        [M(2), M(3), M(4), O(3), M(9), M(10), M(12), M(13)],
        [M(5), M(6), M(8), M(9), O(4), M(14), M(15), M(16)],
        [M(6), M(7), M(9), M(10), M(14), O(5), M(16), M(17)],
        [M(8), M(9), M(11), M(12), M(15), M(16), O(6), M(18)],
        [M(9), M(10), M(12), M(13), M(16), M(17), M(18), O(7)],
    ]
};

/// Where a child's corner comes from.
#[derive(Clone, Copy)]
enum Corner {
    /// The parent's own corner.
    Own(usize),
    /// One of the parent's midpoints.
    Mid(usize),
}

/// A node during construction (`BreadthFirstNoDelayNodeInfo`).
#[derive(Clone, Copy, Debug)]
pub struct NodeInfo {
    /// The path from the depth-1 ancestor, 3 bits per level with the last level lowest, cut to
    /// its low 8 bits: SdfLib's node constructor takes the path as `uint8_t`, so a neighbour
    /// walk from two or more levels above reads the grandparent's top bit and every level above
    /// it as 0. MuJoCo's trees are built along that path, so these are too.
    child_indices: u64,
    /// Index of the first of the node's siblings in the octree (`u32::MAX` above the start
    /// grid).
    parent_children_index: u32,
    is_terminal: bool,
    ignore: bool,
    /// The neighbour across each face direction 1..=6 (bits x, y, z of the direction; the
    /// side is the node's own): a children group index, with bit 31 when it is a leaf's slot
    /// and bit 30 when there is none; and its depth.
    neighbour_depth: [u8; 6],
    neighbour_indices: [u32; 6],
    center: Vec3,
    /// Half the node's edge.
    size: f32,
    vertices_values: CornerValues,
    vertices_info: [u32; 8],
    coefficients: [f32; NUM_COEFFICIENTS],
    mid_values: [[f32; VALUES_PER_VERTEX]; 19],
    mid_info: [u32; 19],
    /// The node's depth.
    depth: u32,
    /// The next record of the same depth (the depth's list in creation order).
    next: u32,
}

impl Default for NodeInfo {
    fn default() -> Self {
        Self {
            child_indices: 0,
            parent_children_index: 0,
            is_terminal: false,
            ignore: false,
            neighbour_depth: [0; 6],
            neighbour_indices: [0; 6],
            center: [0.0; 3],
            size: 0.0,
            vertices_values: [[0.0; VALUES_PER_VERTEX]; 8],
            vertices_info: [0; 8],
            coefficients: [0.0; NUM_COEFFICIENTS],
            mid_values: [[0.0; VALUES_PER_VERTEX]; 19],
            mid_info: [0; 19],
            depth: 0,
            next: NONE,
        }
    }
}

impl NodeInfo {
    fn new(
        parent_children_index: u32,
        child_indices: u8,
        center: Vec3,
        size: f32,
        depth: u32,
    ) -> Self {
        Self {
            depth,
            parent_children_index,
            child_indices: u64::from(child_indices),
            center,
            size,
            ..Self::default()
        }
    }

    /// The node's position among its siblings.
    fn child_id(&self) -> u32 {
        (self.child_indices & 0b111) as u32
    }
}

/// One cached nearest triangle per grid point of the finest depth (`vertexInfoCache`).
pub type CacheEntry = ([u32; 3], u32);

/// The mesh: vertices (in the plugin's frame) and triangles.
#[derive(Clone, Copy)]
pub struct Mesh<'a> {
    /// Vertex positions.
    pub vertices: &'a [[f32; 3]],
    /// Vertex indices, 3 per triangle.
    pub indices: &'a [u32],
}

/// Caller memory of [`build`]; each slice at least as long as [`BuildSizes`] says.
pub struct BuildMemory<'a> {
    /// One per triangle.
    pub triangles: &'a mut [TriangleData],
    /// One per vertex.
    pub vertex_normals: &'a mut [[f32; 3]],
    /// The edge pairing and vertex merge of the mesh's normals.
    pub mesh: MeshScratch<'a>,
    /// Twice the triangles.
    pub bvh: &'a mut [BvhNode],
    /// One per triangle.
    pub order: &'a mut [u32],
    /// [`CACHE_SIZE`] each: the main cache and the one of the first pass over each depth.
    pub caches: [&'a mut [CacheEntry]; 2],
    /// The octree: its capacity bounds the tree.
    pub nodes: &'a mut [u32],
    /// As long as `nodes`: the record of each leaf.
    pub leaf_of: &'a mut [u32],
    /// Node records of all depths.
    pub infos: &'a mut [NodeInfo],
    /// Node records of one refinement.
    pub refine: &'a mut [NodeInfo],
    /// Leaves to refine after a depth.
    pub to_subdivide: &'a mut [u32],
}

/// The lengths of the slices of a [`BuildMemory`] for a mesh and an octree of at most
/// `capacity` words (the node records in proportion: a tree has about one record per 57 words,
/// one refinement rarely more than a few hundred).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildSizes {
    /// `triangles` and `order`.
    pub faces: usize,
    /// `vertex_normals`, `mesh.parent`, `mesh.loose` and each of `mesh.grids`.
    pub vertices: usize,
    /// `mesh.half_edges` and `mesh.merged_edges`.
    pub half_edges: usize,
    /// `bvh`.
    pub bvh: usize,
    /// Each of `caches`.
    pub cache: usize,
    /// `nodes` and `leaf_of`.
    pub nodes: usize,
    /// `infos`.
    pub infos: usize,
    /// `refine`.
    pub refine: usize,
    /// `to_subdivide`.
    pub to_subdivide: usize,
}

impl BuildSizes {
    /// The sizes for a mesh of `nvert` vertices and `nface` triangles and an octree of at most
    /// `capacity` words.
    pub fn new(nvert: usize, nface: usize, capacity: usize) -> Self {
        Self {
            faces: nface,
            vertices: nvert,
            half_edges: 3 * nface,
            bvh: (2 * nface).max(1),
            cache: CACHE_SIZE,
            nodes: capacity,
            infos: capacity / 32 + 1024,
            refine: capacity / 64 + 1024,
            to_subdivide: capacity / 4,
        }
    }
}

impl BuildMemory<'_> {
    /// Whether the slices for the mesh are at least as long as `sizes` asks, with `leaf_of` as
    /// long as `nodes`. The octree's slices are not checked: their lengths bound the tree (a
    /// tree that outgrows them is [`BuildError::TooLarge`]).
    fn fits(&self, sizes: &BuildSizes) -> bool {
        let m = &self.mesh;
        let at_least = [
            (self.triangles.len(), sizes.faces),
            (self.order.len(), sizes.faces),
            (self.vertex_normals.len(), sizes.vertices),
            (m.parent.len(), sizes.vertices),
            (m.loose.len(), sizes.vertices),
            (m.grids[0].len(), sizes.vertices),
            (m.grids[1].len(), sizes.vertices),
            (m.half_edges.len(), sizes.half_edges),
            (m.merged_edges.len(), sizes.half_edges),
            (self.bvh.len(), sizes.bvh),
            (self.caches[0].len(), sizes.cache),
            (self.caches[1].len(), sizes.cache),
            (self.leaf_of.len(), self.nodes.len()),
        ];
        at_least.iter().all(|&(have, need)| have >= need)
    }
}

/// An append-only list in caller memory.
struct Pool<'a, T> {
    buf: &'a mut [T],
    len: usize,
}

impl<'a, T: Copy> Pool<'a, T> {
    fn new(buf: &'a mut [T]) -> Self {
        Self { buf, len: 0 }
    }

    fn push(&mut self, x: T, full: BuildError) -> Result<u32, BuildError> {
        let slot = self.buf.get_mut(self.len).ok_or(full)?;
        *slot = x;
        self.len += 1;
        Ok((self.len - 1) as u32)
    }
}

/// The nearest-triangle queries with their cache (`VHQueries`).
struct Queries<'m> {
    bvh: &'m Bvh<'m>,
    mesh: Mesh<'m>,
    triangles: &'m [TriangleData],
    min: Vec3,
    coord_to_id: Vec3,
}

impl Queries<'_> {
    /// `calculateVerticesInfo`: the values at the points `rel` (relative to a node of centre
    /// `center` and half edge `half`): from the polynomial `coefficients` for the points in
    /// `interpolate` (bit N - 1 - i for point i), else the signed distance and gradient of the
    /// nearest triangle (cached per grid point).
    #[allow(clippy::too_many_arguments)]
    fn sample<const N: usize>(
        &self,
        cache: &mut [CacheEntry],
        center: Vec3,
        half: f32,
        rel: &[Vec3; N],
        interpolate: u32,
        coefficients: &[f32; NUM_COEFFICIENTS],
        values: &mut [[f32; VALUES_PER_VERTEX]; N],
        info: &mut [u32; N],
    ) {
        for i in 0..N {
            if interpolate & (1 << (N - i - 1)) != 0 {
                let f = glm::add(glm::scale(rel[i], 0.5), [0.5; 3]);
                values[i] = tricubic::vertex_values(coefficients, f, 2.0 * half);
                continue;
            }
            let point = glm::add(center, glm::scale(rel[i], half));
            let id: [u32; 3] = core::array::from_fn(|k| {
                libm::roundf((point[k] - self.min[k]) * self.coord_to_id[k]) as u32
            });
            let slot = (((id[2] & 31) << 10) | ((id[1] & 31) << 5) | (id[0] & 31)) as usize;
            if cache[slot].0 == id {
                info[i] = cache[slot].1;
            } else {
                info[i] = self.bvh.nearest_triangle(point);
                cache[slot] = (id, info[i]);
            }
            values[i] = self.point_values(point, info[i]);
        }
    }

    /// `calculatePointValues`: distance and gradient from triangle `t`, no second derivatives.
    fn point_values(&self, point: Vec3, t: u32) -> [f32; VALUES_PER_VERTEX] {
        let t = t as usize;
        let v = core::array::from_fn(|k| self.mesh.vertices[self.mesh.indices[3 * t + k] as usize]);
        let (d, g) = self.triangles[t].signed_distance(point, &v);
        [d, g[0], g[1], g[2], 0.0, 0.0, 0.0, 0.0]
    }
}

/// `estimateErrorFunctionIntegralByTrapezoidRule`: the squared differences between the samples
/// and the polynomial at the 19 midpoints, weighted by the trapezoidal rule.
fn trapezoid_error(c: &[f32; NUM_COEFFICIENTS], mid: &[[f32; VALUES_PER_VERTEX]; 19]) -> f32 {
    let mut sum = 0.0;
    for (i, m) in MIDPOINTS.iter().enumerate() {
        let zeros = m.iter().filter(|&&x| x == 0.0).count();
        let weight = (1u32 << zeros) as f32 / 64.0;
        let f = glm::add(glm::scale(*m, 0.5), [0.5; 3]);
        let e = mid[i][0] - tricubic::interpolate_value(c, f);
        sum += weight * (e * e);
    }
    sum
}

/// `OctreeNode::setValues`.
fn node_value(leaf: bool, index: u32) -> u32 {
    (index & CHILDREN_INDEX) | if leaf { IS_LEAF } else { 0 }
}

/// Bit 31 of a neighbour entry: the slot of a leaf.
const LEAF_SLOT: u32 = 1 << 31;

/// The octree being built and what is needed to build it.
struct Builder<'a, 'm> {
    queries: Queries<'m>,
    header: OctreeHeader,
    sq_threshold: f32,
    nodes: Pool<'a, u32>,
    leaf_of: &'a mut [u32],
    infos: Pool<'a, NodeInfo>,
    /// First and last record of each depth.
    lists: [(u32, u32); MAX_DEPTH as usize + 2],
    refine: Pool<'a, NodeInfo>,
    to_subdivide: Pool<'a, u32>,
    /// The main vertex cache and the one of the first pass over a depth (SdfLib's per-thread
    /// copy, taken after the first nodes were sampled).
    caches: [&'a mut [CacheEntry]; 2],
}

impl Builder<'_, '_> {
    fn node(&self, slot: u32) -> Result<u32, BuildError> {
        self.nodes.buf[..self.nodes.len]
            .get(slot as usize)
            .copied()
            .ok_or(BuildError::Malformed)
    }

    fn is_leaf(&self, slot: u32) -> Result<bool, BuildError> {
        Ok(self.node(slot)? & IS_LEAF != 0)
    }

    fn is_marked(&self, slot: u32) -> Result<bool, BuildError> {
        Ok(self.node(slot)? & MARK != 0)
    }

    fn children_index(&self, slot: u32) -> Result<u32, BuildError> {
        Ok(self.node(slot)? & CHILDREN_INDEX)
    }

    fn set(&mut self, slot: u32, value: u32) -> Result<(), BuildError> {
        let len = self.nodes.len;
        *self.nodes.buf[..len]
            .get_mut(slot as usize)
            .ok_or(BuildError::Malformed)? = value;
        Ok(())
    }

    /// Appends `n` words of value `value`; returns the first one's index.
    fn grow(&mut self, n: usize, value: u32) -> Result<u32, BuildError> {
        let first = self.nodes.len;
        if first + n > self.nodes.buf.len() || first + n > CHILDREN_INDEX as usize {
            return Err(BuildError::TooLarge);
        }
        self.nodes.buf[first..first + n].fill(value);
        self.leaf_of[first..first + n].fill(NONE);
        self.nodes.len += n;
        Ok(first as u32)
    }

    /// The start-grid cell of a node's centre (`nodeStartGridPos`).
    fn grid_pos(&self, center: Vec3) -> [i32; 3] {
        core::array::from_fn(|i| {
            libm::floorf((center[i] - self.header.min[i]) / self.header.start_grid_cell_size) as i32
        })
    }

    fn grid_index(&self, pos: [i32; 3]) -> Option<u32> {
        let n = self.header.start_grid_size;
        pos.iter()
            .all(|&p| (0..n).contains(&p))
            .then(|| (pos[2] * n * n + pos[1] * n + pos[0]) as u32)
    }

    /// The octree slot of a node at `depth` (none above the start grid).
    fn slot(&self, node: &NodeInfo) -> Result<Option<u32>, BuildError> {
        Ok(match node.depth.cmp(&START_DEPTH) {
            core::cmp::Ordering::Less => None,
            core::cmp::Ordering::Equal => Some(
                self.grid_index(self.grid_pos(node.center))
                    .ok_or(BuildError::Malformed)?,
            ),
            core::cmp::Ordering::Greater => {
                Some(node.parent_children_index.wrapping_add(node.child_id()))
            }
        })
    }

    /// Appends a record to its depth's list.
    fn push_info(&mut self, node: NodeInfo) -> Result<u32, BuildError> {
        let depth = node.depth as usize;
        let id = self.infos.push(node, BuildError::TooLarge)?;
        match self.lists[depth] {
            (NONE, _) => self.lists[depth] = (id, id),
            (first, last) => {
                self.infos.buf[last as usize].next = id;
                self.lists[depth] = (first, id);
            }
        }
        Ok(id)
    }

    /// `leavesData.insert`: the first record of a leaf slot stays.
    fn remember_leaf(&mut self, slot: u32, id: u32) {
        if let Some(l) = self.leaf_of.get_mut(slot as usize) {
            if *l == NONE {
                *l = id;
            }
        }
    }

    fn run(&mut self) -> Result<(), BuildError> {
        let grid = self.header.start_grid_size as usize;
        self.grow(grid * grid * grid, 0)?;
        self.first_nodes()?;
        // SdfLib's per-thread copy of the queries starts from the main cache as it is now
        let [main, first_pass] = &mut self.caches;
        first_pass[..CACHE_SIZE].copy_from_slice(&main[..CACHE_SIZE]);
        for depth in FIRST_DEPTH..=MAX_DEPTH {
            if depth < MAX_DEPTH {
                self.fit_depth(depth)?;
            }
            self.to_subdivide.len = 0;
            self.split_depth(depth)?;
            for i in 0..self.to_subdivide.len {
                let slot = self.to_subdivide.buf[i];
                self.refine_leaf(slot, depth)?;
            }
        }
        for slot in 0..(grid * grid * grid) as u32 {
            self.clear_marks(slot)?;
        }
        Ok(())
    }

    /// The 8 nodes of depth 1, sampled at their corners.
    fn first_nodes(&mut self) -> Result<(), BuildError> {
        let size = glm::sub(self.header.max, self.header.min);
        let new_size = 0.5 * size[0] * 0.5;
        let start = glm::add(self.header.min, [new_size; 3]);
        for k in 0..2 {
            for j in 0..2 {
                for i in 0..2 {
                    let offset =
                        glm::scale(glm::scale([i as f32, j as f32, k as f32], 2.0), new_size);
                    let mut n =
                        NodeInfo::new(u32::MAX, 0, glm::add(start, offset), new_size, FIRST_DEPTH);
                    let zero = [0.0; NUM_COEFFICIENTS];
                    self.queries.sample(
                        self.caches[0],
                        n.center,
                        n.size,
                        &CORNERS,
                        0,
                        &zero,
                        &mut n.vertices_values,
                        &mut n.vertices_info,
                    );
                    self.push_info(n)?;
                }
            }
        }
        Ok(())
    }

    /// The ids of a depth's records, in order, including those appended while walking.
    fn next_record(&self, id: u32) -> u32 {
        self.infos.buf[id as usize].next
    }

    /// First pass over a depth: each node's neighbours, polynomial, midpoint samples, and
    /// whether it is a leaf.
    fn fit_depth(&mut self, depth: u32) -> Result<(), BuildError> {
        let mut id = self.lists[depth as usize].0;
        while id != NONE {
            let mut node = self.infos.buf[id as usize];
            if !node.ignore {
                let slot = self.slot(&node)?;
                if depth > START_DEPTH {
                    self.descend_neighbours(&mut node, depth)?;
                }
                if depth >= START_DEPTH {
                    node.coefficients =
                        tricubic::coefficients(&node.vertices_values, 2.0 * node.size);
                }
                self.queries.sample(
                    self.caches[1],
                    node.center,
                    node.size,
                    &MIDPOINTS,
                    0,
                    &node.coefficients,
                    &mut node.mid_values,
                    &mut node.mid_info,
                );
                let terminal = depth >= START_DEPTH
                    && trapezoid_error(&node.coefficients, &node.mid_values) < self.sq_threshold;
                node.is_terminal = terminal;
                if let Some(slot) = slot {
                    self.set(slot, node_value(terminal, u32::MAX))?;
                }
                self.infos.buf[id as usize] = node;
            }
            id = self.next_record(id);
        }
        Ok(())
    }

    /// Moves each neighbour entry of a node of the current depth down to the node of its
    /// depth across the face, or marks it as a leaf's slot.
    fn descend_neighbours(&self, node: &mut NodeInfo, depth: u32) -> Result<(), BuildError> {
        for n in 1..=6u32 {
            if (node.neighbour_indices[(n - 1) as usize] >> 30) & 1 == 0 {
                self.descend_neighbour(node, n, depth, true)?;
            }
        }
        Ok(())
    }

    /// Moves the neighbour entry across face direction `n` down towards depth `limit`: first
    /// into the children of the slot it names when `moved` (the entry names a slot rather than
    /// a children group), then one child per level along the node's path, until it reaches a
    /// leaf (then marked as a leaf's slot; true) or the depth.
    fn descend_neighbour(
        &self,
        node: &mut NodeInfo,
        n: u32,
        limit: u32,
        moved: bool,
    ) -> Result<bool, BuildError> {
        let k = (n - 1) as usize;
        if moved {
            let slot = node.neighbour_indices[k] & !LEAF_SLOT;
            if self.is_leaf(slot)? {
                node.neighbour_indices[k] |= LEAF_SLOT;
                return Ok(true);
            }
            node.neighbour_indices[k] = self.children_index(slot)?;
            node.neighbour_depth[k] += 1;
        }
        while u32::from(node.neighbour_depth[k]) < limit {
            let diff = node.depth - u32::from(node.neighbour_depth[k]);
            let child = ((node.child_indices >> (3 * diff)) & 0b111) as u32;
            node.neighbour_indices[k] = node.neighbour_indices[k].wrapping_add(n ^ child);
            let slot = node.neighbour_indices[k] & !LEAF_SLOT;
            if self.is_leaf(slot)? {
                node.neighbour_indices[k] |= LEAF_SLOT;
                return Ok(true);
            }
            node.neighbour_indices[k] = self.children_index(slot)?;
            node.neighbour_depth[k] += 1;
        }
        Ok(false)
    }

    /// Second pass over a depth: nodes that are not leaves take the polynomial of neighbouring
    /// leaves on their common boundary where it is accurate (else those leaves are queued for
    /// refinement) and get 8 children; the others become leaves.
    fn split_depth(&mut self, depth: u32) -> Result<(), BuildError> {
        let mut id = self.lists[depth as usize].0;
        while id != NONE {
            let mut node = self.infos.buf[id as usize];
            if !node.ignore {
                let slot = self.slot(&node)?;
                if !node.is_terminal && depth < MAX_DEPTH {
                    let (mask, neighbour_ids) = self.leaf_neighbours(&node, depth)?;
                    let mut subdivision = 0;
                    for i in 0..19 {
                        let bit = 1 << (18 - i);
                        if mask & bit == 0 {
                            continue;
                        }
                        let f = glm::add(glm::scale(MIDPOINTS[i], 0.5), [0.5; 3]);
                        let inter = tricubic::interpolate_value(&node.coefficients, f);
                        let e = node.mid_values[i][0] - inter;
                        if e * e > self.sq_threshold {
                            subdivision |= mask & bit;
                        } else {
                            node.mid_values[i] =
                                tricubic::vertex_values(&node.coefficients, f, 2.0 * node.size);
                        }
                    }
                    for i in 0..24 {
                        if subdivision & NEIGHBOUR_MASKS[i] != 0 && neighbour_ids[i] >> 30 == 0 {
                            self.to_subdivide
                                .push(neighbour_ids[i], BuildError::TooLarge)?;
                        }
                    }
                    let first = match slot {
                        Some(slot) => {
                            let first = self.grow(8, !(0b111u32 << 29))?;
                            self.set(slot, node_value(false, first))?;
                            first
                        }
                        None => u32::MAX,
                    };
                    self.infos.buf[id as usize] = node;
                    for c in 0..8 {
                        let child = self.child(&node, c, first)?;
                        self.push_info(child)?;
                    }
                } else {
                    let slot = slot.ok_or(BuildError::Malformed)?;
                    let first = self.grow(NUM_COEFFICIENTS, 0)?;
                    self.set(slot, node_value(true, first))?;
                    if depth >= MAX_DEPTH {
                        node.coefficients =
                            tricubic::coefficients(&node.vertices_values, 2.0 * node.size);
                    }
                    self.write_coefficients(first, &node.coefficients);
                    self.remember_leaf(slot, id);
                    self.infos.buf[id as usize] = node;
                }
            }
            id = self.next_record(id);
        }
        Ok(())
    }

    fn write_coefficients(&mut self, first: u32, c: &[f32; NUM_COEFFICIENTS]) {
        let first = first as usize;
        for (w, v) in self.nodes.buf[first..first + NUM_COEFFICIENTS]
            .iter_mut()
            .zip(c)
        {
            *w = v.to_bits();
        }
    }

    /// Child `c` of `node`, its corners from the node's corners and midpoints, its neighbours
    /// from the node's (or the start grid's).
    fn child(&self, node: &NodeInfo, c: usize, first: u32) -> Result<NodeInfo, BuildError> {
        let half = 0.5 * node.size;
        let offset: Vec3 = core::array::from_fn(|i| if CORNERS[c][i] < 0.0 { -half } else { half });
        let mut child = NodeInfo::new(
            first,
            // SdfLib's constructor cuts the path to its low 8 bits
            ((node.child_indices << 3) | c as u64) as u8,
            glm::add(node.center, offset),
            half,
            node.depth + 1,
        );
        for (k, corner) in CHILD_CORNERS[c].iter().enumerate() {
            let (values, info) = match *corner {
                Corner::Own(i) => (node.vertices_values[i], node.vertices_info[i]),
                Corner::Mid(i) => (node.mid_values[i], node.mid_info[i]),
            };
            child.vertices_values[k] = values;
            child.vertices_info[k] = info;
        }
        if node.depth == START_DEPTH {
            let pos = self.grid_pos(node.center);
            for n in 1..=6u32 {
                let step = |bit: u32| -> i32 {
                    if n & bit == 0 {
                        0
                    } else if c as u32 & bit != 0 {
                        1
                    } else {
                        -1
                    }
                };
                let p = [pos[0] + step(1), pos[1] + step(2), pos[2] + step(4)];
                child.neighbour_indices[(n - 1) as usize] = self.grid_index(p).unwrap_or(1 << 30);
                child.neighbour_depth[(n - 1) as usize] = node.depth as u8;
            }
        } else {
            let own = node.child_id();
            for n in 1..=6u32 {
                let k = (n - 1) as usize;
                let through = !(c as u32 ^ own) & n;
                if through != 0 {
                    let parent = node.neighbour_indices[(through - 1) as usize];
                    child.neighbour_indices[k] = parent
                        .wrapping_add((n ^ own).wrapping_mul(1u32.wrapping_sub(parent >> 31)));
                    child.neighbour_depth[k] = node.neighbour_depth[(through - 1) as usize];
                } else {
                    child.neighbour_indices[k] = node.parent_children_index.wrapping_add(n ^ own);
                    child.neighbour_depth[k] = node.depth as u8;
                }
            }
        }
        Ok(child)
    }
}

/// The 18 neighbours (offset in the start grid, direction, side) whose shared midpoints a
/// start-grid node checks, in SdfLib's order.
const GRID_NEIGHBOURS: [([i32; 3], u32, u32); 18] = [
    ([-1, 0, 0], 0b001, 0),
    ([1, 0, 0], 0b001, 1),
    ([0, -1, 0], 0b010, 0),
    ([0, 1, 0], 0b010, 1),
    ([-1, -1, 0], 0b011, 0),
    ([1, -1, 0], 0b011, 1),
    ([-1, 1, 0], 0b011, 2),
    ([1, 1, 0], 0b011, 3),
    ([0, 0, -1], 0b100, 0),
    ([0, 0, 1], 0b100, 1),
    ([-1, 0, -1], 0b101, 0),
    ([1, 0, -1], 0b101, 1),
    ([-1, 0, 1], 0b101, 2),
    ([1, 0, 1], 0b101, 3),
    ([0, -1, -1], 0b110, 0),
    ([0, 1, -1], 0b110, 1),
    ([0, -1, 1], 0b110, 2),
    ([0, 1, 1], 0b110, 3),
];

/// Where a node below the start grid finds its 18 edge, face and corner neighbours: (which
/// entry: 0..6 a face neighbour's children group, 6 its own siblings; direction; side), the side
/// computed from the node's child index `c` (and `n = !c`).
fn deep_neighbours(c: u32) -> [(usize, u32, u32); 18] {
    let n = !c;
    [
        (0, 0b001, c & 1),
        (0, 0b011, 0b010 ^ (c & 0b011)),
        (0, 0b101, ((n >> 1) & 0b010) + (c & 1)),
        (1, 0b010, (c >> 1) & 1),
        (1, 0b011, 0b001 ^ (c & 0b011)),
        (1, 0b110, 0b010 ^ ((c >> 1) & 0b011)),
        (2, 0b011, c & 0b011),
        (3, 0b100, (c >> 2) & 1),
        (3, 0b101, ((c >> 1) & 0b010) + (n & 1)),
        (3, 0b110, 0b001 ^ ((c >> 1) & 0b011)),
        (4, 0b101, ((c >> 1) & 0b010) + (c & 1)),
        (5, 0b110, (c >> 1) & 0b011),
        (6, 0b001, n & 1),
        (6, 0b010, (n >> 1) & 1),
        (6, 0b100, (n >> 2) & 1),
        (6, 0b011, n & 0b011),
        (6, 0b101, ((n >> 1) & 0b010) + (n & 1)),
        (6, 0b110, (n >> 1) & 0b011),
    ]
}

/// The neighbours a refined node checks for subdivided ones (a subset of
/// [`deep_neighbours`], in SdfLib's order).
fn refine_neighbours(c: u32) -> [(usize, u32, u32); 12] {
    let n = !c;
    [
        (6, 0b001, n & 1),
        (6, 0b010, (n >> 1) & 1),
        (6, 0b100, (n >> 2) & 1),
        (6, 0b011, n & 0b011),
        (6, 0b101, ((n >> 1) & 0b010) + (n & 1)),
        (6, 0b110, (n >> 1) & 0b011),
        (0, 0b011, 0b010 ^ (c & 0b011)),
        (0, 0b101, ((n >> 1) & 0b010) + (c & 1)),
        (1, 0b011, 0b001 ^ (c & 0b011)),
        (1, 0b110, 0b010 ^ ((c >> 1) & 0b011)),
        (3, 0b101, ((c >> 1) & 0b010) + (n & 1)),
        (3, 0b110, 0b001 ^ ((c >> 1) & 0b011)),
    ]
}

fn mask_index(dir: u32, side: u32) -> usize {
    (4 * (dir - 1) + side) as usize
}

impl Builder<'_, '_> {
    /// The entry `which` of [`deep_neighbours`]: a face neighbour's, or the siblings' group.
    fn entry(node: &NodeInfo, which: usize) -> u32 {
        if which == 6 {
            node.parent_children_index
        } else {
            node.neighbour_indices[which]
        }
    }

    /// Which of a node's midpoints lie on leaves next to it (a mask of bit 18 - i), and those
    /// leaves' slots per direction and side.
    fn leaf_neighbours(&self, node: &NodeInfo, depth: u32) -> Result<(u32, [u32; 24]), BuildError> {
        let mut mask = 0;
        let mut ids = [u32::MAX; 24];
        if depth > START_DEPTH {
            let c = node.child_id();
            for (which, dir, side) in deep_neighbours(c) {
                let id = Self::entry(node, which);
                let leaf = if id >> 31 != 0 {
                    Some(id & !LEAF_SLOT)
                } else if id >> 30 == 0 && self.is_leaf(id.wrapping_add(dir ^ c))? {
                    Some(id.wrapping_add(dir ^ c))
                } else {
                    None
                };
                if let Some(slot) = leaf {
                    ids[mask_index(dir, side)] = slot;
                    mask |= NEIGHBOUR_MASKS[mask_index(dir, side)];
                }
            }
        } else if depth == START_DEPTH {
            let pos = self.grid_pos(node.center);
            for (offset, dir, side) in GRID_NEIGHBOURS {
                let p = [pos[0] + offset[0], pos[1] + offset[1], pos[2] + offset[2]];
                if let Some(slot) = self.grid_index(p) {
                    if self.is_leaf(slot)? {
                        ids[mask_index(dir, side)] = slot;
                        mask |= NEIGHBOUR_MASKS[mask_index(dir, side)];
                    }
                }
            }
        }
        Ok((mask, ids))
    }

    /// Subdivides the leaf at `slot` (and its new children, down to one level below the current
    /// depth) where its neighbours were subdivided, so the field stays continuous; the new
    /// leaves' records join their depth's list.
    fn refine_leaf(&mut self, slot: u32, current: u32) -> Result<(), BuildError> {
        let record = *self
            .leaf_of
            .get(slot as usize)
            .ok_or(BuildError::Malformed)?;
        if record == NONE {
            return Err(BuildError::Malformed);
        }
        let start = self.infos.buf[record as usize];
        let start_slot = self.slot(&start)?.ok_or(BuildError::Malformed)?;
        if !self.is_leaf(start_slot)? {
            return Ok(());
        }
        let old_coefficients = self.children_index(start_slot)?;
        let mut recycled = false;
        self.refine.len = 0;
        self.refine.push(start, BuildError::TooLarge)?;
        let mut first_iteration = true;
        let mut next = 0;
        while next < self.refine.len {
            let mut node = self.refine.buf[next];
            next += 1;
            let depth = node.depth;
            let slot = self.slot(&node)?.ok_or(BuildError::Malformed)?;
            let mut samples = 0u32;
            let mut subdivided = 0u32;
            if depth > START_DEPTH {
                self.refine_descend(
                    &mut node,
                    depth,
                    current,
                    first_iteration,
                    &mut samples,
                    &mut subdivided,
                )?;
            }
            if current >= depth {
                subdivided |= self.subdivided_neighbours(&node, depth)?;
                samples = !subdivided;
            }
            if current >= depth && samples != !0 {
                let recycle = first_iteration && !node.ignore;
                if !recycle {
                    node.coefficients =
                        tricubic::coefficients(&node.vertices_values, 2.0 * node.size);
                    self.queries.sample(
                        self.caches[0],
                        node.center,
                        node.size,
                        &MIDPOINTS,
                        samples,
                        &node.coefficients,
                        &mut node.mid_values,
                        &mut node.mid_info,
                    );
                }
                for i in 0..19 {
                    let f = glm::add(glm::scale(MIDPOINTS[i], 0.5), [0.5; 3]);
                    let fitted = || tricubic::vertex_values(&node.coefficients, f, 2.0 * node.size);
                    if samples & (1 << (18 - i)) == 0 {
                        let inter = tricubic::interpolate_value(&node.coefficients, f);
                        let e = node.mid_values[i][0] - inter;
                        if e * e < self.sq_threshold {
                            node.mid_values[i] = fitted();
                        }
                    } else if recycle {
                        node.mid_values[i] = fitted();
                    }
                }
                let first = self.grow(8, node_value(true, 0))?;
                self.set(slot, node_value(false, first) | MARK)?;
                for c in 0..8 {
                    let child = self.child(&node, c, first)?;
                    self.refine.push(child, BuildError::TooLarge)?;
                }
            } else {
                let first = if recycled {
                    self.grow(NUM_COEFFICIENTS, 0)?
                } else {
                    recycled = true;
                    old_coefficients
                };
                self.set(slot, node_value(true, first))?;
                node.coefficients = tricubic::coefficients(&node.vertices_values, 2.0 * node.size);
                self.write_coefficients(first, &node.coefficients);
                node.is_terminal = true;
                node.ignore = true;
                let id = self.push_info(node)?;
                self.remember_leaf(slot, id);
            }
            first_iteration = false;
        }
        Ok(())
    }

    /// The neighbour walk of a refined node: each face neighbour's entry moved down towards the
    /// node's depth; midpoints on leaves go to `samples`, those next to subdivided (unmarked)
    /// nodes to `subdivided`.
    #[allow(clippy::too_many_arguments)]
    fn refine_descend(
        &self,
        node: &mut NodeInfo,
        depth: u32,
        current: u32,
        first_iteration: bool,
        samples: &mut u32,
        subdivided: &mut u32,
    ) -> Result<(), BuildError> {
        let c = node.child_id();
        for n in 1..=6u32 {
            let k = (n - 1) as usize;
            let nc = n & c;
            let side = ((((nc >> 2) & 1) << ((n & 1) | ((n & 2) >> 1)))
                + (((nc >> 1) & 1) << (n & 1)))
                + (nc & 1);
            let bits = NEIGHBOUR_MASKS[mask_index(n, side)];
            if (node.neighbour_indices[k] >> 30) & 1 != 0 {
                continue;
            }
            let moved = !first_iteration || node.neighbour_indices[k] >> 31 != 0;
            if self.descend_neighbour(node, n, depth.min(current), moved)? {
                *samples |= bits;
                continue;
            }
            if current >= depth && node.neighbour_indices[k] >> 31 == 0 {
                let next = (node.neighbour_indices[k] & !LEAF_SLOT).wrapping_add(n ^ c);
                if !(self.is_leaf(next)? || self.is_marked(next)?) {
                    *subdivided |= bits;
                }
            }
        }
        Ok(())
    }

    /// Midpoints of a refined node next to nodes subdivided at this depth before the
    /// refinement (neither leaves nor marked).
    fn subdivided_neighbours(&self, node: &NodeInfo, depth: u32) -> Result<u32, BuildError> {
        let mut subdivided = 0;
        if depth > START_DEPTH {
            let c = node.child_id();
            for (which, dir, side) in refine_neighbours(c) {
                let id = Self::entry(node, which);
                let leaf = id >> 31 != 0
                    || id >> 30 != 0
                    || self.is_leaf(id.wrapping_add(dir ^ c))?
                    || self.is_marked(id.wrapping_add(dir ^ c))?;
                if !leaf {
                    subdivided |= NEIGHBOUR_MASKS[mask_index(dir, side)];
                }
            }
        } else if depth == START_DEPTH {
            let pos = self.grid_pos(node.center);
            for (offset, dir, side) in GRID_NEIGHBOURS {
                let p = [pos[0] + offset[0], pos[1] + offset[1], pos[2] + offset[2]];
                if let Some(slot) = self.grid_index(p) {
                    if !(self.is_leaf(slot)? || self.is_marked(slot)?) {
                        subdivided |= NEIGHBOUR_MASKS[mask_index(dir, side)];
                    }
                }
            }
        }
        Ok(subdivided)
    }

    /// Removes the refinement marks from a subtree.
    fn clear_marks(&mut self, slot: u32) -> Result<(), BuildError> {
        let v = self.node(slot)?;
        self.set(slot, v & !MARK)?;
        if v & IS_LEAF == 0 {
            let first = v & CHILDREN_INDEX;
            for c in 0..8 {
                self.clear_marks(first + c)?;
            }
        }
        Ok(())
    }
}

/// `computeMinBorderValue`: the smallest value the leaves' polynomials take at their corners on
/// the cube's faces (the distance added outside the cube).
pub(super) fn min_border_value(t: &super::OctreeSdf<'_>) -> f32 {
    let n = t.start_grid_size as u32;
    let cell = 1.0 / n as f32;
    let mut min = f32::INFINITY;
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let pos = [
                    (i as f32 + 0.5) * cell,
                    (j as f32 + 0.5) * cell,
                    (k as f32 + 0.5) * cell,
                ];
                let v = border_of(t, k * n * n + j * n + i, pos, 0.5 * cell);
                min = glm::min(min, v);
            }
        }
    }
    min
}

fn border_of(t: &super::OctreeSdf<'_>, slot: u32, pos: Vec3, half: f32) -> f32 {
    let Some(&v) = t.nodes.get(slot as usize) else {
        return f32::INFINITY;
    };
    let first = v & CHILDREN_INDEX;
    let mut min = f32::INFINITY;
    if v & IS_LEAF == 0 {
        for (c, corner) in CORNERS.iter().enumerate() {
            let cp = glm::add(pos, glm::scale(*corner, 0.5 * half));
            let on_border = cp.iter().any(|&x| x < half || x > 1.0 - half);
            if on_border {
                min = glm::min(min, border_of(t, first + c as u32, cp, 0.5 * half));
            }
        }
        return min;
    }
    let Some(c) = super::leaf_coefficients(t.nodes, first) else {
        return f32::INFINITY;
    };
    for corner in &CORNERS {
        let sp = glm::add(pos, glm::scale(*corner, half));
        let on_border = sp
            .iter()
            .any(|&x| f64::from(x) < 1e-4 || f64::from(x) > f64::from(1.0f32) - 1e-4);
        if on_border {
            let f = glm::add(glm::scale(*corner, 0.5), [0.5; 3]);
            min = glm::min(min, tricubic::interpolate_value(&c, f));
        }
    }
    min
}

/// Builds the octree of `mesh` as MuJoCo's plugin does (over the mesh's box with a margin of a
/// tenth of its largest edge). The tree is the first words of `memory.nodes`.
pub fn build<'a>(
    mesh: Mesh<'_>,
    memory: BuildMemory<'a>,
) -> Result<(OctreeHeader, &'a [u32]), BuildError> {
    let nface = mesh.indices.len() / 3;
    if nface == 0 || !mesh.indices.len().is_multiple_of(3) {
        return Err(BuildError::NoFaces);
    }
    let nvert = mesh.vertices.len();
    if mesh.indices.iter().any(|&i| i as usize >= nvert) {
        return Err(BuildError::BadIndex);
    }
    if mesh.vertices.iter().flatten().any(|x| !x.is_finite()) {
        return Err(BuildError::Degenerate);
    }
    if !memory.fits(&BuildSizes::new(nvert, nface, 0)) {
        return Err(BuildError::OutOfMemory);
    }
    let (mesh_min, mesh_max) = mesh::bounds(mesh.vertices);
    let header = OctreeHeader::new(mesh_min, mesh_max, START_DEPTH);
    if header.start_grid_cell_size.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
        return Err(BuildError::Degenerate);
    }
    let triangles = &mut memory.triangles[..nface];
    mesh::triangle_data(
        mesh.vertices,
        mesh.indices,
        triangles,
        &mut memory.vertex_normals[..nvert],
        memory.mesh,
    )?;
    let bvh = mesh::build_bvh(
        mesh.vertices,
        mesh.indices,
        &mut memory.bvh[..(2 * nface).max(1)],
        &mut memory.order[..nface],
    )?;
    let threshold = TERMINATION_THRESHOLD * glm::length(glm::sub(mesh_max, mesh_min));
    let cube = glm::sub(header.max, header.min);
    let queries = Queries {
        bvh: &bvh,
        mesh,
        triangles,
        min: header.min,
        coord_to_id: cube.map(|s| (1u32 << MAX_DEPTH) as f32 / s),
    };
    let [cache0, cache1] = memory.caches;
    cache0[..CACHE_SIZE].fill(([(1 << MAX_DEPTH) + 1; 3], 0));
    let mut b = Builder {
        queries,
        header,
        sq_threshold: threshold * threshold,
        nodes: Pool::new(memory.nodes),
        leaf_of: memory.leaf_of,
        infos: Pool::new(memory.infos),
        lists: [(NONE, NONE); MAX_DEPTH as usize + 2],
        refine: Pool::new(memory.refine),
        to_subdivide: Pool::new(memory.to_subdivide),
        caches: [cache0, cache1],
    };
    b.run()?;
    let len = b.nodes.len;
    let mut header = b.header;
    let nodes: &'a [u32] = &b.nodes.buf[..len];
    header.min_border_value = min_border_value(&header.view(nodes));
    Ok((header, nodes))
}
