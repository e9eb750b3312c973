//! The convex hull graph of a mesh, `mesh_graph` (`mjCMesh::MakeGraph`, `mjCMesh::CopyGraph`).
//!
//! Layout: `numvert`, `numface`, then `vert_edgeadr[numvert]`, `vert_globalid[numvert]`,
//! `edge_localid[numvert + 3 numface]` and `face_globalid[3 numface]`. Each hull vertex lists
//! its neighbors (hull-local ids, in the order qhull's neighboring facets give them) followed
//! by -1; faces hold mesh vertex ids, reoriented with qhull's `toporient` flag.

use super::LoadError;
use mjrs_qhull_sys::{convex_hull, Hull};

/// `MakeGraph`: runs qhull on the vertices and lays out the graph. An empty graph means qhull
/// returned vertices that are not mesh vertices (MuJoCo warns "Could not construct convex hull
/// graph").
pub(super) fn make_graph(vert: &[f32]) -> Result<Vec<i32>, LoadError> {
    if let Some(i) = vert.iter().position(|x| !x.is_finite()) {
        return Err(format!("vertex coordinate {i} is not finite"));
    }
    let mut points: Vec<f64> = vert.iter().map(|&x| f64::from(x)).collect();
    let hull = convex_hull(&mut points).map_err(|_| "qhull error".to_string())?;
    layout(&hull, (vert.len() / 3) as i32)
}

/// Lays out the graph of `hull` over `nvert` mesh vertices.
fn layout(hull: &Hull, nvert: i32) -> Result<Vec<i32>, LoadError> {
    let numvert = hull.num_vertices;
    let numface = hull.num_facets;
    let in_mesh = |pid: i32| (0..nvert).contains(&pid);

    let mut edgeadr = Vec::with_capacity(numvert as usize);
    let mut globalid = Vec::with_capacity(numvert as usize);
    let mut edges: Vec<i32> = Vec::new();
    for vertex in &hull.vertices {
        let pid = vertex.point;
        if !in_mesh(pid) {
            return Ok(Vec::new());
        }
        edgeadr.push(edges.len() as i32);
        globalid.push(pid);
        let start = edges.len();
        for facet in &vertex.neighbors {
            for &pid1 in facet {
                if !in_mesh(pid1) {
                    return Ok(Vec::new());
                }
                if pid1 != pid && !edges[start..].contains(&pid1) {
                    edges.push(pid1);
                }
            }
            if facet.len() != 3 {
                return Err("Qhull did not return triangle".to_string());
            }
        }
        edges.push(-1);
    }
    if hull.vertices.len() != numvert as usize
        || edges.len() != (numvert + 3 * numface) as usize
        || hull.facets.len() != numface as usize
    {
        return Err("Wrong size in convex hull graph".to_string());
    }

    let mut faces = vec![0i32; 3 * numface as usize];
    for (f, facet) in hull.facets.iter().enumerate() {
        if facet.vertices.len() != 3 {
            return Err("Qhull did not return triangle".to_string());
        }
        let ind = if facet.toporient {
            [1, 0, 2]
        } else {
            [0, 1, 2]
        };
        for (k, &pid) in facet.vertices.iter().enumerate() {
            faces[3 * f + ind[k]] = pid;
        }
    }

    // edges: mesh vertex ids to hull vertex ids
    for e in edges.iter_mut().filter(|e| **e >= 0) {
        let local = globalid
            .iter()
            .position(|&g| g == *e)
            .ok_or_else(|| "Vertex id not found in convex hull".to_string())?;
        *e = local as i32;
    }

    let mut graph = Vec::with_capacity(2 + 3 * numvert as usize + 6 * numface as usize);
    graph.extend([numvert, numface]);
    graph.extend(edgeadr);
    graph.extend(globalid);
    graph.extend(edges);
    graph.extend(faces);
    Ok(graph)
}

/// `CopyGraph`: the hull's faces, for a mesh given without faces; `None` without a graph.
pub(super) fn graph_faces(graph: &[i32]) -> Option<Vec<i32>> {
    let (&numvert, &numface) = (graph.first()?, graph.get(1)?);
    let start = 2 + 3 * numvert as usize + 3 * numface as usize;
    graph
        .get(start..start + 3 * numface as usize)
        .map(<[i32]>::to_vec)
}
