//! [`Model`]: MuJoCo's `mjModel` as a view over a caller-provided byte buffer.
//!
//! The sizes ([`ModelSizes`]), the option structs ([`Options`], [`Visual`], [`Statistic`]) and
//! every array of the layout table. Arrays are [`Field`]s: slices that read as `&[T]` through
//! `&Model` and write as `&mut [T]` through `&mut Model`, so that a program may edit model
//! parameters between steps as MuJoCo allows, while a model used in place from a blob in flash
//! (`mjb::load_in_place`, a [`ReadOnly`] model) is only read. The pipeline takes `&Model`
//! either way. Pass a whole array as `&m.body_pos` (a field is not a reference itself).

use crate::arena::{ArenaError, Carver, LayoutCounter};
use crate::layout::{field_len, ArrayVisitor, ArrayVisitorMut, FieldInfo, Kind};
use crate::pod::{Field, Fields, Places, Pod, ReadOnly};
use crate::real::Real;

macro_rules! size_ty {
    (count) => {
        usize
    };
    (int) => {
        i32
    };
}

macro_rules! size_as_count {
    ($v:expr, count) => {
        $v
    };
    ($v:expr, int) => {
        usize::try_from($v).unwrap_or(0)
    };
}

macro_rules! size_from_int {
    ($v:expr, $id:ident, count) => {
        usize::try_from($v).map_err(|_| SizeId::$id)?
    };
    ($v:expr, $id:ident, int) => {
        $v
    };
}

macro_rules! gen_sizes {
    ($($name:ident : $k:ident),* $(,)?) => {
        /// The size integers of `mjModel` (`nq`, `nv`, `nbody`, ...), which fix the length of
        /// every array. A [`Model`] dereferences to its sizes, so `m.nv` reads as in MuJoCo.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct ModelSizes {
            $(
                #[doc = concat!("`mjModel.", stringify!($name), "`.")]
                pub $name: size_ty!($k),
            )*
            /// Bytes of the `mjData` arena, stack included (`narena`).
            pub narena: usize,
            /// Bytes of MuJoCo's own model buffer with its 64-byte padding (`nbuffer`); kept for
            /// MJB compatibility, mjrs lays arrays out more tightly.
            pub nbuffer: usize,
        }

        /// Names a size of [`ModelSizes`] in the array table ([`ArrayDesc`]).
        #[allow(non_camel_case_types, non_snake_case)] // MuJoCo's size names
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum SizeId {
            $(
                #[doc = concat!("`", stringify!($name), "`.")]
                $name,
            )*
        }

        impl SizeId {
            /// Every size, in MJB order.
            pub const ALL: [SizeId; [$(SizeId::$name),*].len()] = [$(SizeId::$name),*];

            /// MuJoCo's name of the size.
            pub fn name(self) -> &'static str {
                match self {
                    $( SizeId::$name => stringify!($name), )*
                }
            }
        }

        /// Number of [`SizeId`]s: MuJoCo's `int` sizes (76 in 3.1.6).
        pub const N_SIZE_IDS: usize = SizeId::ALL.len();

        /// Every size as a count, indexed by [`SizeId`]: what walks of [`MODEL_ARRAYS`] read
        /// (an index, where a match over 76 sizes per array cost more than the rest of the
        /// walk).
        pub type SizeCounts = [usize; N_SIZE_IDS];

        impl ModelSizes {
            /// The sizes from their `int`s in MJB order, `narena` and `nbuffer` zero; `Err`
            /// names the first count that is negative.
            pub fn from_ints(v: &[i32; N_SIZE_IDS]) -> Result<Self, SizeId> {
                Ok(Self {
                    $( $name: size_from_int!(v[SizeId::$name as usize], $name, $k), )*
                    narena: 0,
                    nbuffer: 0,
                })
            }

            /// Every size as a count (an `int` size, never an array's rows, counts as its
            /// value when non-negative, else 0).
            pub fn counts(&self) -> SizeCounts {
                [ $( size_as_count!(self.$name, $k), )* ]
            }

            /// Every size zero.
            pub const ZERO: Self = Self { $( $name: 0, )* narena: 0, nbuffer: 0 };

            /// Calls `f(name, value)` for every size in MJB order (`narena`, `nbuffer` last).
            #[allow(clippy::cast_lossless)] // sizes are usize or i32
            pub fn for_each(&self, mut f: impl FnMut(&'static str, i64)) {
                $( f(stringify!($name), self.$name as i64); )*
                f("narena", self.narena as i64);
                f("nbuffer", self.nbuffer as i64);
            }
        }
    };
}
mjmodel_ints!(gen_sizes);

