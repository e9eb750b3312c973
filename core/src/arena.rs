//! Caller-provided memory: carving fixed layouts from a byte buffer, and MuJoCo's arena with
//! its scratch stack ("Internal stack" and "Arena" in the programming guide's Simulation chapter).
//!
//! The arena is one byte region per [`Data`](crate::Data). Arrays whose size changes every step
//! (contacts, constraint rows) are *pushed* from its bottom and stay until the next reset of the
//! arena; scratch memory is *allocated* from its top by a [`Stack`] and released when that stack
//! frame ends, which is MuJoCo's `mj_markStack` / `mj_freeStack` expressed as a Rust scope:
//!
//! ```
//! # use mjrs_core::arena::{Arena, ArenaError};
//! # fn demo(arena: &mut Arena) -> Result<(), ArenaError> {
//! let mut stack = arena.stack();
//! let a = stack.alloc::<f64>(10)?; // lives as long as `stack`
//! {
//!     let mut inner = stack.frame(); // mark
//!     let b = inner.alloc::<i32>(5)?;
//!     b[0] = 1;
//! } // free: `b` is gone, its bytes are available again
//! a[0] = 2.0;
//! # Ok(()) }
//! ```
//!
//! Running out of memory is an [`ArenaError`], never a panic.

use crate::pod::{cast, cast_mut, Pod};
use crate::real::Real;
use core::mem::{align_of, size_of};

/// Alignment of every carved region's base: the largest alignment of a `Pod` type in use.
pub const MAX_ALIGN: usize = 8;

/// Alignment of the number arrays of a `Data` (elements as wide as [`Real`] or wider), of its
/// arena and of the arena's scratch arrays on 64-bit targets: 32 bytes, the width of an AVX
/// vector, so that a vector access at a multiple of 32 bytes from an array's start never
/// straddles two cache lines. A straddling store is not forwarded to the next load of the same
/// element, and with arrays packed at their type's alignment the heap's placement of the buffer
/// decided which arrays straddled: the stack of boxes ran 4-6% slower, and the WidowX arm's
/// row-by-row `Jᵀ f` into `qfrc_constraint` twice its time, when the buffer started 16 bytes
/// into a line. Narrower elements (the `int` and byte arrays of the `f64` build) keep their own
/// alignment: they are rarely vector-written, and padding them too would make a `Data` larger
/// than `mjData`, whose arrays MuJoCo pads to 64 bytes (tests/tests/memory.rs). On 32-bit
/// microcontrollers, without such vectors or caches, 1: every array at its type's alignment.
pub const DATA_ALIGN: usize = if cfg!(target_pointer_width = "64") {
    32
} else {
    1
};

/// The largest arena of a `Data`, in bytes (MuJoCo's `narena`, set by `<size memory=...>`):
/// 16 GiB less 64 bytes on 64-bit targets, so that the arena table holds its positions as 32-bit
/// numbers (offsets in units of 4 bytes) and a `Data` stays no larger than `mjData` with its
/// arrays aligned to [`DATA_ALIGN`]. MuJoCo allows more; no model of its own or of the usual
/// benchmarks comes near (the pile of 200 objects here takes 57 MB).
pub const MAX_ARENA: usize = (u32::MAX as usize).saturating_mul(SLOT_UNIT) & !63;

/// The unit of an arena table's offsets: every arena array's elements (contacts, `int`s,
/// numbers) are aligned to at least 4 bytes.
const SLOT_UNIT: usize = 4;

/// Not enough memory, or sizes so large that byte counts overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ArenaError {
    /// A caller buffer is smaller than the layout needs ([`Model::bytes_needed`],
    /// [`Data::bytes_needed`] tell how much to provide).
    ///
    /// [`Model::bytes_needed`]: crate::Model::bytes_needed
    /// [`Data::bytes_needed`]: crate::Data::bytes_needed
    BufferTooSmall {
        /// Bytes the layout needs.
        needed: usize,
        /// Bytes the caller gave.
        available: usize,
    },
    /// The arena has no room for a request (MuJoCo: "mj_stackAlloc: insufficient memory").
    OutOfArena {
        /// Bytes requested.
        requested: usize,
        /// Bytes still free between the arena's bottom and top.
        available: usize,
        /// Size of the whole arena (`narena`).
        narena: usize,
    },
    /// Sizes whose byte count does not fit in `usize`.
    SizeOverflow,
    /// The heap of a front end that allocates buffers (`mjrs-alloc`) refused this many bytes
    /// (MuJoCo: "Could not allocate memory"). The core itself never allocates.
    NoHeap {
        /// Bytes asked for.
        needed: usize,
    },
    /// A [`DataHeader`](crate::DataHeader) whose arena marks or array positions lie outside
    /// the arena it is viewed with.
    BadHeader,
    /// Arena arrays can be pushed only through the arena's own frames ([`Arena::stack`]), not
    /// through the scratch frames of `Data::with_stack`.
    Detached,
    /// A push of elements of another type than the arena array's (see [`ArenaField`]).
    ElementType,
    /// A model's arena (`narena` bytes) beyond [`MAX_ARENA`].
    ArenaTooLarge {
        /// The model's arena bytes.
        narena: usize,
    },
}

impl core::error::Error for ArenaError {}

impl core::fmt::Display for ArenaError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ArenaError::BufferTooSmall { needed, available } => {
                write!(
                    f,
                    "buffer too small: {needed} bytes needed, {available} given"
                )
            }
            ArenaError::OutOfArena {
                requested,
                available,
                narena,
            } => write!(
                f,
                "arena out of memory: requested {requested} bytes, {available} free of {narena} \
                 (raise <size memory=...> in the model)"
            ),
            ArenaError::BadHeader => f.write_str(
                "data header does not fit its arena (marks or array positions out of range)",
            ),
            ArenaError::SizeOverflow => f.write_str("sizes too large: byte count overflows"),
            ArenaError::NoHeap { needed } => {
                write!(f, "Could not allocate memory: {needed} bytes")
            }
            ArenaError::Detached => f.write_str("arena arrays pushed through a scratch-only frame"),
            ArenaError::ElementType => {
                f.write_str("arena array pushed with elements of another type than its own")
            }
            ArenaError::ArenaTooLarge { narena } => write!(
                f,
                "Could not allocate memory: {narena} bytes of arena (<size memory=...>); mjrs \
                 supports at most {MAX_ARENA} bytes per data"
            ),
        }
    }
}

/// The alignment of an array of `bytes` bytes whose type asks for `align`, in a layout whose
/// number arrays start at multiples of `floor`: the floor for arrays of elements aligned like
/// [`Real`] or wider and at least two floors long, the type's own for shorter ones (no vector
/// spans them) and for narrower types (see [`DATA_ALIGN`]).
fn floored(align: usize, floor: usize, bytes: usize) -> usize {
    if align >= align_of::<Real>() && bytes >= 2 * floor {
        align.max(floor)
    } else {
        align
    }
}

/// Where a scratch block of `bytes` bytes of `T` starts when taken from the top of the free
/// bytes below `top` (offsets from the arena's start, aligned as [`floored`] with
/// [`DATA_ALIGN`]), or `None` when it would reach below `bottom`, the arena arrays' end.
#[inline(always)]
fn scratch_start<T>(top: usize, bytes: usize, bottom: usize) -> Option<usize> {
    let align = floored(align_of::<T>(), DATA_ALIGN, bytes);
    top.checked_sub(bytes)
        .map(|s| s & !(align - 1))
        .filter(|&s| s >= bottom)
}

/// Rounds `x` up to a multiple of `align` (a power of two); `None` on overflow.
fn align_up(x: usize, align: usize) -> Option<usize> {
    Some(x.checked_add(align - 1)? & !(align - 1))
}

/// Byte count of `n` elements of `T`; `None` on overflow.
fn bytes_of<T>(n: usize) -> Option<usize> {
    n.checked_mul(size_of::<T>())
}

/// Counts the bytes of a sequence of arrays laid out one after another, each aligned for its
/// element type, from a base aligned to [`MAX_ALIGN`]. The same rules as [`Carver`].
#[derive(Clone, Copy, Debug)]
pub struct LayoutCounter {
    offset: Option<usize>,
    floor: usize,
}

impl Default for LayoutCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl LayoutCounter {
    /// An empty layout.
    pub fn new() -> Self {
        Self::aligned(1)
    }

    /// An empty layout whose number arrays (elements aligned like [`Real`] or wider), `2 *
    /// floor` bytes or longer, start at multiples of `floor` bytes (a power of two; see
    /// [`DATA_ALIGN`]), as [`Carver::aligned`] carves it.
    pub fn aligned(floor: usize) -> Self {
        Self {
            offset: Some(0),
            floor,
        }
    }

    /// Adds an array of `n` elements of `T` (`None` for `n` means the size overflowed).
    pub fn add<T: Pod>(&mut self, n: Option<usize>) {
        self.add_bytes(align_of::<T>(), size_of::<T>(), n);
    }

