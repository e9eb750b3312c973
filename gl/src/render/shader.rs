//! The one shader program: OpenGL's fixed-function pipeline as MuJoCo configures it, written
//! out in GLSL so that it runs on core-profile contexts. Lighting is per vertex (Gouraud) with
//! the fixed-function equation (OpenGL 2.1 specification, section 2.14.1: emission, global
//! ambient, and per light ambient, diffuse and Blinn-Phong specular with attenuation and spot
//! cones, local viewer, colour material for ambient and diffuse); the fragment stage modulates
//! by a 2D or cube texture and by the shadow map, applies linear fog on eye depth, and the
//! alpha test. Texture coordinates are generated from object-space planes (`GL_OBJECT_LINEAR`)
//! like `glTexGen`, so the same texture placement comes out.

use crate::sys::types::GLint;
use crate::sys::Gl;

/// Lights OpenGL's fixed function has (`GL_MAX_LIGHTS`); MuJoCo's further lights are unlit.
pub const MAXLIGHT: usize = 8;

/// Vertex attribute locations.
pub const ATTR_POS: u32 = 0;
/// Normal.
pub const ATTR_NORMAL: u32 = 1;
/// Explicit texture coordinate.
pub const ATTR_TEX: u32 = 2;
/// Per-vertex colour.
pub const ATTR_COLOR: u32 = 3;
/// Hidden-edge flag (see `shapes::Vertex::edge`).
pub const ATTR_EDGE: u32 = 4;

/// How texture coordinates are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexMode {
    /// No texture.
    None = 0,
    /// 2D texture at the vertices' texture coordinates.
    Coord = 1,
    /// 2D texture, s and t from object-space planes.
    Plane = 2,
    /// Cube texture, direction (s, t, r) from object-space planes.
    Cube = 3,
}

const VERTEX: &str = r#"#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_tex;
layout(location = 3) in vec4 a_color;
layout(location = 4) in float a_edge;

uniform mat4 u_proj;
uniform mat4 u_view;
uniform mat4 u_model;
uniform mat3 u_normalmat;
uniform bool u_vertexcolor;
uniform vec4 u_color;
uniform bool u_lighting;
uniform vec3 u_emission;
uniform vec3 u_specular;
uniform float u_shininess;
uniform vec3 u_ambient;
uniform bool u_lighton[8];
uniform vec4 u_lightpos[8];
uniform vec3 u_spotdir[8];
uniform vec3 u_lightamb[8];
uniform vec3 u_lightdif[8];
uniform vec3 u_lightspec[8];
uniform vec3 u_atten[8];
uniform float u_spotexp[8];
uniform float u_spotcos[8];
uniform int u_texmode;
uniform vec4 u_tplane[3];
uniform bool u_shadow;
uniform mat4 u_shadowmat;
uniform vec4 u_clip;

out vec4 v_color;
out vec3 v_tex;
out vec4 v_shadow;
out float v_fogz;
out float v_edge;

vec4 lit(vec3 eye, vec3 n, vec4 color) {
    vec3 c = u_emission + color.rgb * u_ambient;
    vec3 toeye = -normalize(eye);
    for (int i = 0; i < 8; i++) {
        if (!u_lighton[i]) continue;
        vec3 l;
        float att = 1.0;
        if (u_lightpos[i].w != 0.0) {
            vec3 d = u_lightpos[i].xyz - eye;
            float dist = length(d);
            l = d / dist;
            att = 1.0 / (u_atten[i].x + u_atten[i].y * dist + u_atten[i].z * dist * dist);
        } else {
            l = normalize(u_lightpos[i].xyz);
        }
        if (u_spotcos[i] > -1.5) {
            float s = max(dot(-l, normalize(u_spotdir[i])), 0.0);
            att *= s >= u_spotcos[i] ? pow(s, u_spotexp[i]) : 0.0;
        }
        float ndotl = dot(n, l);
        vec3 term = color.rgb * u_lightamb[i] + max(ndotl, 0.0) * color.rgb * u_lightdif[i];
        if (ndotl > 0.0) {
            float ndoth = max(dot(n, normalize(l + toeye)), 0.0);
            float spec = u_shininess == 0.0 ? 1.0 : pow(ndoth, u_shininess);
            term += spec * u_specular * u_lightspec[i];
        }
        c += att * term;
    }
    return clamp(vec4(c, color.a), 0.0, 1.0);
}

