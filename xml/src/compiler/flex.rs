//! Flexes (`mjCFlex::Compile`, `user_mesh.cc`): vertex bodies, edges in MuJoCo's order,
//! outward-facing tetrahedra, the shell (border fragments), element layers, element-vertex
//! collision pairs and the bounding volume hierarchy of the elements; and their copy into the
//! model (`CopyObjects`).

use mjrs_core::math::quat::rot_vec_quat;
use mjrs_core::model::Model;
use mjrs_core::types::{EQ_FLEX, OBJ_BODY, OBJ_MATERIAL};

use super::Compiler;
use crate::bvh::{self, BoundingVolume, Bvh};
use crate::error::XmlError;
use crate::spec::Flex;

/// The local vertex pairs of each element edge, by dimension (`eledge`).
const ELEDGE: [&[[usize; 2]]; 3] = [
    &[[0, 1]],
    &[[1, 2], [2, 0], [0, 1]],
    &[[0, 1], [1, 2], [2, 0], [2, 3], [0, 3], [1, 3]],
];

/// A compiled flex.
#[derive(Clone, Debug, Default)]
pub(crate) struct CFlex {
    pub nvert: usize,
    pub dim: usize,
    /// Elements, tetrahedra reordered to face outwards.
    pub elem: Vec<i32>,
    /// Edges (vertex pairs, smaller id first) in order of first use.
    pub edge: Vec<[i32; 2]>,
    pub shell: Vec<i32>,
    pub evpair: Vec<i32>,
    pub elemlayer: Vec<i32>,
    /// Body of each vertex (one entry for a rigid flex).
    pub vertbodyid: Vec<i32>,
    pub rigid: bool,
    pub centered: bool,
    pub matid: i32,
    pub tree: Bvh,
}

impl CFlex {
    fn nelem(&self) -> usize {
        self.elem.len() / (self.dim + 1)
    }

    /// The body of vertex `v`.
    fn body(&self, v: usize) -> usize {
        self.vertbodyid[if self.rigid { 0 } else { v }] as usize
    }
}

/// The size checks of `mjCFlex::Compile`; returns the number of vertices.
fn check_sizes(f: &Flex) -> Result<usize, String> {
    if !(1..=3).contains(&f.dim) {
        return Err("dim must be 1, 2 or 3".into());
    }
    let dim = f.dim as usize;
    if f.elem.is_empty() {
        return Err("elem is empty".into());
    }
    if !f.elem.len().is_multiple_of(dim + 1) {
        return Err("elem size must be multiple of (dim+1)".into());
    }
    if f.vertbody.is_empty() {
        return Err("vertbody is empty".into());
    }
    if !f.vert.len().is_multiple_of(3) {
        return Err("vert size must be a multiple of 3".into());
    }
    if f.edgestiffness > 0.0 && dim > 1 {
        return Err(
            "edge stiffness only available for dim=1, please use elasticity plugins".into(),
        );
    }
    let nvert = if f.vert.is_empty() {
        f.vertbody.len()
    } else {
        f.vert.len() / 3
    };
    if nvert < dim + 1 {
        return Err("not enough vertices".into());
    }
    if f.elem.iter().any(|&v| v < 0 || v as usize >= nvert) {
        return Err("elem vertex id out of range".into());
    }
    if !f.texcoord.is_empty() && f.texcoord.len() != 2 * nvert {
        return Err("two texture coordinates per vertex expected".into());
    }
    if !f.texcoord.is_empty() {
        // MuJoCo 3.1.6 leaves nflextexcoord at 0 and copies the coordinates past the end of
        // flex_texcoord, corrupting its heap: no model of its own to agree with
        return Err(
            "flex texture coordinates are not supported (MuJoCo 3.1.6 writes them \
                    outside the model)"
                .into(),
        );
    }
    Ok(nvert)
}

/// Edges in order of first use by the elements, and each element edge's index.
fn make_edges(elem: &[i32], dim: usize) -> (Vec<[i32; 2]>, Vec<i32>) {
    let mut index = std::collections::HashMap::new();
    let mut edge = Vec::new();
    let mut edgeidx = Vec::with_capacity(elem.len() / (dim + 1) * ELEDGE[dim - 1].len());
    for v in elem.chunks_exact(dim + 1) {
        for [a, b] in ELEDGE[dim - 1] {
            let pair = [v[*a].min(v[*b]), v[*a].max(v[*b])];
            let id = *index.entry(pair).or_insert_with(|| {
                edge.push(pair);
                edge.len() as i32 - 1
            });
            edgeidx.push(id);
        }
    }
    (edge, edgeidx)
}

