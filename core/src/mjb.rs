//! MuJoCo 3.1.6's binary model format (MJB), read and written on byte slices.
//!
//! The format is MuJoCo's `mj_saveModel` output, byte for byte:
//! 1. a header of 5 `int`s: the id 54321, `sizeof(mjtNum)`, the number of `int` sizes (76), the
//!    number of `size_t` sizes (2) and the number of arrays (376);
//! 2. the sizes in `MJMODEL_INTS` order: 76 `int`s, then `narena` and `nbuffer` as 64-bit;
//! 3. `mjOption`, `mjVisual` and `mjStatistic` in C layout (with `mjOption`'s tail padding);
//! 4. every array of the layout table, in table order, without padding.
//!
//! All numbers are little-endian. `mjtNum` is 8 bytes in MuJoCo's blobs; mjrs also reads and
//! writes blobs with a 4-byte `mjtNum`, converting to and from [`Real`](crate::Real) either way.
//!
//! [`load`] checks every size, then every index and address (see [`crate::validate`]) before
//! returning a `Model`: a truncated, corrupted or hostile blob is an [`MjbError`], and a `Model`
//! that loads is safe to simulate.
//!
//! Loading costs about a copy of the blob: each array whose element is as wide in the blob as in
//! memory (all of them when the blob's `mjtNum` is [`Real`](crate::Real)'s) is one `memcpy`,
//! the others one converting loop each, and validation reads the integer arrays once (ids,
//! addresses, face indices), not the float data or the texture bytes. `mjrs speed M.mjb
//! --load N` and `bench/mjb_load.sh` measure it.
//!
//! [`load_in_place`] copies nothing it can avoid: the model's arrays are the blob's own bytes
//! where they have the build's width and are aligned, which MJB's unpadded packing leaves to
//! chance after every odd-length byte array; the others are converted into a small RAM buffer.

use crate::arena::{ArenaError, Carver, LayoutCounter};
use crate::layout::{
    ArrayVisitor, ArrayVisitorMut, Elem, FieldInfo, Kind, Scalar, StructFieldsMut,
};
use crate::model::{
    mujoco_nnames_map, Model, ModelHeader, ModelSizes, Options, SizeCounts, Visual, MODEL_ARRAYS,
    N_MODEL_ARRAYS, N_SIZE_IDS,
};
use crate::pod::{Place, Places, Pod, ReadOnly};
use crate::real::REAL_BYTES;
use crate::validate::{validate, ValidationError};

/// The id that starts every MJB file.
pub const MJB_ID: i32 = 54321;
const NHEADER: usize = 5;
const NINT: usize = 76;
const NSIZE: usize = 2;
const _: () = assert!(N_SIZE_IDS == NINT, "the size table has MuJoCo's int sizes");

/// Why an MJB blob was rejected.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MjbError {
    /// The blob ends before `what` is complete.
    Truncated {
        /// The part being read.
        what: &'static str,
    },
    /// The first int is not 54321: not an MJB file.
    BadMagic(i32),
    /// `sizeof(mjtNum)` in the header is neither 4 nor 8.
    BadRealSize(i32),
    /// The header's counts of ints, size_ts or arrays differ from MuJoCo 3.1.6's.
    VersionMismatch {
        /// Which count.
        what: &'static str,
        /// Value in the file.
        found: i32,
        /// Value for MuJoCo 3.1.6.
        expected: i32,
    },
    /// A size is negative or too large.
    BadSize {
        /// Size name.
        name: &'static str,
        /// Its value.
        value: i64,
    },
    /// The stored `nbuffer` disagrees with the sizes ("Corrupted model, wrong size parameters").
    NbufferMismatch {
        /// Value in the file.
        found: u64,
        /// Value the sizes imply.
        expected: u64,
    },
    /// Bytes remain after the last array ("Model file is too large").
    TrailingBytes(usize),
    /// The model's content is inconsistent; see the error.
    Invalid(ValidationError),
    /// The destination buffer is too small or sizes overflow.
    Memory(ArenaError),
    /// [`load_in_place`] views little-endian MJB bytes, which a big-endian target cannot
    /// (use [`load`]).
    BigEndian,
    /// The output slice given to [`save`] is too small.
    OutputTooSmall {
        /// Bytes needed.
        needed: usize,
    },
}

impl core::error::Error for MjbError {}

impl core::fmt::Display for MjbError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MjbError::Truncated { what } => {
                write!(f, "truncated MJB: ran out of data while reading {what}")
            }
            MjbError::BadMagic(id) => {
                write!(f, "not an MJB file: header id {id}, expected {MJB_ID}")
            }
            MjbError::BadRealSize(n) => {
                write!(f, "MJB has sizeof(mjtNum) = {n}; only 4 and 8 exist")
            }
            MjbError::VersionMismatch {
                what,
                found,
                expected,
            } => write!(
                f,
                "MJB from another MuJoCo version: {found} {what}, MuJoCo 3.1.6 has {expected}"
            ),
            MjbError::BadSize { name, value } => write!(f, "invalid MJB: size {name} = {value}"),
            MjbError::NbufferMismatch { found, expected } => write!(
                f,
                "corrupted MJB: nbuffer is {found}, the sizes imply {expected}"
            ),
            MjbError::TrailingBytes(n) => write!(f, "invalid MJB: {n} bytes after the last array"),
            MjbError::Invalid(e) => write!(f, "invalid MJB: {e}"),
            MjbError::Memory(e) => write!(f, "{e}"),
            MjbError::BigEndian => f.write_str(
                "a big-endian target cannot use an MJB blob in place; load a copy instead",
            ),
            MjbError::OutputTooSmall { needed } => {
                write!(f, "output buffer too small: {needed} bytes needed")
            }
        }
    }
}

