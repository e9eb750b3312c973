//! Ray casting (`core/src/ray.rs`) against MuJoCo 3.1.6: `fixtures/ray/ray_scene.json` holds,
//! for a fan of rays from nine origins (outside everything, and inside a sphere, a box, a mesh,
//! a height field, between two planes) in a scene with every geom type
//! (`models/ray_scene.xml`), the outputs of `mj_ray` under seven filters (geom groups,
//! `flg_static`, `bodyexclude`), `mj_multiRay` under the same filters and three cutoffs,
//! `mju_rayGeom` on every primitive geom, `mj_rayMesh` and `mj_rayHfield` (regenerate with
//! `fixtures/generate-ray.py`). The f64 build agrees bit for bit: same distances, same geom ids,
//! same `bvh_active` marks. Bad input gets an error value or MuJoCo's answer, never a panic.

use mjrs_core::ray::{self, RayError};
use mjrs_core::types::{GEOM_HFIELD, GEOM_MESH, GEOM_SPHERE, NGROUP};
use mjrs_core::{mjb, ArenaError, Data, Model};
use mjrs_tests::{fixtures, read_json};
use serde_json::Value;

/// The fixture of `ray_scene`.
fn reference() -> Value {
    read_json(&fixtures().join("ray/ray_scene.json"))
}

/// Runs `f` on MuJoCo's model of `ray_scene` (its MJB with `patch` applied) and data at the
/// fixture's keyframe after `prepare` (forward, or kinematics only).
fn with_scene_patched(
    patch: impl FnOnce(&mut Vec<u8>),
    prepare: fn(&Model, &mut Data),
    f: impl FnOnce(&Model, &mut Data),
) {
    let mut blob = std::fs::read(fixtures().join("ray/ray_scene.mjb")).unwrap();
    patch(&mut blob);
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let key = reference()["key"].as_i64().unwrap() as i32;
    mjrs_core::io::reset_data_keyframe(&m, &mut d, key);
    prepare(&m, &mut d);
    f(&m, &mut d);
}

fn with_scene(f: impl FnOnce(&Model, &mut Data)) {
    with_scene_patched(|_| {}, |m, d| mjrs_core::forward(m, d).unwrap(), f);
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().unwrap();
    [0, 1, 2].map(|k| a[k].as_f64().unwrap())
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

/// Ray origins and, per origin, directions.
fn rays(r: &Value) -> Vec<([f64; 3], Vec<[f64; 3]>)> {
    let origins = r["origins"].as_array().unwrap();
    let dirs = r["directions"].as_array().unwrap();
    origins
        .iter()
        .zip(dirs)
        .map(|(o, ds)| (vec3(o), ds.as_array().unwrap().iter().map(vec3).collect()))
        .collect()
}

/// The filters of a fixture entry: geom groups, `flg_static`, `bodyexclude`.
fn filters(e: &Value) -> (Option<[u8; NGROUP]>, bool, i32) {
    let group = e["geomgroup"]
        .as_array()
        .map(|g| core::array::from_fn(|k| g[k].as_u64().unwrap() as u8));
    let flg_static = e["flg_static"].as_i64().unwrap() != 0;
    (group, flg_static, e["bodyexclude"].as_i64().unwrap() as i32)
}

/// Counts and describes (first few) the places where `ours` differs from the reference bits.
struct Mismatches {
    count: usize,
    total: usize,
    first: Vec<String>,
}

impl Mismatches {
    fn new() -> Self {
        Mismatches {
            count: 0,
            total: 0,
            first: Vec::new(),
        }
    }

    fn check(&mut self, what: impl Fn() -> String, ours: (f64, i64), reference: (f64, i64)) {
        self.total += 1;
        if ours.0.to_bits() != reference.0.to_bits() || ours.1 != reference.1 {
            self.count += 1;
            if self.first.len() < 10 {
                self.first
                    .push(format!("{}: ours {ours:?}, MuJoCo {reference:?}", what()));
            }
        }
    }

    fn assert_none(&self, name: &str) {
        assert!(self.total > 0, "{name}: nothing compared");
        assert_eq!(
            self.count,
            0,
            "{name}: {} of {} differ:\n{}",
            self.count,
            self.total,
            self.first.join("\n")
        );
    }
}

#[test]
fn poses_match_mujoco() {
    let r = reference();
    with_scene(|_, d| {
        let expected = nums(&r["geom_xpos"]);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(d.geom_xpos), bits(&expected));
    });
}