/// Defines a `#[repr(C)]`-like struct of MuJoCo options with its field list, so that MJB
/// encoding and JSON dumps walk it generically.
macro_rules! c_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ident $([$n:literal])? = $default:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: c_field_ty!($ty $([$n])?), )*
        }

        impl $name {
            /// MuJoCo's defaults, as a constant.
            pub const DEFAULT: Self = Self { $( $field: $default, )* };
        }

        $( $(
            const _: () = assert!(
                $n <= $crate::layout::MAX_STRUCT_FIELD,
                "an option-struct field fits the buffer of `for_each` and `try_fill`"
            );
        )? )*

        impl Default for $name {
            fn default() -> Self {
                Self::DEFAULT
            }
        }

        impl $name {
            /// Calls `f` with every field, in C order, as `(name, kind, values)`.
            pub fn for_each(&self, mut f: impl FnMut(&'static str, $crate::layout::Kind, &[$crate::layout::Scalar])) {
                $(
                    $crate::layout::scalars_of(
                        stringify!($field),
                        c_field_kind!($ty),
                        c_field_slice!(self.$field; $([$n])?),
                        &mut f,
                    );
                )*
            }

            /// Sets every field, in C order, from `f(name, kind, destination)`; stops at the
            /// first error.
            pub fn try_fill<E>(
                &mut self,
                f: impl FnMut(&'static str, $crate::layout::Kind, &mut [$crate::layout::Scalar]) -> Result<(), E>,
            ) -> Result<(), E> {
                self.fill_fields(&mut $crate::layout::ScalarFill(f, core::marker::PhantomData))
            }

            /// Sets every field, in C order, through `v` (one call per field); stops at the
            /// first error.
            pub fn fill_fields<V: $crate::layout::StructFieldsMut>(&mut self, v: &mut V) -> Result<(), V::Error> {
                $(
                    v.field(
                        stringify!($field),
                        c_field_kind!($ty),
                        c_field_slice_mut!(self.$field; $([$n])?),
                    )?;
                )*
                Ok(())
            }

            /// The kind and element count of every field, in C order.
            pub const FIELDS: &'static [($crate::layout::Kind, usize)] = &[
                $( (c_field_kind!($ty), c_field_len!($([$n])?)), )*
            ];
        }
    };
}

macro_rules! c_field_ty {
    (num) => {
        Real
    };
    (int) => {
        i32
    };
    (float) => {
        f32
    };
    ($t:ident [$n:literal]) => {
        [c_field_ty!($t); $n]
    };
}
macro_rules! c_field_kind {
    (num) => {
        $crate::layout::Kind::Num
    };
    (int) => {
        $crate::layout::Kind::Int
    };
    (float) => {
        $crate::layout::Kind::Float
    };
}
macro_rules! c_field_len {
    () => {
        1
    };
    ([$n:literal]) => {
        $n
    };
}
macro_rules! c_field_slice {
    ($e:expr;) => {
        core::slice::from_ref(&$e)
    };
    ($e:expr; [$n:literal]) => {
        &$e[..]
    };
}
macro_rules! c_field_slice_mut {
    ($e:expr;) => {
        core::slice::from_mut(&mut $e)
    };
    ($e:expr; [$n:literal]) => {
        &mut $e[..]
    };
}