    /// Adds an array of `n` elements of `size` bytes aligned to `align` (a power of two), for
    /// arrays whose element type is known as data ([`Kind`](crate::layout::Kind)).
    pub fn add_bytes(&mut self, align: usize, size: usize, n: Option<usize>) {
        self.offset = (|| {
            let bytes = n?.checked_mul(size)?;
            align_up(self.offset?, floored(align, self.floor, bytes))?.checked_add(bytes)
        })();
    }

    /// Total bytes, or `None` if any size overflowed.
    pub fn total(&self) -> Option<usize> {
        self.offset
    }

    /// Bytes a caller buffer of unknown alignment must have: the total plus the worst-case
    /// skip to the first aligned byte.
    pub fn buffer_bytes(&self) -> Option<usize> {
        self.offset?.checked_add(MAX_ALIGN.max(self.floor) - 1)
    }
}

/// Cuts consecutive typed arrays from the front of a byte buffer (used to build `Model` and
/// `Data`); the layout matches [`LayoutCounter`].
pub struct Carver<'a> {
    rest: &'a mut [u8],
    needed: usize,
    available: usize,
    floor: usize,
}

impl<'a> Carver<'a> {
    /// Starts carving `buf` at its first [`MAX_ALIGN`]-aligned byte. `needed` is the total the
    /// caller computed, reported in the error if the buffer runs out.
    pub fn new(buf: &'a mut [u8], needed: usize) -> Self {
        Self::aligned(buf, needed, 1)
    }

    /// Starts carving `buf` at its first byte aligned to `floor` (a power of two) and to
    /// [`MAX_ALIGN`]; the number arrays (elements aligned like [`Real`] or wider), `2 * floor`
    /// bytes or longer, start at multiples of `floor`, as [`LayoutCounter::aligned`] counts
    /// them.
    pub fn aligned(buf: &'a mut [u8], needed: usize, floor: usize) -> Self {
        let available = buf.len();
        let base = floor.max(MAX_ALIGN);
        let skip = (base - buf.as_ptr() as usize % base) % base;
        let rest = if skip <= buf.len() {
            &mut buf[skip..]
        } else {
            &mut []
        };
        Self {
            rest,
            needed,
            available,
            floor,
        }
    }

    /// The next `n` elements of `T` (`None` for `n`: the size overflowed).
    pub fn take<T: Pod>(&mut self, n: Option<usize>) -> Result<&'a mut [T], ArenaError> {
        let bytes =
            bytes_of::<T>(n.ok_or(ArenaError::SizeOverflow)?).ok_or(ArenaError::SizeOverflow)?;
        let rest = core::mem::take(&mut self.rest);
        let align = floored(align_of::<T>(), self.floor, bytes);
        let skip = (align - rest.as_ptr() as usize % align) % align;
        let too_small = ArenaError::BufferTooSmall {
            needed: self.needed,
            available: self.available,
        };
        let end = skip.checked_add(bytes).ok_or(ArenaError::SizeOverflow)?;
        if end > rest.len() {
            return Err(too_small);
        }
        let (head, tail) = rest.split_at_mut(end);
        self.rest = tail;
        cast_mut::<T>(&mut head[skip..]).ok_or(too_small)
    }

    /// Everything left, as bytes.
    pub fn rest(self) -> &'a mut [u8] {
        self.rest
    }
}

/// `visit_arena_field(..)` for arrays of numbers; nothing for the `contact` struct array.
macro_rules! visit_unless_struct {
    (contact, $($args:expr),*) => {};
    ($ty:ident, $($args:expr),*) => { visit_arena_field($($args),*) };
}

macro_rules! gen_arena_fields {
    ($($name:ident : $ty:ident [$rows:ident, $($cols:tt)+]),* $(,)?) => {
        /// The arrays of the data arena (contacts, constraint rows, islands), in table order;
        /// `ArenaField::efc_J as usize` indexes [`ArenaTable::positions`].
        #[allow(non_camel_case_types)] // MuJoCo's field names
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum ArenaField {
            $(
                #[doc = concat!("`mjData.", stringify!($name), "`.")]
                $name,
            )*
        }

        /// Number of arrays in the data-arena table.
        pub const N_ARENA_FIELDS: usize = [$(ArenaField::$name),*].len();

        /// Read-only views of the arena arrays of the current step; an array not made this
        /// step is empty.
        #[allow(missing_docs)]
        pub struct ArenaArrays<'a> {
            $( pub $name: &'a [mj_type!($ty)], )*
        }

        /// Writable views of the arena arrays of the current step (see [`ArenaArrays`]).
        #[allow(missing_docs)]
        pub struct ArenaArraysMut<'a> {
            $( pub $name: &'a mut [mj_type!($ty)], )*
        }

        /// Element size and alignment of each arena array, in table order.
        const ELEM: [(usize, usize); N_ARENA_FIELDS] =
            [$( (size_of::<mj_type!($ty)>(), align_of::<mj_type!($ty)>()), )*];

        impl<'a> ArenaArraysMut<'a> {
            /// The arrays of `table`, cut from `used`, the bytes of an arena from its start.
            fn within(used: &'a mut [u8], table: &ArenaTable) -> Self {
                Self::within_only(used, table, ArenaMask::ALL)
            }

            /// [`ArenaArraysMut::within`] cutting only the arrays in `only` (the others are
            /// empty). Inlined so that a constant mask removes the skipped cuts entirely. Every
            /// array is empty when the table reaches beyond `used` (or records nothing).
            ///
            /// Each cut is a pointer and a length, without the checks of a slice cut (a few
            /// dozen instructions per array, and a stage that runs several times per step cuts
            /// a dozen arrays or more): the table's invariant already proves them.
            #[inline(always)]
            #[allow(unsafe_code)]
            fn within_only(used: &'a mut [u8], table: &ArenaTable, only: ArenaMask) -> Self {
                if !table.lies_in(used) {
                    return ArenaArraysMut { $( $name: &mut [], )* };
                }
                let base = used.as_mut_ptr();
                $(
                    let $name: &'a mut [mj_type!($ty)] = if only.has(ArenaField::$name) {
                        let (off, n) = table.get(ArenaField::$name);
                        // SAFETY: by the invariant of `ArenaTable`, the array's bytes
                        // `off .. off + n * size` lie within the table's `end`, which `lies_in`
                        // checked to be within `used`, whose start is aligned to MAX_ALIGN; `off`
                        // is a multiple of the element's alignment, so the pointer is in bounds
                        // and aligned (also for an empty array). The element type is `Pod`:
                        // every bit pattern is valid. Arrays with elements are pairwise disjoint
                        // and each is cut once here, so the writable slices do not alias; they
                        // borrow `used` for 'a, so nothing else reaches the bytes meanwhile.
                        unsafe { core::slice::from_raw_parts_mut(base.add(off).cast(), n) }
                    } else {
                        &mut []
                    };
                )*
                ArenaArraysMut { $( $name, )* }
            }
        }

        impl<'a> ArenaArrays<'a> {
            /// The arrays of `table`, within `used`, the bytes of an arena from its start.
            fn within(used: &'a [u8], table: &ArenaTable) -> Self {
                Self::within_only(used, table, ArenaMask::ALL)
            }

            /// [`ArenaArrays::within`] viewing only the arrays in `only` (the others empty);
            /// inlined so that a constant mask removes the skipped views. Unchecked views as
            /// in [`ArenaArraysMut::within_only`].
            #[inline(always)]
            #[allow(unsafe_code)]
            fn within_only(used: &'a [u8], table: &ArenaTable, only: ArenaMask) -> Self {
                if !table.lies_in(used) {
                    return ArenaArrays { $( $name: &[], )* };
                }
                let base = used.as_ptr();
                ArenaArrays { $( $name: if only.has(ArenaField::$name) {
                    let (off, n) = table.get(ArenaField::$name);
                    // SAFETY: as in `ArenaArraysMut::within_only`, for shared slices.
                    unsafe { core::slice::from_raw_parts(base.add(off).cast(), n) }
                } else {
                    &[]
                }, )* }
            }

            /// Calls the visitor with every array except `contact` (a struct, see
            /// [`ArenaArrays::contact`]), in table order, shaped by `dims` as MuJoCo's Python
            /// bindings shape them; an array not made this step is visited empty.
            pub fn visit<V: crate::layout::ArrayVisitor>(&self, dims: &ArenaDims, v: &mut V) {
                $( visit_unless_struct!($ty, v, stringify!($name), mj_kind!($ty), mj_is_matrix!($($cols)+),
                    dims.$rows, mj_cols!(dims; $($cols)+).unwrap_or(0), self.$name); )*
            }
        }
    };
}
mjdata_arena_arrays!(gen_arena_fields);

/// A set of arena arrays, one bit per [`ArenaField`] (see [`Arena::arrays_mut_only`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaMask(u64);

impl ArenaMask {
    /// Every arena array.
    pub const ALL: Self = Self(u64::MAX);

    /// The arrays listed.
    pub const fn of(fields: &[ArenaField]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < fields.len() {
            bits |= 1 << fields[i] as u64;
            i += 1;
        }
        Self(bits)
    }

    /// The arrays of both sets.
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// Whether `field` is in the set.
    #[inline(always)]
    pub const fn has(self, field: ArenaField) -> bool {
        self.0 & (1 << field as u64) != 0
    }
}