#[test]
fn ray_matches_mujoco_under_every_filter() {
    let r = reference();
    let sweeps = r["ray"].as_array().unwrap();
    assert_eq!(sweeps.len(), 7);
    with_scene(|m, d| {
        d.bvh_active.fill(0);
        let mut bad = Mismatches::new();
        let (mut hits, mut misses, mut geoms) = (0, 0, vec![false; m.ngeom]);
        for (k, sweep) in sweeps.iter().enumerate() {
            let (group, flg_static, exclude) = filters(sweep);
            for (o, (pnt, dirs)) in rays(&r).into_iter().enumerate() {
                let dist = nums(&sweep["dist"][o]);
                let geomid = ints(&sweep["geomid"][o]);
                for (i, vec) in dirs.iter().enumerate() {
                    let (x, g) =
                        ray::ray(m, d, &pnt, vec, group.as_ref(), flg_static, exclude).unwrap();
                    bad.check(
                        || format!("filter {k} origin {o} ray {i}"),
                        (x, i64::from(g)),
                        (dist[i], geomid[i]),
                    );
                    if g >= 0 {
                        hits += 1;
                        geoms[g as usize] = true;
                    } else {
                        misses += 1;
                    }
                }
            }
            if k == 0 {
                let marks: Vec<i64> = d.bvh_active.iter().map(|&b| i64::from(b)).collect();
                assert_eq!(marks, ints(&r["bvh_active_after_first"]), "bvh_active");
                assert!(marks.contains(&1), "no tree node visited");
            }
        }
        bad.assert_none("mj_ray");
        // the scene is meant to have hits, misses, and every visible geom hit
        assert!(hits > 1000 && misses > 1000, "{hits} hits, {misses} misses");
        let unhit: Vec<usize> = (0..m.ngeom).filter(|&g| !geoms[g]).collect();
        assert_eq!(unhit, [5, 6], "only the invisible geoms are never hit");
    });
}

#[test]
fn multi_ray_matches_mujoco_with_cutoffs() {
    let r = reference();
    let sweeps = r["multi_ray"].as_array().unwrap();
    assert_eq!(sweeps.len(), 21);
    with_scene(|m, d| {
        let mut bad = Mismatches::new();
        for (k, sweep) in sweeps.iter().enumerate() {
            let (group, flg_static, exclude) = filters(sweep);
            let cutoff = sweep["cutoff"].as_f64().unwrap();
            for (o, (pnt, dirs)) in rays(&r).into_iter().enumerate() {
                let flat: Vec<f64> = dirs.iter().flatten().copied().collect();
                let mut dist = vec![-7.0; dirs.len()];
                let mut geomid = vec![-7; dirs.len()];
                ray::multi_ray(
                    m,
                    d,
                    &pnt,
                    &flat,
                    group.as_ref(),
                    flg_static,
                    exclude,
                    &mut geomid,
                    &mut dist,
                    cutoff,
                )
                .unwrap();
                let (rd, rg) = (nums(&sweep["dist"][o]), ints(&sweep["geomid"][o]));
                for i in 0..dirs.len() {
                    bad.check(
                        || format!("sweep {k} (cutoff {cutoff}) origin {o} ray {i}"),
                        (dist[i], i64::from(geomid[i])),
                        (rd[i], rg[i]),
                    );
                }
            }
        }
        bad.assert_none("mj_multiRay");
    });
}

