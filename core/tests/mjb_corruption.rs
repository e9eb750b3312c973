//! Corrupted MJB blobs: `mjb::load` returns `Ok` or `Err` and never panics, and a model that
//! loads gives a `Data` and steps (three times) without panicking.
//!
//! For every blob in `tests/data`: truncations at and around every section boundary, single-bit
//! flips anywhere, random byte overwrites, and targeted overwrites of every `int` array (ids,
//! addresses, counts) and of the option enums with values that break bounds (-2, -1, counts,
//! huge values). Everything is seeded, so a failure reproduces; the counts of accepted and
//! rejected corruptions are printed (`cargo test -- --nocapture`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use mjrs_core::layout::{ArrayVisitor, Elem, FieldInfo, Kind};
use mjrs_core::types::{DSBL_CONSTRAINT, DSBL_SENSOR};
use mjrs_core::{mjb, Data, Model};

/// splitmix64: small, deterministic, good enough to pick positions and values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The blobs of `tests/data`, or of the directory `MJRS_CORRUPT_DIR` names.
fn blob_paths() -> Vec<PathBuf> {
    let dir = match std::env::var_os("MJRS_CORRUPT_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
    };
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mjb"))
        .collect();
    v.sort();
    v
}

/// Where one array of the model lies in its blob.
struct Section {
    name: &'static str,
    kind: Kind,
    start: usize,
    len: usize,
}

/// Sections of the arrays of `m`, loaded from `blob` whose `mjtNum` has `real_bytes`.
fn sections(m: &Model, blob_len: usize, real_bytes: usize) -> Vec<Section> {
    struct Walk {
        real_bytes: usize,
        v: Vec<(&'static str, Kind, usize)>,
    }
    impl ArrayVisitor for Walk {
        fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
            let width = match info.kind {
                Kind::Num => self.real_bytes,
                Kind::Float | Kind::Int => 4,
                Kind::Byte | Kind::Char => 1,
                Kind::Ptr => 8,
                Kind::Struct => 0,
            };
            self.v.push((info.name, info.kind, data.len() * width));
        }
    }
    let mut w = Walk {
        real_bytes,
        v: Vec::new(),
    };
    m.visit(&mut w);
    let total: usize = w.v.iter().map(|s| s.2).sum();
    let mut start = blob_len - total;
    w.v.into_iter()
        .map(|(name, kind, len)| {
            let s = Section {
                name,
                kind,
                start,
                len,
            };
            start += len;
            s
        })
        .collect()
}

/// Outcome counts of one kind of corruption.
#[derive(Default)]
struct Tally {
    accepted: usize,
    rejected: usize,
}

/// Loads a corrupted blob, and on success builds a `Data` (reusing `dbuf`); panics become test
/// failures with the corruption described.
struct Harness {
    mbuf: Vec<u8>,
    dbuf: Vec<u8>,
    skipped_data: usize,
    /// Also step accepted models, counting outcomes (ok, error text, panic location).
    step: bool,
    step_panics: std::collections::BTreeMap<String, usize>,
}

/// Largest `Data` the test builds: corrupted sizes that only `Data` uses (`nuserdata`,
/// `narena`) can ask for gigabytes, which validation does not forbid.
const MAX_DATA_BYTES: usize = 128 << 20;

impl Harness {
    fn run(&mut self, blob: &[u8], what: &dyn Fn() -> String, tally: &mut Tally) {
        let result = catch_unwind(AssertUnwindSafe(|| self.load(blob)));
        match result {
            Ok(true) => tally.accepted += 1,
            Ok(false) => tally.rejected += 1,
            Err(_) => panic!("panic on corrupted blob: {}", what()),
        }
    }

