//! `mjrs scene`: the abstract scene (`mjv_updateScene` with the default options, no
//! perturbation and the default free camera, every category) as JSON in the shape of
//! `mjref scene`: `ngeom`, `nlight`, then one list per geom and light field, each entry the
//! field's values as a list; for a model with flexes, the scene's flex arrays too.

use mjrs_core::{Data, Model};
use mjrs_gl::vis::{self, Camera, Perturb, Scene, VisOption};
use std::fmt::Write as _;

/// Geoms a scene holds, as `mjref scene` makes it.
const MAXGEOM: usize = 10000;

/// Names of the visualization flags, in `mjtVisFlag` order (MuJoCo's `mjVISSTRING`, lower case
/// without spaces).
pub const FLAG_NAMES: [&str; vis::flag::N] = [
    "convexhull",
    "texture",
    "joint",
    "camera",
    "actuator",
    "activation",
    "light",
    "tendon",
    "rangefinder",
    "constraint",
    "inertia",
    "sclinertia",
    "pertforce",
    "pertobj",
    "contactpoint",
    "island",
    "contactforce",
    "contactsplit",
    "transparent",
    "autoconnect",
    "com",
    "select",
    "static",
    "skin",
    "flexvert",
    "flexedge",
    "flexface",
    "flexskin",
    "bodybvh",
    "flexbvh",
    "meshbvh",
    "sdfiter",
];
/// Names of the frame choices, in `mjtFrame` order.
pub const FRAME_NAMES: [&str; 8] = vis::frame::NAMES;
/// Names of the label choices, in `mjtLabel` order.
pub const LABEL_NAMES: [&str; 17] = vis::label::NAMES;

/// The default options with the named flags switched on (`+name`, or just `name`) or off
/// (`-name`), and the named frame and label kind.
pub fn options(flags: &[String], frame: &str, label: &str) -> Result<VisOption, String> {
    let find = |names: &[&str], what: &str, name: &str| {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown {what} '{name}'; one of: {}", names.join(", ")))
    };
    let mut opt = VisOption::default();
    for f in flags {
        let (on, name) = match f.strip_prefix('-') {
            Some(name) => (0, name),
            None => (1, f.strip_prefix('+').unwrap_or(f)),
        };
        opt.flags[find(&FLAG_NAMES, "flag", name)?] = on;
    }
    opt.frame = find(&FRAME_NAMES, "frame", frame)? as i32;
    opt.label = find(&LABEL_NAMES, "label", label)? as i32;
    Ok(opt)
}

/// What `mjrs scene --flags help` prints: every flag name with its default, then the frame and
/// label choices.
pub fn flags_help() -> String {
    let defaults = VisOption::default().flags;
    let mut out = String::from(
        "visualization flags for --flags (name or +name switches one on, -name off):\n",
    );
    for (name, on) in FLAG_NAMES.iter().zip(defaults) {
        let state = if on != 0 { "on" } else { "off" };
        let _ = writeln!(out, "  {name:<14} default {state}");
    }
    let _ = writeln!(out, "--frame: {}", FRAME_NAMES.join(", "));
    let _ = writeln!(out, "--label: {}", LABEL_NAMES.join(", "));
    out
}

/// The scene of the current state of `d` as JSON, with the default options.
pub fn scene_json(m: &Model, d: &mut Data) -> Result<String, String> {
    scene_json_with(m, d, &VisOption::default())
}

/// The scene of the current state of `d` as JSON, with options `opt`.
pub fn scene_json_with(m: &Model, d: &mut Data, opt: &VisOption) -> Result<String, String> {
    let mut scn = Scene::new(MAXGEOM);
    let mut cam = Camera::default_free(m);
    vis::update_scene(
        m,
        d,
        opt,
        &Perturb::default(),
        &mut cam,
        vis::CAT_ALL,
        &mut scn,
    )
    .map_err(|e| e.to_string())?;
    Ok(scene_to_json(&scn))
}

