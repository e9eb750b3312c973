//! Textures: PNG and custom-format files, cube and skybox layouts, built-in procedural textures
//! (MuJoCo 3.1.6's `mjCTexture`, `user_objects.cc`).
//!
//! [`compile`] turns one [`Texture`] spec into the `tex_type`, `tex_width`, `tex_height` and
//! `tex_rgb` of the model. A 2D texture is `width` x `height` pixels; a cube or skybox is six
//! square faces stacked vertically (right, left, up, down, front, back), `height = 6 * width`,
//! except when a single file is repeated on all faces, which stays square.

mod builtin;
mod crand;
mod lodepng;
pub(crate) mod png;

pub use crand::CRand;

use crate::asset::AssetFile;
use crate::error::XmlError;
use crate::limits;
use crate::spec::{builtin as builtin_type, Texture};
use crate::util;
use mjrs_core::types::TEXTURE_2D;

use self::builtin::{builtin_2d, builtin_cube, color_bytes};
use self::png::{load_png_cached, Image, Want};

/// A compiled texture: the `tex_*` fields of one texture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledTexture {
    /// `tex_type` (`TEXTURE_2D`, `TEXTURE_CUBE`, `TEXTURE_SKYBOX`).
    pub ttype: i32,
    /// `tex_width`.
    pub width: i32,
    /// `tex_height`.
    pub height: i32,
    /// `tex_rgb`: `3 * width * height` bytes, rows top to bottom.
    pub rgb: Vec<u8>,
}

/// Largest texture MuJoCo can hold: its `3 * width * height` is a C `int`.
const MAX_BYTES: u64 = i32::MAX as u64;

/// `mjCTexture::Compile`.
///
/// The caller resolves file names (`texturedir`, `strippath`, the VFS) and passes the bytes:
/// `file` for `spec.file`, `cubefiles[i]` for `spec.cubefiles[i]` (`None` when the name is empty
/// or the file could not be found: MuJoCo's "resource not found" error is then raised at the
/// point MuJoCo would open the file, after the content-type checks). Messages quote
/// `spec.file` and `spec.cubefiles` as given: MuJoCo quotes them after `strippath`, so pass a
/// spec with stripped names when that flag is set.
///
/// `rng` is the C library's `rand()` that random marks draw from: create one
/// [`CRand::mujoco`] per model compilation and pass it to the textures in order, as MuJoCo
/// seeds `srand(123)` once per `mjCModel::Compile`.
pub fn compile(
    spec: &Texture,
    id: usize,
    file: Option<&AssetFile>,
    cubefiles: &[Option<AssetFile>; 6],
    rng: &mut CRand,
) -> Result<CompiledTexture, XmlError> {
    let tex = Ctx { spec, id };
    let (width, height, rgb) = if spec.builtin != builtin_type::NONE {
        tex.builtin(rng)?
    } else if !spec.file.is_empty() {
        if spec.ttype == TEXTURE_2D {
            tex.load_2d(file)?
        } else {
            tex.load_cube_single(file)?
        }
    } else {
        if spec.ttype == TEXTURE_2D {
            return Err(tex.error("Cannot load 2D texture from separate files, texture"));
        }
        if spec.cubefiles.iter().all(String::is_empty) {
            return Err(tex.error("No cubefiles_ defined in cube or skybox texture"));
        }
        tex.load_cube_separate(cubefiles)?
    };
    if rgb.is_empty() {
        return Err(tex.error(format!(
            "texture '{}' (id {id}) was not specified",
            spec.name
        )));
    }
    Ok(CompiledTexture {
        ttype: spec.ttype,
        width,
        height,
        rgb,
    })
}

/// The texture being compiled, for messages.
struct Ctx<'a> {
    spec: &'a Texture,
    id: usize,
}

/// Width, height and pixels of a compiled texture.
type Pixels = (i32, i32, Vec<u8>);

