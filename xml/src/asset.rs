//! Asset files as the compiler hands them to the asset decoders: the bytes of a mesh, skin,
//! texture or height-field file, found through the VFS, a resource provider or on disk
//! (`mjCBase::LoadResource`).

/// The contents of one asset file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetFile {
    /// The file's name as MuJoCo resolves it (model directory + asset directory + file), used
    /// in messages and to infer the content type from the extension.
    pub path: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The file opened but its resource provider could not read it (MuJoCo's negative count
    /// from `mju_readResource`); `bytes` is then empty and each decoder reports it in its
    /// words ("could not read STL file '...'").
    pub read_failed: bool,
}

impl AssetFile {
    /// The bytes, or the decoder's message for a file that could not be read: "could not read
    /// `kind` file 'path'".
    pub fn readable(&self, kind: &str) -> Result<&[u8], String> {
        if self.read_failed {
            return Err(format!("could not read {kind} file '{}'", self.path));
        }
        Ok(&self.bytes)
    }
}