void main() {
    vec4 obj = vec4(a_pos, 1.0);
    vec4 world = u_model * obj;
    vec4 eye = u_view * world;
    gl_Position = u_proj * eye;
    gl_ClipDistance[0] = dot(u_clip, world);
    vec4 color = u_vertexcolor ? a_color : u_color;
    v_color = u_lighting ? lit(eye.xyz, normalize(u_normalmat * a_normal), color) : color;
    if (u_texmode == 1) {
        v_tex = vec3(a_tex, 0.0);
    } else {
        v_tex = vec3(dot(u_tplane[0], obj), dot(u_tplane[1], obj), dot(u_tplane[2], obj));
    }
    v_shadow = u_shadow ? u_shadowmat * world : vec4(0.0);
    v_fogz = abs(eye.z);
    v_edge = a_edge;
}
"#;

const FRAGMENT: &str = r#"#version 330 core
in vec4 v_color;
in vec3 v_tex;
in vec4 v_shadow;
in float v_fogz;
in float v_edge;

uniform bool u_wireframe;
uniform int u_texmode;
uniform sampler2D u_tex2d;
uniform samplerCube u_texcube;
uniform bool u_shadow;
uniform sampler2DShadow u_shadowtex;
uniform bool u_alphatest;
uniform bool u_fog;
uniform vec2 u_fogrange;
uniform vec4 u_fogcolor;

out vec4 o_color;

void main() {
    if (u_wireframe && v_edge <= 0.0) {
        discard;
    }
    vec4 c = v_color;
    if (u_texmode == 1 || u_texmode == 2) {
        c *= texture(u_tex2d, v_tex.xy);
    } else if (u_texmode == 3) {
        c *= texture(u_texcube, v_tex);
    }
    if (u_shadow) {
        c *= textureProj(u_shadowtex, v_shadow);
    }
    if (u_fog) {
        float f = clamp((u_fogrange.y - v_fogz) / (u_fogrange.y - u_fogrange.x), 0.0, 1.0);
        c.rgb = mix(u_fogcolor.rgb, c.rgb, f);
    }
    if (u_alphatest && c.a < 0.99) {
        discard;
    }
    o_color = c;
}
"#;

/// Uniform locations of the program.
#[allow(missing_docs)]
pub struct Program {
    pub id: u32,
    pub proj: GLint,
    pub view: GLint,
    pub model: GLint,
    pub normalmat: GLint,
    pub vertexcolor: GLint,
    pub color: GLint,
    pub lighting: GLint,
    pub emission: GLint,
    pub specular: GLint,
    pub shininess: GLint,
    pub ambient: GLint,
    pub lighton: GLint,
    pub lightpos: GLint,
    pub spotdir: GLint,
    pub lightamb: GLint,
    pub lightdif: GLint,
    pub lightspec: GLint,
    pub atten: GLint,
    pub spotexp: GLint,
    pub spotcos: GLint,
    pub texmode: GLint,
    pub tplane: GLint,
    pub shadow: GLint,
    pub shadowmat: GLint,
    pub clip: GLint,
    pub tex2d: GLint,
    pub texcube: GLint,
    pub shadowtex: GLint,
    pub alphatest: GLint,
    pub fog: GLint,
    pub fogrange: GLint,
    pub fogcolor: GLint,
    pub wireframe: GLint,
}