#[test]
fn single_geom_tests_match_mujoco() {
    let r = reference();
    with_scene(|m, d| {
        let zero = [0.0; 3];
        for (name, kind) in [
            ("mju_rayGeom", "ray_geom"),
            ("mj_rayMesh", "ray_mesh"),
            ("mj_rayHfield", "ray_hfield"),
        ] {
            let mut bad = Mismatches::new();
            for entry in r[kind].as_array().unwrap() {
                let g = entry["geom"].as_u64().unwrap() as usize;
                for (o, (pnt, mut dirs)) in rays(&r).into_iter().enumerate() {
                    dirs.push(zero);
                    let expected = nums(&entry["dist"][o]);
                    for (i, vec) in dirs.iter().enumerate() {
                        let x = match kind {
                            "ray_mesh" => ray::ray_mesh(m, d, g, &pnt, vec),
                            "ray_hfield" => ray::ray_hfield(m, d, g, &pnt, vec),
                            _ => ray::ray_geom(
                                d.geom_xpos[3 * g..3 * g + 3].try_into().unwrap(),
                                d.geom_xmat[9 * g..9 * g + 9].try_into().unwrap(),
                                m.geom_size[3 * g..3 * g + 3].try_into().unwrap(),
                                &pnt,
                                vec,
                                m.geom_type[g],
                            ),
                        }
                        .unwrap();
                        bad.check(
                            || format!("geom {g} origin {o} ray {i}"),
                            (x, 0),
                            (expected[i], 0),
                        );
                    }
                }
            }
            bad.assert_none(name);
        }
    });
}

/// The f32 build (same source): rays that both builds see hitting the same geom are within
/// 1e-4 (absolute below 1, relative above) of MuJoCo's distance; geom ids may differ only for
/// grazing rays, in under 1% of the rays.
#[test]
fn f32_build_casts_close_to_mujoco() {
    use mjrs_core_f32 as core32;
    let r = reference();
    let blob = std::fs::read(fixtures().join("ray/ray_scene.mjb")).unwrap();
    let header = core32::mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m = core32::mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; core32::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = core32::Data::new(&m, &mut dbuf).unwrap();
    core32::io::reset_data_keyframe(&m, &mut d, r["key"].as_i64().unwrap() as i32);
    core32::forward(&m, &mut d).unwrap();
    let (mut total, mut other_geom, mut worst) = (0, 0, 0.0f64);
    for sweep in r["ray"].as_array().unwrap() {
        let (group, flg_static, exclude) = filters(sweep);
        for (o, (pnt, dirs)) in rays(&r).into_iter().enumerate() {
            let (rd, rg) = (nums(&sweep["dist"][o]), ints(&sweep["geomid"][o]));
            let pnt = pnt.map(|x| x as f32);
            for (i, vec) in dirs.iter().enumerate() {
                let vec = vec.map(|x| x as f32);
                let (x, g) =
                    core32::ray::ray(&m, &mut d, &pnt, &vec, group.as_ref(), flg_static, exclude)
                        .unwrap();
                total += 1;
                if i64::from(g) != rg[i] {
                    other_geom += 1;
                } else {
                    worst = worst.max((f64::from(x) - rd[i]).abs() / rd[i].abs().max(1.0));
                }
            }
        }
    }
    assert!(worst < 1e-4, "largest difference {worst:e}");
    assert!(
        other_geom * 100 < total,
        "{other_geom} of {total} rays hit another geom"
    );
}

