//! Arbitrary rays against the fixed models (every geom type, meshes and height fields):
//! origins, directions (including zero, NaN and infinite ones), group filters, static flag,
//! excluded body, and bundles of rays; the distance is -1 (miss) or a non-negative number and
//! the geom is a geom of the model.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use mjrs_alloc::OwnedData;
use mjrs_fuzz::{models, special};

#[derive(Arbitrary, Debug)]
struct Input {
    model: u8,
    pnt: [(u8, f64); 3],
    vec: Vec<[(u8, f64); 3]>,
    groups: Option<[u8; 6]>,
    flg_static: bool,
    bodyexclude: i32,
    cutoff: (u8, f64),
    qpos: Vec<(u8, f64)>,
}

fuzz_target!(|input: Input| {
    let owned = &models()[usize::from(input.model) % models().len()];
    let mut owned = owned.try_clone().expect("clone of a fixed model");
    let m = owned.view();
    let Ok(mut data) = OwnedData::new(&m) else {
        return;
    };
    let mut d = data.view();
    for (x, &(s, v)) in d.qpos.iter_mut().zip(&input.qpos) {
        *x = special(s, v);
    }
    if mjrs_core::forward(&m, &mut d).is_err() {
        return;
    }
    let pnt = input.pnt.map(|(s, v)| special(s, v));
    let groups = input.groups.as_ref();
    let ngeom = m.ngeom as i32;
    for v in input.vec.iter().take(16) {
        let vec = v.map(|(s, x)| special(s, x));
        if let Ok((dist, geom)) = mjrs_core::ray::ray(
            &m,
            &mut d,
            &pnt,
            &vec,
            groups,
            input.flg_static,
            input.bodyexclude,
        ) {
            assert!(
                dist == -1.0 && geom == -1
                    || dist >= 0.0 && (0..ngeom).contains(&geom)
                    || dist.is_nan(),
                "ray result {dist} {geom}"
            );
        }
    }
    let n = input.vec.len().min(64);
    let dirs: Vec<f64> = input
        .vec
        .iter()
        .take(n)
        .flat_map(|v| v.map(|(s, x)| special(s, x)))
        .collect();
    let (mut geomid, mut dist) = (vec![0; n], vec![0.0; n]);
    let cutoff = special(input.cutoff.0, input.cutoff.1);
    let _ = mjrs_core::ray::multi_ray(
        &m,
        &mut d,
        &pnt,
        &dirs,
        groups,
        input.flg_static,
        input.bodyexclude,
        &mut geomid,
        &mut dist,
        cutoff,
    );
    assert!(
        geomid.iter().all(|&g| (-1..ngeom).contains(&g)),
        "multi_ray geom out of range"
    );
    assert_eq!(d.arena.state.pstack, 0);
});