/// Texture units: 2D textures, the shadow map, cube textures.
pub const UNIT_2D: u32 = 0;
/// Shadow map unit.
pub const UNIT_SHADOW: u32 = 1;
/// Cube map unit.
pub const UNIT_CUBE: u32 = 2;

impl Program {
    /// Compile and link, look up every uniform, bind the samplers to their units.
    pub fn new(gl: &Gl) -> Result<Program, String> {
        let id = gl
            .program(VERTEX, FRAGMENT)
            .map_err(|e| format!("shader: {e}"))?;
        let u = |name: &str| gl.uniform_location(id, name);
        let p = Program {
            id,
            proj: u("u_proj"),
            view: u("u_view"),
            model: u("u_model"),
            normalmat: u("u_normalmat"),
            vertexcolor: u("u_vertexcolor"),
            color: u("u_color"),
            lighting: u("u_lighting"),
            emission: u("u_emission"),
            specular: u("u_specular"),
            shininess: u("u_shininess"),
            ambient: u("u_ambient"),
            lighton: u("u_lighton"),
            lightpos: u("u_lightpos"),
            spotdir: u("u_spotdir"),
            lightamb: u("u_lightamb"),
            lightdif: u("u_lightdif"),
            lightspec: u("u_lightspec"),
            atten: u("u_atten"),
            spotexp: u("u_spotexp"),
            spotcos: u("u_spotcos"),
            texmode: u("u_texmode"),
            tplane: u("u_tplane"),
            shadow: u("u_shadow"),
            shadowmat: u("u_shadowmat"),
            clip: u("u_clip"),
            tex2d: u("u_tex2d"),
            texcube: u("u_texcube"),
            shadowtex: u("u_shadowtex"),
            alphatest: u("u_alphatest"),
            fog: u("u_fog"),
            fogrange: u("u_fogrange"),
            fogcolor: u("u_fogcolor"),
            wireframe: u("u_wireframe"),
        };
        gl.use_program(id);
        gl.uniform_i(p.tex2d, UNIT_2D as i32);
        gl.uniform_i(p.shadowtex, UNIT_SHADOW as i32);
        gl.uniform_i(p.texcube, UNIT_CUBE as i32);
        Ok(p)
    }
}

const PIXELS_VERTEX: &str = r#"#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 2) in vec2 a_tex;
out vec2 v_tex;
void main() {
    v_tex = a_tex;
    gl_Position = vec4(2.0 * a_pos.xy - 1.0, 0.0, 1.0);
}
"#;

const PIXELS_FRAGMENT: &str = r#"#version 330 core
in vec2 v_tex;
uniform sampler2D u_rgb;
uniform sampler2D u_depth;
uniform bool u_hasdepth;
out vec4 o_color;
void main() {
    o_color = vec4(texture(u_rgb, v_tex).rgb, 1.0);
    gl_FragDepth = u_hasdepth ? texture(u_depth, v_tex).r : gl_FragCoord.z;
}
"#;

/// The program that copies client pixels into the framebuffer (`mjr_drawPixels`): a quad over
/// the viewport, colour from one texture and depth from another.
pub struct PixelProgram {
    /// Program name.
    pub id: u32,
    /// Whether a depth texture is bound.
    pub hasdepth: GLint,
}

impl PixelProgram {
    /// Compile and link, bind the samplers (colour on unit 0, depth on unit 1).
    pub fn new(gl: &Gl) -> Result<PixelProgram, String> {
        let id = gl
            .program(PIXELS_VERTEX, PIXELS_FRAGMENT)
            .map_err(|e| format!("shader: {e}"))?;
        gl.use_program(id);
        gl.uniform_i(gl.uniform_location(id, "u_rgb"), 0);
        gl.uniform_i(gl.uniform_location(id, "u_depth"), 1);
        Ok(PixelProgram {
            id,
            hasdepth: gl.uniform_location(id, "u_hasdepth"),
        })
    }
}
