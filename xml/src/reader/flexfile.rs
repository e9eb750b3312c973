//! The points and elements of a `flexcomp` read from a file: a surface mesh (`MakeMesh`: STL,
//! OBJ or MuJoCo's MSH) or a gmsh file (`MakeGMSH`). The file is found as MuJoCo finds it:
//! the model's directory, then `meshdir` as the compiler section wrote it, then the name.

use mjrs_std::ResourceError;

use super::flexcomp::Flexcomp;
use super::Reader;
use crate::mesh::{flexcomp_surface, gmsh};
use crate::util::{getext, makefullname, strippath};

impl Reader<'_> {
    /// The file of a flexcomp (`strippath` applied) and its bytes; `kind` names the format
    /// in the message of a file that opens but cannot be read.
    fn flexcomp_file(&self, fc: &mut Flexcomp) -> Result<Option<(String, Vec<u8>)>, String> {
        if !fc.file.is_empty() && self.spec.strippath {
            fc.file = strippath(&fc.file).to_string();
        }
        if fc.file.is_empty() {
            return Err("File is required".into());
        }
        let path = makefullname(&self.spec.modelfiledir, &self.spec.meshdir, &fc.file);
        match self.res.read(&path) {
            Ok(r) => Ok(Some((path, r.bytes))),
            Err(ResourceError::Read(_)) => Ok(None),
            Err(e) => Err(format!("Error: {e}")),
        }
    }

    /// `MakeMesh`: the vertices and triangles of a surface mesh (dimension 2 only).
    pub(super) fn flexcomp_mesh(&mut self, fc: &mut Flexcomp) -> Result<(), String> {
        if !fc.file.is_empty() && self.spec.strippath {
            fc.file = strippath(&fc.file).to_string();
        }
        if fc.file.is_empty() {
            return Err("File is required".into());
        }
        let ext = getext(&fc.file).to_ascii_lowercase();
        if !matches!(ext.as_str(), ".stl" | ".obj" | ".msh") {
            return Err("Mesh file extension must be stl, obj or msh".into());
        }
        if fc.flex.dim != 2 {
            return Err("Flex dim must be 2 in for mesh".into());
        }
        let Some((path, bytes)) = self.flexcomp_file(fc)? else {
            let kind = ext[1..].to_ascii_uppercase();
            return Err(format!("Error: could not read {kind} file '{}'", fc.file));
        };
        let (vert, face) = flexcomp_surface(&ext, &bytes, &path)?;
        fc.element = face;
        fc.point = vert.iter().map(|&x| f64::from(x)).collect();
        Ok(())
    }

    /// `MakeGMSH`: the nodes and elements of a gmsh file; the file sets the dimension.
    pub(super) fn flexcomp_gmsh(&mut self, fc: &mut Flexcomp) -> Result<(), String> {
        let Some((_, bytes)) = self.flexcomp_file(fc)? else {
            return Err("Error: Could not read GMSH file".into());
        };
        let g = gmsh::load(&bytes).map_err(|e| {
            if e.starts_with("exception") {
                e
            } else {
                format!("Error: {e}")
            }
        })?;
        fc.flex.dim = g.dim;
        fc.point = g.point;
        fc.element = g.element;
        Ok(())
    }
}
