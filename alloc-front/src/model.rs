//! [`OwnedModel`]: a `Model` on a heap buffer (MuJoCo's `mjModel*`).

use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};
use mjrs_core::arena::MAX_ALIGN;
use mjrs_core::mjb::{self, MjbError};
use mjrs_core::model::N_MODEL_ARRAYS;
use mjrs_core::{ArenaError, Model, ModelHeader, ModelSizes, Real};

use crate::buffer;

/// Message for the one `expect`: the buffer is allocated for the header's sizes at construction
/// and neither ever changes, so carving it again cannot fail.
const CARVED_AT_CONSTRUCTION: &str = "an owned model's buffer holds the layout of its sizes";

/// A [`Model`] that owns its buffer: what `mj_loadModel` and `mj_copyModel` return.
///
/// The arrays live in the buffer; sizes and options live in the header. [`OwnedModel::view`]
/// lends them out as a `Model`.
pub struct OwnedModel {
    header: ModelHeader,
    buf: Vec<u8>,
}

impl OwnedModel {
    /// Loads an MJB blob (`mj_loadModelBuffer`; `mj_loadModel` without the file part, which is
    /// `mjrs_std::load_mjb`). Every size, index and address is validated by
    /// [`mjb::load`]; a bad blob is an error, and no memory is requested before the blob is
    /// known to be long enough for the sizes it claims.
    pub fn from_mjb(blob: &[u8]) -> Result<Self, MjbError> {
        let header = mjb::read_header(blob)?;
        check_nuserdata(&header.sizes)?;
        let bytes = header.model_bytes()?;
        check_blob_can_hold(blob, bytes)?;
        let mut buf = buffer::zeroed(bytes)?;
        // MJB files name plugins by slot: the first-party ones must be in theirs
        crate::register_first_party();
        let header = mjb::load(blob, &mut buf)?.header();
        Ok(Self { header, buf })
    }

    /// A model of these sizes with every array zeroed and options at MuJoCo's defaults (the
    /// empty model `mj_makeModel` allocates), for programs that fill a model themselves.
    /// A zeroed model is not validated: fill it consistently before simulating it.
    pub fn zeroed(sizes: ModelSizes) -> Result<Self, ArenaError> {
        let mut buf = buffer::zeroed(Model::bytes_needed(&sizes)?)?;
        let header = Model::carve(sizes, &mut buf)?.header();
        Ok(Self { header, buf })
    }

    /// The model as a core [`Model`], readable and writable. Changes to the arrays go to the
    /// buffer directly; changes to `opt`, `vis` and `stat` are kept when the guard is dropped.
    pub fn view(&mut self) -> ModelGuard<'_> {
        let model = Model::view(&self.header, &mut self.buf).expect(CARVED_AT_CONSTRUCTION);
        ModelGuard {
            model,
            header: &mut self.header,
        }
    }

    /// Sizes and options, without borrowing the model mutably.
    pub fn header(&self) -> &ModelHeader {
        &self.header
    }

    /// The model's sizes (`m.nq`, `m.nv`, ...).
    pub fn sizes(&self) -> &ModelSizes {
        &self.header.sizes
    }

    /// A copy of this model (`mj_copyModel` with a NULL destination). Unlike `clone`, a heap
    /// that cannot provide the buffer is an error.
    pub fn try_clone(&self) -> Result<Self, ArenaError> {
        Ok(Self {
            header: self.header,
            buf: buffer::try_clone(&self.buf, MAX_ALIGN)?,
        })
    }

    /// The model as an MJB blob (`mj_saveModel` to a buffer), with an `mjtNum` of `real_bytes`:
    /// 8 for MuJoCo's format, 4 for compact `f32` blobs.
    pub fn to_mjb(&mut self, real_bytes: usize) -> Result<Vec<u8>, MjbError> {
        // `save_size` trusts `real_bytes`; `save` would reject it only after we allocated
        if real_bytes != 4 && real_bytes != 8 {
            return Err(MjbError::BadRealSize(
                i32::try_from(real_bytes).unwrap_or(i32::MAX),
            ));
        }
        let m = self.view();
        let mut out = buffer::zeroed(mjb::save_size(&m, real_bytes))?;
        let n = mjb::save(&m, &mut out, real_bytes)?;
        out.truncate(n);
        Ok(out)
    }
}

impl Clone for OwnedModel {
    /// `mj_copyModel`; see [`OwnedModel::try_clone`] for the fallible version.
    fn clone(&self) -> Self {
        Self {
            header: self.header,
            buf: buffer::clone(&self.buf, MAX_ALIGN),
        }
    }
}

impl core::fmt::Debug for OwnedModel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OwnedModel")
            .field("sizes", &self.header.sizes)
            .field("bytes", &self.buf.len())
            .finish_non_exhaustive()
    }
}

/// The most `nuserdata` a blob may ask for: the compiler's limit, MuJoCo's `INT_MAX` bytes.
const MAX_NUSERDATA: usize = i32::MAX as usize / size_of::<Real>();

/// Refuses a `nuserdata` over [`MAX_NUSERDATA`]. The blob holds no user data, yet every data
/// made for the model zeroes that many numbers at once: of the sizes not backed by the blob's
/// own bytes, it is the one that costs memory (the arena is taken lazily).
fn check_nuserdata(sizes: &ModelSizes) -> Result<(), MjbError> {
    if sizes.nuserdata <= MAX_NUSERDATA {
        return Ok(());
    }
    Err(MjbError::BadSize {
        name: "nuserdata",
        value: i64::try_from(sizes.nuserdata).unwrap_or(i64::MAX),
    })
}

/// Refuses blobs too short for the model they describe before anything is allocated: a blob
/// stores every array element in at least half the bytes the model needs for it (an `mjtNum`
/// of 4 bytes becomes an 8-byte `Real`), plus alignment padding per array. A 20-byte blob that
/// claims a gigabyte model is rejected here with [`mjb::load`]'s own diagnosis.
fn check_blob_can_hold(blob: &[u8], model_bytes: usize) -> Result<(), MjbError> {
    let padding = MAX_ALIGN * (N_MODEL_ARRAYS + 1);
    let limit = blob.len().saturating_mul(2).saturating_add(padding);
    if model_bytes <= limit {
        return Ok(());
    }
    // the checks of `load` come before it touches the (here empty) buffer
    match mjb::load(blob, &mut []) {
        Err(MjbError::Memory(ArenaError::BufferTooSmall { .. })) | Ok(_) => {
            Err(MjbError::Truncated { what: "arrays" })
        }
        Err(e) => Err(e),
    }
}

/// A [`Model`] borrowed from an [`OwnedModel`]; dereferences to the model and writes its
/// options back into the owner when dropped.
pub struct ModelGuard<'a> {
    model: Model<'a>,
    header: &'a mut ModelHeader,
}

impl<'a> Deref for ModelGuard<'a> {
    type Target = Model<'a>;

    fn deref(&self) -> &Model<'a> {
        &self.model
    }
}

impl<'a> DerefMut for ModelGuard<'a> {
    fn deref_mut(&mut self) -> &mut Model<'a> {
        &mut self.model
    }
}

impl Drop for ModelGuard<'_> {
    fn drop(&mut self) {
        *self.header = self.model.header();
    }
}