c_struct! {
    /// Physics options (`mjOption`), with MuJoCo's defaults.
    pub struct Options {
        /// Timestep.
        timestep: num = 0.002,
        /// Update rate for remote API (Hz).
        apirate: num = 100.0,
        /// Ratio of friction-to-normal contact impedance.
        impratio: num = 1.0,
        /// Main solver tolerance.
        tolerance: num = 1e-8,
        /// CG/Newton linesearch tolerance.
        ls_tolerance: num = 0.01,
        /// Noslip solver tolerance.
        noslip_tolerance: num = 1e-6,
        /// MPR solver tolerance.
        mpr_tolerance: num = 1e-6,
        /// Gravitational acceleration.
        gravity: num[3] = [0.0, 0.0, -9.81],
        /// Wind (for lift, drag and viscosity).
        wind: num[3] = [0.0; 3],
        /// Global magnetic flux.
        magnetic: num[3] = [0.0, -0.5, 0.0],
        /// Density of medium.
        density: num = 0.0,
        /// Viscosity of medium.
        viscosity: num = 0.0,
        /// Contact margin override.
        o_margin: num = 0.0,
        /// Contact solref override.
        o_solref: num[2] = [0.02, 1.0],
        /// Contact solimp override.
        o_solimp: num[5] = [0.9, 0.95, 0.001, 0.5, 2.0],
        /// Contact friction override.
        o_friction: num[5] = [1.0, 1.0, 0.005, 0.0001, 0.0001],
        /// Integration mode (`INT_*`).
        integrator: int = 0,
        /// Type of friction cone (`CONE_*`).
        cone: int = 0,
        /// Type of constraint Jacobian (`JAC_*`).
        jacobian: int = 2,
        /// Constraint solver algorithm (`SOL_*`).
        solver: int = 2,
        /// Maximum number of main solver iterations.
        iterations: int = 100,
        /// Maximum number of CG/Newton linesearch iterations.
        ls_iterations: int = 50,
        /// Maximum number of noslip solver iterations.
        noslip_iterations: int = 0,
        /// Maximum number of MPR solver iterations.
        mpr_iterations: int = 50,
        /// Bit flags disabling standard features (`DSBL_*`).
        disableflags: int = 0,
        /// Bit flags enabling optional features (`ENBL_*`).
        enableflags: int = 0,
        /// Bit flags disabling actuators by group id.
        disableactuator: int = 0,
        /// Number of starting points for SDF gradient descent.
        sdf_initpoints: int = 40,
        /// Maximum number of iterations for SDF gradient descent.
        sdf_iterations: int = 10,
    }
}

c_struct! {
    /// Model statistics (`mjStatistic`), computed by the compiler in `qpos0`.
    pub struct Statistic {
        /// Mean diagonal inertia.
        meaninertia: num = 1.0,
        /// Mean body mass.
        meanmass: num = 1.0,
        /// Mean body size.
        meansize: num = 0.2,
        /// Spatial extent.
        extent: num = 2.0,
        /// Center of model.
        center: num[3] = [0.0; 3],
    }
}

c_struct! {
    /// Global visualization parameters (`mjVisual.global`).
    pub struct VisualGlobal {
        /// Y-field of view for free camera (degrees).
        fovy: float = 45.0,
        /// Inter-pupilary distance for free camera.
        ipd: float = 0.068,
        /// Initial azimuth of free camera (degrees).
        azimuth: float = 90.0,
        /// Initial elevation of free camera (degrees).
        elevation: float = -45.0,
        /// Line width for wireframe and ray rendering.
        linewidth: float = 1.0,
        /// Glow coefficient for selected body.
        glow: float = 0.3,
        /// Initial real-time factor (1: real time).
        realtime: float = 1.0,
        /// Width of offscreen buffer.
        offwidth: int = 640,
        /// Height of offscreen buffer.
        offheight: int = 480,
        /// Geom for inertia visualization (0: box, 1: ellipsoid).
        ellipsoidinertia: int = 0,
        /// Visualize active bounding volumes (0: no, 1: yes).
        bvactive: int = 1,
    }
}

c_struct! {
    /// Rendering quality (`mjVisual.quality`).
    pub struct VisualQuality {
        /// Size of shadowmap texture.
        shadowsize: int = 4096,
        /// Number of multisamples for offscreen rendering.
        offsamples: int = 4,
        /// Number of slices for builtin geom drawing.
        numslices: int = 28,
        /// Number of stacks for builtin geom drawing.
        numstacks: int = 16,
        /// Number of quads for box rendering.
        numquads: int = 4,
    }
}