impl From<ArenaError> for MjbError {
    fn from(e: ArenaError) -> Self {
        MjbError::Memory(e)
    }
}

impl From<ValidationError> for MjbError {
    fn from(e: ValidationError) -> Self {
        MjbError::Invalid(e)
    }
}

/// What the first part of a blob says: its `mjtNum` width and the model's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// `sizeof(mjtNum)` of the blob: 8 (MuJoCo) or 4.
    pub real_bytes: usize,
    /// The model's sizes.
    pub sizes: ModelSizes,
}

impl Header {
    /// Bytes a buffer must have to hold this model ([`Model::bytes_needed`]).
    pub fn model_bytes(&self) -> Result<usize, ArenaError> {
        Model::bytes_needed(&self.sizes)
    }
}

/// Little-endian reader over a blob; every read is bounds-checked.
struct Reader<'b> {
    bytes: &'b [u8],
    pos: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'b [u8], MjbError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(MjbError::Truncated { what })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn i32(&mut self, what: &'static str) -> Result<i32, MjbError> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, MjbError> {
        let b = self.take(8, what)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

/// Bytes of one element of `kind` in a blob whose `mjtNum` has `real_bytes`.
const fn elem_bytes(kind: Kind, real_bytes: usize) -> usize {
    match kind {
        Kind::Num => real_bytes,
        Kind::Float | Kind::Int => 4,
        Kind::Byte | Kind::Char => 1,
        Kind::Ptr => 8,
        Kind::Struct => 0,
    }
}

/// Decodes one element of `kind` from its bytes `b`.
fn decode(kind: Kind, b: &[u8]) -> Scalar {
    let le4 = || [b[0], b[1], b[2], b[3]];
    let le8 = || {
        let mut a = [0; 8];
        a.copy_from_slice(&b[..8]);
        a
    };
    match kind {
        Kind::Num if b.len() == 8 => Scalar::Real(f64::from_le_bytes(le8())),
        Kind::Num | Kind::Float => Scalar::Real(f64::from(f32::from_le_bytes(le4()))),
        Kind::Int => Scalar::Int(i64::from(i32::from_le_bytes(le4()))),
        Kind::Ptr => Scalar::Int(u64::from_le_bytes(le8()) as i64),
        Kind::Byte | Kind::Char | Kind::Struct => Scalar::Int(i64::from(b[0])),
    }
}

/// Encodes one element into `out` (whose length is the element's width).
fn encode(kind: Kind, s: Scalar, out: &mut [u8]) {
    let as_f64 = |s: Scalar| match s {
        Scalar::Real(r) => r,
        Scalar::Int(i) => i as f64,
    };
    let as_i64 = |s: Scalar| match s {
        Scalar::Int(i) => i,
        Scalar::Real(r) => r as i64,
    };
    match (kind, out.len()) {
        (Kind::Num, 8) => out.copy_from_slice(&as_f64(s).to_le_bytes()),
        (Kind::Num, _) | (Kind::Float, _) => out.copy_from_slice(&(as_f64(s) as f32).to_le_bytes()),
        (Kind::Int, _) => out.copy_from_slice(&(as_i64(s) as i32).to_le_bytes()),
        (Kind::Ptr, _) => out.copy_from_slice(&(as_i64(s) as u64).to_le_bytes()),
        _ => out[0] = as_i64(s) as u8,
    }
}

/// Bytes of a C struct given as its field list: fields in order, no inner padding (true for
/// `mjOption`, `mjVisual`, `mjStatistic`), tail padded to the largest field alignment.
const fn c_struct_bytes(fields: &[(Kind, usize)], real_bytes: usize) -> usize {
    let (mut size, mut align, mut i) = (0, 1, 0);
    while i < fields.len() {
        let (kind, n) = fields[i];
        let b = elem_bytes(kind, real_bytes);
        if b > align {
            align = b;
        }
        size += b * n;
        i += 1;
    }
    size.div_ceil(align) * align
}

/// Bytes of `mjOption` in a blob whose `mjtNum` has `real_bytes` (4 or 8).
fn options_bytes(real_bytes: usize) -> usize {
    const NARROW: usize = c_struct_bytes(Options::FIELDS, 4);
    const WIDE: usize = c_struct_bytes(Options::FIELDS, 8);
    if real_bytes == 4 {
        NARROW
    } else {
        WIDE
    }
}

/// `mjVisual` is 156 four-byte fields: 624 bytes.
const VISUAL_BYTES: usize = 624;

/// Calls `f` with every field of `Visual`, in C order.
fn visual_for_each(v: &Visual, mut f: impl FnMut(Kind, &[Scalar])) {
    v.global.for_each(|_, k, s| f(k, s));
    v.quality.for_each(|_, k, s| f(k, s));
    v.headlight.for_each(|_, k, s| f(k, s));
    v.map.for_each(|_, k, s| f(k, s));
    v.scale.for_each(|_, k, s| f(k, s));
    v.rgba.for_each(|_, k, s| f(k, s));
}

/// Reads the header and sizes of a blob, so the caller can size the buffer for [`load`].
pub fn read_header(blob: &[u8]) -> Result<Header, MjbError> {
    let mut r = Reader {
        bytes: blob,
        pos: 0,
    };
    read_header_from(&mut r)
}

fn read_header_from(r: &mut Reader) -> Result<Header, MjbError> {
    let id = r.i32("the header")?;
    if id != MJB_ID {
        return Err(MjbError::BadMagic(id));
    }
    let real = r.i32("the header")?;
    if real != 4 && real != 8 {
        return Err(MjbError::BadRealSize(real));
    }
    for (what, expected) in [
        ("int sizes", NINT),
        ("size_t sizes", NSIZE),
        ("arrays", N_MODEL_ARRAYS),
    ] {
        let found = r.i32("the header")?;
        if found != expected as i32 {
            return Err(MjbError::VersionMismatch {
                what,
                found,
                expected: expected as i32,
            });
        }
    }
    Ok(Header {
        real_bytes: real as usize,
        sizes: read_sizes(r)?,
    })
}

fn read_sizes(r: &mut Reader) -> Result<ModelSizes, MjbError> {
    // the ints a blob cut short in its sizes has are checked before the cut is reported, as
    // when they were read one by one (the missing ones read as 0, a valid count)
    let n = (r.bytes.len() - r.pos).min(4 * NINT) / 4;
    let mut ints = [0; NINT];
    for (v, b) in ints.iter_mut().zip(r.take(4 * n, "sizes")?.chunks_exact(4)) {
        *v = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    let mut s = ModelSizes::from_ints(&ints).map_err(|id| MjbError::BadSize {
        name: id.name(),
        value: i64::from(ints[id as usize]),
    })?;
    if n < NINT {
        return Err(MjbError::Truncated { what: "sizes" });
    }
    for (name, slot) in [("narena", &mut s.narena), ("nbuffer", &mut s.nbuffer)] {
        let v = r.u64("sizes")?;
        *slot = usize::try_from(v).map_err(|_| MjbError::BadSize {
            name,
            value: v as i64,
        })?;
    }
    if s.nbody == 0 {
        return Err(MjbError::BadSize {
            name: "nbody",
            value: 0,
        });
    }
    let expected = mujoco_nnames_map(&s);
    if s.nnames_map != expected {
        return Err(MjbError::BadSize {
            name: "nnames_map",
            value: s.nnames_map as i64,
        });
    }
    Ok(s)
}

/// MuJoCo's `nbuffer` for these sizes: the arrays laid out with 64-byte alignment, `mjtNum`
/// of `real_bytes`. `None` on overflow.
pub fn mujoco_nbuffer(s: &ModelSizes, real_bytes: usize) -> Option<usize> {
    Some(blob_layout(&s.counts(), real_bytes)?.nbuffer)
}

/// Byte counts of a blob's arrays.
struct BlobLayout {
    /// All arrays, packed as in an MJB.
    arrays: usize,
    /// MuJoCo's `nbuffer`: the arrays each at a multiple of 64 bytes.
    nbuffer: usize,
}

/// The byte counts of the arrays for sizes `c` with an `mjtNum` of `real_bytes`, in one walk
/// of the table; `None` on overflow.
fn blob_layout(c: &SizeCounts, real_bytes: usize) -> Option<BlobLayout> {
    let (mut arrays, mut nbuffer) = (0usize, 0usize);
    for desc in &MODEL_ARRAYS {
        let bytes = desc
            .len(c)?
            .checked_mul(elem_bytes(desc.kind, real_bytes))?;
        nbuffer = (nbuffer.checked_add(63)? & !63).checked_add(bytes)?;
        // never overflows: `arrays` is at most `nbuffer`
        arrays += bytes;
    }
    Some(BlobLayout { arrays, nbuffer })
}

/// Calls `f` with every array of the table for `sizes` (without a model); `None`, after the
/// arrays before it, at the first whose column count overflows.
fn visit_layout(s: &ModelSizes, mut f: impl FnMut(&FieldInfo)) -> Option<()> {
    let c = s.counts();
    for desc in &MODEL_ARRAYS {
        f(&desc.info(&c)?);
    }
    Some(())
}

/// Fills the model's arrays from the reader, converting element widths.
struct FillArrays<'r, 'b> {
    r: &'r mut Reader<'b>,
    real_bytes: usize,
    err: Option<MjbError>,
}

impl ArrayVisitorMut for FillArrays<'_, '_> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &mut [T]) {
        if self.err.is_some() {
            return;
        }
        let w = elem_bytes(info.kind, self.real_bytes);
        let Some(bytes) = data.len().checked_mul(w) else {
            self.err = Some(MjbError::Memory(ArenaError::SizeOverflow));
            return;
        };
        match self.r.take(bytes, info.name) {
            Ok(src) if w == 8 && REAL_BYTES == 4 && BOX_FIELDS.contains(&info.name) => {
                for (d, b) in data.chunks_exact_mut(6).zip(src.chunks_exact(6 * w)) {
                    let wide =
                        core::array::from_fn(|k| real_of(decode(info.kind, &b[8 * k..8 * k + 8])));
                    for (d, x) in d.iter_mut().zip(narrow_box(wide)) {
                        *d = T::from_scalar(Scalar::Real(f64::from(x)));
                    }
                }
            }
            Ok(src) => fill_array(info.kind, src, data),
            Err(e) => self.err = Some(e),
        }
    }
}

