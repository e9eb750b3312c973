//! The MJCF schema of MuJoCo 3.1.6 and its validation (`mjXSchema`, the `MJCF` table of
//! `xml_native_reader.cc`).
//!
//! Each line of [`MJCF`] is an element: its name, how often it may appear under its parent
//! (`!` exactly once, `?` at most once, `*` any number, `R` any number and recursive), and its
//! attributes; indentation (two spaces) nests elements. Validation follows MuJoCo's rules,
//! including its leniencies: `worldbody`, `frame` and `replicate` match the `body` schema by
//! name, and below a recursive element only children of the same name are checked, so the
//! contents of frames and replicates are left to the element readers.

use std::sync::OnceLock;

use super::dom::Elem;
use crate::error::XmlError;

const MJCF: &str = "
mujoco ! model
  compiler * autolimits boundmass boundinertia settotalmass balanceinertia strippath coordinate angle fitaabb eulerseq meshdir texturedir discardvisual convexhull usethread fusestatic inertiafromgeom inertiagrouprange exactmeshinertia assetdir
    lengthrange ? mode useexisting uselimit accel maxforce timeconst timestep inttotal interval tolrange
  option * timestep apirate impratio tolerance ls_tolerance noslip_tolerance mpr_tolerance gravity wind magnetic density viscosity o_margin o_solref o_solimp o_friction integrator cone jacobian solver iterations ls_iterations noslip_iterations mpr_iterations sdf_iterations sdf_initpoints actuatorgroupdisable
    flag ? constraint equality frictionloss limit contact passive gravity clampctrl warmstart filterparent actuation refsafe sensor midphase eulerdamp override energy fwdinv invdiscrete multiccd island
  size * memory njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom nuser_site nuser_cam nuser_tendon nuser_actuator nuser_sensor
  visual *
    global ? fovy ipd azimuth elevation linewidth glow offwidth offheight realtime ellipsoidinertia bvactive
    quality ? shadowsize offsamples numslices numstacks numquads
    headlight ? ambient diffuse specular active
    map ? stiffness stiffnessrot force torque alpha fogstart fogend znear zfar haze shadowclip shadowscale actuatortendon
    scale ? forcewidth contactwidth contactheight connect com camera light selectpoint jointlength jointwidth actuatorlength actuatorwidth framelength framewidth constraint slidercrank frustum
    rgba ? fog haze force inertia joint actuator actuatornegative actuatorpositive com camera light selectpoint connect contactpoint contactforce contactfriction contacttorque contactgap rangefinder constraint slidercrank crankbroken frustum bv bvactive
  statistic * meaninertia meanmass meansize extent center
  default R class
    mesh ? scale
    material ? texture emission specular shininess reflectance metallic roughness rgba texrepeat texuniform
    joint ? type group pos axis springdamper limited actuatorfrclimited solreflimit solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange actuatorgravcomp margin ref springref armature damping frictionloss user
    geom ? type pos quat contype conaffinity condim group priority size material friction mass density shellinertia solmix solref solimp margin gap fromto axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user
    site ? type group pos quat material size fromto axisangle xyaxes zaxis euler rgba user
    camera ? fovy ipd resolution pos quat axisangle xyaxes zaxis euler mode focal focalpixel principal principalpixel sensorsize user
    light ? pos dir bulbradius directional castshadow active attenuation cutoff exponent ambient diffuse specular mode
    pair ? condim friction solref solreffriction solimp gap margin
    equality ? active solref solimp
    tendon ? group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength width material margin stiffness damping rgba user
    general ? ctrllimited forcelimited actlimited ctrlrange forcerange actrange gear cranklength user group actdim dyntype gaintype biastype dynprm gainprm biasprm actearly
    motor ? ctrllimited forcelimited ctrlrange forcerange gear cranklength user group
    position ? ctrllimited forcelimited ctrlrange inheritrange forcerange gear cranklength user group kp kv dampratio timeconst
    velocity ? ctrllimited forcelimited ctrlrange forcerange gear cranklength user group kv
    intvelocity ? ctrllimited forcelimited ctrlrange forcerange actrange inheritrange gear cranklength user group kp kv dampratio
    damper ? forcelimited ctrlrange forcerange gear cranklength user group kv
    cylinder ? ctrllimited forcelimited ctrlrange forcerange gear cranklength user group timeconst area diameter bias
    muscle ? ctrllimited forcelimited ctrlrange forcerange gear cranklength user group timeconst range force scale lmin lmax vmax fpmax fvmax
    adhesion ? forcelimited ctrlrange forcerange gain user group
  extension *
    plugin * plugin
      instance * name
        config * key value
  custom *
    numeric * name size data
    text * name data
    tuple * name
      element * objtype objname prm
  asset *
    mesh * name class content_type file vertex normal texcoord face refpos refquat scale smoothnormal
      plugin * plugin instance
        config * key value
    hfield * name content_type file nrow ncol size elevation
    skin * name file material rgba inflate vertex texcoord face group
      bone * body bindpos bindquat vertid vertweight
    texture * name type content_type file gridsize gridlayout fileright fileleft fileup filedown filefront fileback builtin rgb1 rgb2 mark markrgb random width height hflip vflip
    material * name class texture texrepeat texuniform emission specular shininess reflectance metallic roughness rgba
  body R name childclass pos quat mocap axisangle xyaxes zaxis euler gravcomp user
    inertial ? pos quat mass diaginertia axisangle xyaxes zaxis euler fullinertia
    joint * name class type group pos axis springdamper limited actuatorfrclimited solreflimit solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange actuatorgravcomp margin ref springref armature damping frictionloss user
    freejoint * name group
    geom * name class type contype conaffinity condim group priority size material friction mass density shellinertia solmix solref solimp margin gap fromto pos quat axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user
      plugin * plugin instance
        config * key value
    site * name class type group pos quat material size fromto axisangle xyaxes zaxis euler rgba user
    camera * name class fovy ipd resolution pos quat axisangle xyaxes zaxis euler mode target focal focalpixel principal principalpixel sensorsize user
    light * name class directional castshadow active pos dir bulbradius attenuation cutoff exponent ambient diffuse specular mode target
    plugin * plugin instance
      config * key value
    composite * prefix type count spacing offset flatinertia solrefsmooth solimpsmooth vertex face initial curve size
      joint * kind group stiffness damping armature solreffix solimpfix type axis limited range margin solreflimit solimplimit frictionloss solreffriction solimpfriction
      tendon * kind group stiffness damping solreffix solimpfix limited range margin solreflimit solimplimit frictionloss solreffriction solimpfriction material rgba width
      skin ? texcoord material group rgba inflate subgrid
      geom ? type contype conaffinity condim group priority size material rgba friction mass density solmix solref solimp margin gap
      site ? group size material rgba
      pin * coord
      plugin * plugin instance
        config * key value
    flexcomp * name type group dim count spacing radius rigid mass inertiabox scale file point element texcoord material rgba flatskin pos quat axisangle xyaxes zaxis euler
      edge ? equality solref solimp stiffness damping
      contact ? contype conaffinity condim priority friction solmix solref solimp margin gap internal selfcollide activelayers
      pin * id range grid gridrange
      plugin * plugin instance
        config * key value
  deformable *
    flex * name group dim radius material rgba flatskin body vertex element texcoord
      contact ? contype conaffinity condim priority friction solmix solref solimp margin gap internal selfcollide activelayers
      edge ? stiffness damping
    skin * name file material rgba inflate vertex texcoord face group
      bone * body bindpos bindquat vertid vertweight
  contact *
    pair * name class geom1 geom2 condim friction solref solreffriction solimp gap margin
    exclude * name body1 body2
  equality *
    connect * name class body1 body2 anchor active solref solimp
    weld * name class body1 body2 relpose anchor active solref solimp torquescale
    joint * name class joint1 joint2 polycoef active solref solimp
    tendon * name class tendon1 tendon2 polycoef active solref solimp
    flex * name class flex active solref solimp
  tendon *
    spatial * name class group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength width material margin stiffness damping rgba user
      site * site
      geom * geom sidesite
      pulley * divisor
    fixed * name class group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength margin stiffness damping user
      joint * joint coef
  actuator *
    general * name class group ctrllimited forcelimited actlimited ctrlrange forcerange actrange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite body actdim dyntype gaintype biastype dynprm gainprm biasprm actearly
    motor * name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite
    position * name class group ctrllimited forcelimited ctrlrange inheritrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kp kv dampratio timeconst
    velocity * name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kv
    intvelocity * name class group ctrllimited forcelimited ctrlrange forcerange actrange inheritrange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kp kv dampratio
    damper * name class group forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kv
    cylinder * name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite timeconst area diameter bias
    muscle * name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite timeconst tausmooth range force scale lmin lmax vmax fpmax fvmax
    adhesion * name class group forcelimited ctrlrange forcerange user body gain
    plugin * name class plugin instance group ctrllimited forcelimited actlimited ctrlrange forcerange actrange lengthrange gear cranklength joint jointinparent site dyntype dynprm tendon cranksite slidersite user actearly
      config * key value
  sensor *
    touch * name site cutoff noise user
    accelerometer * name site cutoff noise user
    velocimeter * name site cutoff noise user
    gyro * name site cutoff noise user
    force * name site cutoff noise user
    torque * name site cutoff noise user
    magnetometer * name site cutoff noise user
    camprojection * name site camera cutoff noise user
    rangefinder * name site cutoff noise user
    jointpos * name joint cutoff noise user
    jointvel * name joint cutoff noise user
    tendonpos * name tendon cutoff noise user
    tendonvel * name tendon cutoff noise user
    actuatorpos * name actuator cutoff noise user
    actuatorvel * name actuator cutoff noise user
    actuatorfrc * name actuator cutoff noise user
    jointactuatorfrc * name joint cutoff noise user
    ballquat * name joint cutoff noise user
    ballangvel * name joint cutoff noise user
    jointlimitpos * name joint cutoff noise user
    jointlimitvel * name joint cutoff noise user
    jointlimitfrc * name joint cutoff noise user
    tendonlimitpos * name tendon cutoff noise user
    tendonlimitvel * name tendon cutoff noise user
    tendonlimitfrc * name tendon cutoff noise user
    framepos * name objtype objname reftype refname cutoff noise user
    framequat * name objtype objname reftype refname cutoff noise user
    framexaxis * name objtype objname reftype refname cutoff noise user
    frameyaxis * name objtype objname reftype refname cutoff noise user
    framezaxis * name objtype objname reftype refname cutoff noise user
    framelinvel * name objtype objname reftype refname cutoff noise user
    frameangvel * name objtype objname reftype refname cutoff noise user
    framelinacc * name objtype objname cutoff noise user
    frameangacc * name objtype objname cutoff noise user
    subtreecom * name body cutoff noise user
    subtreelinvel * name body cutoff noise user
    subtreeangmom * name body cutoff noise user
    distance * name geom1 geom2 body1 body2 cutoff noise user
    normal * name geom1 geom2 body1 body2 cutoff noise user
    fromto * name geom1 geom2 body1 body2 cutoff noise user
    clock * name cutoff noise user
    user * name objtype objname datatype needstage dim cutoff noise user
    plugin * name plugin instance cutoff objtype objname reftype refname user
      config * key value
  keyframe *
    key * name time qpos qvel act mpos mquat ctrl
