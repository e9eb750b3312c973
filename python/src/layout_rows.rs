//! Which size counts the rows of each array, read from the core's layout table (the
//! `FieldInfo` of a table walk has the evaluated count, not the size's name).

macro_rules! rows_lookup {
    ($($name:ident : $ty:ident [$rows:ident, $($cols:tt)+]),* $(,)?) => {
        |name: &str| -> Option<&'static str> {
            match name {
                $( stringify!($name) => Some(stringify!($rows)), )*
                _ => None,
            }
        }
    };
}

/// The size counting the rows of model array `name` (`"nbody"` for `body_pos`).
pub fn model_rows_size(name: &str) -> Option<&'static str> {
    let lookup = mjrs_core::mjmodel_arrays!(rows_lookup);
    lookup(name)
}

/// The size counting the rows of fixed-size data array `name` (`"nq"` for `qpos`).
pub fn data_rows_size(name: &str) -> Option<&'static str> {
    let lookup = mjrs_core::mjdata_arrays!(rows_lookup);
    lookup(name)
}

macro_rules! arena_shape_lookup {
    ($($name:ident : $ty:ident [$rows:ident, $($cols:tt)+]),* $(,)?) => {
        |name: &str, dims: &mjrs_core::arena::ArenaDims| -> Option<(usize, usize, bool)> {
            match name {
                $( stringify!($name) => Some((
                    dims.$rows,
                    mjrs_core::mj_cols!(dims; $($cols)+)?,
                    mjrs_core::mj_is_matrix!($($cols)+),
                )), )*
                _ => None,
            }
        }
    };
}

/// The shape `(rows, cols, matrix)` MuJoCo gives arena array `name` for these counts.
pub fn arena_shape(name: &str, dims: &mjrs_core::arena::ArenaDims) -> Option<(usize, usize, bool)> {
    let lookup = mjrs_core::mjdata_arena_arrays!(arena_shape_lookup);
    lookup(name, dims)
}

macro_rules! size_lookup {
    ($($name:ident : $k:ident),* $(,)?) => {
        |s: &mjrs_core::ModelSizes, name: &str| -> Option<i64> {
            #[allow(clippy::cast_lossless, clippy::unnecessary_cast)] // sizes are usize or i32
            match name {
                $( stringify!($name) => Some(s.$name as i64), )*
                "narena" => Some(s.narena as i64),
                "nbuffer" => Some(s.nbuffer as i64),
                _ => None,
            }
        }
    };
}

/// The model size called `name` (`nq`, `nv`, ..., `narena`, `nbuffer`).
pub fn model_size(s: &mjrs_core::ModelSizes, name: &str) -> Option<i64> {
    let lookup = mjrs_core::mjmodel_ints!(size_lookup);
    lookup(s, name)
}