/// Decodes the little-endian elements `src` (exactly `data.len()` of them) into `data`.
///
/// An element as wide in the blob as in memory is one copy of the whole array on a
/// little-endian target (a `memcpy`: the blob's arrays are unaligned, so they are copied, not
/// viewed). Otherwise (an `mjtNum` of the other precision, or a big-endian target) one
/// converting loop runs per array, with the element kind chosen outside the loop.
fn fill_array<T: Elem>(kind: Kind, src: &[u8], data: &mut [T]) {
    if cfg!(target_endian = "little") && core::mem::size_of_val(data) == src.len() {
        crate::pod::as_bytes_mut(data).copy_from_slice(src);
        return;
    }
    let width = src.len().checked_div(data.len()).unwrap_or(0);
    match (kind, width) {
        (Kind::Num, 8) => convert(src, data, |b: [u8; 8]| Scalar::Real(f64::from_le_bytes(b))),
        (Kind::Num | Kind::Float, 4) => convert(src, data, |b: [u8; 4]| {
            Scalar::Real(f64::from(f32::from_le_bytes(b)))
        }),
        (Kind::Int, 4) => convert(src, data, |b: [u8; 4]| {
            Scalar::Int(i64::from(i32::from_le_bytes(b)))
        }),
        (Kind::Ptr, 8) => convert(src, data, |b: [u8; 8]| {
            Scalar::Int(u64::from_le_bytes(b) as i64)
        }),
        _ => convert(src, data, |b: [u8; 1]| Scalar::Int(i64::from(b[0]))),
    }
}