";

/// One element of the schema.
struct Schema {
    name: String,
    kind: u8,
    /// Attribute names, sorted (MuJoCo keeps them in a sorted set and prints them in order).
    attrs: Vec<String>,
    children: Vec<Schema>,
}

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let rows: Vec<(usize, Schema)> = MJCF
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let depth = (l.len() - l.trim_start().len()) / 2;
                let mut words = l.split_whitespace();
                let name = words.next().unwrap_or_default().to_string();
                let kind = words.next().and_then(|k| k.bytes().next()).unwrap_or(b'*');
                let mut attrs: Vec<String> = words.map(str::to_string).collect();
                attrs.sort_unstable();
                (
                    depth,
                    Schema {
                        name,
                        kind,
                        attrs,
                        children: Vec::new(),
                    },
                )
            })
            .collect();
        let mut rows = rows.into_iter().peekable();
        let (_, mut root) = rows.next().expect("the MJCF table starts with its root");
        nest(&mut root, 0, &mut rows);
        root
    })
}

/// Attaches the rows deeper than `depth` that follow as children of `parent`.
fn nest(
    parent: &mut Schema,
    depth: usize,
    rows: &mut std::iter::Peekable<impl Iterator<Item = (usize, Schema)>>,
) {
    while let Some((d, _)) = rows.peek() {
        if *d <= depth {
            return;
        }
        let (d, mut child) = rows.next().expect("peeked");
        nest(&mut child, d, rows);
        parent.children.push(child);
    }
}

