//! Custom data (numeric, text, tuple), names and asset paths.

use super::{err, err_size, ids, index, object_count, rule, spans, Adr, Check, Problem};
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    numeric_and_text(m)?;
    tuples(m)?;
    names(m)?;
    paths(m)
}

fn numeric_and_text(m: &Model) -> Check {
    spans(
        ("numeric_adr", "numeric_size"),
        &m.numeric_adr,
        &m.numeric_size,
        m.nnumericdata,
        Adr::Always,
    )?;
    for t in 0..m.ntext {
        let range = super::span(
            ("text_adr", "text_size"),
            t,
            m.text_adr[t],
            i64::from(m.text_size[t]),
            m.ntextdata,
            Adr::Always,
        )?;
        let terminated = range.end > range.start && m.text_data[range.end - 1] == 0;
        rule(
            terminated,
            "text_size",
            t,
            "a text must end with a NUL byte",
        )?;
    }
    Ok(())
}

/// Every tuple element names an existing object.
fn tuples(m: &Model) -> Check {
    for t in 0..m.ntuple {
        let range = super::span(
            ("tuple_adr", "tuple_size"),
            t,
            m.tuple_adr[t],
            i64::from(m.tuple_size[t]),
            m.ntupledata,
            Adr::Always,
        )?;
        for k in range {
            let ty = m.tuple_objtype[k];
            let n = object_count(m, ty).ok_or(err(
                "tuple_objtype",
                k,
                Problem::BadEnum(i64::from(ty)),
            ))?;
            index("tuple_objid", k, m.tuple_objid[k], n)?;
        }
    }
    Ok(())
}

/// Name addresses inside `names`, which ends with NUL; the name hash map holds, per object
/// type, -1 or ids of objects of that type.
fn names(m: &Model) -> Check {
    let adrs: [(&'static str, &[i32]); 23] = [
        ("name_bodyadr", &m.name_bodyadr),
        ("name_jntadr", &m.name_jntadr),
        ("name_geomadr", &m.name_geomadr),
        ("name_siteadr", &m.name_siteadr),
        ("name_camadr", &m.name_camadr),
        ("name_lightadr", &m.name_lightadr),
        ("name_flexadr", &m.name_flexadr),
        ("name_meshadr", &m.name_meshadr),
        ("name_skinadr", &m.name_skinadr),
        ("name_hfieldadr", &m.name_hfieldadr),
        ("name_texadr", &m.name_texadr),
        ("name_matadr", &m.name_matadr),
        ("name_pairadr", &m.name_pairadr),
        ("name_excludeadr", &m.name_excludeadr),
        ("name_eqadr", &m.name_eqadr),
        ("name_tendonadr", &m.name_tendonadr),
        ("name_actuatoradr", &m.name_actuatoradr),
        ("name_sensoradr", &m.name_sensoradr),
        ("name_numericadr", &m.name_numericadr),
        ("name_textadr", &m.name_textadr),
        ("name_tupleadr", &m.name_tupleadr),
        ("name_keyadr", &m.name_keyadr),
        ("name_pluginadr", &m.name_pluginadr),
    ];
    for (field, a) in adrs {
        ids(field, a, m.nnames, false)?;
    }
    if m.nnames > 0 && m.names[m.nnames - 1] != 0 {
        return Err(err(
            "names",
            m.nnames - 1,
            Problem::Rule("must end with a NUL byte"),
        ));
    }
    // the map has one segment of 2 * count entries per object type, in the order above
    let mut start = 0;
    for (_, a) in adrs {
        let n = a.len();
        let segment = start..start + 2 * n;
        for k in segment.clone() {
            let v = m.names_map[k];
            if v != -1 && !(0..n as i64).contains(&i64::from(v)) {
                return Err(err(
                    "names_map",
                    k,
                    Problem::OutOfRange {
                        found: i64::from(v),
                        min: -1,
                        end: n as i64,
                    },
                ));
            }
        }
        start = segment.end;
    }
    Ok(())
}

/// Asset paths end with NUL (the `*_pathadr` fields are checked with their assets).
fn paths(m: &Model) -> Check {
    if m.npaths > 0 && m.paths[m.npaths - 1] != 0 {
        return Err(err_size("paths", Problem::Rule("must end with a NUL byte")));
    }
    Ok(())
}
