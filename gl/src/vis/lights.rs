//! The scene's lights (`mjv_makeLights`): the headlight, then the model's active lights.

use super::geom::n2f;
use super::{Scene, VisLight, MAXLIGHT};
use mjrs_core::{Data, Model};

/// The lights (`mjv_makeLights`): the headlight at the viewer looking along the gaze, then
/// the model's active lights, at most [`MAXLIGHT`].
pub fn make_lights(m: &Model, d: &Data, scn: &mut Scene) {
    scn.lights.clear();
    if m.vis.headlight.active != 0 {
        let (pos, dir, _) = scn.camera_in_model();
        let h = &m.vis.headlight;
        scn.lights.push(VisLight {
            headlight: 1,
            directional: 1,
            pos: n2f(&pos),
            dir: n2f(&dir),
            ambient: h.ambient,
            diffuse: h.diffuse,
            specular: h.specular,
            ..VisLight::default()
        });
    }
    for i in 0..m.nlight {
        if scn.lights.len() >= MAXLIGHT {
            break;
        }
        if m.light_active[i] == 0 {
            continue;
        }
        let directional = m.light_directional[i];
        let mut light = VisLight {
            directional,
            castshadow: m.light_castshadow[i],
            bulbradius: m.light_bulbradius[i],
            ambient: n2f_f(&m.light_ambient[3 * i..]),
            diffuse: n2f_f(&m.light_diffuse[3 * i..]),
            specular: n2f_f(&m.light_specular[3 * i..]),
            pos: n2f(&d.light_xpos[3 * i..3 * i + 3]),
            dir: n2f(&d.light_xdir[3 * i..3 * i + 3]),
            ..VisLight::default()
        };
        if directional == 0 {
            light.attenuation = n2f_f(&m.light_attenuation[3 * i..]);
            light.exponent = m.light_exponent[i];
            light.cutoff = m.light_cutoff[i];
        }
        scn.lights.push(light);
    }
}

/// The first three floats of `v`.
fn n2f_f(v: &[f32]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}