// every arena array starts at a whole number of `SLOT_UNIT`s, as the table's slots hold it
const _: () = {
    let mut i = 0;
    while i < N_ARENA_FIELDS {
        assert!(ELEM[i].1 >= SLOT_UNIT && ELEM[i].1.is_multiple_of(SLOT_UNIT));
        i += 1;
    }
};

/// The contacts alone.
const CONTACTS: ArenaMask = ArenaMask::of(&[ArenaField::contact]);

const _: () = assert!(
    N_ARENA_FIELDS <= 64,
    "ArenaMask has one bit per arena array"
);

/// Byte offset and element count of each arena array, in table order; `(0, 0)` when absent.
pub type ArenaFields = [(usize, usize); N_ARENA_FIELDS];

/// Use counters of an arena (its arena-array positions are [`Arena::table`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArenaState {
    /// Bytes in use at the bottom by arena arrays (MuJoCo's `parena`).
    pub parena: usize,
    /// Bytes reserved at the top across calls by [`Arena::reserve`] (MuJoCo's `pstack`; zero
    /// between steps).
    pub pstack: usize,
    /// Peak bytes used by the stack since the last reset (`maxuse_stack`).
    pub maxuse_stack: usize,
    /// Peak bytes used by arena arrays and stack together (`maxuse_arena`).
    pub maxuse_arena: usize,
}

impl ArenaState {
    /// Notes the use now (the reservations at the top and the arena arrays) in the peaks.
    #[inline]
    fn note_peak(&mut self) {
        self.maxuse_stack = self.maxuse_stack.max(self.pstack);
        self.maxuse_arena = self.maxuse_arena.max(self.pstack + self.parena);
    }
}

/// Arena arrays being pushed one after another by [`Stack::push_each`].
pub struct Pushes<'t> {
    table: &'t mut ArenaTable,
    /// The free bytes `[lo, hi)`, as in [`Stack`].
    lo: usize,
    hi: usize,
    narena: usize,
}

impl Pushes<'_> {
    /// Pushes `n` elements of the table type of arena array `field`, recorded anew (a block
    /// pushed earlier for the same array is forgotten, not extended). Inlined: with `field` a
    /// constant, its element size and alignment are constants too.
    #[inline(always)]
    pub fn push(&mut self, field: ArenaField, n: usize) -> Result<(), ArenaError> {
        let (size, align) = ELEM[field as usize];
        // `lo <= hi <= narena`, the length of a slice, so rounding `lo` up cannot overflow
        let start = (self.lo + align - 1) & !(align - 1);
        // at most `isize::MAX` bytes, so `start + n * size` cannot overflow either: two
        // comparisons where checked arithmetic takes three
        if n > isize::MAX as usize / size {
            return Err(ArenaError::SizeOverflow);
        }
        let end = start + n * size;
        if end > self.hi {
            return Err(refuse_push(n * size, self.hi - self.lo, self.narena));
        }
        // above every array (see `Stack::push_each`) and aligned: the table stays valid
        self.table.pos[field as usize] = slot(start, n);
        self.lo = end;
        Ok(())
    }
}

/// The error of a push of `requested` bytes that does not fit in the `available` ones. Takes
/// values rather than the [`Pushes`], which then stays in registers.
#[cold]
#[inline(never)]
fn refuse_push(requested: usize, available: usize, narena: usize) -> ArenaError {
    ArenaError::OutOfArena {
        requested,
        available,
        narena,
    }
}

/// A region reserved at the top of an arena by [`Arena::reserve`].
#[derive(Debug)]
pub struct Reservation {
    /// Byte offset of the region in the arena.
    offset: usize,
    /// `pstack` before the reservation, restored by [`Arena::release`].
    previous: usize,
}

/// The sizes that shape the arena arrays: model sizes `nv`, `ntendon` and this step's counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArenaDims {
    /// Degrees of freedom.
    pub nv: usize,
    /// Tendons.
    pub ntendon: usize,
    /// Constraint rows.
    pub nefc: usize,
    /// Non-zeros of the constraint Jacobian.
    pub nnzJ: usize,
    /// Contacts.
    pub ncon: usize,
    /// Islands.
    pub nisland: usize,
}

/// Visits one arena array of shape `rows x cols` (a vector when not `matrix`); an array that
/// was not made this step (fewer elements than its shape) is visited with no rows.
fn visit_arena_field<V: crate::layout::ArrayVisitor, T: crate::layout::Elem>(
    v: &mut V,
    name: &'static str,
    kind: crate::layout::Kind,
    matrix: bool,
    rows: usize,
    cols: usize,
    data: &[T],
) {
    let full = rows.checked_mul(cols).is_some_and(|n| n <= data.len());
    let (rows, data) = if full {
        (rows, &data[..rows * cols])
    } else {
        (0, &data[..0])
    };
    v.array(
        &crate::layout::FieldInfo {
            name,
            kind,
            rows,
            cols,
            matrix,
        },
        data,
    );
}

/// Where the arena arrays are: the byte offset from the arena's start and the element count
/// of each array, in table order (`(0, 0)` when absent), and the bytes they span.
///
/// Invariant, which the views of the arrays rely on instead of checking each array (see
/// [`ArenaArraysMut`]): for every array `(off, n)` with elements of `size` bytes aligned to
/// `align` (its table type),
/// 1. `off` is a multiple of `align`,
/// 2. `off + n * size` does not overflow and is at most `end`, and
/// 3. the arrays with elements occupy pairwise disjoint bytes.
///
/// The positions are private: a table is made empty, validated from a caller's positions
/// ([`ArenaTable::new`]), or changed by the arena's pushes and truncations, all in this module.
#[derive(Clone, Copy, Debug)]
pub struct ArenaTable {
    pos: [Slot; N_ARENA_FIELDS],
    /// No array ends beyond byte `end & !OTHERS`; bit [`OTHERS`] is set when an array but the
    /// contacts may be other than `(0, 0)` (when not, truncating the contacts, which the narrow
    /// phase does after every geom pair, need not clear the others). One word rather than a
    /// word and a flag: `Data` holds a table and must stay no larger than `mjData`; and the
    /// empty table is all zeros, so a static holding one stays in `.bss` (a
    /// `true` flag there once moved 12 KB of firmware statics into flash).
    end: usize,
}

/// The flag bit of [`ArenaTable`]'s `end`: no array of a slice ends that far (slices are at most
/// `isize::MAX` bytes), and [`ArenaTable::new`] refuses positions that do.
const OTHERS: usize = 1 << (usize::BITS - 1);

/// An arena array's offset (in [`SLOT_UNIT`]s) and element count in 32 bits each: an arena
/// holds at most [`MAX_ARENA`] bytes, and the narrower table keeps a `Data` within `mjData`'s
/// bytes.
type Slot = (u32, u32);

/// The slot of an array at byte `off` (a multiple of [`SLOT_UNIT`]) with `n` elements of at
/// least that many bytes, within an arena of at most [`MAX_ARENA`] bytes, so that both fit (the
/// table's constructors and the arena's pushes check it).
#[inline(always)]
fn slot(off: usize, n: usize) -> Slot {
    debug_assert!(off.is_multiple_of(SLOT_UNIT) && off <= MAX_ARENA);
    debug_assert!(n <= MAX_ARENA / SLOT_UNIT);
    ((off / SLOT_UNIT) as u32, n as u32)
}

impl ArenaTable {
    /// No arrays.
    pub const EMPTY: Self = Self {
        pos: [(0, 0); N_ARENA_FIELDS],
        end: 0,
    };

    /// The table of `positions` (from a caller's header or a saved state), or `None` when an
    /// array is misaligned for its type, its bytes overflow, or it overlaps another.
    pub fn new(positions: &ArenaFields) -> Option<Self> {
        let mut table = Self::EMPTY;
        for (i, &(off, n)) in positions.iter().enumerate() {
            let (size, align) = ELEM[i];
            let end = n.checked_mul(size)?.checked_add(off)?;
            let overlaps = (0..i).any(|j| {
                let (o, k) = table.get_at(j);
                n > 0 && k > 0 && o < end && off < o + k * ELEM[j].0
            });
            if !off.is_multiple_of(align) || overlaps || end > MAX_ARENA {
                return None;
            }
            table.pos[i] = slot(off, n);
            let other = i != ArenaField::contact as usize && (off, n) != (0, 0);
            table.raise_end(end, other);
        }
        Some(table)
    }

    /// Byte offset and element count of each array, in table order.
    pub fn positions(&self) -> ArenaFields {
        core::array::from_fn(|i| self.get_at(i))
    }

    /// Byte offset and element count of array `field`.
    #[inline(always)]
    pub fn get(&self, field: ArenaField) -> (usize, usize) {
        self.get_at(field as usize)
    }

    /// Byte offset and element count of array `i` in table order.
    #[inline(always)]
    fn get_at(&self, i: usize) -> (usize, usize) {
        let (off, n) = self.pos[i];
        (off as usize * SLOT_UNIT, n as usize)
    }

    /// The first byte after every array (a bound: at least the end of the last one).
    #[inline(always)]
    pub fn end(&self) -> usize {
        self.end & !OTHERS
    }