c_struct! {
    /// Head light (`mjVisual.headlight`).
    pub struct VisualHeadlight {
        /// Ambient rgb (alpha=1).
        ambient: float[3] = [0.1; 3],
        /// Diffuse rgb (alpha=1).
        diffuse: float[3] = [0.4; 3],
        /// Specular rgb (alpha=1).
        specular: float[3] = [0.5; 3],
        /// Is headlight active.
        active: int = 1,
    }
}

c_struct! {
    /// Mapping between units (`mjVisual.map`).
    pub struct VisualMap {
        /// Mouse perturbation stiffness (space->force).
        stiffness: float = 100.0,
        /// Mouse perturbation stiffness (space->torque).
        stiffnessrot: float = 500.0,
        /// From force units to space units.
        force: float = 0.005,
        /// From torque units to space units.
        torque: float = 0.1,
        /// Scale geom alphas when transparency is enabled.
        alpha: float = 0.3,
        /// OpenGL fog starts at fogstart * extent.
        fogstart: float = 3.0,
        /// OpenGL fog ends at fogend * extent.
        fogend: float = 10.0,
        /// Near clipping plane = znear * extent.
        znear: float = 0.01,
        /// Far clipping plane = zfar * extent.
        zfar: float = 50.0,
        /// Haze ratio.
        haze: float = 0.3,
        /// Directional light: shadowclip * extent.
        shadowclip: float = 1.0,
        /// Spot light: shadowscale * light.cutoff.
        shadowscale: float = 0.6,
        /// Scale tendon width.
        actuatortendon: float = 2.0,
    }
}

c_struct! {
    /// Scale of decor elements relative to mean body size (`mjVisual.scale`).
    pub struct VisualScale {
        /// Width of force arrow.
        forcewidth: float = 0.1,
        /// Contact width.
        contactwidth: float = 0.3,
        /// Contact height.
        contactheight: float = 0.1,
        /// Autoconnect capsule width.
        connect: float = 0.2,
        /// Com radius.
        com: float = 0.4,
        /// Camera object.
        camera: float = 0.3,
        /// Light object.
        light: float = 0.3,
        /// Selection point.
        selectpoint: float = 0.2,
        /// Joint length.
        jointlength: float = 1.0,
        /// Joint width.
        jointwidth: float = 0.1,
        /// Actuator length.
        actuatorlength: float = 0.7,
        /// Actuator width.
        actuatorwidth: float = 0.2,
        /// Bodyframe axis length.
        framelength: float = 1.0,
        /// Bodyframe axis width.
        framewidth: float = 0.1,
        /// Constraint width.
        constraint: float = 0.1,
        /// Slidercrank width.
        slidercrank: float = 0.2,
        /// Frustum zfar plane.
        frustum: float = 10.0,
    }
}