impl Schema {
    fn has_attr(&self, a: &str) -> bool {
        self.attrs.binary_search_by(|x| x.as_str().cmp(a)).is_ok()
    }

    /// `mjXSchema::NameMatch`: worldbody (at the top), frame and replicate match `body`.
    fn name_match(&self, elem: &Elem, level: usize) -> bool {
        if self.name == "body" {
            let n = elem.name.as_str();
            if (level == 1 && n == "worldbody")
                || (level != 1 && n == "body")
                || (level >= 1 && (n == "frame" || n == "replicate"))
            {
                return true;
            }
        }
        self.name == elem.name
    }

    /// `mjXSchema::Check`: the first violation, as the offending element and a message.
    fn check<'e>(&'e self, elem: &'e Elem, level: usize) -> Result<(), (&'e Elem, String)> {
        if !self.name_match(elem, level) {
            return Err((elem, "unrecognized element".into()));
        }
        if let Some((a, _)) = elem.attrs.iter().find(|(a, _)| !self.has_attr(a)) {
            return Err((elem, format!("unrecognized attribute: '{a}'")));
        }
        if self.kind == b'R' {
            for sub in elem.children_named(&self.name) {
                self.check(sub, level + 1)?;
            }
        }
        let mut count = vec![0usize; self.children.len()];
        for sub in &elem.children {
            match self
                .children
                .iter()
                .position(|s| s.name_match(sub, level + 1))
            {
                Some(k) => {
                    self.children[k].check(sub, level + 1)?;
                    count[k] += 1;
                }
                None if self.kind == b'R' && self.name_match(sub, level + 1) => {}
                None => return Err((sub, "unrecognized element".into())),
            }
        }
        for (s, &n) in self.children.iter().zip(&count) {
            let msg = match s.kind {
                b'!' | b'?' if n > 1 => format!("unique element '{}' found {n} times", s.name),
                b'!' if n < 1 => format!("element '{}' is required", s.name),
                _ => continue,
            };
            return Err((elem, msg));
        }
        Ok(())
    }
}