    /// Whether an array but the contacts may be other than `(0, 0)`.
    #[inline(always)]
    fn holds_others(&self) -> bool {
        self.end & OTHERS != 0
    }

    /// Raises the end to at least `end` (`< OTHERS`), and notes an array besides the contacts
    /// when `other`.
    #[inline(always)]
    fn raise_end(&mut self, end: usize, other: bool) {
        let flag = (self.end & OTHERS) | if other { OTHERS } else { 0 };
        self.end = self.end().max(end) | flag;
    }

    /// Whether the arrays can be viewed in `bytes`, an arena's bytes from its start: they all
    /// lie within it, which starts at a [`MAX_ALIGN`]-aligned address. False when the table
    /// spans no bytes (`bytes` may then be a dangling empty slice, aligned to nothing).
    #[inline(always)]
    fn lies_in(&self, bytes: &[u8]) -> bool {
        self.end().wrapping_sub(1) < bytes.len()
            && (bytes.as_ptr() as usize).is_multiple_of(MAX_ALIGN)
    }

    /// Records `n` elements pushed at byte `start` for array `i` (`< N_ARENA_FIELDS`, `start`
    /// aligned for its type, `start + n * size` within the arena): with `extend`, a push
    /// right after the array's last block extends it (contacts come one pair at a time);
    /// otherwise the array is recorded anew.
    #[inline]
    fn record(&mut self, i: usize, start: usize, n: usize, extend: bool) {
        let size = ELEM[i].0;
        let end = start + n * size;
        self.below(start);
        let (old_start, old_n) = self.get_at(i);
        let contiguous = extend && old_n > 0 && old_start + old_n * size == start;
        self.pos[i] = if contiguous {
            slot(old_start, old_n + n)
        } else {
            slot(start, n)
        };
        self.raise_end(end, i != ArenaField::contact as usize);
    }

    /// Makes room for pushes from byte `at` on: they go above every array (the bottom mark
    /// is the end of the last one), but an array ending beyond `at` anyway (counters edited by
    /// hand) is dropped, which keeps the arrays disjoint.
    #[inline(always)]
    fn below(&mut self, at: usize) {
        if at < self.end() {
            self.truncate(at);
        }
    }

    /// Drops every array that ends beyond byte `at`.
    #[cold]
    #[inline(never)]
    fn truncate(&mut self, at: usize) {
        for i in 0..N_ARENA_FIELDS {
            let (off, n) = self.get_at(i);
            if off + n * ELEM[i].0 > at {
                self.pos[i] = (0, 0);
            }
        }
        self.end = at | (self.end & OTHERS);
    }

    /// Keeps the first `ncon` contacts (at most as many as there are) and drops every other
    /// array; returns the byte where the kept contacts end.
    #[inline]
    fn keep_contacts(&mut self, ncon: usize) -> usize {
        let (off, had) = self.get(ArenaField::contact);
        let n = ncon.min(had);
        let off = if n > 0 { off } else { 0 };
        if self.holds_others() {
            *self = Self::EMPTY;
        }
        self.pos[ArenaField::contact as usize] = slot(off, n);
        // the flag is clear either way: only the contacts remain
        self.end = off + n * size_of::<crate::records::Contact>();
        self.end
    }
}

/// The arena arrays and the bottom mark of an arena at some point, to go back to with
/// [`Arena::rewind`].
#[derive(Clone, Copy, Debug)]
pub struct ArenaMark {
    table: ArenaTable,
    parena: usize,
}

/// The `n` elements of `T` at byte offset `off` of `buf` for `(off, n)`; empty when that is
/// out of `buf` or misaligned.
#[inline]
fn field_in<T: Pod>(buf: &[u8], (off, n): (usize, usize)) -> &[T] {
    bytes_of::<T>(n)
        .and_then(|b| buf.get(off..off.checked_add(b)?))
        .and_then(cast::<T>)
        .unwrap_or(&[])
}

/// The `n` elements of `T` of reservation `r` in the arena bytes `buf`; empty when that is out
/// of `buf` or misaligned.
fn reserved_in<'b, T: Pod>(buf: &'b mut [u8], r: &Reservation, n: usize) -> &'b mut [T] {
    let offset = r.offset;
    let end = bytes_of::<T>(n).and_then(|b| offset.checked_add(b));
    match end.and_then(|e| buf.get_mut(offset..e)) {
        Some(bytes) => cast_mut::<T>(bytes).unwrap_or(&mut []),
        None => &mut [],
    }
}

/// The arena of a `Data`: bottom-pushed arena arrays plus a top-down scratch stack.
pub struct Arena<'a> {
    buf: &'a mut [u8],
    /// The plugin instances' objects (what MuJoCo's plugins allocate in `init`): bytes cut from
    /// the top of the data's arena when it is made, kept by resets and copies, not counted in
    /// [`Arena::len`], and left in place by [`Arena::detach`].
    objects: &'a mut [u8],
    /// Use counters.
    pub state: ArenaState,
    /// Where the arena arrays of this step are (private: the views rely on its invariant).
    table: ArenaTable,
}

/// The bytes and counters of an arena moved out of its `Data` for a while (see
/// [`Arena::detach`]), so that a stage can use scratch memory while reading the rest of the
/// `Data`. Its frames cannot push arena arrays.
pub struct Detached<'a> {
    buf: &'a mut [u8],
    state: ArenaState,
}

impl Detached<'_> {
    /// A scratch frame over the free part of the arena.
    pub fn stack(&mut self) -> Stack<'_> {
        self.used_and_stack().1
    }

    /// The `n` elements of `T` reserved by `r` ([`Arena::reserve`]), while detached.
    pub fn reserved<T: Pod>(&mut self, r: &Reservation, n: usize) -> &mut [T] {
        reserved_in(self.buf, r, n)
    }

    /// The arena arrays recorded in `table` (the arena's own, [`Arena::table`]), writable, and
    /// a scratch frame, together: for the constraint stages, which update constraint rows while
    /// reading the rest of the `Data`.
    pub fn arrays_mut_and_stack<'f>(
        &'f mut self,
        table: &ArenaTable,
    ) -> (ArenaArraysMut<'f>, Stack<'f>) {
        self.arrays_mut_only_and_stack(table, ArenaMask::ALL)
    }

    /// [`Detached::arrays_mut_and_stack`] with only the arena arrays in `only` (the others
    /// empty). The views do not borrow `table`: callers pass the `Data`'s own table instead
    /// of copying it (39 pairs).
    #[inline(always)]
    pub fn arrays_mut_only_and_stack<'f>(
        &'f mut self,
        table: &ArenaTable,
        only: ArenaMask,
    ) -> (ArenaArraysMut<'f>, Stack<'f>) {
        let (used, stack) = self.used_and_stack();
        (ArenaArraysMut::within_only(used, table, only), stack)
    }

    /// The arena arrays recorded in `table`, read-only, and a scratch frame, together.
    pub fn arrays_and_stack<'f>(&'f mut self, table: &ArenaTable) -> (ArenaArrays<'f>, Stack<'f>) {
        let (used, stack) = self.used_and_stack();
        (ArenaArrays::within(used, table), stack)
    }

    /// The contacts recorded in `table` and a scratch frame, together, without cutting out the
    /// other arena arrays (counting constraint rows reads only the contacts).
    pub fn contacts_and_stack<'f>(
        &'f mut self,
        table: &ArenaTable,
    ) -> (&'f [crate::records::Contact], Stack<'f>) {
        let (used, stack) = self.used_and_stack();
        let contacts = ArenaArrays::within_only(used, table, CONTACTS).contact;
        (contacts, stack)
    }

    /// The used bottom of the arena (the arena arrays' bytes) and a scratch frame over the
    /// free part, split so that both can be used at once.
    #[inline(always)]
    fn used_and_stack(&mut self) -> (&mut [u8], Stack<'_>) {
        let (lo, hi) = (self.state.parena, self.buf.len() - self.state.pstack);
        let narena = self.buf.len();
        let (used, free) = self.buf.split_at_mut(lo);
        let stack = Stack {
            free: &mut free[..hi - lo],
            lo,
            hi,
            narena,
            state: &mut self.state,
            table: None,
        };
        (used, stack)
    }
}

impl<'a> Arena<'a> {
    /// An empty arena over `buf` (its start must be [`MAX_ALIGN`]-aligned, as [`Carver`] leaves
    /// it), or over its first [`MAX_ARENA`] bytes when it is longer.
    pub fn new(buf: &'a mut [u8]) -> Self {
        debug_assert_eq!(buf.as_ptr() as usize % MAX_ALIGN, 0);
        let len = buf.len().min(MAX_ARENA);
        let buf = &mut buf[..len];
        Self {
            buf,
            objects: &mut [],
            state: ArenaState::default(),
            table: ArenaTable::EMPTY,
        }
    }

    /// An empty arena over `buf` but its top `objects` bytes (rounded up to keep the arena's
    /// end at [`MAX_ALIGN`]), which hold the plugin objects.
    pub fn with_objects(buf: &'a mut [u8], objects: usize) -> Result<Self, ArenaError> {
        let total = buf.len();
        let start = total
            .checked_sub(objects)
            .map(|s| s & !(MAX_ALIGN - 1))
            .ok_or(ArenaError::OutOfArena {
                requested: objects,
                available: total,
                narena: total,
            })?;
        let (buf, objects) = buf.split_at_mut(start);
        Ok(Self {
            objects,
            ..Self::new(buf)
        })
    }

