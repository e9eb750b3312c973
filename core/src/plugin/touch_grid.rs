//! `mujoco.sensor.touch_grid`, MuJoCo 3.1.6's touch grid sensor plugin: the contact forces on the
//! body of a site, binned into a grid over the site's field of view.
//!
//! Each contact of the site's body (welded bodies count as one) is seen from the site: its
//! position as azimuth and elevation (the site looks down its -z axis), its force and torque in
//! the site's frame, ordered normal first (z, x, y). A contact whose direction falls into grid
//! cell `(i, j)` adds channel `c` of its force:torque to `sensordata[c][j][i]`. The cell edges
//! are evenly spaced over `[-1, 1]`, deformed by `gamma` towards the centre (a fovea) and scaled
//! by the field of view `fov` (degrees).
//!
//! Configuration: `nchannel` (1 to 6, 0 or unset means 1), `size` (two positive cell counts),
//! `fov` (horizontal in (0, 180], vertical in (0, 90]), `gamma` (in [0, 1], unset means 0); the
//! sensor must be attached to a site. The plugin is stateless: the per-cell contact distances
//! MuJoCo keeps for drawing are recomputed from the contacts when the scene is drawn.

use super::{
    is_number_without_spaces, register_plugin, strtod, Plugin, PluginError, PluginGeom,
    PluginScene, PLUGIN_SENSOR,
};
use crate::arena::{ArenaField, ArenaMask};
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::{rot_vec_mat, rot_vec_mat_t};
use crate::math::misc::c_int;
use crate::math::quat::{axis_angle2quat, mat2quat, mul_quat, quat2mat};
use crate::math::scalar;
use crate::math::vec::sub3;
use crate::model::Model;
use crate::real::{Real, PI};
use crate::support::contact_force;
use crate::types::{GEOM_BOX, OBJ_SITE, OBJ_UNKNOWN, SENS_PLUGIN, STAGE_ACC};

/// The plugin object registered by [`register`].
pub static TOUCH_GRID: TouchGrid = TouchGrid;

/// Registers `mujoco.sensor.touch_grid` at its fixed slot (a plugin of the user's registered
/// under that name before keeps the slot).
pub fn register() {
    // the only refusal is a different plugin already holding the slot, which then stays
    let _ = register_plugin(&TOUCH_GRID);
}

/// `mujoco.sensor.touch_grid` (stateless: everything is read from the Model and the contacts).
pub struct TouchGrid;

/// Thickness of the drawn cell boxes relative to their contact distance.
const RELATIVE_THICKNESS: Real = 0.02;

/// `mjCAT_DECOR`: the scene category of decorative geoms.
const CAT_DECOR: i32 = 4;

/// An instance's validated configuration.
#[derive(Clone, Copy, Debug)]
struct Config {
    nchannel: usize,
    /// Cells: horizontal, vertical.
    size: [usize; 2],
    /// Field of view (degrees): horizontal, vertical.
    fov: [Real; 2],
    gamma: Real,
}

/// MuJoCo's `ReadVector`: the pieces between single spaces (`getline` with `' '`, which drops
/// an empty last piece), each read with `strtod`.
fn read_vector(value: &str) -> impl Iterator<Item = f64> + '_ {
    let body = value.strip_suffix(' ').unwrap_or(value);
    let pieces = if value.is_empty() {
        None
    } else {
        Some(body.split(' '))
    };
    pieces.into_iter().flatten().map(strtod)
}

/// The two numbers of a `size` or `fov` value, or `None` when there are not exactly two.
fn pair(value: &str) -> Option<[f64; 2]> {
    let mut it = read_vector(value);
    let v = [it.next()?, it.next()?];
    it.next().is_none().then_some(v)
}

fn attr<'m>(m: &'m Model, instance: usize, key: &str) -> &'m str {
    super::plugin_config(m, instance, key).unwrap_or("")
}

/// `nchannel` as MuJoCo reads it (0 means 1), not yet checked.
fn nchannel(m: &Model, instance: usize) -> i32 {
    match c_int(strtod(attr(m, instance, "nchannel"))) {
        0 => 1,
        n => n,
    }
}

