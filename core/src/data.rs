//! [`Data`]: MuJoCo's `mjData` as a view over a caller-provided byte buffer: the state, every
//! intermediate result of the pipeline, the diagnostics, and the arena with its scratch stack.

use crate::arena::{Arena, ArenaError, ArenaFields, ArenaState, Carver, LayoutCounter};
use crate::forward::Callbacks;
use crate::layout::{field_len, ArrayVisitor, FieldInfo};
use crate::model::{ModelSizes, SizeMismatch};
use crate::real::Real;
use crate::types::{MAXTHREAD, NISLAND, NSOLVER_STATS, NTIMER, NWARNING};

/// One contact (`mjContact`), as produced by collision detection.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Distance between nearest points; negative: penetration.
    pub dist: Real,
    /// Position of contact point: midpoint between geoms.
    pub pos: [Real; 3],
    /// Contact frame; the normal is in `[0..3]` and points from geom 1 to geom 2.
    pub frame: [Real; 9],
    /// Include the contact if `dist < includemargin = margin - gap`.
    pub includemargin: Real,
    /// Friction: tangent1, tangent2, spin, roll1, roll2.
    pub friction: [Real; 5],
    /// Solver reference, normal direction.
    pub solref: [Real; 2],
    /// Solver reference, friction directions.
    pub solreffriction: [Real; 2],
    /// Solver impedance.
    pub solimp: [Real; 5],
    /// Friction of regularized cone.
    pub mu: Real,
    /// Cone Hessian.
    pub H: [Real; 36],
    /// Contact space dimensionality: 1, 3, 4 or 6.
    pub dim: i32,
    /// Id of geom 1 (deprecated in MuJoCo, use `geom[0]`).
    pub geom1: i32,
    /// Id of geom 2 (deprecated in MuJoCo, use `geom[1]`).
    pub geom2: i32,
    /// Geom ids; -1 for flex.
    pub geom: [i32; 2],
    /// Flex ids; -1 for geom.
    pub flex: [i32; 2],
    /// Element ids; -1 for geom or flex vertex.
    pub elem: [i32; 2],
    /// Vertex ids; -1 for geom or flex element.
    pub vert: [i32; 2],
    /// 0: include, 1: in gap, 2: fused, 3: no dofs.
    pub exclude: i32,
    /// Address in the constraint rows; -1: not included.
    pub efc_address: i32,
    /// Explicit padding, so that the struct has none (see the `pod` module).
    pub _pad: i32,
}

impl Default for Contact {
    fn default() -> Self {
        Self {
            dist: 0.0,
            pos: [0.0; 3],
            frame: [0.0; 9],
            includemargin: 0.0,
            friction: [0.0; 5],
            solref: [0.0; 2],
            solreffriction: [0.0; 2],
            solimp: [0.0; 5],
            mu: 0.0,
            H: [0.0; 36],
            dim: 0,
            geom1: 0,
            geom2: 0,
            geom: [0; 2],
            flex: [0; 2],
            elem: [0; 2],
            vert: [0; 2],
            exclude: 0,
            efc_address: 0,
            _pad: 0,
        }
    }
}

/// Warning statistics (`mjWarningStat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarningStat {
    /// Info from the last warning.
    pub lastinfo: i32,
    /// How many times the warning was raised.
    pub number: i32,
}

/// Timer statistics (`mjTimerStat`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimerStat {
    /// Cumulative duration.
    pub duration: Real,
    /// How many times the timer was called.
    pub number: i32,
}

/// Per-iteration solver statistics (`mjSolverStat`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverStat {
    /// Cost reduction, scaled by 1/trace(M(qpos0)).
    pub improvement: Real,
    /// Gradient norm (primal only, scaled).
    pub gradient: Real,
    /// Slope in linesearch.
    pub lineslope: Real,
    /// Number of active constraints.
    pub nactive: i32,
    /// Number of constraint state changes.
    pub nchange: i32,
    /// Number of cost evaluations in line search.
    pub neval: i32,
    /// Number of Cholesky updates in line search.
    pub nupdate: i32,
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
            /// Number of plugin instances.
            nplugin: usize = 0,
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
                    arena_fields: self.arena.fields,
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
                    /// User hooks (MuJoCo's `mjcb_*`); kept by [`crate::io::reset_data`].
                    pub callbacks: Callbacks,
                    /// A pool that runs the inertia and the collisions of `forward` at the same
                    /// time (`mjData.threadpool`, set by `mju_bindThreadPool`; see
                    /// [`crate::thread`]). Not part of the header: every view starts without one.
                    pub threadpool: Option<&'a dyn crate::thread::Parallel>,
                    $( $(#[$m])* pub $sname: $t, )*
                    /// Solver statistics, `NISLAND` blocks of `NSOLVER_STATS` iterations.
                    pub solver: &'a mut [SolverStat],
                    /// The arena: contacts and constraint rows at the bottom, scratch stack at the top.
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
                        let mut c = LayoutCounter::new();
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
                        Self::layout(sizes).buffer_bytes().ok_or(ArenaError::SizeOverflow)
                    }

                    /// A `Data` over `buf` as it is, with the scalars and arena bookkeeping of
                    /// `header` (the inverse of [`Data::header`] for a buffer that already holds a
                    /// data). Use [`Data::new`] for a fresh one.
                    pub fn view(header: &DataHeader, buf: &'a mut [u8]) -> Result<Self, ArenaError> {
                        let sizes = header.sizes;
                        let needed = Self::bytes_needed(&sizes)?;
                        let mut c = Carver::new(buf, needed);
                        let s = &sizes;
                        let solver = c.take::<SolverStat>(Some(NISLAND * NSOLVER_STATS))?;
                        $( let $name = c.take::<mj_type!($ty)>(field_len(s.$rows, mj_cols!(s; $($cols)+)))?; )*
                        let arena_words = c.take::<u64>(Some(s.narena / 8))?;
                        let mut arena = Arena::new(crate::pod::as_bytes_mut(arena_words));
                        if !arena.fits(&header.arena, &header.arena_fields) {
                            return Err(ArenaError::BadHeader);
                        }
                        arena.state = header.arena;
                        arena.fields = header.arena_fields;
                        Ok(Data {
                            sizes,
                            callbacks: header.callbacks,
                            threadpool: None,
                            $( $sname: header.$sname, )*
                            solver,
                            arena,
                            $( $name, )*
                        })
                    }

                    /// Carves the arrays from `buf` without initializing them.
                    pub(crate) fn carve(sizes: ModelSizes, buf: &'a mut [u8]) -> Result<Self, ArenaError> {
                        Self::view(&DataHeader::initial(sizes), buf)
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

                    /// Copies every array and scalar of `src` (`mj_copyData`); both must belong to
                    /// models of the same sizes. The arena is copied up to its used part.
                    pub fn copy_from(&mut self, src: &Data) -> Result<(), SizeMismatch> {
                        if self.sizes != src.sizes || self.arena.len() != src.arena.len() {
                            return Err(SizeMismatch);
                        }
                        self.callbacks = src.callbacks;
                        $( self.$sname = src.$sname; )*
                        self.solver.copy_from_slice(src.solver);
                        self.arena.copy_from(&src.arena);
                        $( self.$name.copy_from_slice(src.$name); )*
                        Ok(())
                    }
                }
    };
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

    /// The sizes of the model this data was made for.
    pub fn sizes(&self) -> &ModelSizes {
        &self.sizes
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
