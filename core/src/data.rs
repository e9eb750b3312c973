//! [`Data`]: MuJoCo's `mjData` as a view over a caller-provided byte buffer: the state, every
//! intermediate result of the pipeline, the diagnostics, and the arena with its scratch stack.

use crate::arena::{
    Arena, ArenaError, ArenaFields, ArenaState, Carver, LayoutCounter, DATA_ALIGN, MAX_ARENA,
};
use crate::layout::{field_len, ArrayVisitor, ArrayVisitorMut, FieldInfo};
use crate::model::{Model, ModelSizes, SizeMismatch};
use crate::real::Real;
use crate::types::{MAXTHREAD, NISLAND, NSOLVER_STATS, NTIMER, NWARNING};

// The plain structs of `mjData` live on the ground floor, below the arena and the layout
// table that name them; they are re-exported here, where MuJoCo declares them (`mjdata.h`).
pub use crate::records::{Contact, SolverStat, TimerStat, WarningStat};

/// `mjcb_contactfilter`'s type: model, data, the two geoms; true leaves the pair out.
pub type ContactFilter = fn(&Model, &mut Data, usize, usize) -> bool;

/// User hooks, MuJoCo's `mjcb_*` callbacks, kept per `Data` (MuJoCo's are global). Declared
/// here because `Data` holds them and their hooks take `Data`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Callbacks {
    /// `mjcb_control`: sets controls, called before actuation in every forward pass.
    pub control: Option<fn(&Model, &mut Data)>,
    /// `mjcb_passive`: adds to `qfrc_passive` after the built-in passive forces.
    pub passive: Option<fn(&Model, &mut Data)>,
    /// `mjcb_sensor`: fills user sensors of a stage (`STAGE_POS`, `STAGE_VEL`, `STAGE_ACC`).
    pub sensor: Option<fn(&Model, &mut Data, i32)>,
    /// `mjcb_act_dyn`: `act_dot` of actuator `id` with user dynamics (returned for one
    /// activation variable; written into `act_dot` by the callback for several).
    pub act_dyn: Option<fn(&Model, &mut Data, usize) -> Real>,
    /// `mjcb_act_gain`: gain of actuator `id` with user gain.
    pub act_gain: Option<fn(&Model, &Data, usize) -> Real>,
    /// `mjcb_act_bias`: bias of actuator `id` with user bias.
    pub act_bias: Option<fn(&Model, &Data, usize) -> Real>,
    /// `mjcb_time`: a clock for the timers in `d.timer`; without it nothing is timed.
    pub time: Option<fn() -> Real>,
    /// `mjcb_contactfilter`: called for each pair of geoms the broad phase finds (not for
    /// explicit `<pair>`s) in place of the contype/conaffinity test; true leaves the pair out.
    /// During collision the arena (with the contacts found so far) is not part of `d`.
    pub contactfilter: Option<ContactFilter>,
}

/// The scalar fields of `mjData` that mjrs keeps by value in [`Data`] (sizes of the arena
/// arrays, diagnostics, time), as `name: type = initial value`. Generated from this list:
/// the fields, their reset, [`DataHeader`] and copying.
macro_rules! data_scalars {
    ($cb:ident $(; $($rest:tt)*)?) => {
        $cb! {
            [
            /// Simulation time.
            time: Real = 0.0,
            /// Peak number of contacts.
            maxuse_con: usize = 0,
            /// Peak number of constraint rows.
            maxuse_efc: usize = 0,
            /// Number of islands processed by the solver.
            solver_nisland: usize = 0,
            /// Number of equality constraint rows.
            ne: usize = 0,
            /// Number of friction constraint rows.
            nf: usize = 0,
            /// Number of limit constraint rows.
            nl: usize = 0,
            /// Number of constraint rows.
            nefc: usize = 0,
            /// Number of non-zeros in the constraint Jacobian.
            nnzJ: usize = 0,
            /// Number of detected contacts.
            ncon: usize = 0,
            /// Number of detected constraint islands.
            nisland: usize = 0,
            /// Warning statistics, indexed by `WARN_*`.
            warning: [WarningStat; NWARNING as usize] = [WarningStat { lastinfo: 0, number: 0 }; NWARNING as usize],
            /// Timer statistics, indexed by `TIMER_*`.
            timer: [TimerStat; NTIMER as usize] = [TimerStat { duration: 0.0, number: 0 }; NTIMER as usize],
            /// Solver iterations, per island.
            solver_niter: [i32; NISLAND] = [0; NISLAND],
            /// Non-zeros in the Hessian or efc_AR, per island.
            solver_nnz: [i32; NISLAND] = [0; NISLAND],
            /// Forward-inverse comparison: qfrc, efc.
            solver_fwdinv: [Real; 2] = [0.0; 2],
            /// Potential and kinetic energy.
            energy: [Real; 2] = [0.0; 2],
            ]
            $($($rest)*)?
        }
    };
}