impl Config {
    /// MuJoCo's `TouchGrid::Create`: the checks in its order, with its messages.
    fn from_model(m: &Model, instance: usize) -> Result<Config, PluginError> {
        let gamma = attr(m, instance, "gamma");
        if !(is_number_without_spaces(gamma)
            && is_number_without_spaces(attr(m, instance, "nchannel")))
        {
            return Err(PluginError::fatal(
                "Invalid or missing parameters in touch_grid sensor plugin",
            ));
        }
        let nchannel = nchannel(m, instance);
        if !(1..=6).contains(&nchannel) {
            return Err(PluginError::fatal("nchannel must be between 1 and 6"));
        }
        let size = pair(attr(m, instance, "size")).ok_or(PluginError::fatal(
            "Both horizontal and vertical resolutions must be specified",
        ))?;
        let size = size.map(c_int);
        if size[0] <= 0 || size[1] <= 0 {
            return Err(PluginError::fatal(
                "Horizontal and vertical resolutions must be positive",
            ));
        }
        let fov = pair(attr(m, instance, "fov")).ok_or(PluginError::fatal(
            "Both horizontal and vertical fields of view must be specified",
        ))?;
        if fov[0] <= 0.0 || fov[0] > 180.0 {
            return Err(PluginError::fatal(
                "`fov[0]` must be a float between (0, 180] degrees",
            ));
        }
        if fov[1] <= 0.0 || fov[1] > 90.0 {
            return Err(PluginError::fatal(
                "`fov[1]` must be a float between (0, 90] degrees",
            ));
        }
        let gamma = strtod(gamma);
        // NaN passes, as in MuJoCo (a range's `contains` would refuse it)
        #[allow(clippy::manual_range_contains)]
        if gamma < 0.0 || gamma > 1.0 {
            return Err(PluginError::fatal(
                "`gamma` must be a nonnegative float between [0, 1]",
            ));
        }
        Ok(Config {
            nchannel: nchannel as usize,
            size: size.map(|s| s as usize),
            fov: fov.map(|f| f as Real),
            gamma: gamma as Real,
        })
    }

    /// Cells of one channel.
    fn frame(&self) -> usize {
        self.size[0] * self.size[1]
    }
}

/// The first plugin sensor of `instance` (MuJoCo's touch grid serves one sensor).
fn sensor_of(m: &Model, instance: usize) -> Option<usize> {
    (0..m.nsensor).find(|&s| {
        m.sensor_type[s] == SENS_PLUGIN
            && usize::try_from(m.sensor_plugin[s]).ok() == Some(instance)
    })
}

/// `mjMAX(0, mjMIN(1, gamma))`, then MuJoCo's `Fovea`: `x` pulled towards 0 by a quintic.
fn fovea(x: Real, gamma: Real) -> Real {
    if gamma == 0.0 {
        return x;
    }
    let upper = if 1.0 < gamma { 1.0 } else { gamma };
    let g = if 0.0 > upper { 0.0 } else { upper };
    g * scalar::pow(x, 5.0) + (1.0 - g) * x
}

/// The cell edges of both axes (MuJoCo's `BinEdges`), evaluated on demand: an edge is the
/// running sum `LinSpace` builds, so computing it again gives the same bits without storage.
struct Edges {
    size: [usize; 2],
    gamma: Real,
    scale: [Real; 2],
}

impl Edges {
    fn new(c: &Config) -> Edges {
        Edges {
            size: c.size,
            gamma: c.gamma,
            scale: c.fov.map(|f| f * PI / 180.0),
        }
    }

    /// Edge `k` (0 to `size[axis]`) of `axis`.
    fn edge(&self, axis: usize, k: usize) -> Real {
        let count = self.size[axis] + 1;
        let increment = if count > 1 {
            2.0 / (count - 1) as Real
        } else {
            0.0
        };
        let mut x: Real = -1.0;
        for _ in 0..k {
            x += increment;
        }
        fovea(x, self.gamma) * self.scale[axis]
    }