    /// The table of `fields` (from a caller's header) if it and `state` fit this arena: the
    /// marks within its bytes, every array aligned and below the arena arrays' top, no two
    /// overlapping.
    fn fitting(&self, state: &ArenaState, fields: &ArenaFields) -> Option<ArenaTable> {
        let n = self.buf.len();
        let marks = state.parena <= n && state.pstack <= n - state.parena;
        ArenaTable::new(fields).filter(|t| marks && t.end() <= state.parena)
    }

    /// Whether `state` and `fields` (from a caller's header) fit this arena: the marks within
    /// its bytes, every array aligned and below the arena arrays' top, no two overlapping.
    pub fn fits(&self, state: &ArenaState, fields: &ArenaFields) -> bool {
        self.fitting(state, fields).is_some()
    }

    /// Sets the counters and array positions to a caller's (from a header whose arena bytes
    /// are these): [`ArenaError::BadHeader`] unless they fit ([`Arena::fits`]).
    pub fn set_layout(
        &mut self,
        state: ArenaState,
        fields: &ArenaFields,
    ) -> Result<(), ArenaError> {
        self.table = self.fitting(&state, fields).ok_or(ArenaError::BadHeader)?;
        self.state = state;
        Ok(())
    }

    /// Where the arena arrays are.
    #[inline]
    pub fn table(&self) -> &ArenaTable {
        &self.table
    }

    /// Moves the bytes and counters out, leaving this arena empty until [`Arena::attach`]
    /// (the arena-array positions stay here). Cheap: no copy of the bytes or positions.
    pub fn detach(&mut self) -> Detached<'a> {
        Detached {
            buf: core::mem::take(&mut self.buf),
            state: self.state,
        }
    }

    /// Puts back what [`Arena::detach`] took.
    pub fn attach(&mut self, detached: Detached<'a>) {
        self.buf = detached.buf;
        self.state = detached.state;
    }

    /// Clears the arena ([`Arena::clear`]) and moves its bytes and counters into a new arena,
    /// leaving this one empty until [`Arena::take_back`]; the plugin objects stay here (SDF
    /// plugins read theirs while the lent arena collects contacts). The cleared positions are
    /// written once, straight into the lent arena (collision detection does this at every
    /// step); this arena keeps its old ones meanwhile, but with no bytes every view of it is
    /// empty, as after a clear.
    pub fn lend_cleared(&mut self) -> Arena<'a> {
        self.state.parena = 0;
        Arena {
            buf: core::mem::take(&mut self.buf),
            objects: &mut [],
            state: self.state,
            table: ArenaTable::EMPTY,
        }
    }

    /// Takes back what [`Arena::lend_cleared`] lent, with the arrays it gained.
    pub fn take_back(&mut self, lent: Arena<'a>) {
        self.buf = lent.buf;
        self.state = lent.state;
        self.table = lent.table;
    }

    /// Size in bytes (`narena`), the plugin objects excluded.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether the arena has no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The plugin objects (see [`Arena::with_objects`]).
    pub fn objects(&self) -> &[u8] {
        self.objects
    }

    /// The plugin objects, writable.
    pub fn objects_mut(&mut self) -> &mut [u8] {
        self.objects
    }

    /// Moves the plugin objects out until [`Arena::put_objects`], so that they can be written
    /// while the rest of the data is in use.
    pub fn take_objects(&mut self) -> &'a mut [u8] {
        core::mem::take(&mut self.objects)
    }

    /// Puts back what [`Arena::take_objects`] took.
    pub fn put_objects(&mut self, objects: &'a mut [u8]) {
        self.objects = objects;
    }

    /// Drops every arena array (contacts, constraint rows), as MuJoCo does at the start of
    /// collision detection and in `mj_resetData`. Peak counters are kept.
    pub fn clear(&mut self) {
        self.state.parena = 0;
        self.table = ArenaTable::EMPTY;
    }

    /// Keeps the first `ncon` contacts (at most as many as there are) and drops every other
    /// arena array, moving the bottom mark to the contacts' end (MuJoCo's `mj_clearEfc` and
    /// the narrow phase's `resetArena`).
    pub fn keep_contacts(&mut self, ncon: usize) {
        self.state.parena = self.table.keep_contacts(ncon);
    }

    /// The arena arrays and bottom mark now, to go back to with [`Arena::rewind`].
    pub fn mark(&self) -> ArenaMark {
        ArenaMark {
            table: self.table,
            parena: self.state.parena,
        }
    }

    /// Goes back to the arena arrays and bottom mark of `mark`, forgetting later pushes.
    pub fn rewind(&mut self, mark: ArenaMark) {
        self.table = mark.table;
        self.state.parena = mark.parena;
    }

    /// Forgets the peak-use counters too (`mj_resetData`).
    pub fn reset(&mut self) {
        self.clear();
        self.state = ArenaState::default();
    }

    /// Copies the arena arrays and counters of `src`, an arena of the same size (`mj_copyData`).
    pub fn copy_from(&mut self, src: &Arena) {
        let used = src.state.parena.min(self.len());
        self.buf[..used].copy_from_slice(&src.buf[..used]);
        self.state = src.state;
        self.table = src.table;
    }

    /// The bytes of the arena arrays (the used part at the bottom), for saving a data with
    /// its [`Arena::state`] and [`Arena::table`].
    pub fn used(&self) -> &[u8] {
        &self.buf[..self.state.parena.min(self.len())]
    }

    /// Sets the arena arrays and counters to saved ones (what [`Arena::used`] gave, with the
    /// state and positions of that arena): `Err` when they do not fit this arena.
    pub fn restore(
        &mut self,
        state: ArenaState,
        fields: ArenaFields,
        used: &[u8],
    ) -> Result<(), ArenaError> {
        if used.len() != state.parena {
            return Err(ArenaError::BadHeader);
        }
        self.set_layout(state, &fields)?;
        self.buf[..used.len()].copy_from_slice(used);
        Ok(())
    }

    /// A stack frame over the free part of the arena; it can also push arena arrays.
    pub fn stack(&mut self) -> Stack<'_> {
        let (lo, hi) = (self.state.parena, self.top());
        let narena = self.len();
        Stack {
            free: &mut self.buf[lo..hi],
            lo,
            hi,
            narena,
            state: &mut self.state,
            table: Some(&mut self.table),
        }
    }

    /// Pushes `n` contacts at the bottom, extending the contact array when it ends there, and
    /// notes the peak use, as a frame of [`Arena::stack`] that pushes them and ends would, but
    /// without a frame's set-up: the narrow phase reserves room for contacts once per geom pair.
    // not inlined: its caller adds a contact at a time in the loops of the flex colliders, whose
    // code it bloated (callgrind, softbox)
    #[inline(never)]
    pub fn push_contacts(
        &mut self,
        n: usize,
    ) -> Result<&mut [crate::records::Contact], ArenaError> {
        type C = crate::records::Contact;
        let (lo, hi) = (self.state.parena, self.top());
        let bytes = bytes_of::<C>(n).ok_or(ArenaError::SizeOverflow)?;
        let start = align_up(lo, align_of::<C>()).ok_or(ArenaError::SizeOverflow)?;
        let Some(end) = start.checked_add(bytes).filter(|&e| e <= hi) else {
            self.state.note_peak();
            return Err(ArenaError::OutOfArena {
                requested: bytes,
                available: hi - lo,
                narena: self.len(),
            });
        };
        self.state.parena = end;
        self.state.note_peak();
        self.table
            .record(ArenaField::contact as usize, start, n, true);
        cast_mut::<C>(&mut self.buf[start..end]).ok_or(ArenaError::SizeOverflow)
    }

    /// Room for `n` contacts right after the contact array, for a collider to fill: the narrow
    /// phase's buffer for one geom pair (the `mj_arenaAllocByte` of `mj_collideGeoms`). The
    /// room counts in the peak use as `n` pushed contacts do ([`Arena::push_contacts`]), but it
    /// joins the contact array only through [`Arena::add_contacts`], so that a pair without
    /// contacts leaves the arena as it was. Returns the room's byte offset with it. Meant for an
    /// arena whose arrays are the contacts alone, ending at the bottom mark (as
    /// [`Arena::keep_contacts`] leaves it).
    // always inlined: called once per geom pair with a constant `n`; the call and a push's
    // table update cost more than the collider on most pairs (callgrind, hopper)
    #[inline(always)]
    pub fn contact_room(
        &mut self,
        n: usize,
    ) -> Result<(usize, &mut [crate::records::Contact]), ArenaError> {
        type C = crate::records::Contact;
        let (lo, hi) = (self.state.parena, self.top());
        let bytes = bytes_of::<C>(n).ok_or(ArenaError::SizeOverflow)?;
        // `lo <= hi <= len`, the length of a slice, so rounding `lo` up cannot overflow
        let start = (lo + align_of::<C>() - 1) & !(align_of::<C>() - 1);
        let Some(end) = start.checked_add(bytes).filter(|&e| e <= hi) else {
            self.state.note_peak();
            return Err(ArenaError::OutOfArena {
                requested: bytes,
                available: hi - lo,
                narena: self.len(),
            });
        };
        // the peak use as if the room were pushed (the bottom mark at `end`)
        self.state.maxuse_stack = self.state.maxuse_stack.max(self.state.pstack);
        self.state.maxuse_arena = self.state.maxuse_arena.max(self.state.pstack + end);
        let room = cast_mut::<C>(&mut self.buf[start..end]).ok_or(ArenaError::SizeOverflow)?;
        Ok((start, room))
    }

    /// Adds the first `num` contacts of the room at byte `start` ([`Arena::contact_room`]) to the
    /// contact array, extending it, and moves the bottom mark after them.
    #[inline(always)]
    pub fn add_contacts(&mut self, start: usize, num: usize) {
        if num > 0 {
            self.table
                .record(ArenaField::contact as usize, start, num, true);
            self.state.parena = self.table.end();
        }
    }

    /// First byte of the region reserved at the top.
    fn top(&self) -> usize {
        self.len() - self.state.pstack
    }

    /// Reserves `n` elements of `T` at the top of the arena until [`Arena::release`], for a
    /// caller that keeps scratch data across calls that use the stack themselves (MuJoCo's
    /// `mj_markStack` held across a nested `mj_forward`). [`Arena::reserved`] views the region;
    /// reservations are released in the reverse order of reserving.
    pub fn reserve<T: Pod>(&mut self, n: usize) -> Result<Reservation, ArenaError> {
        let bytes = bytes_of::<T>(n).ok_or(ArenaError::SizeOverflow)?;
        let top = self.top();
        let start =
            scratch_start::<T>(top, bytes, self.state.parena).ok_or(ArenaError::OutOfArena {
                requested: bytes,
                available: top - self.state.parena,
                narena: self.len(),
            })?;
        let previous = self.state.pstack;
        self.state.pstack = self.len() - start;
        self.state.note_peak();
        Ok(Reservation {
            offset: start,
            previous,
        })
    }

    /// The `n` elements of `T` reserved by `r` ([`Arena::reserve`]).
    pub fn reserved<T: Pod>(&mut self, r: &Reservation, n: usize) -> &mut [T] {
        reserved_in(self.buf, r, n)
    }

    /// The `n` elements of `T` reserved by `r` and the arena arrays, both writable, for a
    /// caller that saves arena arrays in its reservation and restores them later.
    pub fn reserved_and_arrays<T: Pod>(
        &mut self,
        r: &Reservation,
        n: usize,
    ) -> (&mut [T], ArenaArraysMut<'_>) {
        let used = self.state.parena.min(self.len());
        let (arrays, free) = self.buf.split_at_mut(used);
        let block = r
            .offset
            .checked_sub(used)
            .zip(bytes_of::<T>(n))
            .and_then(|(start, bytes)| free.get_mut(start..start.checked_add(bytes)?))
            .and_then(|bytes| cast_mut::<T>(bytes));
        (
            block.unwrap_or(&mut []),
            ArenaArraysMut::within(arrays, &self.table),
        )
    }

    /// Releases reservation `r` and every later one.
    pub fn release(&mut self, r: Reservation) {
        self.state.pstack = r.previous.min(self.state.pstack);
    }

    /// Arena array number `field` (table order) as `&[T]`; empty when absent or out of range.
    pub fn field<T: Pod>(&self, field: usize) -> &[T] {
        if field < N_ARENA_FIELDS {
            field_in::<T>(self.buf, self.table.get_at(field))
        } else {
            &[]
        }
    }

    /// Every arena array as a slice (empty when absent).
    pub fn arrays(&self) -> ArenaArrays<'_> {
        ArenaArrays::within(self.buf, &self.table)
    }

    /// The arena arrays in `only` as slices; the others are empty. Viewing all 39 costs about
    /// a thousand instructions, too much for a function that reads one contact.
    #[inline(always)]
    pub fn arrays_only(&self, only: ArenaMask) -> ArenaArrays<'_> {
        ArenaArrays::within_only(self.buf, &self.table, only)
    }

    /// The contacts (arena array `contact`) as a writable slice, without cutting out the other
    /// arrays as [`Arena::arrays_mut`] does (collision adds contacts one pair at a time).
    pub fn contacts_mut(&mut self) -> &mut [crate::records::Contact] {
        self.arrays_mut_only(CONTACTS).contact
    }

    /// Every arena array as a writable slice (empty when absent).
    pub fn arrays_mut(&mut self) -> ArenaArraysMut<'_> {
        self.arrays_mut_only(ArenaMask::ALL)
    }

    /// The arena arrays in `only` as writable slices; the others are empty.
    #[inline(always)]
    pub fn arrays_mut_only(&mut self, only: ArenaMask) -> ArenaArraysMut<'_> {
        let used = self.state.parena.min(self.len());
        ArenaArraysMut::within_only(&mut self.buf[..used], &self.table, only)
    }
}

