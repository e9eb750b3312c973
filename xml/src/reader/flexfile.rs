//! The points and elements of a `flexcomp` read from a file: a surface mesh (`MakeMesh`: STL,
//! OBJ or MuJoCo's MSH) or a gmsh file (`MakeGMSH`).

use super::flexcomp::Flexcomp;
use super::Reader;

impl Reader<'_> {
    /// `MakeMesh`.
    pub(super) fn flexcomp_mesh(&mut self, _fc: &mut Flexcomp) -> Result<(), String> {
        Err("flexcomp type 'mesh' is not supported by mjrs yet".into())
    }

    /// `MakeGMSH`.
    pub(super) fn flexcomp_gmsh(&mut self, _fc: &mut Flexcomp) -> Result<(), String> {
        Err("flexcomp type 'gmsh' is not supported by mjrs yet".into())
    }
}
