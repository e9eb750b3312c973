//! The toolbox every part of the scene is built with: starting a geom in a scene that may be
//! full (MuJoCo's `START`), a geom with MuJoCo's defaults, materials, connectors between two
//! points, axis triads, the category and group of an object, and the double-to-float
//! conversions done exactly where MuJoCo does them. It imports nothing of the modules that add
//! geoms, so each of them, and the driver [`update_scene`](super::update_scene), can use it.

use super::error::SceneError;
use super::{flag, Scene, VisGeom, CAT_DECOR, CAT_DYNAMIC, CAT_STATIC};
use mjrs_core::math::mat::mul_mat_vec;
use mjrs_core::math::quat::{quat2mat, quat_z2vec};
use mjrs_core::math::vec::norm3;
use mjrs_core::types::*;
use mjrs_core::{Data, Model, Real};

/// A group number clamped to the groups an option has.
pub(super) fn group(g: i32) -> usize {
    g.clamp(0, NGROUP as i32 - 1) as usize
}

/// A colour per island from the Halton sequence at its first degree of freedom (MuJoCo's
/// `islandColor`).
pub(super) fn island_color(dof: i32) -> [f32; 4] {
    let h = |base| {
        let x = mjrs_core::math::misc::halton(dof as usize + 1, base);
        (f64::from(0.1f32) + f64::from(0.8f32) * x) as f32
    };
    [h(2), h(3), h(5), 1.0]
}

/// Static if welded to the world and not a mocap body (MuJoCo's `bodycategory`).
pub(super) fn body_category(m: &Model, body: usize) -> i32 {
    if m.body_weldid[body] == 0 && m.body_mocapid[body] == -1 {
        CAT_STATIC
    } else {
        CAT_DYNAMIC
    }
}

/// Doubles to floats, as C's `(float)` casts (`mju_n2f`).
pub(super) fn n2f<const N: usize>(v: &[Real]) -> [f32; N] {
    core::array::from_fn(|i| v[i] as f32)
}

/// A geom with MuJoCo's defaults (`mjv_initGeom`): `type_` with `size` scaled per type
/// (sphere: radius thrice; capsule and cylinder: radius, radius, half-length), `pos`, `mat`
/// and `rgba`, or their defaults when absent.
pub fn init_geom(
    type_: i32,
    size: Option<&[Real]>,
    pos: Option<&[Real]>,
    mat: Option<&[Real]>,
    rgba: Option<&[f32; 4]>,
) -> VisGeom {
    let size = match size {
        Some(s) => match type_ {
            GEOM_SPHERE => [s[0] as f32; 3],
            GEOM_CAPSULE | GEOM_CYLINDER => [s[0] as f32, s[0] as f32, s[1] as f32],
            _ => n2f(s),
        },
        None => [0.1; 3],
    };
    VisGeom {
        type_,
        dataid: -1,
        texid: -1,
        texrepeat: [1.0, 1.0],
        size,
        pos: pos.map_or([0.0; 3], n2f),
        mat: mat.map_or([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], n2f),
        rgba: rgba.copied().unwrap_or([0.5, 0.5, 0.5, 1.0]),
        specular: 0.5,
        shininess: 0.5,
        ..VisGeom::default()
    }
}

/// Material properties (MuJoCo's `setMaterial`): from material `matid` if any; `rgba` wins
/// unless it is the default grey and a material is given; the texture when textures are shown;
/// alpha scaled for dynamic geoms when transparency is on.
pub(super) fn set_material(m: &Model, g: &mut VisGeom, matid: i32, rgba: &[f32], flags: &[u8]) {
    if let Ok(mat) = usize::try_from(matid) {
        g.texrepeat = [m.mat_texrepeat[2 * mat], m.mat_texrepeat[2 * mat + 1]];
        g.rgba.copy_from_slice(&m.mat_rgba[4 * mat..4 * mat + 4]);
        g.texuniform = i32::from(m.mat_texuniform[mat]);
        g.emission = m.mat_emission[mat];
        g.specular = m.mat_specular[mat];
        g.shininess = m.mat_shininess[mat];
        g.reflectance = m.mat_reflectance[mat];
        if flags[flag::TEXTURE] != 0 {
            g.texid = m.mat_texid[mat];
        }
    } else {
        g.texrepeat = [0.0, 0.0];
    }
    if rgba != [0.5, 0.5, 0.5, 1.0] || matid < 0 {
        g.rgba.copy_from_slice(&rgba[..4]);
    }
    if flags[flag::TRANSPARENT] != 0 && g.category == CAT_DYNAMIC {
        g.rgba[3] *= m.vis.map.alpha;
    }
}