/// A frame of the arena: scratch arrays come from the top and die with the frame; arena arrays
/// are pushed at the bottom and persist. Child frames ([`Stack::frame`]) nest like
/// `mj_markStack` / `mj_freeStack`. The peak use (`maxuse_stack`, `maxuse_arena`) is noted
/// when a frame ends, not at each allocation (see the `Drop` impl).
pub struct Stack<'s> {
    /// The free bytes `[lo, hi)` of the arena, as far as this frame knows.
    free: &'s mut [u8],
    lo: usize,
    hi: usize,
    narena: usize,
    state: &'s mut ArenaState,
    /// Arena-array positions, to record pushes; `None` in scratch-only frames.
    table: Option<&'s mut ArenaTable>,
}

/// Notes the frame's peak in the arena's counters. Within a frame `hi` only falls and `parena`
/// only grows, so both are at their peak when the frame ends; a child frame's deeper peak was
/// noted when the child ended. One update per frame instead of one per allocation (a step
/// makes a few dozen frames and over a hundred allocations).
impl Drop for Stack<'_> {
    fn drop(&mut self) {
        let stack = self.narena - self.hi;
        self.state.maxuse_stack = self.state.maxuse_stack.max(stack);
        self.state.maxuse_arena = self.state.maxuse_arena.max(stack + self.state.parena);
    }
}

impl<'s> Stack<'s> {
    /// Takes into account arena arrays that a finished child frame pushed at the bottom.
    #[inline]
    fn sync(&mut self) {
        if self.state.parena > self.lo {
            let pushed = (self.state.parena - self.lo).min(self.free.len());
            let free = core::mem::take(&mut self.free);
            self.free = &mut free[pushed..];
            self.lo += pushed;
        }
    }

    fn out_of_arena(&self, requested: usize) -> ArenaError {
        ArenaError::OutOfArena {
            requested,
            available: self.available(),
            narena: self.narena,
        }
    }