/// `data[i] = decode(src[N i..N (i + 1)])` for every element.
fn convert<T: Elem, const N: usize>(
    src: &[u8],
    data: &mut [T],
    decode: impl Fn([u8; N]) -> Scalar,
) {
    for (d, b) in data.iter_mut().zip(src.chunks_exact(N)) {
        let mut a = [0; N];
        a.copy_from_slice(b);
        *d = T::from_scalar(decode(a));
    }
}

/// Loads an MJB blob into a `Model` carved from `buf` (which needs
/// [`read_header`]`(blob)?.model_bytes()?` bytes), then validates it.
pub fn load<'a>(blob: &[u8], buf: &'a mut [u8]) -> Result<Model<'a>, MjbError> {
    let (header, mut r) = open(blob)?;
    // not `Model::carve`: zeroing the arrays first would double the cost of a load, and every
    // array is overwritten below (the bytes between arrays are never read)
    let mut m = Model::view(&header, buf)?;
    let mut fill = FillArrays {
        r: &mut r,
        real_bytes: blob_real_bytes(blob),
        err: None,
    };
    m.visit_mut(&mut fill);
    if let Some(e) = fill.err {
        return Err(e);
    }
    validate(&m)?;
    Ok(m)
}

/// Reads and checks a blob's header, sizes and option structs, and checks that its arrays
/// are exactly as long as the sizes say. Returns the model's header and a reader at the first
/// array.
fn open(blob: &[u8]) -> Result<(ModelHeader, Reader<'_>), MjbError> {
    let mut m = ModelHeader::DEFAULT;
    let r = open_into(blob, &mut m)?;
    Ok((m, r))
}

/// [`open`] writing the model's header into `m` (which it does not move: a header is over a
/// KiB, and loading in place keeps its stack small).
fn open_into<'b>(blob: &'b [u8], m: &mut ModelHeader) -> Result<Reader<'b>, MjbError> {
    let mut r = Reader {
        bytes: blob,
        pos: 0,
    };
    let header = read_header_from(&mut r)?;
    let s = header.sizes;
    let layout = blob_layout(&s.counts(), header.real_bytes)
        .ok_or(MjbError::Memory(ArenaError::SizeOverflow))?;
    if s.nbuffer != layout.nbuffer {
        return Err(MjbError::NbufferMismatch {
            found: s.nbuffer as u64,
            expected: layout.nbuffer as u64,
        });
    }
    // the blob must hold every array before we ask for memory of that size
    let array_bytes = layout.arrays;
    let structs = options_bytes(header.real_bytes) + VISUAL_BYTES + 7 * header.real_bytes;
    let body = blob.len() - r.pos;
    if body < structs {
        return Err(MjbError::Truncated { what: "options" });
    }
    if body - structs < array_bytes {
        // find which array runs out, for the message
        let mut probe = Reader {
            bytes: blob,
            pos: r.pos + structs,
        };
        return Err(first_truncated_array(&s, header.real_bytes, &mut probe));
    }
    if body - structs > array_bytes {
        return Err(MjbError::TrailingBytes(body - structs - array_bytes));
    }
    *m = ModelHeader::DEFAULT;
    m.sizes = s;
    read_structs(&mut r, m, header.real_bytes)?;
    Ok(r)
}