#[test]
fn short_or_nan_directions() {
    let r = reference();
    with_scene(|m, d| {
        let pnt = [0.0, 0.0, 1.8];
        // MuJoCo stops with "vector length is too small"; mjrs returns the error
        for vec in [[0.0; 3], [1e-16, 0.0, 0.0]] {
            assert_eq!(
                ray::ray(m, d, &pnt, &vec, None, true, -1),
                Err(RayError::ShortVector)
            );
            let (mut dist, mut geomid) = ([0.0; 2], [0; 2]);
            let vecs = [0.0, 0.0, -1.0, vec[0], vec[1], vec[2]];
            let err = ray::multi_ray(
                m,
                d,
                &pnt,
                &vecs,
                None,
                true,
                -1,
                &mut geomid,
                &mut dist,
                1e10,
            );
            assert_eq!(err, Err(RayError::ShortVector));
            // the ray before the bad one is answered
            assert!(geomid[0] >= 0 && dist[0] > 0.0, "{geomid:?} {dist:?}");
        }
        // NaN passes MuJoCo's length check and hits nothing (checked by generate-ray.py)
        for (pnt, _) in rays(&r) {
            for vec in [[f64::NAN, 0.0, 1.0], [0.0, f64::NAN, -1.0], [f64::NAN; 3]] {
                assert_eq!(ray::ray(m, d, &pnt, &vec, None, true, -1), Ok((-1.0, -1)));
                let (mut dist, mut geomid) = ([0.0], [0]);
                ray::multi_ray(
                    m,
                    d,
                    &pnt,
                    &vec,
                    None,
                    true,
                    -1,
                    &mut geomid,
                    &mut dist,
                    1e10,
                )
                .unwrap();
                assert_eq!((dist[0], geomid[0]), (-1.0, -1));
                for g in 0..m.ngeom {
                    let x = match m.geom_type[g] {
                        GEOM_MESH => ray::ray_mesh(m, d, g, &pnt, &vec),
                        GEOM_HFIELD => ray::ray_hfield(m, d, g, &pnt, &vec),
                        t => ray::ray_geom(
                            &[0.0; 3],
                            &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                            &[0.5; 3],
                            &pnt,
                            &vec,
                            t,
                        ),
                    };
                    assert_eq!(x, Ok(-1.0), "geom {g}");
                }
            }
        }
        // NaN in the origin as well
        let nan = [f64::NAN; 3];
        assert_eq!(
            ray::ray(m, d, &nan, &[0.0, 0.0, -1.0], None, true, -1),
            Ok((-1.0, -1))
        );
    });
}

#[test]
fn bad_geom_ids_and_types_are_errors() {
    with_scene(|m, d| {
        let (pnt, vec) = ([0.0, 0.0, 1.8], [0.0, 0.0, -1.0]);
        let n = m.ngeom;
        let out_of_range = Err(RayError::GeomOutOfRange { id: n, ngeom: n });
        assert_eq!(ray::ray_mesh(m, d, n, &pnt, &vec), out_of_range);
        assert_eq!(ray::ray_hfield(m, d, n, &pnt, &vec), out_of_range);
        assert_eq!(
            ray::ray_mesh(m, d, usize::MAX, &pnt, &vec),
            Err(RayError::GeomOutOfRange {
                id: usize::MAX,
                ngeom: n
            })
        );
        let sphere = (0..n).find(|&g| m.geom_type[g] == GEOM_SPHERE).unwrap();
        assert_eq!(
            ray::ray_mesh(m, d, sphere, &pnt, &vec),
            Err(RayError::WrongGeomType {
                id: sphere,
                expected: GEOM_MESH
            })
        );
        assert_eq!(
            ray::ray_hfield(m, d, sphere, &pnt, &vec),
            Err(RayError::WrongGeomType {
                id: sphere,
                expected: GEOM_HFIELD
            })
        );
        let eye = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        for t in [GEOM_MESH, GEOM_HFIELD, -1, 1001] {
            assert_eq!(
                ray::ray_geom(&[0.0; 3], &eye, &[1.0; 3], &pnt, &vec, t),
                Err(RayError::UnsupportedGeomType(t))
            );
        }
        // multi_ray: slices that disagree on the number of rays
        let (mut dist, mut geomid) = ([0.0; 2], [0; 3]);
        assert_eq!(
            ray::multi_ray(
                m,
                d,
                &pnt,
                &[0.0, 0.0, -1.0, 0.0, 0.0, 1.0],
                None,
                true,
                -1,
                &mut geomid,
                &mut dist,
                1.0
            ),
            Err(RayError::LengthMismatch)
        );
        let mut geomid = [0; 2];
        assert_eq!(
            ray::multi_ray(
                m,
                d,
                &pnt,
                &[0.0, 0.0, -1.0],
                None,
                true,
                -1,
                &mut geomid,
                &mut dist,
                1.0
            ),
            Err(RayError::LengthMismatch)
        );
        // a body id that is no body excludes nothing, as in MuJoCo
        assert_eq!(
            ray::ray(m, d, &pnt, &vec, None, true, 1000),
            ray::ray(m, d, &pnt, &vec, None, true, -1)
        );
    });
}