    /// Scratch array of `n` elements of `T`, valid until this frame ends. Its contents are
    /// whatever the arena held before (valid numbers, not zeroed), as in MuJoCo.
    ///
    /// No `Stack::sync` first: arena arrays that a finished child frame pushed end at
    /// `parena`, so a block starting at or above it misses them, and `free` (from the stale
    /// `lo`) still covers it.
    #[inline]
    pub fn alloc<T: Pod>(&mut self, n: usize) -> Result<&'s mut [T], ArenaError> {
        let bytes = bytes_of::<T>(n).ok_or(ArenaError::SizeOverflow)?;
        let start = scratch_start::<T>(self.hi, bytes, self.state.parena)
            .ok_or_else(|| self.out_of_arena(bytes))?;
        let free = core::mem::take(&mut self.free);
        let (below, region) = free.split_at_mut(start - self.lo);
        self.free = below;
        self.hi = start;
        cast_mut::<T>(&mut region[..bytes]).ok_or(ArenaError::SizeOverflow)
    }

    /// Scratch array of `n` elements of `T`, filled with zeros.
    pub fn alloc_zeroed<T: Pod>(&mut self, n: usize) -> Result<&'s mut [T], ArenaError> {
        let a = self.alloc::<T>(n)?;
        a.fill(T::default());
        Ok(a)
    }

    /// Pushes arena array number `field` (table order) with `n` elements of `T` at the bottom of
    /// the arena; it stays until the arena is cleared. Returns the new elements. A push right
    /// after the same array's last block extends that array (contacts are pushed one at a
    /// time); otherwise the array is recorded anew. Only frames of [`Arena::stack`] can push
    /// ([`ArenaError::Detached`] otherwise).
    #[inline(always)]
    pub fn push<T: Pod>(&mut self, field: usize, n: usize) -> Result<&'s mut [T], ArenaError> {
        if self.table.is_none() {
            return Err(ArenaError::Detached);
        }
        if ELEM
            .get(field)
            .is_some_and(|&e| e != (size_of::<T>(), align_of::<T>()))
        {
            return Err(ArenaError::ElementType);
        }
        self.sync();
        let bytes = bytes_of::<T>(n).ok_or(ArenaError::SizeOverflow)?;
        let start = align_up(self.lo, align_of::<T>()).ok_or(ArenaError::SizeOverflow)?;
        let end = start
            .checked_add(bytes)
            .filter(|&e| e <= self.hi)
            .ok_or_else(|| self.out_of_arena(bytes))?;
        let free = core::mem::take(&mut self.free);
        let (region, above) = free.split_at_mut(end - self.lo);
        let padding = start - self.lo;
        self.free = above;
        self.lo = end;
        self.state.parena = end;
        if let Some(table) = self.table.as_deref_mut().filter(|_| field < N_ARENA_FIELDS) {
            table.record(field, start, n, true);
        }
        cast_mut::<T>(&mut region[padding..]).ok_or(ArenaError::SizeOverflow)
    }

    /// Pushes several arena arrays at once with `pushes` ([`Pushes::push`] for each), without
    /// handing out their slices: for allocating the constraint rows, two dozen arrays per pass,
    /// right after `mj_clearEfc` forgot the old ones. On an error the arrays before the failing
    /// one stay pushed, as with single [`Stack::push`]es.
    #[inline(always)]
    pub fn push_each(
        &mut self,
        pushes: impl FnOnce(&mut Pushes<'_>) -> Result<(), ArenaError>,
    ) -> Result<(), ArenaError> {
        self.sync();
        let (lo, hi, narena) = (self.lo, self.hi, self.narena);
        let Some(table) = self.table.as_deref_mut() else {
            return Err(ArenaError::Detached);
        };
        // the pushes go above `lo`, one after another, so the arrays stay disjoint
        table.below(lo);
        let mut p = Pushes {
            table,
            lo,
            hi,
            narena,
        };
        let result = pushes(&mut p);
        let lo = p.lo;
        table.raise_end(lo, true);
        let free = core::mem::take(&mut self.free);
        self.free = &mut free[lo - self.lo..];
        self.lo = lo;
        self.state.parena = lo;
        result
    }

    /// A child frame (`mj_markStack`); its scratch arrays are released when it is dropped
    /// (`mj_freeStack`). Arena arrays it pushes stay.
    pub fn frame(&mut self) -> Stack<'_> {
        // no `sync`: the child's allocations keep above `parena` (see `alloc`), its pushes sync
        Stack {
            free: &mut *self.free,
            lo: self.lo,
            hi: self.hi,
            narena: self.narena,
            state: &mut *self.state,
            table: self.table.as_deref_mut(),
        }
    }

    /// Bytes still free in this frame.
    pub fn available(&self) -> usize {
        self.hi - self.lo.max(self.state.parena)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(align(8))]
    struct Buf([u8; 256]);

    #[test]
    fn plugin_objects_sit_above_the_arena_and_outlive_resets() {
        let mut buf = Buf([0; 256]);
        assert!(
            Arena::with_objects(&mut buf.0, 257).is_err(),
            "more than the buffer"
        );
        let mut arena = Arena::with_objects(&mut buf.0, 20).unwrap();
        // rounded up so the arena's end stays aligned
        assert_eq!((arena.len(), arena.objects().len()), (232, 24));
        arena.objects_mut().fill(5);
        // the stack cannot reach the objects; a reset and a detached arena leave them in place
        assert!(arena.stack().alloc::<u8>(233).is_err());
        arena.stack().alloc::<u8>(232).unwrap().fill(9);
        arena.reset();
        let detached = arena.detach();
        assert_eq!(arena.objects(), &[5; 24]);
        arena.attach(detached);
        assert_eq!(arena.len(), 232);
    }

    #[test]
    fn frames_release_scratch_and_keep_pushes() {
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0);
        {
            let mut s = arena.stack();
            let a = s.alloc::<f64>(4).unwrap();
            a.fill(1.0);
            let before = s.available();
            {
                let mut inner = s.frame();
                inner.alloc::<f64>(8).unwrap();
                inner.push::<i32>(1, 3).unwrap().copy_from_slice(&[7, 8, 9]);
            }
            // the inner scratch is released, the 12-byte push (16 with alignment) stays
            assert_eq!(s.available(), before - 12);
            assert_eq!(a, &[1.0; 4]);
            // the parent's scratch stays clear of what its child pushed, to the last byte
            let rest = s.available();
            assert_eq!(
                s.alloc::<u8>(rest + 1).unwrap_err(),
                ArenaError::OutOfArena {
                    requested: rest + 1,
                    available: rest,
                    narena: 256
                }
            );
            s.alloc::<u8>(rest).unwrap().fill(0xff);
        }
        assert_eq!(arena.state.parena, 12);
        assert_eq!(arena.field::<i32>(1), &[7, 8, 9]);
        assert_eq!(arena.state.maxuse_stack, 256 - 12);
        assert_eq!(arena.state.maxuse_arena, 256);
    }

    #[test]
    fn pushed_arrays_are_writable_together() {
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0);
        {
            let mut s = arena.stack();
            s.push::<i32>(ArenaField::efc_type as usize, 3).unwrap();
            s.push::<i32>(ArenaField::efc_id as usize, 3).unwrap();
            s.push::<crate::Real>(ArenaField::efc_pos as usize, 2)
                .unwrap();
        }
        let a = arena.arrays_mut();
        assert_eq!(
            (
                a.efc_type.len(),
                a.efc_id.len(),
                a.efc_pos.len(),
                a.efc_J.len()
            ),
            (3, 3, 2, 0)
        );
        a.efc_id[2] = 7;
        a.efc_pos[1] = 1.5;
        assert_eq!(arena.arrays().efc_id, &[0, 0, 7]);
        assert_eq!(arena.arrays().efc_pos[1], 1.5);
    }

    #[test]
    fn contact_pushes_match_a_frame_that_pushes() {
        use crate::records::Contact;
        const N: usize = 8192;
        #[repr(align(16))]
        struct Big([u8; N]);
        let (mut a, mut b) = (Big([0; N]), Big([0; N]));
        let (mut by_frame, mut direct) = (Arena::new(&mut a.0), Arena::new(&mut b.0));
        let c = ArenaField::contact as usize;
        for arena in [&mut by_frame, &mut direct] {
            // a bottom mark that needs aligning and a reservation at the top
            arena
                .stack()
                .push::<i32>(ArenaField::efc_type as usize, 3)
                .unwrap();
            arena.reserve::<u8>(100).unwrap();
        }
        let room = (N - 100) / size_of::<Contact>();
        // the last but one does not fit
        for n in [2, 1, room - 1, room, 1] {
            let framed = by_frame.stack().push::<Contact>(c, n).map(|s| s.len());
            let pushed = direct.push_contacts(n).map(|s| s.len());
            assert_eq!(framed, pushed, "{n} contacts");
            assert_eq!(by_frame.state, direct.state);
            assert_eq!(by_frame.table().positions(), direct.table().positions());
            by_frame.keep_contacts(1);
            direct.keep_contacts(1);
        }
        assert!(direct.push_contacts(room).is_err(), "beyond the arena");
        assert!(direct.push_contacts(usize::MAX).is_err(), "overflow");
    }

    #[test]
    fn contact_room_matches_pushing_and_keeping() {
        use crate::records::Contact;
        const N: usize = 8192;
        #[repr(align(16))]
        struct Big([u8; N]);
        let (mut a, mut b) = (Big([0; N]), Big([0; N]));
        let (mut pushed, mut roomy) = (Arena::new(&mut a.0), Arena::new(&mut b.0));
        for arena in [&mut pushed, &mut roomy] {
            arena.reserve::<u8>(100).unwrap();
        }
        let room = (N - 100) / size_of::<Contact>();
        let mut ncon = 0;
        // (room asked for, contacts used): none, some, all, then more than is left
        for (n, num) in [(4, 0), (4, 2), (3, 3), (1, 0), (room, 0)] {
            let by_push = pushed.push_contacts(n).map(|s| s.len());
            let by_room = roomy.contact_room(n).map(|(start, s)| (start, s.len()));
            assert_eq!(by_push.is_ok(), by_room.is_ok(), "{n} contacts");
            if let Ok((start, len)) = by_room {
                assert_eq!(by_push, Ok(len));
                ncon += num;
                pushed.keep_contacts(ncon);
                roomy.add_contacts(start, num);
            }
            assert_eq!(pushed.state, roomy.state, "{n} contacts, {num} used");
            assert_eq!(pushed.table().positions(), roomy.table().positions());
        }
        assert_eq!(roomy.table().get(ArenaField::contact).1, 5);
        assert!(roomy.contact_room(usize::MAX).is_err(), "overflow");
    }

    #[test]
    fn consecutive_pushes_extend_an_array() {
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0);
        {
            let mut s = arena.stack();
            for k in 0..3 {
                let scratch = s.alloc::<f64>(2).unwrap();
                scratch[0] = 9.0;
                s.push::<i32>(1, 1).unwrap()[0] = k;
            }
        }
        assert_eq!(arena.field::<i32>(1), &[0, 1, 2]);
        arena.clear();
        assert!(arena.field::<i32>(1).is_empty());
    }

    #[test]
    fn detached_frames_give_scratch_but_cannot_push() {
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0);
        let mut detached = arena.detach();
        {
            let mut s = detached.stack();
            assert!(s.alloc::<f64>(4).is_ok());
            assert_eq!(s.push::<i32>(1, 1).unwrap_err(), ArenaError::Detached);
        }
        arena.attach(detached);
        assert_eq!(arena.state.maxuse_stack, 32);
        assert_eq!(arena.len(), 256);
    }

    #[test]
    fn running_out_is_an_error() {
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0[..64]);
        let mut s = arena.stack();
        assert!(s.alloc::<f64>(8).is_ok());
        let err = s.alloc::<u8>(1).unwrap_err();
        assert_eq!(
            err,
            ArenaError::OutOfArena {
                requested: 1,
                available: 0,
                narena: 64
            }
        );
        assert_eq!(
            s.alloc::<f64>(usize::MAX).unwrap_err(),
            ArenaError::SizeOverflow
        );
        assert!(matches!(
            s.push::<crate::Real>(ArenaField::efc_pos as usize, 1),
            Err(ArenaError::OutOfArena { .. })
        ));
    }

    #[test]
    fn tables_from_callers_are_validated() {
        let (c, t, id) = (
            ArenaField::contact as usize,
            ArenaField::efc_type as usize,
            ArenaField::efc_id as usize,
        );
        let size = size_of::<crate::records::Contact>();
        let mut pos = [(0, 0); N_ARENA_FIELDS];
        pos[c] = (0, 2);
        pos[t] = (2 * size, 3);
        pos[id] = (2 * size + 12, 1);
        let table = ArenaTable::new(&pos).unwrap();
        assert_eq!(table.end(), 2 * size + 16);
        let bad = |edit: fn(&mut ArenaFields)| {
            let mut p = pos;
            edit(&mut p);
            ArenaTable::new(&p)
        };
        // overlapping, misaligned, overflowing
        assert!(bad(|p| p[ArenaField::efc_id as usize].0 -= 4).is_none());
        assert!(bad(|p| p[ArenaField::efc_J as usize] = (2, 1)).is_none());
        assert!(bad(|p| p[ArenaField::efc_id as usize].1 = usize::MAX / 2).is_none());
        // ending at or past the end word's flag bit, though the bytes do not overflow
        assert!(bad(|p| p[ArenaField::efc_id as usize] = (usize::MAX / 2 - 3, 1)).is_none());
        assert!(bad(|p| p[ArenaField::efc_D as usize] = (usize::MAX / 2 + 1, 0)).is_none());
        // the flag notes arrays besides the contacts, and only those
        assert!(table.holds_others());
        let mut contacts = [(0, 0); N_ARENA_FIELDS];
        contacts[c] = (0, 2);
        assert!(!ArenaTable::new(&contacts).unwrap().holds_others());
        let mut kept = table;
        assert_eq!(kept.keep_contacts(1), size);
        assert!(!kept.holds_others());
        assert_eq!((kept.end(), kept.get(ArenaField::efc_type)), (size, (0, 0)));
        // an empty array may sit anywhere aligned within the others' span
        assert!(bad(|p| p[ArenaField::efc_D as usize] = (16, 0)).is_some());
        // the views of a valid table in too short a buffer are empty, not out of bounds
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0[..64]);
        let state = ArenaState {
            parena: table.end(),
            ..ArenaState::default()
        };
        assert_eq!(arena.set_layout(state, &pos), Err(ArenaError::BadHeader));
        assert!(arena.arrays().efc_type.is_empty());
    }

    #[test]
    fn pushes_keep_their_types_and_truncations_drop_rows() {
        #[repr(align(8))]
        struct Big([u8; 4096]);
        let mut buf = Big([0; 4096]);
        let mut arena = Arena::new(&mut buf.0);
        {
            let mut s = arena.stack();
            let contact = ArenaField::contact as usize;
            assert_eq!(
                s.push::<f64>(contact, 1).unwrap_err(),
                ArenaError::ElementType
            );
            s.push::<crate::records::Contact>(contact, 3).unwrap();
            s.push_each(|p| {
                p.push(ArenaField::efc_type, 2)?;
                p.push(ArenaField::efc_pos, 2)
            })
            .unwrap();
        }
        assert_eq!(arena.arrays().efc_pos.len(), 2);
        {
            // pushes that do not fit, or could not exist, are refused; the earlier ones stay
            let mut s = arena.stack();
            let room = s.available();
            let real = core::mem::size_of::<crate::Real>();
            let too_many = s.push_each(|p| {
                p.push(ArenaField::efc_id, 1)?;
                p.push(ArenaField::efc_D, room / real)
            });
            assert!(matches!(
                too_many,
                Err(ArenaError::OutOfArena { requested, .. }) if requested == room / real * real
            ));
            let huge = s.push_each(|p| p.push(ArenaField::efc_D, usize::MAX / real));
            assert_eq!(huge.unwrap_err(), ArenaError::SizeOverflow);
        }
        assert_eq!(arena.arrays().efc_id.len(), 1);
        assert_eq!(arena.arrays().efc_D.len(), 0);
        arena.keep_contacts(1);
        let a = arena.arrays();
        assert_eq!(
            (a.contact.len(), a.efc_type.len(), a.efc_pos.len()),
            (1, 0, 0)
        );
        assert_eq!(arena.state.parena, size_of::<crate::records::Contact>());
        // a push below the arrays (counters edited by hand) drops those it overlaps
        arena.state.parena = 0;
        arena
            .stack()
            .push::<i32>(ArenaField::efc_id as usize, 4)
            .unwrap();
        let a = arena.arrays();
        assert_eq!((a.contact.len(), a.efc_id.len()), (0, 4));
    }

    #[test]
    fn carver_matches_counter() {
        let mut counter = LayoutCounter::new();
        counter.add::<u8>(Some(3));
        counter.add::<f64>(Some(2));
        counter.add::<i32>(Some(1));
        assert_eq!(counter.total(), Some(28));
        let mut buf = Buf([0; 256]);
        let mut carver = Carver::new(&mut buf.0[1..], 28);
        assert_eq!(carver.take::<u8>(Some(3)).unwrap().len(), 3);
        assert_eq!(carver.take::<f64>(Some(2)).unwrap().len(), 2);
        assert_eq!(carver.take::<i32>(Some(1)).unwrap().len(), 1);
        let mut small = Buf([0; 256]);
        let mut carver = Carver::new(&mut small.0[..10], 28);
        carver.take::<u8>(Some(3)).unwrap();
        assert_eq!(
            carver.take::<f64>(Some(2)).unwrap_err(),
            ArenaError::BufferTooSmall {
                needed: 28,
                available: 10
            }
        );
    }

    /// A floor puts every number array (elements as wide as `Real` or wider) two floors or
    /// longer at a multiple of it from any start of the buffer, within the bytes the counter
    /// asks for; shorter arrays and narrower types keep their own alignment (in the f32 build
    /// the `i32`s count as number arrays too; the offsets come out the same).
    #[test]
    fn aligned_carver_matches_aligned_counter() {
        fn lay(c: &mut LayoutCounter) {
            c.add::<u8>(Some(3));
            c.add::<f64>(Some(8));
            c.add::<i32>(Some(3));
            c.add::<f64>(Some(2));
            c.add::<f64>(Some(8));
            c.add::<i32>(Some(20));
        }
        let mut counter = LayoutCounter::aligned(32);
        lay(&mut counter);
        assert_eq!(counter.total(), Some(272));
        let needed = counter.buffer_bytes().unwrap();
        assert_eq!(needed, 272 + 31);
        for start in [0, 1, 8, 16, 24, 31] {
            let mut buf = [0u8; 512];
            let mut carver = Carver::aligned(&mut buf[start..start + needed], needed, 32);
            let starts = [
                carver.take::<u8>(Some(3)).unwrap().as_ptr() as usize,
                carver.take::<f64>(Some(8)).unwrap().as_ptr() as usize,
                carver.take::<i32>(Some(3)).unwrap().as_ptr() as usize,
                carver.take::<f64>(Some(2)).unwrap().as_ptr() as usize,
                carver.take::<f64>(Some(8)).unwrap().as_ptr() as usize,
                carver.take::<i32>(Some(20)).unwrap().as_ptr() as usize,
            ];
            assert_eq!(starts[0] % 32, 0);
            assert_eq!(starts.map(|a| a - starts[0]), [0, 32, 96, 112, 128, 192]);
        }
    }

    /// Scratch number arrays two vectors or longer start at [`DATA_ALIGN`] from the arena's
    /// start; shorter ones at their own alignment.
    #[test]
    fn long_scratch_arrays_start_at_vectors() {
        let mut buf = Buf([0; 256]);
        let mut arena = Arena::new(&mut buf.0);
        let base = arena.buf.as_ptr() as usize;
        let mut s = arena.stack();
        let long = s.alloc::<f64>(9).unwrap().as_ptr() as usize - base;
        let short = s.alloc::<f64>(3).unwrap().as_ptr() as usize - base;
        let ints = s.alloc::<i32>(15).unwrap().as_ptr() as usize - base;
        let floor = DATA_ALIGN.max(8);
        assert_eq!(long, (256 - 72) / floor * floor);
        assert_eq!(short, long - 24);
        assert_eq!(ints, short - 60);
    }
}