c_struct! {
    /// Colors of decor elements (`mjVisual.rgba`).
    pub struct VisualRgba {
        /// Fog.
        fog: float[4] = [0.0, 0.0, 0.0, 1.0],
        /// Haze.
        haze: float[4] = [1.0, 1.0, 1.0, 1.0],
        /// External force.
        force: float[4] = [1.0, 0.5, 0.5, 1.0],
        /// Inertia box.
        inertia: float[4] = [0.8, 0.2, 0.2, 0.6],
        /// Joint.
        joint: float[4] = [0.2, 0.6, 0.8, 1.0],
        /// Actuator, neutral.
        actuator: float[4] = [0.2, 0.25, 0.2, 1.0],
        /// Actuator, negative limit.
        actuatornegative: float[4] = [0.2, 0.6, 0.9, 1.0],
        /// Actuator, positive limit.
        actuatorpositive: float[4] = [0.9, 0.4, 0.2, 1.0],
        /// Center of mass.
        com: float[4] = [0.9, 0.9, 0.9, 1.0],
        /// Camera object.
        camera: float[4] = [0.6, 0.9, 0.6, 0.3],
        /// Light object.
        light: float[4] = [0.6, 0.6, 0.9, 1.0],
        /// Selection point.
        selectpoint: float[4] = [0.9, 0.9, 0.1, 1.0],
        /// Auto connect.
        connect: float[4] = [0.2, 0.2, 0.8, 1.0],
        /// Contact point.
        contactpoint: float[4] = [0.9, 0.6, 0.2, 1.0],
        /// Contact force.
        contactforce: float[4] = [0.7, 0.9, 0.9, 1.0],
        /// Contact friction force.
        contactfriction: float[4] = [0.9, 0.8, 0.4, 1.0],
        /// Contact torque.
        contacttorque: float[4] = [0.9, 0.7, 0.9, 1.0],
        /// Contact point in gap.
        contactgap: float[4] = [0.5, 0.8, 0.9, 1.0],
        /// Rangefinder ray.
        rangefinder: float[4] = [1.0, 1.0, 0.1, 1.0],
        /// Constraint.
        constraint: float[4] = [0.9, 0.0, 0.0, 1.0],
        /// Slidercrank.
        slidercrank: float[4] = [0.5, 0.3, 0.8, 1.0],
        /// Used when crank must be stretched/broken.
        crankbroken: float[4] = [0.9, 0.0, 0.0, 1.0],
        /// Camera frustum.
        frustum: float[4] = [1.0, 1.0, 0.0, 0.2],
        /// Bounding volume.
        bv: float[4] = [0.0, 1.0, 0.0, 0.5],
        /// Active bounding volume.
        bvactive: float[4] = [1.0, 0.0, 0.0, 0.5],
    }
}

/// Visualization options (`mjVisual`): six groups of 4-byte fields, 624 bytes in an MJB file.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Visual {
    /// Global parameters.
    pub global: VisualGlobal,
    /// Rendering quality.
    pub quality: VisualQuality,
    /// Head light.
    pub headlight: VisualHeadlight,
    /// Mapping.
    pub map: VisualMap,
    /// Scale of decor elements.
    pub scale: VisualScale,
    /// Colors of decor elements.
    pub rgba: VisualRgba,
}

impl Visual {
    /// MuJoCo's defaults, as a constant.
    pub const DEFAULT: Self = Self {
        global: VisualGlobal::DEFAULT,
        quality: VisualQuality::DEFAULT,
        headlight: VisualHeadlight::DEFAULT,
        map: VisualMap::DEFAULT,
        scale: VisualScale::DEFAULT,
        rgba: VisualRgba::DEFAULT,
    };
}

/// Size of the name hash map MuJoCo allocates: twice the number of named objects.
pub fn mujoco_nnames_map(s: &ModelSizes) -> usize {
    let n = [
        s.nbody, s.njnt, s.ngeom, s.nsite, s.ncam, s.nlight, s.nflex, s.nmesh, s.nskin, s.nhfield,
        s.ntex, s.nmat, s.npair, s.nexclude, s.neq, s.ntendon, s.nu, s.nsensor, s.nnumeric,
        s.ntext, s.ntuple, s.nkey, s.nplugin,
    ];
    n.iter()
        .fold(0usize, |a, &x| a.saturating_add(x))
        .saturating_mul(2)
}

/// The columns of a table array, as data: a literal, a size, or a size times a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cols {
    /// A fixed count (`3`, `NREF`).
    Lit(u16),
    /// A size (`nuser_body`).
    Size(SizeId),
    /// A size times a literal (`nmocap * 3`).
    Times(SizeId, u8),
}

/// One array of the layout table as data: what loops over the table read instead of code
/// unrolled per array (byte counts, MJB checks, assembling a model in place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayDesc {
    /// MuJoCo's field name.
    pub name: &'static str,
    /// C element type.
    pub kind: Kind,
    /// The size that counts the rows.
    pub rows: SizeId,
    /// The columns.
    pub cols: Cols,
    /// `false` for a vector (`cols` is the literal 1), `true` for a matrix.
    pub matrix: bool,
}