/// The fragments (vertices, faces or edges) of each element: the fragment's vertex ids sorted,
/// then the element id, then the vertices in their original order (`fragspec`).
fn fragments(elem: &[i32], dim: usize) -> Vec<Vec<i32>> {
    // fragment k of an element, as local vertex ids, in MuJoCo's slot order
    const FRAGS: [&[&[usize]]; 3] = [
        &[&[0], &[1]],
        &[&[0, 1], &[2, 0], &[1, 2]],
        &[&[0, 1, 2], &[0, 3, 1], &[0, 2, 3], &[1, 3, 2]],
    ];
    let mut spec = Vec::with_capacity(elem.len());
    for (e, el) in elem.chunks_exact(dim + 1).enumerate() {
        for frag in FRAGS[dim - 1] {
            let verts: Vec<i32> = frag.iter().map(|&k| el[k]).collect();
            let mut sorted = verts.clone();
            if dim > 1 {
                sorted.sort_unstable();
            }
            sorted.push(e as i32);
            sorted.extend(verts);
            spec.push(sorted);
        }
    }
    spec.sort();
    spec
}

/// `CreateShellPair`: the shell, the element layers and (1D, 2D) the element-vertex pairs.
fn shell_pairs(f: &mut CFlex) {
    let dim = f.dim;
    let nelem = f.nelem();
    let frag = fragments(&f.elem, dim);
    let mut connect: Vec<Vec<i32>> = Vec::new();
    let mut border = vec![false; nelem];
    let mut borderfrag = vec![false; frag.len()];
    let mut cnt = 1;
    for n in 1..frag.len() {
        if frag[n - 1][..dim] == frag[n][..dim] {
            let mut c = vec![frag[n - 1][dim], frag[n][dim]];
            c.extend_from_slice(&frag[n][..dim]);
            connect.push(c);
            cnt += 1;
        } else {
            if cnt == 1 {
                border[frag[n - 1][dim] as usize] = true;
                borderfrag[n - 1] = true;
            }
            cnt = 1;
        }
    }
    if cnt == 1 {
        let n = frag.len();
        border[frag[n - 1][dim] as usize] = true;
        borderfrag[n - 1] = true;
    }
    for (i, fr) in frag.iter().enumerate() {
        if borderfrag[i] {
            f.shell.extend_from_slice(&fr[dim + 1..]);
        }
    }
    f.elemlayer = element_layers(nelem, dim, &border, &connect);
    if dim < 3 {
        for c in &connect {
            let (e1, e2) = (c[0] as usize, c[1] as usize);
            if !(border[e1] || border[e2]) {
                continue;
            }
            let common = &c[2..];
            for (ei, other) in [(e1, c[1]), (e2, c[0])] {
                let edata = &f.elem[ei * (dim + 1)..(ei + 1) * (dim + 1)];
                if let Some(&v) = edata.iter().find(|v| !common.contains(v)) {
                    f.evpair.extend([other, v]);
                }
            }
        }
    }
}

/// Each element's distance from the border, in 3D (0 elsewhere): relaxed over the connected
/// pairs until nothing changes.
fn element_layers(nelem: usize, dim: usize, border: &[bool], connect: &[Vec<i32>]) -> Vec<i32> {
    if dim < 3 {
        return vec![0; nelem];
    }
    let mut layer: Vec<i32> = border
        .iter()
        .map(|&b| if b { 0 } else { nelem as i32 + 1 })
        .collect();
    let mut change = true;
    while change {
        change = false;
        for c in connect {
            let (e1, e2) = (c[0] as usize, c[1] as usize);
            if layer[e1] > layer[e2] + 1 {
                layer[e1] = layer[e2] + 1;
                change = true;
            } else if layer[e2] > layer[e1] + 1 {
                layer[e2] = layer[e1] + 1;
                change = true;
            }
        }
    }
    layer
}

/// Tetrahedra reordered so that the right-handed faces point outwards.
fn orient_tetrahedra(elem: &mut [i32], xpos: &[[f64; 3]]) {
    for t in elem.chunks_exact_mut(4) {
        let v = [t[0], t[1], t[2], t[3]].map(|i| xpos[i as usize]);
        let d = |k: usize| [v[k][0] - v[0][0], v[k][1] - v[0][1], v[k][2] - v[0][2]];
        let (a, b, c) = (d(1), d(2), d(3));
        let nrm = [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ];
        if nrm[0] * c[0] + nrm[1] * c[1] + nrm[2] * c[2] > 0.0 {
            t.swap(1, 2);
        }
    }
}