/// A scene's geoms and lights as JSON in the shape of `mjref scene`.
pub fn scene_to_json(scn: &Scene) -> String {
    let mut out = format!(
        "{{\"ngeom\": {}, \"nlight\": {}",
        scn.geoms.len(),
        scn.lights.len()
    );
    let g = &scn.geoms;
    let ints = |f: fn(&vis::VisGeom) -> i64| g.iter().map(move |x| vec![f(x).to_string()]);
    field(&mut out, "geom.type", ints(|x| x.type_.into()));
    field(&mut out, "geom.dataid", ints(|x| x.dataid.into()));
    field(&mut out, "geom.objtype", ints(|x| x.objtype.into()));
    field(&mut out, "geom.objid", ints(|x| x.objid.into()));
    field(&mut out, "geom.category", ints(|x| x.category.into()));
    field(&mut out, "geom.texid", ints(|x| x.texid.into()));
    field(&mut out, "geom.texuniform", ints(|x| x.texuniform.into()));
    field(&mut out, "geom.texcoord", ints(|x| x.texcoord.into()));
    field(&mut out, "geom.segid", ints(|x| x.segid.into()));
    let floats = |f: fn(&vis::VisGeom) -> Vec<f32>| {
        g.iter().map(move |x| f(x).into_iter().map(real).collect())
    };
    field(&mut out, "geom.size", floats(|x| x.size.to_vec()));
    field(&mut out, "geom.pos", floats(|x| x.pos.to_vec()));
    field(&mut out, "geom.mat", floats(|x| x.mat.to_vec()));
    field(&mut out, "geom.rgba", floats(|x| x.rgba.to_vec()));
    field(&mut out, "geom.emission", floats(|x| vec![x.emission]));
    field(&mut out, "geom.specular", floats(|x| vec![x.specular]));
    field(&mut out, "geom.shininess", floats(|x| vec![x.shininess]));
    field(
        &mut out,
        "geom.reflectance",
        floats(|x| vec![x.reflectance]),
    );
    field(&mut out, "geom.transparent", ints(|x| x.transparent.into()));
    let l = &scn.lights;
    let lights = |f: fn(&vis::VisLight) -> Vec<f32>| {
        l.iter().map(move |x| f(x).into_iter().map(real).collect())
    };
    let light_ints = |f: fn(&vis::VisLight) -> u8| l.iter().map(move |x| vec![f(x).to_string()]);
    field(&mut out, "light.pos", lights(|x| x.pos.to_vec()));
    field(&mut out, "light.dir", lights(|x| x.dir.to_vec()));
    field(&mut out, "light.directional", light_ints(|x| x.directional));
    field(&mut out, "light.castshadow", light_ints(|x| x.castshadow));
    field(&mut out, "light.diffuse", lights(|x| x.diffuse.to_vec()));
    field(&mut out, "light.ambient", lights(|x| x.ambient.to_vec()));
    field(&mut out, "light.specular", lights(|x| x.specular.to_vec()));
    if scn.nflex > 0 {
        flex_fields(&mut out, scn);
    }
    // labels only when there are any (`mjref scene` never asks for them)
    if g.iter().any(|x| !x.label.is_empty()) {
        out.push_str(", \"geom.label\": [");
        for (i, x) in g.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            crate::dump::push_string(&mut out, &x.label);
        }
        out.push(']');
    }
    out.push('}');
    out
}

/// The scene's flex arrays (`mjvScene`'s flex fields), each a list with one entry per flex
/// except `flexedge` and `flexvert` (one per edge and vertex); the face arrays hold only the
/// faces in use, as the rest is stale.
fn flex_fields(out: &mut String, scn: &Scene) {
    let _ = write!(out, ", \"nflex\": {}", scn.nflex);
    let ints = |v: &[i32]| v.iter().map(|x| vec![x.to_string()]).collect::<Vec<_>>();
    field(out, "flexedgeadr", ints(&scn.flexedgeadr).into_iter());
    field(out, "flexedgenum", ints(&scn.flexedgenum).into_iter());
    field(out, "flexvertadr", ints(&scn.flexvertadr).into_iter());
    field(out, "flexvertnum", ints(&scn.flexvertnum).into_iter());
    field(out, "flexfaceadr", ints(&scn.flexfaceadr).into_iter());
    field(out, "flexfacenum", ints(&scn.flexfacenum).into_iter());
    field(out, "flexfaceused", ints(&scn.flexfaceused).into_iter());
    let pairs = scn.flexedge.chunks_exact(2);
    field(
        out,
        "flexedge",
        pairs.map(|e| e.iter().map(i32::to_string).collect()),
    );
    let reals = |v: &[f32]| v.iter().copied().map(real).collect::<Vec<_>>();
    field(out, "flexvert", scn.flexvert.chunks_exact(3).map(reals));
    let used = |per_face: usize, v: &[f32]| {
        (0..scn.nflex)
            .map(|f| {
                let adr = per_face * scn.flexfaceadr[f] as usize;
                let n = per_face * scn.flexfaceused[f].max(0) as usize;
                reals(v.get(adr..adr + n).unwrap_or(&[]))
            })
            .collect::<Vec<_>>()
    };
    field(out, "flexface", used(9, &scn.flexface).into_iter());
    field(out, "flexnormal", used(9, &scn.flexnormal).into_iter());
    field(out, "flextexcoord", used(6, &scn.flextexcoord).into_iter());
    let opts = [
        scn.flexvertopt,
        scn.flexedgeopt,
        scn.flexfaceopt,
        scn.flexskinopt,
    ];
    let _ = write!(
        out,
        ", \"flexvertopt\": {}, \"flexedgeopt\": {}, \"flexfaceopt\": {}, \"flexskinopt\": {}",
        opts[0], opts[1], opts[2], opts[3]
    );
}

/// A float as JSON: the shortest text that reads back as the same (widened) value.
fn real(v: f32) -> String {
    format!("{:?}", f64::from(v))
}

/// Appends `, "name": [[...], ...]` from the rows' JSON tokens.
fn field(out: &mut String, name: &str, rows: impl Iterator<Item = Vec<String>>) {
    let _ = write!(out, ", \"{name}\": [");
    for (i, row) in rows.enumerate() {
        out.push_str(if i == 0 { "[" } else { ", [" });
        for (j, v) in row.iter().enumerate() {
            if j > 0 {
                out.push_str(", ");
            }
            out.push_str(v);
        }
        out.push(']');
    }
    out.push(']');
}
