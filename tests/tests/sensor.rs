//! Sensor behaviour the MuJoCo fixtures cannot show (`core/src/sensor.rs`): the user-sensor
//! callback and its stages, the refusal of plugin sensors, the rangefinder as a ray along the
//! site's z axis, and `geom_distance` (symmetry, margin, bad ids). The numbers themselves are
//! checked against MuJoCo by `smooth.rs` (models `sensor_*`).

use mjrs_core::collision::geom_distance;
use mjrs_core::types::*;
use mjrs_core::{forward, mjb, ray, sensor, Data, Model};
use mjrs_tests::fixtures;
use std::sync::atomic::{AtomicU32, Ordering};

/// Runs `f` on `sensor_frames` (every contact-free sensor type, three user sensors of
/// dimensions 2, 1 and 3 in the position, velocity and acceleration stages) and fresh data.
fn with_frames_model(f: impl FnOnce(&mut Model, &mut Data)) {
    let blob = std::fs::read(fixtures().join("smooth/sensor_frames.mjb")).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    f(&mut m, &mut d);
}

/// The sensors of type `ty`, in model order.
fn sensors_of_type(m: &Model, ty: i32) -> Vec<usize> {
    (0..m.nsensor).filter(|&i| m.sensor_type[i] == ty).collect()
}

/// Stages the callback of `user_sensors_get_callback_values_then_cutoff` saw, one bit each.
static STAGES_SEEN: AtomicU32 = AtomicU32::new(0);

/// Writes `10 * stage` into every user sensor of `stage`.
fn user_callback(m: &Model, d: &mut Data, stage: i32) {
    STAGES_SEEN.fetch_or(1 << stage, Ordering::SeqCst);
    for i in sensors_of_type(m, SENS_USER) {
        if m.sensor_needstage[i] == stage {
            let adr = m.sensor_adr[i] as usize;
            let dim = m.sensor_dim[i] as usize;
            d.sensordata[adr..adr + dim].fill(10.0 * f64::from(stage));
        }
    }
}

#[test]
fn user_sensors_get_callback_values_then_cutoff() {
    with_frames_model(|m, d| {
        d.callbacks.sensor = Some(user_callback);
        forward(m, d).unwrap();
        let seen = STAGES_SEEN.load(Ordering::SeqCst);
        assert_eq!(seen, 1 << STAGE_POS | 1 << STAGE_VEL | 1 << STAGE_ACC);
        let users = sensors_of_type(m, SENS_USER);
        let data = |i: usize| {
            let adr = m.sensor_adr[i] as usize;
            d.sensordata[adr..adr + m.sensor_dim[i] as usize].to_vec()
        };
        assert_eq!(data(users[0]), [10.0, 10.0]);
        // positive data with cutoff 1: the callback's 20 is clipped after the callback
        assert_eq!(data(users[1]), [1.0]);
        assert_eq!(data(users[2]), [30.0, 30.0, 30.0]);
    });
}

#[test]
fn user_sensors_without_callback_keep_their_data() {
    with_frames_model(|m, d| {
        let users = sensors_of_type(m, SENS_USER);
        let adr = m.sensor_adr[users[2]] as usize;
        d.sensordata[adr] = 7.0;
        forward(m, d).unwrap();
        assert_eq!(d.sensordata[adr], 7.0);
    });
}

/// Plugin sensors are skipped by the built-in stages (their plugin writes them); a plugin
/// sensor in a stage without a sensor plugin keeps its data, as in MuJoCo.
#[test]
fn plugin_sensors_are_left_to_their_plugin() {
    with_frames_model(|m, d| {
        m.sensor_type[0] = SENS_PLUGIN;
        m.sensor_needstage[0] = STAGE_ACC;
        let adr = m.sensor_adr[0] as usize;
        let dim = m.sensor_dim[0] as usize;
        d.sensordata[adr..adr + dim].fill(7.0);
        forward(m, d).unwrap();
        assert!(d.sensordata[adr..adr + dim].iter().all(|&x| x == 7.0));
    });
}

#[test]
fn limit_sensors_read_zero_without_a_limit_row() {
    let cases = [
        (SENS_JOINTLIMITPOS, STAGE_POS),
        (SENS_JOINTLIMITVEL, STAGE_VEL),
        (SENS_JOINTLIMITFRC, STAGE_ACC),
        (SENS_TENDONLIMITPOS, STAGE_POS),
        (SENS_TENDONLIMITVEL, STAGE_VEL),
        (SENS_TENDONLIMITFRC, STAGE_ACC),
    ];
    for (ty, stage) in cases {
        with_frames_model(|m, d| {
            m.sensor_type[0] = ty;
            m.sensor_needstage[0] = stage;
            m.sensor_dim[0] = 1;
            let adr = m.sensor_adr[0] as usize;
            d.sensordata[adr] = 5.0;
            forward(m, d).unwrap();
            // MuJoCo writes 0 when no limit row matches (readings of rows are compared with
            // MuJoCo by the constraint suite, models rows_*)
            assert_eq!(d.sensordata[adr], 0.0, "type {ty}");
            // a row count without rows in the arena finds no row either
            d.nefc = 1;
            d.sensordata[adr] = 5.0;
            let run = match stage {
                STAGE_POS => sensor::sensor_pos(m, d),
                STAGE_VEL => sensor::sensor_vel(m, d),
                _ => sensor::sensor_acc(m, d),
            };
            assert_eq!(run, Ok(()), "type {ty}");
            assert_eq!(d.sensordata[adr], 0.0, "type {ty}");
            d.nefc = 0;
        });
    }
}