impl ArrayDesc {
    /// The array's column count for sizes `c` ([`ModelSizes::counts`]); `None` on overflow.
    #[inline]
    pub fn cols(&self, c: &SizeCounts) -> Option<usize> {
        match self.cols {
            Cols::Lit(n) => Some(usize::from(n)),
            Cols::Size(id) => Some(c[id as usize]),
            Cols::Times(id, k) => c[id as usize].checked_mul(usize::from(k)),
        }
    }

    /// Elements of the array for sizes `c`; `None` on overflow.
    #[inline]
    pub fn len(&self, c: &SizeCounts) -> Option<usize> {
        c[self.rows as usize].checked_mul(self.cols(c)?)
    }

    /// The array's shape for sizes `c`, or `None` when its column count overflows.
    pub fn info(&self, c: &SizeCounts) -> Option<FieldInfo> {
        Some(FieldInfo {
            name: self.name,
            kind: self.kind,
            rows: c[self.rows as usize],
            cols: self.cols(c)?,
            matrix: self.matrix,
        })
    }
}

/// A table `cols` entry as [`Cols`].
macro_rules! desc_cols {
    ($n:literal) => {
        Cols::Lit($n)
    };
    (($c:ident)) => {
        Cols::Lit($crate::types::$c as u16)
    };
    ($f:ident) => {
        Cols::Size(SizeId::$f)
    };
    ($f:ident * $k:literal) => {
        Cols::Times(SizeId::$f, $k)
    };
}

/// Makes the arrays of [`MODEL_ARRAYS`] in order, one call per array: the assembler unrolled
/// over the table is then one call and one store per array, and the work is in this function,
/// once.
struct NextArray {
    counts: SizeCounts,
    table: &'static [ArrayDesc],
    index: usize,
}

impl NextArray {
    /// Starts at the first array of `table`, for a model of `sizes`.
    fn new(sizes: &ModelSizes, table: &'static [ArrayDesc]) -> Self {
        Self {
            counts: sizes.counts(),
            table,
            index: 0,
        }
    }

    /// The shape and length of the next array, whose element has `elem_bytes` bytes; `None`
    /// past the table's end, on overflow, or when the table's element is of another width.
    fn next(&mut self, elem_bytes: usize) -> Option<(FieldInfo, usize)> {
        let desc = self.table.get(self.index)?;
        self.index += 1;
        let info = desc.info(&self.counts)?;
        let len = field_len(info.rows, Some(info.cols))?;
        (info.kind.mem_bytes() == elem_bytes).then_some((info, len))
    }

    /// The field of the next array at the place `f` chooses; `None` as for `next`, or when
    /// its place does not fit.
    #[inline(never)]
    fn field<'a, T: Pod, P>(&mut self, f: &mut Fields<'_, P>) -> Option<Field<'a, T>>
    where
        P: for<'i> Places<'a, &'i FieldInfo>,
    {
        let (info, len) = self.next(core::mem::size_of::<T>())?;
        f.field::<T, _>(&info, len)
    }
}