impl Ctx<'_> {
    /// `mjCError(this, ...)`.
    fn error(&self, message: impl Into<String>) -> XmlError {
        XmlError::compile(message, &self.spec.name, self.id, &self.spec.info)
    }

    /// "Could not allocate memory for texture '<file>' (id N)".
    fn alloc_error(&self) -> XmlError {
        self.error(format!(
            "Could not allocate memory for texture '{}' (id {})",
            self.spec.file, self.id
        ))
    }

    /// `n` zeroed bytes of texture data; `n` is within MuJoCo's limit (checked by the caller),
    /// a heap that cannot provide them is MuJoCo's error.
    fn zeroed(&self, n: usize) -> Result<Vec<u8>, XmlError> {
        limits::filled(n, 0, "texture")
            .map_err(|_| self.error("Could not allocate memory for texture"))
    }

    /// The built-in texture (`Builtin2D`, `BuiltinCube`).
    fn builtin(&self, rng: &mut CRand) -> Result<Pixels, XmlError> {
        let spec = self.spec;
        if spec.width < 1 || spec.height < 1 {
            return Err(self.error("Invalid width or height of builtin texture"));
        }
        let width = spec.width;
        let height = if spec.ttype == TEXTURE_2D {
            spec.height
        } else {
            width.checked_mul(6).unwrap_or(i32::MAX)
        };
        if 3 * u64::from(width.unsigned_abs()) * u64::from(height.unsigned_abs()) > MAX_BYTES {
            return Err(self.error("Could not allocate memory for texture"));
        }
        let (w, h) = (width as usize, height as usize);
        let rgb = self.zeroed(3 * w * h)?;
        let rgb = if spec.ttype == TEXTURE_2D {
            builtin_2d(spec, rgb, w, h, rng)
        } else {
            builtin_cube(spec, rgb, w, rng)
        };
        Ok((width, height, rgb))
    }

    /// The content type of a texture file: the `content_type` attribute or the file's
    /// extension, custom format by default (`GetAssetContentType` in `LoadFlip`).
    fn content_type(&self, filename: &str) -> Result<String, XmlError> {
        let raw = &self.spec.content_type;
        let ty = if raw.is_empty() {
            util::ext_to_content_type(filename).to_string()
        } else {
            let (t, s) = util::parse_content_type(raw)
                .ok_or_else(|| self.error("invalid format for content_type"))?;
            format!("{t}/{s}")
        };
        let ty = if ty.is_empty() {
            "image/vnd.mujoco.texture".to_string()
        } else {
            ty
        };
        if ty != "image/png" && ty != "image/vnd.mujoco.texture" {
            return Err(self.error(format!("unsupported content type: '{ty}'")));
        }
        Ok(ty)
    }

    /// `mjCTexture::LoadFlip`: one file decoded to RGB, flipped as asked.
    fn load_flip(&self, name: &str, file: Option<&AssetFile>) -> Result<Image, XmlError> {
        let path = file.map_or(name, |f| f.path.as_str());
        let ty = self.content_type(path)?;
        let file = file.ok_or_else(|| {
            XmlError::model(format!(
                "resource not found via provider or OS filesystem: '{name}'"
            ))
        })?;
        let mut image = if ty == "image/png" {
            load_png_cached(file, Want::Rgb).map_err(|m| self.error(m))?
        } else {
            self.load_custom(file)?
        };

        let (w, h) = (image.width as usize, image.height as usize);
        if self.spec.hflip {
            for row in image.data.chunks_exact_mut(3 * w) {
                for c in 0..w / 2 {
                    let c1 = w - 1 - c;
                    for j in 0..3 {
                        row.swap(3 * c + j, 3 * c1 + j);
                    }
                }
            }
        }
        if self.spec.vflip {
            for r in 0..h / 2 {
                let r1 = h - 1 - r;
                let (top, bottom) = image.data.split_at_mut(3 * w * r1);
                top[3 * w * r..3 * w * (r + 1)].swap_with_slice(&mut bottom[..3 * w]);
            }
        }
        Ok(image)
    }

    /// `mjCTexture::LoadCustom`: two native-endian `int`s, width and height, then the RGB bytes.
    fn load_custom(&self, file: &AssetFile) -> Result<Image, XmlError> {
        let name = &file.path;
        let bytes = file.readable("texture").map_err(|e| self.error(e))?;
        if bytes.is_empty() {
            return Err(self.error(format!("texture file is empty: '{name}'")));
        }
        let size_error = || {
            self.error(format!(
                "Non-PNG texture, assuming custom binary file format,\n\
                 unexpected file size in file '{name}'"
            ))
        };
        // MuJoCo reads the header without checking the size; a shorter file cannot match.
        let header = bytes.get(..8).ok_or_else(size_error)?;
        let w = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        let h = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        if w < 1 || h < 1 {
            return Err(self.error(format!(
                "Non-PNG texture, assuming custom binary file format,\n\
                 non-positive texture dimensions in file '{name}'"
            )));
        }
        // The dimensions are unsigned in MuJoCo: a negative one passes the check above and
        // fails this one (so do products that wrap around, which MuJoCo may accept).
        let n = 3 * u64::from(w) * u64::from(h);
        if bytes.len() as u64 != 8 + n {
            return Err(size_error());
        }
        Ok(Image {
            width: w,
            height: h,
            data: bytes[8..].to_vec(),
        })
    }

    /// `mjCTexture::Load2D`.
    fn load_2d(&self, file: Option<&AssetFile>) -> Result<Pixels, XmlError> {
        let image = self.load_flip(&self.spec.file, file)?;
        let (width, height) = self.dims(&image)?;
        Ok((width, height, image.data))
    }

    /// The image's size as MuJoCo's `int` width and height.
    fn dims(&self, image: &Image) -> Result<(i32, i32), XmlError> {
        let bytes = 3 * u64::from(image.width) * u64::from(image.height);
        match (i32::try_from(image.width), i32::try_from(image.height)) {
            (Ok(w), Ok(h)) if bytes <= MAX_BYTES => Ok((w, h)),
            _ => Err(self.alloc_error()),
        }
    }

    /// `mjCTexture::LoadCubeSingle`: one file repeated on every face (grid 1 x 1) or a grid of
    /// faces laid out by `gridlayout`.
    fn load_cube_single(&self, file: Option<&AssetFile>) -> Result<Pixels, XmlError> {
        let spec = self.spec;
        let [rows, cols] = spec.gridsize;
        if rows < 1 || cols < 1 || i64::from(rows) * i64::from(cols) > 12 {
            return Err(
                self.error("gridsize must be non-zero and no more than 12 squares in texture")
            );
        }
        let (rows, cols) = (rows as u32, cols as u32);

        let image = self.load_flip(&spec.file, file)?;
        let (w, h) = (image.width, image.height);
        if w / cols != h / rows || w % cols != 0 || h % rows != 0 {
            return Err(self.error(format!(
                "PNG size must be integer multiple of gridsize in texture '{}' (id {})",
                spec.file, self.id
            )));
        }

        // Repeated: the square image itself.
        if rows == 1 && cols == 1 {
            let (width, _) = self.dims(&image)?;
            return Ok((width, width, image.data));
        }

        // Grid: six faces cut out of it.
        let side = (w / cols) as usize;
        if 18 * (side as u64) * (side as u64) > MAX_BYTES {
            return Err(self.alloc_error());
        }
        let face = 3 * side * side;
        let mut rgb = self.zeroed(6 * face)?;
        let mut loaded = [false; 6];
        for k in 0..(rows * cols) as usize {
            let i = match spec.gridlayout[k] {
                b'R' => 0,
                b'L' => 1,
                b'U' => 2,
                b'D' => 3,
                b'F' => 4,
                b'B' => 5,
                b'.' => continue,
                _ => return Err(self.error("gridlayout symbol is not among '.RLUDFB' in texture")),
            };
            let rstart = side * (k / cols as usize);
            let cstart = side * (k % cols as usize);
            for j in 0..side {
                let src = 3 * ((j + rstart) * w as usize + cstart);
                let dst = i * face + 3 * side * j;
                rgb[dst..dst + 3 * side].copy_from_slice(&image.data[src..src + 3 * side]);
            }
            loaded[i] = true;
        }
        self.fill_missing(&mut rgb, &loaded, face);
        Ok((side as i32, 6 * side as i32, rgb))
    }

    /// Faces no file gave are `rgb1`.
    fn fill_missing(&self, rgb: &mut [u8], loaded: &[bool; 6], face: usize) {
        if face == 0 {
            return;
        }
        let c1 = color_bytes(&self.spec.rgb1);
        for (side, _) in rgb.chunks_exact_mut(face).zip(loaded).filter(|(_, l)| !**l) {
            for px in side.chunks_exact_mut(3) {
                px.copy_from_slice(&c1);
            }
        }
    }

    /// `mjCTexture::LoadCubeSeparate`: one square file per face; missing faces are `rgb1`.
    fn load_cube_separate(&self, files: &[Option<AssetFile>; 6]) -> Result<Pixels, XmlError> {
        let mut rgb: Vec<u8> = Vec::new();
        let mut width = 0u32;
        let mut loaded = [false; 6];
        for (i, name) in self.spec.cubefiles.iter().enumerate() {
            if name.is_empty() {
                continue;
            }
            let image = self.load_flip(name, files[i].as_ref())?;
            if image.width != image.height {
                return Err(self.error(format!(
                    "Non-square PNG file '{name}' in cube or skybox id {}",
                    self.id
                )));
            }
            if rgb.is_empty() {
                width = image.width;
                if 18 * u64::from(width) * u64::from(width) > MAX_BYTES {
                    return Err(self.error("Could not allocate memory for texture"));
                }
                rgb = self.zeroed(18 * (width as usize) * (width as usize))?;
            } else if image.width != width {
                return Err(self.error(format!(
                    "PNG file '{name}' has incompatible size in texture id {}",
                    self.id
                )));
            }
            let face = 3 * (width as usize) * (width as usize);
            rgb[i * face..(i + 1) * face].copy_from_slice(&image.data);
            loaded[i] = true;
        }
        let face = 3 * (width as usize) * (width as usize);
        self.fill_missing(&mut rgb, &loaded, face);
        Ok((width as i32, 6 * width as i32, rgb))
    }
}