/// `sizeof(mjtNum)` of a blob that [`open`] accepted.
fn blob_real_bytes(blob: &[u8]) -> usize {
    if blob.get(4) == Some(&4) {
        4
    } else {
        8
    }
}

/// A model used in place from its blob: arrays view the blob's bytes (in flash on a
/// microcontroller), nothing of them is copied. See [`load_in_place`].
pub type InPlaceModel<'a> = ReadOnly<Model<'a>>;

/// Whether an array of `kind`, stored at `bytes` in a blob whose elements of this kind are
/// `width` bytes wide, can be viewed in place: same width as in memory, aligned for its
/// element type, and a little-endian target (MJB is little-endian).
fn viewable(bytes: *const u8, width: usize, kind: Kind) -> bool {
    cfg!(target_endian = "little")
        && width == kind.mem_bytes()
        && (bytes as usize).is_multiple_of(kind.mem_align())
}

/// Bytes of RAM [`load_in_place`] needs for `blob` where it is: the arrays it cannot view in
/// place (stored with another `mjtNum` width than [`Real`](crate::Real)'s, or misaligned
/// because MJB packs arrays without padding) are converted into RAM. Zero when the blob
/// matches the build's `Real` and every array is aligned.
pub fn in_place_ram_bytes(blob: &[u8]) -> Result<usize, MjbError> {
    let mut header = ModelHeader::DEFAULT;
    let r = open_into(blob, &mut header)?;
    ram_bytes(blob, &header.sizes, &r)
}

/// [`in_place_ram_bytes`] of a blob [`open`]ed with these sizes, its reader at the arrays.
/// Counts the RAM of the arrays that cannot be viewed in place, walking the blob's arrays.
fn ram_bytes(blob: &[u8], sizes: &ModelSizes, r: &Reader) -> Result<usize, MjbError> {
    let mut at = blob[r.pos..].as_ptr();
    let real_bytes = blob_real_bytes(blob);
    let mut ram = LayoutCounter::new();
    visit_layout(sizes, |info| {
        let (kind, w) = (info.kind, elem_bytes(info.kind, real_bytes));
        let n = crate::layout::field_len(info.rows, Some(info.cols));
        if !viewable(at, w, kind) {
            ram.add_bytes(kind.mem_align(), kind.mem_bytes(), n);
        }
        // sizes were checked against the blob's length by `open`
        at = at.wrapping_add(n.unwrap_or(0) * w);
    })
    .ok_or(MjbError::Memory(ArenaError::SizeOverflow))?;
    ram.buffer_bytes()
        .ok_or(MjbError::Memory(ArenaError::SizeOverflow))
}

/// Loads an MJB blob as a read-only `Model` whose arrays are the blob's own bytes, then
/// validates it in place (the same checks as [`load`]). `ram` holds the few arrays that cannot
/// be viewed ([`in_place_ram_bytes`] says how many bytes it needs; often zero for a blob of
/// the build's `mjtNum` width).
///
/// This is how a microcontroller keeps the model in flash: RAM holds only `Data`, the
/// controller and the stack. The model cannot be edited (it is an [`InPlaceModel`], which
/// gives `&Model` only); `load` copies the blob into a writable `Model` instead. The model is
/// returned by value: a microcontroller short of stack uses [`load_in_place_into`].
pub fn load_in_place<'a>(blob: &'a [u8], ram: &'a mut [u8]) -> Result<InPlaceModel<'a>, MjbError> {
    let mut slot = None;
    load_in_place_into(&mut slot, blob, ram)?;
    slot.ok_or(MjbError::Memory(ArenaError::SizeOverflow))
}

/// [`load_in_place`] into `slot` (a `static` on a microcontroller), where the model is built
/// array by array and stays: no model-sized value is moved through the stack, so loading needs
/// a few KiB of stack whatever the model. Returns the model; on an error `slot` is empty.
/// Never inlined, so that its frame (the blob's option structs) is gone once it returns.
#[inline(never)]
pub fn load_in_place_into<'s, 'a>(
    slot: &'s mut Option<InPlaceModel<'a>>,
    blob: &'a [u8],
    ram: &'a mut [u8],
) -> Result<&'s InPlaceModel<'a>, MjbError> {
    *slot = None;
    if cfg!(target_endian = "big") {
        return Err(MjbError::BigEndian);
    }
    let mut header = ModelHeader::DEFAULT;
    let r = open_into(blob, &mut header)?;
    let needed = ram_bytes(blob, &header.sizes, &r)?;
    if ram.len() < needed {
        return Err(MjbError::Memory(ArenaError::BufferTooSmall {
            needed,
            available: ram.len(),
        }));
    }
    let mut places = InPlace {
        arrays: &blob[r.pos..],
        real_bytes: blob_real_bytes(blob),
        ram: Carver::new(ram, needed),
    };
    // every place was planned above: a miss is an internal inconsistency, reported as memory
    let internal = MjbError::Memory(ArenaError::SizeOverflow);
    let checked = match Model::in_place_into(&header, &mut places, slot) {
        Some(m) => validate(m).map_err(MjbError::from),
        None => Err(internal),
    };
    if let Err(e) = checked {
        *slot = None;
        return Err(e);
    }
    slot.as_ref().ok_or(internal)
}