macro_rules! gen_model {
    ($($name:ident : $ty:ident [$rows:ident, $($cols:tt)+]),* $(,)?) => {
        /// MuJoCo's `mjModel`: sizes, options and every array of the layout table, carved from
        /// a caller-provided buffer. Build one with `mjb::load` (from MJB bytes) or
        /// [`Model::carve`] (zeroed arrays, for a compiler to fill).
        pub struct Model<'a> {
            sizes: ModelSizes,
            /// Physics options.
            pub opt: Options,
            /// Visualization options.
            pub vis: Visual,
            /// Model statistics.
            pub stat: Statistic,
            $(
                #[doc = concat!("`mjModel.", stringify!($name), "`: ", stringify!($ty),
                                " [", stringify!($rows), " x ", stringify!($($cols)+), "].")]
                pub $name: Field<'a, mj_type!($ty)>,
            )*
        }

        /// Number of arrays in a `Model` (MuJoCo's `getnptr()`, 376 in 3.1.6).
        pub const N_MODEL_ARRAYS: usize = [$(stringify!($name)),*].len();

        /// Every array of a `Model`, in table order (the order of its fields and of an MJB).
        pub static MODEL_ARRAYS: [ArrayDesc; N_MODEL_ARRAYS] = [
            $( ArrayDesc {
                name: stringify!($name),
                kind: mj_kind!($ty),
                rows: SizeId::$rows,
                cols: desc_cols!($($cols)+),
                matrix: mj_is_matrix!($($cols)+),
            }, )*
        ];

        impl<'a> Model<'a> {
            /// The layout of `Model` arrays for `sizes`, or `None` when a byte count overflows.
            fn layout(sizes: &ModelSizes) -> LayoutCounter {
                // unrolled, not a loop over `MODEL_ARRAYS`: a desktop load counts it, and the
                // constant sizes fold (30k instructions per load as a loop)
                let mut c = LayoutCounter::new();
                $( c.add::<mj_type!($ty)>(field_len(sizes.$rows, mj_cols!(sizes; $($cols)+))); )*
                c
            }

            /// Bytes a buffer must have to hold a `Model` of these sizes (any alignment).
            pub fn bytes_needed(sizes: &ModelSizes) -> Result<usize, ArenaError> {
                Self::layout(sizes).buffer_bytes().ok_or(ArenaError::SizeOverflow)
            }

            /// A `Model` with these sizes over `buf`: every array zeroed, options at MuJoCo's
            /// defaults. Fails when `buf` is smaller than [`Model::bytes_needed`].
            pub fn carve(sizes: ModelSizes, buf: &'a mut [u8]) -> Result<Self, ArenaError> {
                let header = ModelHeader {
                    sizes,
                    opt: Options::default(),
                    vis: Visual::default(),
                    stat: Statistic::default(),
                };
                Ok(Self::view(&header, buf)?.zeroed())
            }

            /// A `Model` over `buf` as it is, with the sizes and options of `header` (the
            /// inverse of [`Model::header`] for a buffer that already holds a model, as
            /// `mjrs-alloc` keeps owned models). The arrays are not checked: use it only on
            /// bytes that held a validated model of the same sizes.
            pub fn view(header: &ModelHeader, buf: &'a mut [u8]) -> Result<Self, ArenaError> {
                let sizes = header.sizes;
                let needed = Self::bytes_needed(&sizes)?;
                let mut c = Carver::new(buf, needed);
                let s = &sizes;
                Ok(Model {
                    sizes,
                    opt: header.opt,
                    vis: header.vis,
                    stat: header.stat,
                    $( $name: Field::from(c.take::<mj_type!($ty)>(field_len(s.$rows, mj_cols!(s; $($cols)+)))?), )*
                })
            }

            /// A model without arrays, at MuJoCo's default options: what a model assembled
            /// in place starts as.
            const EMPTY: Self = Model {
                sizes: ModelSizes::ZERO,
                opt: Options::DEFAULT,
                vis: Visual::DEFAULT,
                stat: Statistic::DEFAULT,
                $( $name: Field::empty(), )*
            };

            /// A read-only `Model` in `slot` with the sizes and options of `header`, each
            /// array at the place `places` chooses (viewed in read-only bytes such as a blob
            /// in flash, or in writable memory), built where it stays (no model-sized value
            /// passes through the stack). `None`, and `slot` empty, when a place is misaligned
            /// or of the wrong length, or a size overflows. The arrays are not checked:
            /// validate the model before use.
            pub(crate) fn in_place_into<'s, P>(
                header: &ModelHeader,
                places: &mut P,
                slot: &'s mut Option<ReadOnly<Model<'a>>>,
            ) -> Option<&'s ReadOnly<Model<'a>>>
            where
                P: for<'i> Places<'a, &'i FieldInfo>,
            {
                ReadOnly::assemble_into(slot, || Model::EMPTY, places, |m, f| {
                    m.sizes = header.sizes;
                    m.opt = header.opt;
                    m.vis = header.vis;
                    m.stat = header.stat;
                    let mut next = NextArray::new(&header.sizes, &MODEL_ARRAYS);
                    $( m.$name = next.field(f)?; )*
                    Some(())
                })
            }

            /// The sizes and options: everything of a `Model` outside its buffer.
            pub fn header(&self) -> ModelHeader {
                ModelHeader { sizes: self.sizes, opt: self.opt, vis: self.vis, stat: self.stat }
            }

            fn zeroed(mut self) -> Self {
                $( self.$name.fill(Default::default()); )*
                self
            }

            /// The sizes of this model.
            pub fn sizes(&self) -> &ModelSizes {
                &self.sizes
            }

            /// Calls the visitor with every array, in table order.
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

            /// Calls the visitor with every array, writable, in table order.
            pub fn visit_mut<V: ArrayVisitorMut>(&mut self, v: &mut V) {
                let s = self.sizes;
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

            /// Copies everything from `src`, which must have the same sizes (`mj_copyModel`
            /// into an existing model).
            pub fn copy_from(&mut self, src: &Model) -> Result<(), SizeMismatch> {
                if self.sizes != src.sizes {
                    return Err(SizeMismatch);
                }
                self.opt = src.opt;
                self.vis = src.vis;
                self.stat = src.stat;
                $( self.$name.copy_from_slice(&src.$name); )*
                Ok(())
            }
        }
    };
}
mjmodel_arrays!(gen_model);

