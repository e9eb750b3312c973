//! Asset files as the compiler hands them to the asset decoders: the bytes of a mesh, skin,
//! texture or height-field file, found through the VFS or on disk (`mjCBase::LoadResource`).

/// The contents of one asset file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetFile {
    /// The file's name as MuJoCo resolves it (model directory + asset directory + file), used
    /// in messages and to infer the content type from the extension.
    pub path: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}