#[test]
fn touch_is_zero_without_contacts() {
    with_frames_model(|m, d| {
        forward(m, d).unwrap();
        let touch = sensors_of_type(m, SENS_TOUCH)[0];
        assert_eq!(d.sensordata[m.sensor_adr[touch] as usize], 0.0);
        // a contact count without contacts in the arena touches nothing either
        d.ncon = 1;
        assert_eq!(sensor::sensor_acc(m, d), Ok(()));
        assert_eq!(d.sensordata[m.sensor_adr[touch] as usize], 0.0);
        d.ncon = 0;
    });
}

#[test]
fn geom_distance_is_symmetric_and_checks_ids() {
    let blob = std::fs::read(fixtures().join("smooth/sensor_geomdist.mjb")).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    forward(&m, &mut d).unwrap();
    let id = |name| mjrs_core::name::name2id(&m, OBJ_GEOM, name).unwrap();
    let (sph, floor, wall) = (id("sph"), id("floor"), id("wall_box"));
    let (mut ab, mut ba) = ([0.0; 6], [0.0; 6]);
    let d1 = geom_distance(&m, &mut d, sph, floor, 1.0, Some(&mut ab)).unwrap();
    let d2 = geom_distance(&m, &mut d, floor, sph, 1.0, Some(&mut ba)).unwrap();
    assert_eq!(d1, d2);
    assert!(d1 > 0.0 && d1 < 1.0, "{d1}");
    // the segment runs from the first geom to the second
    assert_eq!(
        (ab[..3].to_vec(), ab[3..].to_vec()),
        (ba[3..].to_vec(), ba[..3].to_vec())
    );
    assert!(ab[5].abs() < 1e-12, "ends on the floor: {}", ab[5]);
    // beyond the margin: the margin, and no segment
    let mut none = [1.0; 6];
    let far = geom_distance(&m, &mut d, sph, wall, 0.01, Some(&mut none)).unwrap();
    assert_eq!((far, none), (0.01, [0.0; 6]));
    // bad ids are errors, not panics
    assert!(geom_distance(&m, &mut d, m.ngeom, sph, 1.0, None).is_err());
}

#[test]
fn rangefinder_is_the_ray_along_the_site_z_axis_then_cutoff() {
    with_frames_model(|m, d| {
        // sensor 0 becomes a rangefinder on fore_site (body "fore", which holds fore_geom)
        let site = (0..m.nsite)
            .find(|&s| m.site_bodyid[s] == m.geom_bodyid[1])
            .unwrap();
        m.sensor_type[0] = SENS_RANGEFINDER;
        m.sensor_objtype[0] = OBJ_SITE;
        m.sensor_objid[0] = site as i32;
        m.sensor_datatype[0] = DATATYPE_POSITIVE;
        m.sensor_needstage[0] = STAGE_POS;
        m.sensor_dim[0] = 1;
        let adr = m.sensor_adr[0] as usize;
        let expected = |m: &Model, d: &mut Data| {
            let pnt: [f64; 3] = d.site_xpos[3 * site..3 * site + 3].try_into().unwrap();
            let z = [2, 5, 8].map(|k| d.site_xmat[9 * site + k]);
            ray::ray(m, d, &pnt, &z, None, true, m.site_bodyid[site]).unwrap()
        };
        // the site's z axis turned six ways (down, up, and sideways)
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let quats = [
            [0.0, 1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
            [h, 0.0, h, 0.0],
            [h, 0.0, -h, 0.0],
            [h, h, 0.0, 0.0],
            [h, -h, 0.0, 0.0],
        ];
        let (mut hits, mut misses) = (0, 0);
        for quat in quats {
            m.site_quat[4 * site..4 * site + 4].copy_from_slice(&quat);
            m.sensor_cutoff[0] = 0.0;
            forward(m, d).unwrap();
            let (dist, geom) = expected(m, d);
            assert_eq!(d.sensordata[adr], dist, "{quat:?}");
            if geom < 0 {
                assert_eq!(dist, -1.0);
                misses += 1;
                continue;
            }
            hits += 1;
            // never the site's own body (the site is inside fore_geom)
            assert_ne!(m.geom_bodyid[geom as usize], m.site_bodyid[site]);
            // positive data is cut off at the sensor's cutoff
            m.sensor_cutoff[0] = dist / 2.0;
            forward(m, d).unwrap();
            assert_eq!(d.sensordata[adr], dist / 2.0);
        }
        assert!(hits > 0 && misses > 0, "{hits} hits, {misses} misses");
    });
}