    /// MuJoCo's `LowerBound`: the first edge index `l` with `x <= edge(l)` by bisection, or the
    /// number of edges.
    fn lower_bound(&self, axis: usize, x: Real) -> usize {
        let (mut lo, mut hi) = (0, self.size[axis] + 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if x <= self.edge(axis, mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The cell (`j * size[0] + i`) of direction `(azimuth, elevation)`, `None` outside.
    fn cell(&self, azimuth: Real, elevation: Real) -> Option<usize> {
        let i = self.lower_bound(0, azimuth);
        if i == 0 || i == self.size[0] + 1 {
            return None;
        }
        let j = self.lower_bound(1, elevation);
        if j == 0 || j == self.size[1] + 1 {
            return None;
        }
        Some((j - 1) * self.size[0] + (i - 1))
    }
}

/// Azimuth, elevation and distance of a point in the site's frame (the site looks down -z).
fn cartesian_to_spherical(p: &[Real; 3]) -> [Real; 3] {
    let [x, y, z] = *p;
    [
        scalar::atan2(x, -z),
        scalar::atan2(y, scalar::sqrt(x * x + z * z)),
        scalar::sqrt(x * x + z * z + y * y),
    ]
}

fn spherical_to_cartesian(aer: &[Real; 3]) -> [Real; 3] {
    let [a, e, r] = *aer;
    [
        r * scalar::cos(e) * scalar::sin(a),
        r * scalar::sin(e),
        -r * scalar::cos(e) * scalar::cos(a),
    ]
}

/// The site of the sensor and the bodies whose contacts it feels.
#[derive(Clone, Copy)]
struct Site {
    id: usize,
    /// The weld root of the site's body (MuJoCo's `parent_body`).
    body: i32,
    /// Its weld root again (MuJoCo's `parent_weld`; the same body).
    weld: i32,
}

impl Site {
    fn of_sensor(m: &Model, sensor: usize) -> Option<Site> {
        let id = usize::try_from(m.sensor_objid[sensor]).ok()?;
        let body = *m
            .body_weldid
            .get(usize::try_from(*m.site_bodyid.get(id)?).ok()?)?;
        let weld = *m.body_weldid.get(usize::try_from(body).ok()?)?;
        Some(Site { id, body, weld })
    }

    fn frame(&self, d: &Data) -> ([Real; 3], [Real; 9]) {
        let pos = core::array::from_fn(|k| d.site_xpos[3 * self.id + k]);
        let mat = core::array::from_fn(|k| d.site_xmat[9 * self.id + k]);
        (pos, mat)
    }
}

/// What the site feels of one contact.
struct Touch {
    /// Force then torque in the site's frame, each ordered z, x, y (normal first).
    force: [Real; 6],
    /// Azimuth, elevation and distance of the contact point.
    aer: [Real; 3],
}

/// The bodies of contact `i`'s geoms, if both are valid.
fn contact_bodies(m: &Model, d: &Data, i: usize) -> Option<([i32; 2], [Real; 3], [Real; 9])> {
    let a = d.arena.arrays_only(ArenaMask::of(&[ArenaField::contact]));
    let con = a.contact.get(i).filter(|_| i < d.ncon)?;
    let body = |g: i32| -> Option<i32> { m.geom_bodyid.get(usize::try_from(g).ok()?).copied() };
    Some(([body(con.geom1)?, body(con.geom2)?], con.pos, con.frame))
}

/// Whether body `b` belongs to the site's weld group.
fn welded_to(m: &Model, b: i32, site: &Site) -> bool {
    usize::try_from(b)
        .ok()
        .and_then(|b| m.body_weldid.get(b))
        .is_some_and(|&w| w == site.weld)
}

/// Where contact `i` is seen from the site, if it touches the site's body.
fn contact_direction(m: &Model, d: &Data, i: usize, site: &Site) -> Option<[Real; 3]> {
    let (bodies, pos, _) = contact_bodies(m, d, i)?;
    if !bodies.iter().any(|&b| welded_to(m, b, site)) {
        return None;
    }
    let (site_pos, site_mat) = site.frame(d);
    Some(cartesian_to_spherical(&rot_vec_mat_t(
        &sub3(&pos, &site_pos),
        &site_mat,
    )))
}

/// Contact `i` as the site feels it, if it touches the site's body.
fn touch(m: &Model, d: &Data, i: usize, site: &Site) -> Option<Touch> {
    let (bodies, _, frame) = contact_bodies(m, d, i)?;
    let aer = contact_direction(m, d, i, site)?;
    let (_, site_mat) = site.frame(d);
    let f = contact_force(m, d, i);
    let mut force = [0.0; 6];
    for (half, out) in f.chunks_exact(3).zip(force.chunks_exact_mut(3)) {
        let world = rot_vec_mat_t(&[half[0], half[1], half[2]], &frame);
        out.copy_from_slice(&rot_vec_mat_t(&world, &site_mat));
    }
    // contact forces point from the lower-numbered body to the higher: seen from the site's
    // body, they push back when it is the lower one
    if site.body < bodies[0].max(bodies[1]) {
        for x in &mut force {
            *x *= -1.0;
        }
    }
    for half in force.chunks_exact_mut(3) {
        half.rotate_right(1);
    }
    Some(Touch { force, aer })
}

/// Largest magnitude in the first channel (`mju_max` in MuJoCo's order).
fn max_normal(values: &[Real]) -> Real {
    values.iter().fold(0.0, |acc: Real, v| {
        let a = v.abs();
        if acc >= a {
            acc
        } else {
            a
        }
    })
}

/// Mean contact distance in cell `cell` (0 when no contact falls in it), summed in contact
/// order as MuJoCo's histogram does.
fn cell_distance(m: &Model, d: &Data, site: &Site, edges: &Edges, cell: usize) -> Real {
    let (mut sum, mut count): (Real, Real) = (0.0, 0.0);
    for i in 0..d.ncon {
        if let Some(aer) = contact_direction(m, d, i, site) {
            if edges.cell(aer[0], aer[1]) == Some(cell) {
                sum += aer[2];
                count += 1.0;
            }
        }
    }
    if count == 0.0 {
        sum
    } else {
        sum / count
    }
}

/// The box drawn for cell `(i, j)` at distance `dist`.
fn cell_box(
    edges: &Edges,
    site_frame: &([Real; 3], [Real; 9]),
    i: usize,
    j: usize,
    dist: Real,
) -> PluginGeom {
    let (site_pos, site_mat) = site_frame;
    let x = [edges.edge(0, i), edges.edge(0, i + 1)];
    let y = [edges.edge(1, j), edges.edge(1, j + 1)];
    let size = [
        dist * 0.5 * (x[1] - x[0]),
        dist * 0.5 * (y[1] - y[0]),
        dist * RELATIVE_THICKNESS,
    ];
    let aer = [
        0.5 * (x[1] + x[0]),
        0.5 * (y[1] + y[0]),
        dist * (1.0 - RELATIVE_THICKNESS),
    ];
    let mut pos = rot_vec_mat(&spherical_to_cartesian(&aer), site_mat);
    for (p, s) in pos.iter_mut().zip(site_pos) {
        *p += s;
    }
    let site_quat = mat2quat(site_mat);
    let site_y = [-site_mat[1], -site_mat[4], -site_mat[7]];
    let site_x = [site_mat[0], site_mat[3], site_mat[6]];
    let a_quat = axis_angle2quat(&site_y, aer[0]);
    let e_quat = axis_angle2quat(&site_x, aer[1]);
    let quat = mul_quat(&a_quat, &mul_quat(&e_quat, &site_quat));
    PluginGeom {
        type_: GEOM_BOX,
        size,
        pos,
        mat: quat2mat(&quat),
        rgba: [1.0; 4],
        objtype: OBJ_UNKNOWN,
        objid: 0,
        category: CAT_DECOR,
    }
}

impl Plugin for TouchGrid {
    fn name(&self) -> &'static str {
        "mujoco.sensor.touch_grid"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["nchannel", "size", "fov", "gamma"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_SENSOR
    }

    fn needstage(&self) -> i32 {
        STAGE_ACC
    }

    /// `nchannel * size[0] * size[1]`; 0 when that is not a size (`init` then says why).
    fn nsensordata(&self, m: &Model, instance: usize, _sensor_id: usize) -> usize {
        let Some(size) = pair(attr(m, instance, "size")) else {
            return 0;
        };
        let n = i64::from(nchannel(m, instance))
            * i64::from(c_int(size[0]))
            * i64::from(c_int(size[1]));
        usize::try_from(n).unwrap_or(0)
    }

    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        Config::from_model(m, instance)?;
        let elsewhere = (0..m.nsensor).any(|s| {
            m.sensor_type[s] == SENS_PLUGIN
                && usize::try_from(m.sensor_plugin[s]).ok() == Some(instance)
                && m.sensor_objtype[s] != OBJ_SITE
        });
        if elsewhere {
            return Err(PluginError::fatal(
                "Touch Grid sensor must be attached to a site",
            ));
        }
        Ok(())
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        write_sensor(m, d, instance);
        Ok(())
    }

    fn visualize(&self, m: &Model, d: &mut Data, instance: usize, scn: &mut dyn PluginScene) {
        let (Ok(config), Some(sensor)) = (Config::from_model(m, instance), sensor_of(m, instance))
        else {
            return;
        };
        let adr = usize::try_from(m.sensor_adr[sensor]).unwrap_or(0);
        let frame = config.frame();
        let Some(data) = d.sensordata.get(adr..adr + config.nchannel * frame) else {
            return;
        };
        let maxval = max_normal(&data[..frame]);
        let Some(site) = Site::of_sensor(m, sensor).filter(|_| maxval != 0.0) else {
            return;
        };
        let edges = Edges::new(&config);
        let site_frame = site.frame(d);
        for i in 0..config.size[0] {
            for j in 0..config.size[1] {
                let cell = j * config.size[0] + i;
                let dist = cell_distance(m, d, &site, &edges, cell);
                if dist == 0.0 {
                    continue;
                }
                let mut geom = cell_box(&edges, &site_frame, i, j, dist);
                geom.objid = sensor as i32;
                for (k, rgba) in geom
                    .rgba
                    .iter_mut()
                    .enumerate()
                    .take(config.nchannel.min(3))
                {
                    *rgba = (d.sensordata[adr + k * frame + cell].abs() / maxval) as f32;
                }
                if !scn.add_geom(d, &geom) {
                    return;
                }
            }
        }
    }
}

/// Writes the sensor data of instance `instance`: the normal and tangential forces of the
/// contacts in each cell, per channel.
fn write_sensor(m: &Model, d: &mut Data, instance: usize) {
    let (Ok(config), Some(sensor)) = (Config::from_model(m, instance), sensor_of(m, instance))
    else {
        return;
    };
    let adr = usize::try_from(m.sensor_adr[sensor]).unwrap_or(0);
    let dim = usize::try_from(m.sensor_dim[sensor]).unwrap_or(0);
    let Some(out) = d.sensordata.get_mut(adr..adr + dim) else {
        return;
    };
    out.fill(0.0);
    let Some(site) = Site::of_sensor(m, sensor) else {
        return;
    };
    let edges = Edges::new(&config);
    let frame = config.frame();
    for i in 0..d.ncon {
        let Some(t) = touch(m, d, i, &site) else {
            continue;
        };
        let Some(cell) = edges.cell(t.aer[0], t.aer[1]) else {
            continue;
        };
        // cells start at +0 and never become -0, so adding a channel's zeros (which
        // MuJoCo skips when the whole channel is zero) changes nothing
        for (c, w) in t.force.iter().enumerate().take(config.nchannel) {
            if let Some(v) = d.sensordata.get_mut(adr + c * frame + cell) {
                *v += w;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `getline` at single spaces: an empty last piece is dropped, inner and leading ones count.
    #[test]
    fn pairs_split_as_getline_does() {
        assert_eq!(pair("7 7"), Some([7.0, 7.0]));
        assert_eq!(pair("7 7 "), Some([7.0, 7.0]));
        assert_eq!(pair("7 7  "), None);
        assert_eq!(pair(" 7 7"), None);
        assert_eq!(pair("7  7"), None);
        assert_eq!(pair("7"), None);
        assert_eq!(pair(""), None);
        assert_eq!(pair("2.9 x"), Some([2.9, 0.0]));
    }

    #[test]
    fn fovea_is_identity_at_zero_and_quintic_at_one() {
        assert_eq!(fovea(0.5, 0.0), 0.5);
        assert_eq!(fovea(0.5, 1.0), 0.03125);
        // gamma beyond [0, 1] is clamped (init refuses it; the formula clamps anyway)
        assert_eq!(fovea(0.5, 2.0), 0.03125);
        assert!(fovea(0.5, Real::NAN).is_nan());
    }

    /// Edges are the running sums of `LinSpace`, deformed and scaled; cells are found by
    /// bisection and points outside the field of view fall in no cell.
    #[test]
    fn cells_cover_the_field_of_view() {
        let c = Config {
            nchannel: 1,
            size: [4, 2],
            fov: [90.0, 45.0],
            gamma: 0.0,
        };
        let e = Edges::new(&c);
        assert_eq!(e.edge(0, 0), -PI / 2.0);
        assert_eq!(e.edge(0, 2), 0.0);
        assert_eq!(e.cell(0.1, 0.1), Some(4 + 2));
        assert_eq!(e.cell(-0.1, -0.1), Some(1));
        assert_eq!(e.cell(-PI / 2.0, 0.1), None);
        assert_eq!(e.cell(0.1, 1.0), None);
    }
}