macro_rules! gen_header {
    ([$($(#[$m:meta])* $name:ident : $t:ty = $init:expr),* $(,)?]) => {
        /// Everything of a [`Data`] that is not in its buffer: the scalars, the arena's
        /// bookkeeping and the model sizes. With the buffer's bytes it is the whole `Data`
        /// ([`Data::header`], [`Data::view`]); `mjrs-alloc` keeps owned datas this way.
        #[derive(Clone, Debug)]
        pub struct DataHeader {
            /// Sizes of the model the data belongs to.
            pub sizes: ModelSizes,
            /// Arena counters.
            pub arena: ArenaState,
            /// Arena-array positions.
            pub arena_fields: ArenaFields,
            /// Bytes at the top of the arena held by the plugin instances' objects
            /// ([`Data::plugin_objects`]), set when the data is made.
            pub plugin_bytes: usize,
            /// User hooks.
            pub callbacks: Callbacks,
            $( $(#[$m])* pub $name: $t, )*
        }

        impl DataHeader {
            fn initial(sizes: ModelSizes) -> Self {
                Self {
                    sizes,
                    arena: ArenaState::default(),
                    arena_fields: [(0, 0); crate::arena::N_ARENA_FIELDS],
                    plugin_bytes: 0,
                    callbacks: Callbacks::default(),
                    $( $name: $init, )*
                }
            }
        }

        impl Data<'_> {
            /// The scalars and bookkeeping of this data (everything outside its buffer).
            pub fn header(&self) -> DataHeader {
                DataHeader {
                    sizes: self.sizes,
                    arena: self.arena.state,
                    arena_fields: self.arena.table().positions(),
                    plugin_bytes: self.arena.objects().len(),
                    callbacks: self.callbacks,
                    $( $name: self.$name, )*
                }
            }

            /// Sets the scalars from `h` (sizes excepted); arena bookkeeping is restored only
            /// by [`Data::view`], with the arena bytes it describes.
            fn set_scalars(&mut self, h: &DataHeader) {
                $( self.$name = h.$name; )*
            }

            /// Scalars back to their reset values.
            pub(crate) fn reset_scalars(&mut self) {
                let h = DataHeader::initial(self.sizes);
                self.set_scalars(&h);
            }
        }
    };
}
data_scalars!(gen_header);

macro_rules! gen_data {
    (
        [$($(#[$m:meta])* $sname:ident : $t:ty = $init:expr),* $(,)?]
        $($name:ident : $ty:ident [$rows:ident, $($cols:tt)+]),* $(,)?
    ) => {
                /// MuJoCo's `mjData` for one [`Model`](crate::Model): state, pipeline results,
                /// diagnostics and the arena, all carved from one caller-provided buffer.
                pub struct Data<'a> {
                    sizes: ModelSizes,
                    /// User hooks (MuJoCo's `mjcb_*`); kept by `io::reset_data`.
                    pub callbacks: Callbacks,
                    /// A pool that runs the inertia and the collisions of `forward` at the same
                    /// time (`mjData.threadpool`, set by `mju_bindThreadPool`; see
                    /// [`crate::thread`]). Not part of the header: every view starts without one.
                    pub threadpool: Option<&'a dyn crate::thread::Parallel>,
                    $( $(#[$m])* pub $sname: $t, )*
                    /// Solver statistics, `NISLAND` blocks of `NSOLVER_STATS` iterations.
                    /// An array reference (one word; a slice would take two and make `Data`
                    /// larger than `mjData` on some models).
                    pub solver: &'a mut [SolverStat; NISLAND * NSOLVER_STATS],
                    /// The arena: contacts and constraint rows at the bottom, scratch stack at
                    /// the top, and above it the plugin instances' objects
                    /// ([`Data::plugin_objects`]).
                    pub arena: Arena<'a>,
                    $(
                        #[doc = concat!("`mjData.", stringify!($name), "`: ", stringify!($ty),
                                        " [", stringify!($rows), " x ", stringify!($($cols)+), "].")]
                        pub $name: &'a mut [mj_type!($ty)],
                    )*
                }

                /// Number of fixed-size arrays in a `Data` (`MJDATA_POINTERS`).
                pub const N_DATA_ARRAYS: usize = [$(stringify!($name)),*].len();

                impl<'a> Data<'a> {
                    fn layout(s: &ModelSizes) -> LayoutCounter {
                        let mut c = LayoutCounter::aligned(DATA_ALIGN);
                        c.add::<SolverStat>(Some(NISLAND * NSOLVER_STATS));
                        $( c.add::<mj_type!($ty)>(field_len(s.$rows, mj_cols!(s; $($cols)+))); )*
                        c.add::<u64>(Some(s.narena / 8));
                        c
                    }

                    /// MuJoCo's `mjData.nbuffer` for a model of these sizes: the fixed arrays
                    /// with 64-byte alignment (mjrs packs them tighter). `None` on overflow.
                    pub fn mujoco_nbuffer(s: &ModelSizes) -> Option<usize> {
                        let mut total = 0usize;
                        $(
                            total = (total.checked_add(63)? & !63).checked_add(
                                field_len(s.$rows, mj_cols!(s; $($cols)+))?
                                    .checked_mul(core::mem::size_of::<mj_type!($ty)>())?,
                            )?;
                        )*
                        Some(total)
                    }

                    /// Bytes a buffer must have to hold a `Data` for a model of these sizes (any
                    /// alignment), arena included.
                    pub fn bytes_needed(sizes: &ModelSizes) -> Result<usize, ArenaError> {
                        if sizes.narena > MAX_ARENA {
                            return Err(ArenaError::ArenaTooLarge { narena: sizes.narena });
                        }
                        Self::layout(sizes).buffer_bytes().ok_or(ArenaError::SizeOverflow)
                    }

                    /// A `Data` over `buf` as it is, with the scalars and arena bookkeeping of
                    /// `header` (the inverse of [`Data::header`] for a buffer that already holds a
                    /// data). Use [`Data::new`] for a fresh one.
                    pub fn view(header: &DataHeader, buf: &'a mut [u8]) -> Result<Self, ArenaError> {
                        let mut slot = None;
                        Self::view_into(&mut slot, header, buf)?;
                        slot.ok_or(ArenaError::BadHeader)
                    }

                    /// [`Data::view`] into `slot`, where the data is built array by array and
                    /// stays (no data-sized value passes through the stack). Returns the data;
                    /// on an error `slot` is empty.
                    pub fn view_into<'s>(
                        slot: &'s mut Option<Self>,
                        header: &DataHeader,
                        buf: &'a mut [u8],
                    ) -> Result<&'s mut Self, ArenaError> {
                        *slot = None;
                        let (c, solver) = Self::start_carving(&header.sizes, buf)?;
                        slot.insert(Self::empty(solver)).fill_view(header, c).inspect_err(|_| {
                            *slot = None;
                        })?;
                        slot.as_mut().ok_or(ArenaError::BadHeader)
                    }

                    /// A data without arrays but the solver statistics, every scalar at its
                    /// reset value: what [`Data::view_into`] starts from.
                    fn empty(solver: &'a mut [SolverStat; NISLAND * NSOLVER_STATS]) -> Self {
                        Data {
                            sizes: ModelSizes::ZERO,
                            callbacks: Callbacks::default(),
                            threadpool: None,
                            $( $sname: $init, )*
                            solver,
                            arena: Arena::new(&mut []),
                            $( $name: &mut [], )*
                        }
                    }

                    /// Carves every array of `header`'s sizes from `buf` into this data and
                    /// takes `header`'s scalars and arena bookkeeping.
                    fn fill_view(&mut self, header: &DataHeader, c: Carver<'a>) -> Result<(), ArenaError> {
                        self.carve_arrays(header.sizes, header.plugin_bytes, c)?;
                        self.callbacks = header.callbacks;
                        $( self.$sname = header.$sname; )*
                        self.arena.set_layout(header.arena, &header.arena_fields)
                    }

                    /// Starts carving `buf` for these sizes: the carver and the first array, the
                    /// solver statistics (which a data cannot be without).
                    #[allow(clippy::type_complexity)]
                    fn start_carving(
                        sizes: &ModelSizes,
                        buf: &'a mut [u8],
                    ) -> Result<(Carver<'a>, &'a mut [SolverStat; NISLAND * NSOLVER_STATS]), ArenaError> {
                        let needed = Self::bytes_needed(sizes)?;
                        let mut c = Carver::aligned(buf, needed, DATA_ALIGN);
                        let solver = c
                            .take::<SolverStat>(Some(NISLAND * NSOLVER_STATS))?
                            .try_into()
                            .map_err(|_| ArenaError::SizeOverflow)?;
                        Ok((c, solver))
                    }

                    /// Carves every other array for these sizes from `c` into this data, a fresh
                    /// arena with `plugin_bytes` at its top for the plugin objects.
                    fn carve_arrays(
                        &mut self,
                        sizes: ModelSizes,
                        plugin_bytes: usize,
                        mut c: Carver<'a>,
                    ) -> Result<(), ArenaError> {
                        let s = &sizes;
                        self.sizes = sizes;
                        self.threadpool = None;
                        $( self.$name = c.take::<mj_type!($ty)>(field_len(s.$rows, mj_cols!(s; $($cols)+)))?; )*
                        let arena_words = c.take::<u64>(Some(s.narena / 8))?;
                        let arena_bytes = crate::pod::as_bytes_mut(arena_words);
                        self.arena = Arena::with_objects(arena_bytes, plugin_bytes)?;
                        Ok(())
                    }

                    /// Carves the arrays from `buf` into `slot` without initializing them,
                    /// `plugin_bytes` of the arena's top for the plugin objects.
                    pub(crate) fn carve_into<'s>(
                        slot: &'s mut Option<Self>,
                        sizes: ModelSizes,
                        plugin_bytes: usize,
                        buf: &'a mut [u8],
                    ) -> Result<&'s mut Self, ArenaError> {
                        // the scalars of an empty data are the initial ones
                        *slot = None;
                        let (c, solver) = Self::start_carving(&sizes, buf)?;
                        slot.insert(Self::empty(solver)).carve_arrays(sizes, plugin_bytes, c).inspect_err(|_| {
                            *slot = None;
                        })?;
                        slot.as_mut().ok_or(ArenaError::BadHeader)
                    }

                    /// Sets every fixed-size array to zero.
                    pub(crate) fn zero_arrays(&mut self) {
                        $( self.$name.fill(Default::default()); )*
                    }

                    /// Sets every byte of every fixed-size array to `value`.
                    pub(crate) fn fill_array_bytes(&mut self, value: u8) {
                        $( crate::pod::as_bytes_mut(&mut *self.$name).fill(value); )*
                    }

                    /// Calls the visitor with every fixed-size array, in table order.
                    pub fn visit<V: ArrayVisitor>(&self, v: &mut V) {
                        let s = &self.sizes;
                        $(
                            v.array(&FieldInfo {
                                name: stringify!($name),
                                kind: mj_kind!($ty),
                                rows: s.$rows,
                                cols: mj_cols!(s; $($cols)+).unwrap_or(0),
                                matrix: mj_is_matrix!($($cols)+),
                            }, &*self.$name);
                        )*
                    }

                    /// Calls the visitor with every fixed-size array, writable, in table order.
                    pub fn visit_mut<V: ArrayVisitorMut>(&mut self, v: &mut V) {
                        let s = &self.sizes;
                        $(
                            v.array(&FieldInfo {
                                name: stringify!($name),
                                kind: mj_kind!($ty),
                                rows: s.$rows,
                                cols: mj_cols!(s; $($cols)+).unwrap_or(0),
                                matrix: mj_is_matrix!($($cols)+),
                            }, &mut *self.$name);
                        )*
                    }

                    /// Copies every array and scalar of `src` (`mj_copyData`); both must belong to
                    /// models of the same sizes. The arena is copied up to its used part. The
                    /// plugin objects and `plugin_data` stay this data's own, as MuJoCo keeps the
                    /// destination's (its plugins here have no `copy` callback).
                    pub fn copy_from(&mut self, src: &Data) -> Result<(), SizeMismatch> {
                        if self.sizes != src.sizes || self.arena.len() != src.arena.len() {
                            return Err(SizeMismatch);
                        }
                        self.callbacks = src.callbacks;
                        $( self.$sname = src.$sname; )*
                        *self.solver = *src.solver;
                        self.arena.copy_from(&src.arena);
                        $( copy_array(stringify!($name), self.$name, src.$name); )*
                        Ok(())
                    }
                }
    };
}

/// `dst = src` for array `name` of [`Data::copy_from`], except `plugin_data`, which locates
/// this data's own plugin objects.
fn copy_array<T: Copy>(name: &str, dst: &mut [T], src: &[T]) {
    if name != "plugin_data" {
        dst.copy_from_slice(src);
    }
}

/// Hands the array table to `gen_data` together with the scalar table.
macro_rules! data_with_scalars {
    ($($arrays:tt)*) => {
        data_scalars!(gen_data; $($arrays)*);
    };
}
mjdata_arrays!(data_with_scalars);

impl core::fmt::Debug for Data<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Data")
            .field("time", &self.time)
            .field("ncon", &self.ncon)
            .field("nefc", &self.nefc)
            .finish_non_exhaustive()
    }
}