/// The places of a blob's arrays for [`load_in_place`]: in the blob where [`viewable`], else
/// converted into RAM carved in the order [`RamPlan`] counted.
struct InPlace<'a> {
    arrays: &'a [u8],
    real_bytes: usize,
    ram: Carver<'a>,
}

impl<'a> Places<'a, &FieldInfo> for InPlace<'a> {
    fn place<T: Pod>(&mut self, info: &FieldInfo, n: usize) -> Place<'a, T> {
        let w = elem_bytes(info.kind, self.real_bytes);
        let (src, rest) = self
            .arrays
            .split_at(n.saturating_mul(w).min(self.arrays.len()));
        self.arrays = rest;
        if viewable(src.as_ptr(), w, info.kind) {
            return Place::Shared(src);
        }
        match self.ram.take::<T>(Some(n)) {
            Ok(dst) => {
                convert_bytes(info, src, w, crate::pod::as_bytes_mut(dst));
                Place::Owned(dst)
            }
            Err(_) => Place::Owned(&mut []),
        }
    }
}

/// Converts the little-endian elements `src` (`width` bytes each) of array `info` into `out`,
/// whose elements are as wide as in memory: as [`FillArrays`] does, on bytes.
fn convert_bytes(info: &FieldInfo, src: &[u8], width: usize, out: &mut [u8]) {
    let n = src.len().checked_div(width).unwrap_or(0);
    let out_width = out.len().checked_div(n).unwrap_or(0);
    if n == 0 || out_width == 0 {
        return;
    }
    if out_width == width {
        out.copy_from_slice(src);
    } else if width == 8 && out_width == 4 && BOX_FIELDS.contains(&info.name) {
        for (d, b) in out.chunks_exact_mut(24).zip(src.chunks_exact(48)) {
            let wide = core::array::from_fn(|k| real_of(decode(info.kind, &b[8 * k..8 * k + 8])));
            for (d, x) in d.chunks_exact_mut(4).zip(narrow_box(wide)) {
                d.copy_from_slice(&x.to_le_bytes());
            }
        }
    } else {
        for (d, b) in out.chunks_exact_mut(out_width).zip(src.chunks_exact(width)) {
            encode(info.kind, decode(info.kind, b), d);
        }
    }
}

fn first_truncated_array(s: &ModelSizes, real_bytes: usize, r: &mut Reader) -> MjbError {
    let mut err = None;
    let _ = visit_layout(s, |info| {
        if err.is_none() {
            let n = info
                .rows
                .saturating_mul(info.cols)
                .saturating_mul(elem_bytes(info.kind, real_bytes));
            err = r.take(n, info.name).err();
        }
    });
    err.unwrap_or(MjbError::Truncated { what: "arrays" })
}

/// Bytes of all arrays in a blob (no padding).
fn mujoco_array_bytes(s: &ModelSizes, real_bytes: usize) -> Option<usize> {
    Some(blob_layout(&s.counts(), real_bytes)?.arrays)
}

fn read_structs(r: &mut Reader, m: &mut ModelHeader, real_bytes: usize) -> Result<(), MjbError> {
    let start = r.pos;
    let mut fields = StructReader {
        r,
        real_bytes,
        what: "options",
    };
    m.opt.fill_fields(&mut fields)?;
    // skip mjOption's tail padding
    let pad = options_bytes(real_bytes) - (fields.r.pos - start);
    fields.r.take(pad, "options")?;
    fields.what = "visual";
    let v = &mut m.vis;
    v.global.fill_fields(&mut fields)?;
    v.quality.fill_fields(&mut fields)?;
    v.headlight.fill_fields(&mut fields)?;
    v.map.fill_fields(&mut fields)?;
    v.scale.fill_fields(&mut fields)?;
    v.rgba.fill_fields(&mut fields)?;
    fields.what = "statistics";
    m.stat.fill_fields(&mut fields)
}

/// Reads the fields of an option struct (`what`) from a blob, each as [`fill_array`] reads
/// an array.
struct StructReader<'r, 'b> {
    r: &'r mut Reader<'b>,
    real_bytes: usize,
    what: &'static str,
}

impl StructFieldsMut for StructReader<'_, '_> {
    type Error = MjbError;

    fn field<T: Elem>(
        &mut self,
        _: &'static str,
        kind: Kind,
        dst: &mut [T],
    ) -> Result<(), MjbError> {
        let src = self
            .r
            .take(dst.len() * elem_bytes(kind, self.real_bytes), self.what)?;
        fill_array(kind, src, dst);
        Ok(())
    }
}