/// `CreateBVH`: the elements' boxes (the active layers in 3D), around the initial vertex
/// positions, inflated by the radius.
fn make_bvh(f: &Flex, c: &CFlex, xpos: &[[f64; 3]]) -> Bvh {
    let dim = c.dim;
    let mut leaves = Vec::new();
    for (e, el) in c.elem.chunks_exact(dim + 1).enumerate() {
        if dim == 3 && c.elemlayer[e] >= f.activelayers {
            continue;
        }
        let mut lo = xpos[el[0] as usize];
        let mut hi = lo;
        for &v in &el[1..] {
            for j in 0..3 {
                lo[j] = crate::util::c_min(lo[j], xpos[v as usize][j]);
                hi[j] = crate::util::c_max(hi[j], xpos[v as usize][j]);
            }
        }
        let aabb = [
            0.5 * (hi[0] + lo[0]),
            0.5 * (hi[1] + lo[1]),
            0.5 * (hi[2] + lo[2]),
            0.5 * (hi[0] - lo[0]) + f.radius,
            0.5 * (hi[1] - lo[1]) + f.radius,
            0.5 * (hi[2] - lo[2]) + f.radius,
        ];
        leaves.push(BoundingVolume {
            contype: f.contype,
            conaffinity: f.conaffinity,
            aabb,
            pos: [aabb[0], aabb[1], aabb[2]],
            quat: None,
            id: e as i32,
        });
    }
    bvh::build(&leaves, &[0.0; 3], &[1.0, 0.0, 0.0, 0.0])
}

/// Space-separated integers (`Vector2String`).
fn ints_text(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
}