/// Starts the next geom (MuJoCo's `START`): `None`, with the warning, when the scene is full.
pub(super) fn start_geom(
    d: &mut Data,
    scn: &Scene,
    objtype: i32,
    objid: usize,
    category: i32,
) -> Option<VisGeom> {
    if scn.geoms.len() >= scn.maxgeom {
        mjrs_core::support::warning(d, WARN_VGEOMFULL, scn.maxgeom as i32);
        return None;
    }
    Some(VisGeom {
        objtype,
        objid: objid as i32,
        category,
        segid: scn.geoms.len() as i32,
        ..init_geom(GEOM_NONE, None, None, None, None)
    })
}

/// Makes `g` a connector of `type_` from `a` to `b` (`mjv_connector`): capsules and cylinders
/// centered between the points with half the length as size, arrows and lines starting at
/// `a`; oriented by the shortest rotation taking z to `b - a`. Other types are an error.
pub fn connector(
    g: &mut VisGeom,
    type_: i32,
    width: Real,
    a: &[Real; 3],
    b: &[Real; 3],
) -> Result<(), SceneError> {
    let connectors = [
        GEOM_CAPSULE,
        GEOM_CYLINDER,
        GEOM_ARROW,
        GEOM_ARROW1,
        GEOM_ARROW2,
        GEOM_LINE,
    ];
    if !connectors.contains(&type_) {
        return Err(SceneError::BadConnector(type_));
    }
    let dif = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    g.type_ = type_;
    g.size = [width as f32, width as f32, norm3(&dif) as f32];
    if type_ == GEOM_CAPSULE || type_ == GEOM_CYLINDER {
        g.pos = core::array::from_fn(|k| (0.5 * (a[k] + b[k])) as f32);
        g.size[2] *= 0.5;
    } else {
        g.pos = n2f(a);
    }
    g.mat = n2f(&quat2mat(&quat_z2vec(&dif)));
    Ok(())
}

/// Three cylinders along the axes of frame `mat` at `pos`, red, green and blue; `false` when
/// the scene is full.
pub(super) fn add_axes(
    d: &mut Data,
    scn: &mut Scene,
    objtype: i32,
    objid: usize,
    pos: &[Real; 3],
    mat: &[Real; 9],
    length: Real,
    width: Real,
) -> bool {
    for j in 0..3 {
        let Some(mut g) = start_geom(d, scn, objtype, objid, CAT_DECOR) else {
            return false;
        };
        let mut axis = [0.0; 3];
        axis[j] = length;
        let mut vec = [0.0; 3];
        mul_mat_vec(&mut vec, mat, &axis, 3, 3);
        let to = [pos[0] + vec[0], pos[1] + vec[1], pos[2] + vec[2]];
        let _ = connector(&mut g, GEOM_CYLINDER, width, pos, &to);
        g.rgba = [0.0, 0.0, 0.0, 1.0];
        g.rgba[j] = 0.9;
        scn.geoms.push(g);
    }
    true
}

/// Length and width of an object frame's axes: float products, as MuJoCo keeps the mean size
/// as a float in `mjv_addGeoms`.
pub(super) fn frame_size(m: &Model) -> (Real, Real) {
    let scl = m.stat.meansize as f32;
    (
        Real::from(m.vis.scale.framelength * scl),
        Real::from(m.vis.scale.framewidth * scl),
    )
}

/// The first three values.
pub(super) fn to3(v: &[Real]) -> [Real; 3] {
    [v[0], v[1], v[2]]
}

/// The first four values (a quaternion).
pub(super) fn to4(v: &[Real]) -> [Real; 4] {
    [v[0], v[1], v[2], v[3]]
}

/// The first nine values.
pub(super) fn to9(v: &[Real]) -> [Real; 9] {
    core::array::from_fn(|k| v[k])
}