/// Bytes of the blob [`save`] writes for `m` with an `mjtNum` of `real_bytes` (`mj_sizeModel`).
pub fn save_size(m: &Model, real_bytes: usize) -> usize {
    let head = 4 * (NHEADER + NINT) + 8 * NSIZE;
    let structs = options_bytes(real_bytes) + VISUAL_BYTES + 7 * real_bytes;
    head + structs
        + mujoco_array_bytes(m.sizes(), real_bytes).unwrap_or(usize::MAX - head - structs)
}

/// Little-endian writer over an output slice sized by [`save_size`].
struct Writer<'o> {
    out: &'o mut [u8],
    pos: usize,
}

impl Writer<'_> {
    fn put(&mut self, kind: Kind, real_bytes: usize, s: Scalar) {
        let w = elem_bytes(kind, real_bytes);
        encode(kind, s, &mut self.out[self.pos..self.pos + w]);
        self.pos += w;
    }

    fn zeros(&mut self, n: usize) {
        self.out[self.pos..self.pos + n].fill(0);
        self.pos += n;
    }
}

/// Writes every array of a model through a [`Writer`].
struct ArrayWriter<'w, 'o> {
    w: &'w mut Writer<'o>,
    real_bytes: usize,
}

impl ArrayVisitor for ArrayWriter<'_, '_> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        if self.real_bytes == 4 && BOX_FIELDS.contains(&info.name) {
            for b in data.chunks_exact(6) {
                for x in narrow_box(core::array::from_fn(|k| real_of(b[k].to_scalar()))) {
                    self.w.put(info.kind, 4, Scalar::Real(f64::from(x)));
                }
            }
            return;
        }
        // elements stored as they are in memory: copy the bytes (the file is little-endian)
        if cfg!(target_endian = "little")
            && core::mem::size_of::<T>() == elem_bytes(info.kind, self.real_bytes)
        {
            let bytes = crate::pod::as_bytes(data);
            self.w.out[self.w.pos..self.w.pos + bytes.len()].copy_from_slice(bytes);
            self.w.pos += bytes.len();
            return;
        }
        for &x in data {
            self.w.put(info.kind, self.real_bytes, x.to_scalar());
        }
    }
}

/// Model arrays of boxes as rows of (center, half sizes), which [`narrow_box`] converts to
/// single precision.
const BOX_FIELDS: [&str; 2] = ["geom_aabb", "bvh_aabb"];

/// A finite half size from which a box side stands for a half-space: MuJoCo gives a plane's
/// box a side of half size `MAXVAL / 2` below its surface; real geometry is far smaller.
const HALF_SPACE: f64 = 1e9;

/// Where [`narrow_box`] cuts a half-space side, in the box's frame: a power of two, so that
/// the f32 center and half size near it resolve 2^-12 (0.24 mm).
const HALF_SPACE_CUT: f64 = 4096.0;

/// `mjMAXVAL`, from which a box side is infinite (`collide_obb`'s test).
const INFINITE: f64 = 1e10;

/// The box `b` (center, half sizes) in single precision, for a blob or a `Model` with a 4-byte
/// `mjtNum`. Sides are rounded to nearest, except a half-space side (finite half size of at
/// least [`HALF_SPACE`]): at 5e9 from the origin an f32 center and half size resolve 512, so
/// that the side's finite face (a plane's surface, or 0.41 above the floor for a world with
/// border capsules) was lost in rounding, and with it every separating-axis test against the
/// side (`mj_collideOBB`): the f32 build walked the world's hierarchy for every body above the
/// floor (humanoid100: 4x the box tests of the f64 build). Such a side is cut at
/// [`HALF_SPACE_CUT`] from the box's frame origin and rounded outward, which keeps its finite
/// face within 0.25 mm (never inside it); what lies more than 4 km behind a plane's surface no
/// longer meets it, as what lies 1e10 behind does not in MuJoCo. Infinite sides (`MAXVAL`) stay
/// as they are.
fn narrow_box(b: [f64; 6]) -> [f32; 6] {
    let mut out = b.map(|x| x as f32);
    for k in 0..3 {
        let (center, half) = (b[k], b[k + 3]);
        if !(HALF_SPACE..INFINITE).contains(&half) {
            continue;
        }
        let lo = (center - half).max(-HALF_SPACE_CUT);
        let hi = (center + half).min(HALF_SPACE_CUT);
        let c = (0.5 * (lo + hi)) as f32;
        // exact in f64: c is an f32 near the cut, lo and hi are within 2 * HALF_SPACE_CUT of it
        let need = (hi - f64::from(c)).max(f64::from(c) - lo);
        let mut h = need as f32;
        if f64::from(h) < need {
            h = f32::from_bits(h.to_bits() + 1);
        }
        out[k] = c;
        out[k + 3] = h;
    }
    out
}

/// The value of a floating-point scalar.
fn real_of(s: Scalar) -> f64 {
    match s {
        Scalar::Real(r) => r,
        Scalar::Int(i) => i as f64,
    }
}

