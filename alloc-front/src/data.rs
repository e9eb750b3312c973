//! [`OwnedData`]: a `Data` on a heap buffer (MuJoCo's `mjData*`).

use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};
use mjrs_core::arena::DATA_ALIGN;
use mjrs_core::io::{reset_data, reset_data_keyframe};
use mjrs_core::model::SizeMismatch;
use mjrs_core::{ArenaError, Data, DataHeader, Model, ModelSizes};

use crate::buffer;

/// Message for the one `expect`: the buffer is allocated for the header's sizes at construction
/// and neither ever changes, so carving it again cannot fail.
const CARVED_AT_CONSTRUCTION: &str = "an owned data's buffer holds the layout of its sizes";

/// A [`Data`] that owns its buffer, arena included: what `mj_makeData` and `mj_copyData` return.
///
/// The arrays and the arena live in the buffer; the scalars (`time`, `ncon`, warning
/// counters, ...) and the arena's bookkeeping live in the header. [`OwnedData::view`] lends
/// them out as a `Data`.
pub struct OwnedData {
    header: DataHeader,
    buf: Vec<u8>,
}

impl OwnedData {
    /// A data for model `m`, reset to its defaults (`mj_makeData`). Fails only when the sizes
    /// overflow or the heap cannot provide [`Data::bytes_needed`] bytes.
    pub fn new(m: &Model) -> Result<Self, ArenaError> {
        let mut buf = buffer::zeroed(Data::bytes_needed(m.sizes())?)?;
        let header = Data::new(m, &mut buf)?.header();
        Ok(Self { header, buf })
    }

    /// The data as a core [`Data`], readable and writable. Changes to the arrays go to the
    /// buffer directly; changes to the scalars and the arena bookkeeping are kept when the
    /// guard is dropped.
    pub fn view(&mut self) -> DataGuard<'_> {
        let data = Data::view(&self.header, &mut self.buf).expect(CARVED_AT_CONSTRUCTION);
        DataGuard {
            data,
            header: &mut self.header,
        }
    }

    /// The scalars (`time`, `warning`, `ncon`, ...), without borrowing the data mutably.
    pub fn header(&self) -> &DataHeader {
        &self.header
    }

    /// The sizes of the model this data was made for.
    pub fn sizes(&self) -> &ModelSizes {
        &self.header.sizes
    }

    /// A copy of this data, arena included (`mj_copyData` into a new data). Unlike `clone`, a
    /// heap that cannot provide the buffer is an error. The plugin instances' objects are
    /// copied too, where MuJoCo's `mj_copyData(NULL, m, src)` makes fresh ones from the model:
    /// for MuJoCo's behaviour make a new data from the model and copy into it.
    pub fn try_clone(&self) -> Result<Self, ArenaError> {
        Ok(Self {
            header: self.header.clone(),
            buf: buffer::try_clone(&self.buf, DATA_ALIGN)?,
        })
    }

    /// Resets to the model's defaults (`mj_resetData`); `m` must be a model of the sizes
    /// this data was made for.
    pub fn reset(&mut self, m: &Model) -> Result<(), SizeMismatch> {
        self.check_model(m)?;
        reset_data(m, &mut self.view());
        Ok(())
    }

    /// Resets, then loads keyframe `key` when `0 <= key < nkey` (`mj_resetDataKeyframe`);
    /// `m` must be a model of the sizes this data was made for.
    pub fn reset_keyframe(&mut self, m: &Model, key: i32) -> Result<(), SizeMismatch> {
        self.check_model(m)?;
        reset_data_keyframe(m, &mut self.view(), key);
        Ok(())
    }

    /// The core's reset functions index `m`'s arrays with this data's sizes: they must agree.
    fn check_model(&self, m: &Model) -> Result<(), SizeMismatch> {
        if m.sizes() == self.sizes() {
            Ok(())
        } else {
            Err(SizeMismatch)
        }
    }
}

impl Clone for OwnedData {
    /// `mj_copyData` into a new data; see [`OwnedData::try_clone`] for the fallible version.
    fn clone(&self) -> Self {
        Self {
            header: self.header.clone(),
            buf: buffer::clone(&self.buf, DATA_ALIGN),
        }
    }
}

impl core::fmt::Debug for OwnedData {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OwnedData")
            .field("time", &self.header.time)
            .field("bytes", &self.buf.len())
            .finish_non_exhaustive()
    }
}

/// A [`Data`] borrowed from an [`OwnedData`]; dereferences to the data and writes its scalars
/// and arena bookkeeping back into the owner when dropped.
pub struct DataGuard<'a> {
    data: Data<'a>,
    header: &'a mut DataHeader,
}

impl<'a> Deref for DataGuard<'a> {
    type Target = Data<'a>;

    fn deref(&self) -> &Data<'a> {
        &self.data
    }
}

impl<'a> DerefMut for DataGuard<'a> {
    fn deref_mut(&mut self) -> &mut Data<'a> {
        &mut self.data
    }
}

impl Drop for DataGuard<'_> {
    fn drop(&mut self) {
        *self.header = self.data.header();
    }
}