/// Everything of a [`Model`] that is not in its buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelHeader {
    /// Sizes.
    pub sizes: ModelSizes,
    /// Physics options.
    pub opt: Options,
    /// Visualization options.
    pub vis: Visual,
    /// Model statistics.
    pub stat: Statistic,
}

impl ModelHeader {
    /// Every size zero, options at MuJoCo's defaults.
    pub const DEFAULT: Self = Self {
        sizes: ModelSizes::ZERO,
        opt: Options::DEFAULT,
        vis: Visual::DEFAULT,
        stat: Statistic::DEFAULT,
    };
}

/// Two models or datas whose sizes differ cannot be copied onto each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeMismatch;

impl core::error::Error for SizeMismatch {}

impl core::fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("sizes differ: cannot copy between models of different sizes")
    }
}

impl core::ops::Deref for Model<'_> {
    type Target = ModelSizes;

    /// Sizes read as `m.nv`, as in MuJoCo; they cannot be changed after carving.
    fn deref(&self) -> &ModelSizes {
        &self.sizes
    }
}

impl core::fmt::Debug for Model<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Model")
            .field("sizes", &self.sizes)
            .field("opt", &self.opt)
            .finish_non_exhaustive()
    }
}

impl Model<'_> {
    /// The name of object `id` in the `names` array, starting at byte address `adr`
    /// (`name_bodyadr[id]` and friends); empty when out of range.
    pub fn name_at(&self, adr: i32) -> &str {
        let start = usize::try_from(adr).unwrap_or(usize::MAX);
        let bytes = self.names.get(start..).unwrap_or(&[]);
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        core::str::from_utf8(&bytes[..end]).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_mujoco_3_1_6_counts() {
        assert_eq!(N_MODEL_ARRAYS, 376);
        let mut n = 0;
        ModelSizes::default().for_each(|_, _| n += 1);
        assert_eq!(n, 78);
    }

    #[test]
    fn carve_zeroes_and_sizes_arrays() {
        let sizes = ModelSizes {
            nq: 7,
            nv: 6,
            nbody: 2,
            njnt: 1,
            nkey: 2,
            nmocap: 1,
            ..Default::default()
        };
        let mut buf = std::vec![0xAAu8; Model::bytes_needed(&sizes).unwrap()];
        let m = Model::carve(sizes, &mut buf).unwrap();
        assert_eq!(m.qpos0.len(), 7);
        assert_eq!(m.body_pos.len(), 6);
        assert_eq!(m.key_mquat.len(), 8);
        assert!(m.body_pos.iter().all(|&x| x == 0.0));
        assert_eq!(m.opt.timestep, 0.002);
        assert_eq!(m.nv, 6);
    }

    #[test]
    fn carve_reports_small_buffer() {
        let sizes = ModelSizes {
            nq: 7,
            nbody: 2,
            ..Default::default()
        };
        let needed = Model::bytes_needed(&sizes).unwrap();
        let mut buf = std::vec![0u8; needed - 8];
        assert!(matches!(
            Model::carve(sizes, &mut buf),
            Err(ArenaError::BufferTooSmall { .. })
        ));
    }
}