/// Writes `m` as an MJB blob into `out` with an `mjtNum` of `real_bytes` (8 for MuJoCo, 4 for
/// compact f32 blobs), returning the number of bytes written (`mj_saveModel` to a buffer).
pub fn save(m: &Model, out: &mut [u8], real_bytes: usize) -> Result<usize, MjbError> {
    if real_bytes != 4 && real_bytes != 8 {
        return Err(MjbError::BadRealSize(real_bytes as i32));
    }
    let needed = save_size(m, real_bytes);
    let out = out
        .get_mut(..needed)
        .ok_or(MjbError::OutputTooSmall { needed })?;
    let mut w = Writer { out, pos: 0 };
    for v in [
        MJB_ID,
        real_bytes as i32,
        NINT as i32,
        NSIZE as i32,
        N_MODEL_ARRAYS as i32,
    ] {
        w.put(Kind::Int, real_bytes, Scalar::Int(i64::from(v)));
    }
    let mut sizes = *m.sizes();
    sizes.nbuffer = mujoco_nbuffer(&sizes, real_bytes).unwrap_or(sizes.nbuffer);
    sizes.for_each(|name, v| {
        let kind = if name == "narena" || name == "nbuffer" {
            Kind::Ptr
        } else {
            Kind::Int
        };
        w.put(kind, real_bytes, Scalar::Int(v));
    });
    let start = w.pos;
    m.opt
        .for_each(|_, k, s| s.iter().for_each(|&x| w.put(k, real_bytes, x)));
    let pad = options_bytes(real_bytes) - (w.pos - start);
    w.zeros(pad);
    visual_for_each(&m.vis, |k, s| {
        s.iter().for_each(|&x| w.put(k, real_bytes, x))
    });
    m.stat
        .for_each(|_, k, s| s.iter().for_each(|&x| w.put(k, real_bytes, x)));
    m.visit(&mut ArrayWriter {
        w: &mut w,
        real_bytes,
    });
    Ok(w.pos)
}

/// `sizeof(mjtNum)` of this build, the default width for [`save`].
pub const NATIVE_REAL_BYTES: usize = REAL_BYTES;

#[cfg(test)]
mod tests {
    use super::*;

    /// MuJoCo's box of a plane (a half-space under z = 0) and of a world body with border
    /// capsules above the plane (top at 0.41): the finite face survives in f32, rounded outward
    /// by at most 2^-12; the infinite sides and ordinary boxes are only rounded.
    #[test]
    fn narrow_box_keeps_the_face_of_a_half_space() {
        let plane = [0.0, 0.0, -5e9, 1e10, 1e10, 5e9];
        let world = [0.0, 0.0, -4_999_999_999.795, 1e10, 1e10, 5_000_000_000.205];
        for (b, top) in [(plane, 0.0), (world, 0.41)] {
            let n = narrow_box(b);
            assert_eq!(&n[..2], &[0.0, 0.0]);
            assert_eq!(&n[3..5], &[1e10, 1e10]);
            let (c, h) = (f64::from(n[2]), f64::from(n[5]));
            assert!(
                c + h >= top - 1e-6 && c + h - top < 1.0 / 4096.0,
                "top {}",
                c + h
            );
            assert!(c - h <= -HALF_SPACE_CUT + 1.0 / 4096.0);
            // idempotent: the narrowed box is an ordinary box
            let again = narrow_box(n.map(f64::from));
            assert_eq!(again, n);
        }
        let ordinary = [0.1, -2.0, 3.0, 0.5, 1e3, 2.0];
        assert_eq!(narrow_box(ordinary), ordinary.map(|x| x as f32));
    }

    /// A blob cut short in its sizes: a negative count before the cut is named, else the cut.
    #[test]
    fn sizes_cut_short_name_a_negative_count_first() {
        let ints = |sizes: &[i32]| -> std::vec::Vec<u8> {
            [MJB_ID, 8, NINT as i32, NSIZE as i32, N_MODEL_ARRAYS as i32]
                .iter()
                .chain(sizes)
                .flat_map(|v| v.to_le_bytes())
                .collect()
        };
        assert_eq!(
            read_header(&ints(&[3, -1, 0])),
            Err(MjbError::BadSize {
                name: "nv",
                value: -1
            })
        );
        assert_eq!(
            read_header(&ints(&[3, 1, 0])),
            Err(MjbError::Truncated { what: "sizes" })
        );
    }

    /// Narrowing happens where an f64 box becomes an f32 one: saving with 4-byte reals.
    #[test]
    fn blob_of_four_byte_reals_narrows_half_space_boxes() {
        let plane = [0.0, 0.0, -5e9, 1e10, 1e10, 5e9];
        let wide: [crate::Real; 6] = plane.map(|x| x as crate::Real);
        let mut out = [0u8; 24];
        let mut w = Writer {
            out: &mut out,
            pos: 0,
        };
        let info = FieldInfo {
            name: "geom_aabb",
            kind: Kind::Num,
            rows: 1,
            cols: 6,
            matrix: true,
        };
        ArrayWriter {
            w: &mut w,
            real_bytes: 4,
        }
        .array(&info, &wide);
        let read: [f32; 6] = core::array::from_fn(|k| {
            f32::from_le_bytes([out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3]])
        });
        assert_eq!(read, narrow_box(plane));
    }
}