/// Validates the document against the MJCF schema ("Schema violation: ...").
pub fn validate(root: &Elem) -> Result<(), XmlError> {
    schema()
        .check(root, 0)
        .map_err(|(elem, msg)| elem.error(format!("Schema violation: {msg}")))
}

/// The MJCF schema as text (`mj_printSchema`): one line per element, indented by nesting, with
/// its multiplicity and its attributes in alphabetical order, wrapped as MuJoCo wraps them; or,
/// with `html`, as MuJoCo's HTML table (`pad`: nesting as CSS padding instead of `&nbsp;`).
pub fn print_schema(html: bool, pad: bool) -> String {
    let mut out = String::new();
    if html {
        out.push_str("<table border=\"1\">\n");
    }
    print_element(&mut out, schema(), 0, html, pad);
    if html {
        out.push_str("</table>\n");
    }
    out
}

/// `s` and its children, depth first, as text or HTML rows.
fn print_element(out: &mut String, s: &Schema, level: usize, html: bool, pad: bool) {
    // the body schema also stands for worldbody
    let name = if s.name == "body" {
        "(world)body"
    } else {
        &s.name
    };
    let kind = char::from(s.kind);
    if html {
        html_row(out, level, name, kind, &s.attrs, pad);
    } else {
        text_row(out, level, name, kind, &s.attrs);
    }
    for child in &s.children {
        print_element(out, child, level + 1, html, pad);
    }
}