#[test]
fn multi_ray_without_arena_room_is_an_error() {
    // narena (the size_t after the 76 int sizes) patched to 256 bytes: less than the 5 * ngeom
    // numbers of scratch
    let patch = |blob: &mut Vec<u8>| {
        let at = 4 * (5 + 76);
        blob[at..at + 8].copy_from_slice(&256u64.to_le_bytes());
    };
    with_scene_patched(patch, mjrs_core::smooth::kinematics, |m, d| {
        assert_eq!(m.narena, 256);
        let (mut dist, mut geomid) = ([0.0], [0]);
        let err = ray::multi_ray(
            m,
            d,
            &[0.0, 0.0, 1.8],
            &[0.0, 0.0, -1.0],
            None,
            true,
            -1,
            &mut geomid,
            &mut dist,
            1e10,
        );
        assert!(
            matches!(
                err,
                Err(RayError::Arena(ArenaError::OutOfArena { narena: 256, .. }))
            ),
            "{err:?}"
        );
        // mj_ray needs no scratch
        assert!(ray::ray(m, d, &[0.0, 0.0, 1.8], &[0.0, 0.0, -1.0], None, true, -1).is_ok());
    });
}

/// `ray::ray_flex` (`mju_rayFlex`) against MuJoCo's on the flex collision models after some
/// steps (`fixtures/ray/flex.json`, from `fixtures/generate-flex-ray.py`): for fans of rays at
/// each flex, under vertex, edge, face and skin flags and two layers, the same distances and
/// vertex ids bit for bit.
#[test]
fn ray_flex_is_mujocos() {
    let fixture = read_json(&fixtures().join("ray/flex.json"));
    let flags: Vec<Vec<i64>> = fixture["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(ints)
        .collect();
    let (mut compared, mut hits, mut failures) = (0, 0, Vec::new());
    for case in fixture["models"].as_array().unwrap() {
        let path = fixtures()
            .join("flex_collision")
            .join(case["model"].as_str().unwrap());
        let blob = std::fs::read(path).unwrap();
        let header = mjb::read_header(&blob).unwrap();
        let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
        let m = mjb::load(&blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        for _ in 0..case["steps"].as_u64().unwrap() {
            mjrs_core::step(&m, &mut d).unwrap();
        }
        mjrs_core::forward(&m, &mut d).unwrap();
        for cast in case["casts"].as_array().unwrap() {
            let f = cast["flex"].as_u64().unwrap() as usize;
            let (pnt, vec) = (vec3(&cast["pnt"]), vec3(&cast["vec"]));
            for (flag, hit) in flags.iter().zip(cast["hits"].as_array().unwrap()) {
                let parts = ray::FlexParts {
                    vert: flag[1] != 0,
                    edge: flag[2] != 0,
                    face: flag[3] != 0,
                    skin: flag[4] != 0,
                    layer: flag[0] as i32,
                };
                let (x, v) = ray::ray_flex(&m, &d, parts, f, &pnt, &vec).unwrap();
                let (rx, rv) = (hit[0].as_f64().unwrap(), hit[1].as_i64().unwrap());
                let ours_v = v.map_or(-1, |v| v as i64);
                compared += 1;
                hits += usize::from(rx >= 0.0);
                if x.to_bits() != rx.to_bits() || ours_v != rv {
                    failures.push(format!(
                        "{} flex {f} flags {flag:?} pnt {pnt:?} vec {vec:?}: ({x}, {ours_v}) vs MuJoCo ({rx}, {rv})",
                        case["model"]
                    ));
                }
            }
        }
    }
    println!("{compared} flex rays compared, {hits} hits");
    assert!(hits > 300, "only {hits} hits");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