impl<'a> Data<'a> {
    /// Runs `f` with this data and a stack frame of its arena, for stages that read many data
    /// fields while using scratch memory. During `f`, `d.arena` is empty.
    pub fn with_stack<R>(
        &mut self,
        f: impl FnOnce(&mut Data<'a>, &mut crate::arena::Stack<'_>) -> R,
    ) -> R {
        let mut detached = self.arena.detach();
        let r = f(self, &mut detached.stack());
        self.arena.attach(detached);
        r
    }

    /// The objects of the plugin instances (what MuJoCo's plugins allocate in `init` and point
    /// to from `plugin_data`): bytes above the arena, held when the data is made and kept by
    /// resets and copies; `plugin_data[i]` is the byte offset of instance `i`'s object (see
    /// `plugin::instance_object`).
    pub fn plugin_objects(&self) -> &[u8] {
        self.arena.objects()
    }

    /// [`Data::plugin_objects`], writable.
    pub fn plugin_objects_mut(&mut self) -> &mut [u8] {
        self.arena.objects_mut()
    }

    /// Runs `f` with the plugin objects ([`Data::plugin_objects`]) and a scratch frame, the rest
    /// of the data free to use.
    pub fn with_objects_and_stack<R>(
        &mut self,
        f: impl FnOnce(&mut Data<'a>, &mut [u8], &mut crate::arena::Stack<'_>) -> R,
    ) -> R {
        let mut detached = self.arena.detach();
        let objects = self.arena.take_objects();
        let r = f(self, objects, &mut detached.stack());
        self.arena.put_objects(objects);
        self.arena.attach(detached);
        r
    }

    /// The sizes of the model this data was made for.
    pub fn sizes(&self) -> &ModelSizes {
        &self.sizes
    }

    /// Number of plugin instances (`mjData.nplugin`): always the model's, so read from the sizes
    /// rather than stored (`Data` stays no larger than `mjData`; tests/tests/memory.rs).
    pub fn nplugin(&self) -> usize {
        self.sizes.nplugin
    }

    /// Peak stack bytes per thread (`mjData.maxuse_threadstack`): MuJoCo counts it only for
    /// the threads of a bound thread pool, and a `Data` of mjrs is stepped by one thread on
    /// its own arena, so every entry is zero (and takes no memory; see `maxuse_stack`).
    pub fn maxuse_threadstack(&self) -> &'static [u64; MAXTHREAD] {
        const ZEROS: [u64; MAXTHREAD] = [0; MAXTHREAD];
        &ZEROS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_mujoco_3_1_6_counts() {
        assert_eq!(N_DATA_ARRAYS, 92);
        assert_eq!(
            core::mem::size_of::<Contact>(),
            65 * core::mem::size_of::<Real>() + 56
        );
    }
}
