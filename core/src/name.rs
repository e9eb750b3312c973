//! Object names (`mj_name2id`, `mj_id2name`).
//!
//! Names live in `m.names` (NUL-terminated, at `name_*adr[id]`). For each object type the
//! compiler also builds an open-addressing hash table in `m.names_map`: `LOAD_MULTIPLE` slots
//! per object, the types one after another in `mjtObj` order, each slot holding an object id or
//! -1. A lookup hashes the name (djb2-xor), then probes forward until it finds the name or an
//! empty slot, as MuJoCo does, so a model from MuJoCo's MJB answers as MuJoCo answers.

use crate::model::Model;
use crate::types::*;

/// Slots per object in `names_map` (MuJoCo's `mjLOAD_MULTIPLE`).
pub const LOAD_MULTIPLE: usize = 2;

/// `mj_hashString`: djb2 with xor, over the bytes up to the first NUL, modulo `n`.
///
/// MuJoCo reads the bytes as C `char`, which is signed on the platforms it ships for, so a
/// byte of 0x80 or more enters the hash sign-extended; names with UTF-8 letters hash as there.
/// `n` must not be 0.
pub fn hash_string(s: &[u8], n: u64) -> u64 {
    let mut h: u64 = 5381;
    for &c in s.iter().take_while(|&&c| c != 0) {
        h = (h << 5).wrapping_add(h) ^ (i64::from(c as i8) as u64);
    }
    h % n
}

/// The name addresses of object type `ty` and where its table starts in `names_map`
/// (`_getnumadr`); `None` for types without names (`OBJ_DOF`, `OBJ_UNKNOWN`, `OBJ_FRAME`...).
fn name_table<'m>(m: &'m Model, ty: i32) -> Option<(&'m [i32], usize)> {
    let lists: [(i32, &'m [i32]); 23] = [
        (OBJ_BODY, &m.name_bodyadr),
        (OBJ_JOINT, &m.name_jntadr),
        (OBJ_GEOM, &m.name_geomadr),
        (OBJ_SITE, &m.name_siteadr),
        (OBJ_CAMERA, &m.name_camadr),
        (OBJ_LIGHT, &m.name_lightadr),
        (OBJ_FLEX, &m.name_flexadr),
        (OBJ_MESH, &m.name_meshadr),
        (OBJ_SKIN, &m.name_skinadr),
        (OBJ_HFIELD, &m.name_hfieldadr),
        (OBJ_TEXTURE, &m.name_texadr),
        (OBJ_MATERIAL, &m.name_matadr),
        (OBJ_PAIR, &m.name_pairadr),
        (OBJ_EXCLUDE, &m.name_excludeadr),
        (OBJ_EQUALITY, &m.name_eqadr),
        (OBJ_TENDON, &m.name_tendonadr),
        (OBJ_ACTUATOR, &m.name_actuatoradr),
        (OBJ_SENSOR, &m.name_sensoradr),
        (OBJ_NUMERIC, &m.name_numericadr),
        (OBJ_TEXT, &m.name_textadr),
        (OBJ_TUPLE, &m.name_tupleadr),
        (OBJ_KEY, &m.name_keyadr),
        (OBJ_PLUGIN, &m.name_pluginadr),
    ];
    let ty = if ty == OBJ_XBODY { OBJ_BODY } else { ty };
    let mut map_adr = 0;
    for (t, adr) in lists {
        if t == ty {
            return Some((adr, map_adr));
        }
        map_adr += LOAD_MULTIPLE * adr.len();
    }
    None
}

/// The NUL-terminated name at byte `adr` of `m.names`, without the NUL; `None` when `adr` is
/// outside the array.
fn name_bytes<'m>(m: &'m Model, adr: i32) -> Option<&'m [u8]> {
    let bytes = m.names.get(usize::try_from(adr).ok()?..)?;
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    Some(&bytes[..end])
}

/// `mj_name2id`: the id of the object of type `ty` (an `OBJ_*` constant) called `name`, or
/// `None`. Like MuJoCo, the name ends at its first NUL, and unnamed objects are never found.
pub fn name2id(m: &Model, ty: i32, name: &str) -> Option<usize> {
    let (adr, map_adr) = name_table(m, ty)?;
    let slots = LOAD_MULTIPLE * adr.len();
    if slots == 0 {
        return None;
    }
    let name = name.as_bytes();
    let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
    let map = m.names_map.get(map_adr..map_adr + slots)?;
    let start = hash_string(name, slots as u64) as usize;
    for i in (start..slots).chain(0..start) {
        // a negative slot ends the probe; an id past the list (a damaged map) matches nothing
        let j = usize::try_from(map[i]).ok()?;
        let found = adr.get(j).and_then(|&a| name_bytes(m, a));
        if found == Some(name) {
            return Some(j);
        }
    }
    None
}

/// `mj_id2name`: the name of object `id` of type `ty`, or `None` when the id is out of range
/// or the object has no name. A name that is not UTF-8 (possible only in a hand-made MJB) is
/// `None` too; its bytes stay readable through `m.names`.
pub fn id2name<'m>(m: &'m Model, ty: i32, id: usize) -> Option<&'m str> {
    let (adr, _) = name_table(m, ty)?;
    let bytes = name_bytes(m, *adr.get(id)?)?;
    if bytes.is_empty() {
        return None;
    }
    core::str::from_utf8(bytes).ok()
}

/// The object types with a name in MJCF and their names (`mju_type2Str`, `mju_str2Type`).
const TYPE_NAMES: [(i32, &str); 25] = [
    (OBJ_BODY, "body"),
    (OBJ_XBODY, "xbody"),
    (OBJ_JOINT, "joint"),
    (OBJ_DOF, "dof"),
    (OBJ_GEOM, "geom"),
    (OBJ_SITE, "site"),
    (OBJ_CAMERA, "camera"),
    (OBJ_LIGHT, "light"),
    (OBJ_FLEX, "flex"),
    (OBJ_MESH, "mesh"),
    (OBJ_SKIN, "skin"),
    (OBJ_HFIELD, "hfield"),
    (OBJ_TEXTURE, "texture"),
    (OBJ_MATERIAL, "material"),
    (OBJ_PAIR, "pair"),
    (OBJ_EXCLUDE, "exclude"),
    (OBJ_EQUALITY, "equality"),
    (OBJ_TENDON, "tendon"),
    (OBJ_ACTUATOR, "actuator"),
    (OBJ_SENSOR, "sensor"),
    (OBJ_NUMERIC, "numeric"),
    (OBJ_TEXT, "text"),
    (OBJ_TUPLE, "tuple"),
    (OBJ_KEY, "key"),
    (OBJ_PLUGIN, "plugin"),
];

/// `mju_type2Str`: the name of object type `ty` (an `OBJ_*` constant), as MJCF writes it;
/// `None` for `OBJ_UNKNOWN` and values that are no type. `OBJ_FRAME` is `"frame"`.
pub fn type2str(ty: i32) -> Option<&'static str> {
    if ty == OBJ_FRAME {
        return Some("frame");
    }
    TYPE_NAMES.iter().find(|(t, _)| *t == ty).map(|(_, s)| *s)
}

/// `mju_str2Type`: the object type called `name` (`OBJ_UNKNOWN` for any other string; as in
/// MuJoCo, `"frame"` is not read back).
pub fn str2type(name: &str) -> i32 {
    TYPE_NAMES
        .iter()
        .find(|(_, s)| *s == name)
        .map_or(OBJ_UNKNOWN, |(t, _)| *t)
}