/// One element as text: name and kind in a 30-column field, then attributes, a new line
/// (indented to the field) once a line passes 60 columns.
fn text_row(out: &mut String, level: usize, name: &str, kind: char, attrs: &[String]) {
    let indent = 3 * level;
    out.extend(core::iter::repeat_n(' ', indent));
    out.push_str(&format!("{name} ({kind})"));
    let base = indent + name.len() + 4;
    out.extend(core::iter::repeat_n(' ', 30usize.saturating_sub(base)));
    let mut col = base.max(30);
    for a in attrs {
        if col > 60 {
            col = base.max(30);
            out.push('\n');
            out.extend(core::iter::repeat_n(' ', col));
        }
        out.push_str(a);
        out.push(' ');
        col += a.len() + 1;
    }
    out.push('\n');
}

/// One element as a row of MuJoCo's HTML schema table.
fn html_row(out: &mut String, level: usize, name: &str, kind: char, attrs: &[String], pad: bool) {
    if pad {
        let left = 5 + 15 * level;
        out.push_str(&format!(
            "<tr>\n\t<td style=\"padding-left:{left}\" bgcolor=\"#EEEEEE\" class=\"el\">{name}</td>\n"
        ));
    } else {
        out.push_str("<tr>\n\t<td bgcolor=\"#EEEEEE\" class=\"el\">");
        out.push_str(&"&nbsp;".repeat(4 * level));
        out.push_str(name);
        out.push_str("</td>\n");
    }
    out.push_str(&format!(
        "\t<td class=\"ty\">{kind}</td>\n\t<td class=\"at\">"
    ));
    if attrs.is_empty() {
        out.push_str("<span style=\"color:black\"><i>no attributes</i></span>");
    }
    for a in attrs {
        out.push_str(a);
        out.push(' ');
    }
    out.push_str("</td>\n</tr>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn elem(name: &str, attrs: &[(&str, &str)], children: Vec<Elem>) -> Elem {
        Elem {
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            children,
            line: 1,
            file: Rc::from("m.xml"),
            include_dir: Rc::from(""),
        }
    }

    #[test]
    fn table_shape() {
        let s = schema();
        assert_eq!(s.name, "mujoco");
        let body = s.children.iter().find(|c| c.name == "body").unwrap();
        assert_eq!(body.kind, b'R');
        assert!(body.has_attr("gravcomp"));
        let sensor = s.children.iter().find(|c| c.name == "sensor").unwrap();
        assert_eq!(sensor.children.len(), 43);
    }

    #[test]
    fn violations() {
        let ok = elem(
            "mujoco",
            &[],
            vec![elem(
                "worldbody",
                &[],
                vec![elem("geom", &[("size", "1")], vec![])],
            )],
        );
        assert!(validate(&ok).is_ok());
        let bad_attr = elem(
            "mujoco",
            &[],
            vec![elem("option", &[("timestpe", "1")], vec![])],
        );
        assert!(validate(&bad_attr)
            .unwrap_err()
            .to_string()
            .contains("unrecognized attribute: 'timestpe'"));
        let bad_elem = elem(
            "mujoco",
            &[],
            vec![elem("worldbody", &[], vec![elem("gem", &[], vec![])])],
        );
        assert!(validate(&bad_elem)
            .unwrap_err()
            .to_string()
            .contains("unrecognized element"));
        let twice = elem(
            "mujoco",
            &[],
            vec![elem(
                "option",
                &[],
                vec![elem("flag", &[], vec![]), elem("flag", &[], vec![])],
            )],
        );
        assert!(validate(&twice)
            .unwrap_err()
            .to_string()
            .contains("unique element 'flag' found 2 times"));
        // frames are not checked below the body level, as in MuJoCo
        let frame = elem(
            "mujoco",
            &[],
            vec![elem(
                "worldbody",
                &[],
                vec![elem(
                    "frame",
                    &[],
                    vec![elem("geom", &[("bogus", "1")], vec![])],
                )],
            )],
        );
        assert!(validate(&frame).is_ok());
    }
}