impl Compiler<'_> {
    /// Compiles every flex (after the bodies: vertices are placed at the bodies' initial poses).
    pub(super) fn compile_flexes(&mut self) -> Result<(), XmlError> {
        for i in 0..self.spec.flexes.len() {
            let f = self.spec.flexes[i].clone();
            let c = self
                .compile_flex(&f)
                .map_err(|m| XmlError::compile(m, &f.name, i, &f.info))?;
            self.flexes.push(c);
        }
        Ok(())
    }

    /// `mjCFlex::Compile`.
    fn compile_flex(&mut self, f: &Flex) -> Result<CFlex, String> {
        let nvert = check_sizes(f)?;
        let dim = f.dim as usize;
        let mut c = CFlex {
            nvert,
            dim,
            elem: f.elem.clone(),
            rigid: !f.vert.is_empty() && f.vertbody.len() == 1,
            centered: f.vert.is_empty(),
            matid: -1,
            ..CFlex::default()
        };
        if let Some(id) = self.find(OBJ_MATERIAL, &f.material) {
            c.matid = id as i32;
        } else if !f.material.is_empty() {
            return Err(format!("unkown material '{}' in flex", f.material));
        }
        for name in &f.vertbody {
            let id = self
                .find(OBJ_BODY, name)
                .ok_or_else(|| format!("unkown body '{name}' in flex"))?;
            c.vertbodyid.push(id as i32);
        }
        for el in f.elem.chunks_exact(dim + 1) {
            let mut s = el.to_vec();
            s.sort_unstable();
            if s.windows(2).any(|w| w[0] == w[1]) {
                return Err("repeated vertex in element".into());
            }
        }
        if !c.rigid {
            c.rigid = c.vertbodyid.iter().all(|&b| b == c.vertbodyid[0]);
        }
        if !c.centered {
            c.centered = f.vert.iter().all(|&x| x == 0.0);
        }
        if !c.rigid && c.vertbodyid.len() != nvert {
            // MuJoCo reads a body per vertex past the end of its list here
            return Err(format!(
                "{} vertex bodies for {nvert} vertices",
                c.vertbodyid.len()
            ));
        }
        let xpos = self.vertex_positions(f, &c);
        if dim == 3 {
            orient_tetrahedra(&mut c.elem, &xpos);
        }
        let (edge, mut edgeidx) = make_edges(&c.elem, dim);
        c.edge = edge;
        // MuJoCo sizes its element-edge list by the element *data* (dim + 1 ids per element),
        // not the elements, and hands the plugins the unused zeros too
        edgeidx.resize(c.elem.len() * ELEDGE[dim - 1].len(), 0);
        self.flex_plugin_config(&c, &edgeidx);
        shell_pairs(&mut c);
        c.tree = make_bvh(f, &c, &xpos);
        Ok(c)
    }

    /// The vertices' initial global positions (`vertxpos`).
    fn vertex_positions(&self, f: &Flex, c: &CFlex) -> Vec<[f64; 3]> {
        (0..c.nvert)
            .map(|i| {
                let b = &self.bodies[c.body(i)];
                let mut p = b.xpos0;
                if !c.centered {
                    let v = [f.vert[3 * i], f.vert[3 * i + 1], f.vert[3 * i + 2]];
                    let off = rot_vec_quat(&v, &b.xquat0);
                    for k in 0..3 {
                        p[k] += off[k];
                    }
                }
                p
            })
            .collect()
    }

    /// The elements and element edges handed to the plugin instances of the vertex bodies
    /// (their `face` and `edge` configuration).
    fn flex_plugin_config(&mut self, c: &CFlex, edgeidx: &[i32]) {
        let face = ints_text(&c.elem);
        let edge = ints_text(edgeidx);
        for &b in &c.vertbodyid {
            let Some(r) = self.spec.bodies[self.bodies[b as usize].spec]
                .plugin
                .clone()
            else {
                continue;
            };
            let instance = match r.implicit {
                Some(i) => Some(i),
                None => self.find(mjrs_core::types::OBJ_PLUGIN, &r.instance),
            };
            if let Some(i) = instance {
                let config = &mut self.spec.plugins[i].config;
                config.insert("face".into(), face.clone());
                config.insert("edge".into(), edge.clone());
            }
        }
    }

    /// Is there a flex equality on flex `name`?
    fn flex_has_equality(&self, name: &str) -> bool {
        self.objects
            .equalities
            .iter()
            .any(|q| q.etype == EQ_FLEX && self.spec.flexes[q.obj1id as usize].name == name)
    }

    /// The flexes' arrays of the model (`CopyObjects`); their hierarchies follow the bodies'
    /// and the meshes' from `bvhadr`.
    pub(super) fn copy_flexes(&self, m: &mut Model, mut bvhadr: usize) {
        let (mut vert, mut edge, mut elem, mut elemdata) = (0, 0, 0, 0);
        let (mut shell, mut evpair) = (0, 0);
        for (i, c) in self.flexes.iter().enumerate() {
            let f = &self.spec.flexes[i];
            m.flex_contype[i] = f.contype;
            m.flex_conaffinity[i] = f.conaffinity;
            m.flex_condim[i] = f.condim;
            m.flex_matid[i] = c.matid;
            m.flex_group[i] = f.group;
            m.flex_priority[i] = f.priority;
            m.flex_solmix[i] = f.solmix;
            m.flex_solref[2 * i..2 * i + 2].copy_from_slice(&f.solref);
            m.flex_solimp[5 * i..5 * i + 5].copy_from_slice(&f.solimp);
            m.flex_radius[i] = f.radius;
            m.flex_friction[3 * i..3 * i + 3].copy_from_slice(&f.friction);
            m.flex_margin[i] = f.margin;
            m.flex_gap[i] = f.gap;
            m.flex_rgba[4 * i..4 * i + 4].copy_from_slice(&f.rgba);
            let (nv, ne, nel) = (c.nvert, c.edge.len(), c.nelem());
            m.flex_dim[i] = c.dim as i32;
            m.flex_vertadr[i] = vert as i32;
            m.flex_vertnum[i] = nv as i32;
            m.flex_edgeadr[i] = edge as i32;
            m.flex_edgenum[i] = ne as i32;
            m.flex_elemadr[i] = elem as i32;
            m.flex_elemdataadr[i] = elemdata as i32;
            let nshell = c.shell.len() / c.dim;
            m.flex_shellnum[i] = nshell as i32;
            m.flex_shelldataadr[i] = if nshell > 0 { shell as i32 } else { -1 };
            if c.evpair.is_empty() {
                m.flex_evpairadr[i] = -1;
                m.flex_evpairnum[i] = 0;
            } else {
                m.flex_evpairadr[i] = evpair as i32;
                m.flex_evpairnum[i] = (c.evpair.len() / 2) as i32;
                m.flex_evpair[2 * evpair..2 * evpair + c.evpair.len()].copy_from_slice(&c.evpair);
            }
            // texture coordinates are refused when compiled (see `check_sizes`)
            m.flex_texcoordadr[i] = -1;
            m.flex_elemnum[i] = nel as i32;
            m.flex_elem[elemdata..elemdata + c.elem.len()].copy_from_slice(&c.elem);
            m.flex_elemlayer[elem..elem + nel].copy_from_slice(&c.elemlayer);
            m.flex_shell[shell..shell + c.shell.len()].copy_from_slice(&c.shell);
            m.flex_edgestiffness[i] = f.edgestiffness;
            m.flex_edgedamping[i] = f.edgedamping;
            m.flex_rigid[i] = u8::from(c.rigid);
            m.flex_centered[i] = u8::from(c.centered);
            m.flex_internal[i] = u8::from(f.internal);
            m.flex_flatskin[i] = u8::from(f.flatskin);
            m.flex_selfcollide[i] = f.selfcollide;
            m.flex_activelayers[i] = f.activelayers;
            let nbvh = c.tree.len();
            m.flex_bvhnum[i] = nbvh as i32;
            m.flex_bvhadr[i] = if nbvh > 0 { bvhadr as i32 } else { -1 };
            m.flex_edgeequality[i] = u8::from(self.flex_has_equality(&f.name));
            m.bvh_child[2 * bvhadr..2 * (bvhadr + nbvh)].copy_from_slice(&c.tree.child);
            m.bvh_depth[bvhadr..bvhadr + nbvh].copy_from_slice(&c.tree.level);
            m.bvh_nodeid[bvhadr..bvhadr + nbvh].copy_from_slice(&c.tree.nodeid);
            if !c.centered {
                m.flex_vert[3 * vert..3 * (vert + nv)].copy_from_slice(&f.vert[..3 * nv]);
            }
            for k in 0..nv {
                m.flex_vertbodyid[vert + k] = c.body(k) as i32;
            }
            for (k, e) in c.edge.iter().enumerate() {
                m.flex_edge[2 * (edge + k)..2 * (edge + k) + 2].copy_from_slice(e);
                let (b1, b2) = (c.body(e[0] as usize), c.body(e[1] as usize));
                m.flexedge_rigid[edge + k] =
                    u8::from(c.rigid || self.bodies[b1].weldid == self.bodies[b2].weldid);
            }
            vert += nv;
            edge += ne;
            elem += nel;
            elemdata += c.elem.len();
            shell += c.shell.len();
            evpair += c.evpair.len() / 2;
            bvhadr += nbvh;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile_error(xml: &str) -> String {
        match crate::compile_str(xml, "t.xml", "", None) {
            Ok(_) => panic!("compiled: {xml}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn edges_in_order_of_first_use() {
        let (edge, idx) = make_edges(&[0, 1, 2, 1, 3, 2], 2);
        assert_eq!(edge, [[1, 2], [0, 2], [0, 1], [2, 3], [1, 3]]);
        assert_eq!(idx, [0, 1, 2, 3, 0, 4]);
    }

    #[test]
    fn two_triangles_share_one_edge() {
        let mut f = CFlex {
            dim: 2,
            elem: vec![0, 1, 2, 1, 3, 2],
            ..CFlex::default()
        };
        shell_pairs(&mut f);
        // four border edges; each triangle pairs with the other's far vertex
        assert_eq!(f.shell.len(), 8);
        assert_eq!(f.evpair, [1, 0, 0, 3]);
        assert_eq!(f.elemlayer, [0, 0]);
    }

    /// MuJoCo 3.1.6 copies flex texture coordinates outside its model: mjrs refuses them.
    #[test]
    fn texture_coordinates_are_refused() {
        let e = compile_error(
            r#"<mujoco><worldbody><body name="a"><freejoint/><geom size=".1"/></body>
            <body name="b"><freejoint/><geom size=".1"/></body>
            <body name="c"><freejoint/><geom size=".1"/></body></worldbody>
            <deformable><flex dim="2" body="a b c" element="0 1 2" texcoord="0 0 1 0 0 1"/>
            </deformable></mujoco>"#,
        );
        assert!(
            e.contains("flex texture coordinates are not supported"),
            "{e}"
        );
    }

    /// A grid whose points would not fit in memory is refused before anything is made.
    #[test]
    fn huge_grids_are_refused() {
        let e = compile_error(
            r#"<mujoco><worldbody><body name="p">
            <flexcomp name="f" type="grid" dim="3" count="100000 100000 1000"/>
            </body></worldbody></mujoco>"#,
        );
        assert!(
            e.contains("Could not allocate memory for flexcomp points"),
            "{e}"
        );
    }

    /// A direct flexcomp with a point no element uses and pins on some points only: MuJoCo
    /// 3.1.6 reads past its vertex bodies there.
    #[test]
    fn unused_points_with_some_pins_are_refused() {
        let e = compile_error(
            r#"<mujoco><worldbody><body name="p">
            <flexcomp name="f" type="direct" dim="1" point="0 0 0 1 0 0 2 0 0" element="0 1">
              <pin id="0"/></flexcomp></body></worldbody></mujoco>"#,
        );
        assert!(e.contains("points not used by any element"), "{e}");
    }
}