    /// `true` if the blob loaded.
    fn load(&mut self, blob: &[u8]) -> bool {
        let Ok(header) = mjb::read_header(blob) else {
            return false;
        };
        let Ok(need) = header.model_bytes() else {
            return false;
        };
        if need > self.mbuf.len() {
            // sizes that need more than the blob could describe fail the length check anyway
            if need > 16 * blob.len() + (1 << 20) {
                return mjb::load(blob, &mut []).is_ok();
            }
            self.mbuf.resize(need, 0);
        }
        let Ok(mut m) = mjb::load(blob, &mut self.mbuf) else {
            return false;
        };
        match Data::bytes_needed(m.sizes()) {
            Ok(n) if n <= MAX_DATA_BYTES => {
                if n > self.dbuf.len() {
                    self.dbuf.resize(n, 0);
                }
                let mut d = Data::new(&m, &mut self.dbuf).expect("Data::new on a validated model");
                if self.step {
                    // reach further into the pipeline than its unsupported stages allow
                    m.opt.disableflags |= DSBL_CONSTRAINT | DSBL_SENSOR;
                    step_probe(&mut self.step_panics, &m, &mut d);
                }
            }
            _ => self.skipped_data += 1,
        }
        true
    }
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Steps a few times; outcomes (ok, error text, panic location) are counted in `outcomes`.
fn step_probe(outcomes: &mut std::collections::BTreeMap<String, usize>, m: &Model, d: &mut Data) {
    let r = catch_unwind(AssertUnwindSafe(|| {
        for _ in 0..3 {
            if let Err(e) = mjrs_core::step(m, d) {
                return format!("error: {e}");
            }
        }
        "ok".to_string()
    }));
    let key = match r {
        Ok(what) => what,
        Err(_) => format!("panic at {}", LAST_PANIC.with(|p| p.borrow().clone())),
    };
    *outcomes.entry(key).or_default() += 1;
}

/// Values that break ids, addresses and counts.
fn nasty_ints(m: &Model) -> Vec<i32> {
    vec![
        -2,
        -1,
        0,
        1,
        m.nbody as i32,
        m.nv as i32,
        m.nq as i32 + 1,
        m.ngeom as i32,
        m.nsite as i32,
        65535,
        1 << 20,
        i32::MAX,
        i32::MIN,
    ]
}

struct Report {
    truncate: Tally,
    flip: Tally,
    overwrite: Tally,
    targeted: Tally,
    options: Tally,
}

fn corrupt_blob(path: &Path, seed: u64, h: &mut Harness, r: &mut Report) {
    let blob = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap_or_else(|e| panic!("{name}: {e}"));
    let secs = sections(&m, blob.len(), header.real_bytes);
    let values = nasty_ints(&m);
    let mut rng = Rng(seed);
    let mut work = blob.clone();

    // truncations at and around every section boundary (header, sizes, structs, arrays)
    let mut cuts = vec![0, 4, 20, 20 + 76 * 4, 20 + 76 * 4 + 16, secs[0].start];
    cuts.extend(secs.iter().map(|s| s.start + s.len));
    for &cut in &cuts {
        for c in [cut.saturating_sub(1), cut, cut + 1] {
            if c < blob.len() {
                h.run(
                    &blob[..c],
                    &|| format!("{name} truncated at {c}"),
                    &mut r.truncate,
                );
            }
        }
    }

    // single-bit flips anywhere
    for _ in 0..150 {
        let bit = rng.below(blob.len() * 8);
        work[bit / 8] ^= 1 << (bit % 8);
        h.run(&work, &|| format!("{name} bit {bit} flipped"), &mut r.flip);
        work[bit / 8] ^= 1 << (bit % 8);
    }

    // random byte overwrites, 1 to 4 bytes at a time
    for _ in 0..100 {
        let n = 1 + rng.below(4);
        let pos = rng.below(blob.len() - n);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        work[pos..pos + n].copy_from_slice(&bytes);
        h.run(
            &work,
            &|| format!("{name} bytes {pos}.. = {bytes:?}"),
            &mut r.overwrite,
        );
        work[pos..pos + n].copy_from_slice(&blob[pos..pos + n]);
    }

    // targeted: two elements of every int array, every nasty value; byte arrays get 2, 3, 255
    for s in secs.iter().filter(|s| s.len > 0) {
        let (width, vals): (usize, Vec<i64>) = match s.kind {
            Kind::Int => (4, values.iter().map(|&v| i64::from(v)).collect()),
            Kind::Byte => (1, vec![2, 3, 255]),
            _ => continue,
        };
        for _ in 0..2 {
            let k = rng.below(s.len / width);
            let pos = s.start + k * width;
            for &v in &vals {
                if blob[pos..pos + width] == v.to_le_bytes()[..width] {
                    continue; // not a corruption
                }
                work[pos..pos + width].copy_from_slice(&v.to_le_bytes()[..width]);
                let before = r.targeted.accepted;
                h.run(
                    &work,
                    &|| format!("{name} {}[{k}] = {v}", s.name),
                    &mut r.targeted,
                );
                if std::env::var("MJRS_SHOW_ACCEPTED").is_ok() && r.targeted.accepted > before {
                    println!("ACCEPTED {name} {}[{k}] = {v}", s.name);
                }
            }
            work[pos..pos + width].copy_from_slice(&blob[pos..pos + width]);
        }
    }

    // the 13 int options after mjOption's 31 mjtNum fields
    let opt_ints = 20 + 76 * 4 + 16 + 31 * header.real_bytes;
    for i in 0..13 {
        let pos = opt_ints + 4 * i;
        for v in [-1i32, 4, 100, i32::MIN] {
            work[pos..pos + 4].copy_from_slice(&v.to_le_bytes());
            h.run(
                &work,
                &|| format!("{name} option int {i} = {v}"),
                &mut r.options,
            );
        }
        work[pos..pos + 4].copy_from_slice(&blob[pos..pos + 4]);
    }
}

#[test]
fn corrupted_blobs_never_panic() {
    let paths = blob_paths();
    assert!(!paths.is_empty());
    // step every accepted model too: a validated model must never make step panic
    let step = true;
    if step {
        std::panic::set_hook(Box::new(|info| {
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            LAST_PANIC.with(|p| {
                *p.borrow_mut() = format!("{at} {}", info.payload_as_str().unwrap_or(""))
            });
        }));
    }
    let mut h = Harness {
        mbuf: Vec::new(),
        dbuf: Vec::new(),
        skipped_data: 0,
        step,
        step_panics: Default::default(),
    };
    let mut r = Report {
        truncate: Tally::default(),
        flip: Tally::default(),
        overwrite: Tally::default(),
        targeted: Tally::default(),
        options: Tally::default(),
    };
    for (i, p) in paths.iter().enumerate() {
        corrupt_blob(p, 0x5EED_0000 + i as u64, &mut h, &mut r);
    }
    println!(
        "corruptions over {} blobs (accepted / rejected):",
        paths.len()
    );
    for (what, t) in [
        ("truncations", &r.truncate),
        ("bit flips", &r.flip),
        ("byte overwrites", &r.overwrite),
        ("targeted int/byte fields", &r.targeted),
        ("option enums", &r.options),
    ] {
        println!("  {what:26} {:6} / {:6}", t.accepted, t.rejected);
    }
    println!(
        "  accepted models whose Data would exceed 128 MB: {}",
        h.skipped_data
    );
    for (at, n) in &h.step_panics {
        println!("  step outcome {n:6} x {at}");
    }
    assert_eq!(r.truncate.accepted, 0, "a truncated blob loaded");
    let panics: Vec<_> = h
        .step_panics
        .keys()
        .filter(|k| k.starts_with("panic"))
        .collect();
    assert!(
        panics.is_empty(),
        "step panicked on validated models: {panics:?}"
    );
}
