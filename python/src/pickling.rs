//! Pickling of `MjModel` (MuJoCo pickles it as its MJB bytes, `mj_saveModel`): what Ray and
//! `multiprocessing` use to send a model to another process. An `MjData` pickles as its model and
//! its state ([`data_state`]).

use mjrs_alloc::OwnedModel;
use mjrs_core::arena::ArenaState;
use mjrs_core::layout::{ArrayVisitor, ArrayVisitorMut, Elem, FieldInfo};
use mjrs_core::mjb::{save, save_size};
use mjrs_core::{Data, Model};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::mjmodel::MjModel;

/// MuJoCo's `mjtNum` size in an MJB file.
const REAL_BYTES: usize = 8;

/// The model as MJB bytes (`mj_saveModel` to a buffer).
pub fn mjb_of(m: &Model) -> PyResult<Vec<u8>> {
    let mut out = vec![0u8; save_size(m, REAL_BYTES)];
    let n = save(m, &mut out, REAL_BYTES).map_err(|e| PyValueError::new_err(e.to_string()))?;
    out.truncate(n);
    Ok(out)
}

/// The model stored in MJB bytes: what unpickling an `MjModel` calls.
#[pyfunction]
pub fn _model_from_mjb(blob: &[u8]) -> PyResult<MjModel> {
    let model = OwnedModel::from_mjb(blob).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(MjModel::new(model))
}

/// First bytes of a pickled data's state, then the format's version.
const DATA_MAGIC: &[u8; 8] = b"MJRSDATA";
const DATA_VERSION: u32 = 1;

/// The state of a data as bytes: its scalars, statistics, arena arrays and every fixed-size
/// array (what MuJoCo's bindings pickle after the model).
pub fn data_state(d: &Data) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    w.0.extend_from_slice(DATA_MAGIC);
    w.u32(DATA_VERSION);
    w.f64(d.time);
    for n in [
        d.maxuse_con,
        d.maxuse_efc,
        d.solver_nisland,
        d.ne,
        d.nf,
        d.nl,
        d.nefc,
        d.nnzJ,
        d.ncon,
        d.nisland,
    ] {
        w.usize(n);
    }
    for s in &d.warning {
        w.i32(s.lastinfo);
        w.i32(s.number);
    }
    for s in &d.timer {
        w.f64(s.duration);
        w.i32(s.number);
    }
    d.solver_niter
        .iter()
        .chain(&d.solver_nnz)
        .for_each(|&n| w.i32(n));
    d.solver_fwdinv
        .iter()
        .chain(&d.energy)
        .for_each(|&x| w.f64(x));
    for s in d.solver.iter() {
        [s.improvement, s.gradient, s.lineslope]
            .into_iter()
            .for_each(|x| w.f64(x));
        [s.nactive, s.nchange, s.neval, s.nupdate]
            .into_iter()
            .for_each(|n| w.i32(n));
    }
    let a = &d.arena.state;
    [a.parena, a.pstack, a.maxuse_stack, a.maxuse_arena]
        .into_iter()
        .for_each(|n| w.usize(n));
    for (offset, len) in d.arena.table().positions() {
        w.usize(offset);
        w.usize(len);
    }
    w.bytes(d.arena.used());
    d.visit(&mut w);
    w.0
}

/// Sets `d`, a fresh data of the model the state was saved with, to the state in `blob`
/// ([`data_state`]). Its plugin objects stay the ones made with it, as on a fresh data: the
/// plugins' state is in the data's arrays (`plugin_state`).
pub fn restore_data(d: &mut Data, blob: &[u8]) -> Result<(), String> {
    let mut r = Reader { blob, at: 0 };
    if r.take(DATA_MAGIC.len())? != DATA_MAGIC || r.u32()? != DATA_VERSION {
        return Err("not the state of an mjrs MjData (or of another version)".into());
    }
    d.time = r.f64()?;
    for n in [
        &mut d.maxuse_con,
        &mut d.maxuse_efc,
        &mut d.solver_nisland,
        &mut d.ne,
        &mut d.nf,
        &mut d.nl,
        &mut d.nefc,
        &mut d.nnzJ,
        &mut d.ncon,
        &mut d.nisland,
    ] {
        *n = r.usize()?;
    }
    for s in &mut d.warning {
        s.lastinfo = r.i32()?;
        s.number = r.i32()?;
    }
    for s in &mut d.timer {
        s.duration = r.f64()?;
        s.number = r.i32()?;
    }
    for n in d.solver_niter.iter_mut().chain(&mut d.solver_nnz) {
        *n = r.i32()?;
    }
    for x in d.solver_fwdinv.iter_mut().chain(&mut d.energy) {
        *x = r.f64()?;
    }
    for s in d.solver.iter_mut() {
        for x in [&mut s.improvement, &mut s.gradient, &mut s.lineslope] {
            *x = r.f64()?;
        }
        for n in [&mut s.nactive, &mut s.nchange, &mut s.neval, &mut s.nupdate] {
            *n = r.i32()?;
        }
    }
    let state = ArenaState {
        parena: r.usize()?,
        pstack: r.usize()?,
        maxuse_stack: r.usize()?,
        maxuse_arena: r.usize()?,
    };
    let mut fields = [(0, 0); mjrs_core::arena::N_ARENA_FIELDS];
    for f in &mut fields {
        *f = (r.usize()?, r.usize()?);
    }
    let used = r.bytes()?;
    d.arena
        .restore(state, fields, used)
        .map_err(|_| "the state's arena arrays do not fit this model's data".to_owned())?;
    let mut arrays = ArrayReader {
        reader: r,
        error: None,
    };
    d.visit_mut(&mut arrays);
    if let Some(e) = arrays.error {
        return Err(e);
    }
    if arrays.reader.at != blob.len() {
        return Err("the state has bytes after its last array".into());
    }
    Ok(())
}

/// Appends little-endian values.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, n: u32) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }
    fn i32(&mut self, n: i32) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }
    fn usize(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
    fn f64(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    /// A length, then the bytes.
    fn bytes(&mut self, b: &[u8]) {
        self.usize(b.len());
        self.0.extend_from_slice(b);
    }
}

impl ArrayVisitor for Writer {
    /// The array's name and bytes: a state read back checks both against the data.
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        self.bytes(info.name.as_bytes());
        self.bytes(elem_bytes(data));
    }
}

/// Reads what [`Writer`] wrote; every read is checked against the end.
struct Reader<'b> {
    blob: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Result<&'b [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.blob.len());
        let end = end.ok_or("the state is truncated")?;
        let b = &self.blob[self.at..end];
        self.at = end;
        Ok(b)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().expect("N bytes taken"))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.array()?))
    }
    fn usize(&mut self) -> Result<usize, String> {
        usize::try_from(u64::from_le_bytes(self.array()?))
            .map_err(|_| "the state has a count out of range".to_owned())
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.array()?))
    }
    fn bytes(&mut self) -> Result<&'b [u8], String> {
        let n = self.usize()?;
        self.take(n)
    }
}

/// Fills the fixed-size arrays from a [`Reader`], keeping the first error.
struct ArrayReader<'b> {
    reader: Reader<'b>,
    error: Option<String>,
}

impl ArrayVisitorMut for ArrayReader<'_> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &mut [T]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.read_into(info.name, data) {
            self.error = Some(e);
        }
    }
}

impl ArrayReader<'_> {
    /// Array `name` from the state into `data`; `plugin_data` is read past: it locates this
    /// data's own plugin objects.
    fn read_into<T: Elem>(&mut self, name: &str, data: &mut [T]) -> Result<(), String> {
        if self.reader.bytes()? != name.as_bytes() {
            return Err(format!("the state has no array {name} where expected"));
        }
        let bytes = self.reader.bytes()?;
        if bytes.len() != size_of_val(data) {
            return Err(format!(
                "array {name} of the state has another size than this model's: the state is of \
                 another model's data"
            ));
        }
        if name != "plugin_data" {
            elem_bytes_mut(data).copy_from_slice(bytes);
        }
        Ok(())
    }
}

/// The bytes of an array of plain numbers.
#[allow(unsafe_code)]
fn elem_bytes<T: Elem>(data: &[T]) -> &[u8] {
    // SAFETY: `Elem` types are plain numbers without padding: every byte is initialized
    unsafe { core::slice::from_raw_parts(data.as_ptr().cast::<u8>(), size_of_val(data)) }
}

/// [`elem_bytes`], writable.
#[allow(unsafe_code)]
fn elem_bytes_mut<T: Elem>(data: &mut [T]) -> &mut [u8] {
    // SAFETY: as for `elem_bytes`; every bit pattern is a valid plain number
    unsafe { core::slice::from_raw_parts_mut(data.as_mut_ptr().cast::<u8>(), size_of_val(data)) }
}
