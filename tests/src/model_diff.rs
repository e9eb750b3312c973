//! Field-by-field comparison of two models in memory: every size, option, visual and statistic
//! value and every array of the layout table, exactly (reals by value, NaN equal to NaN).
//! Unlike the JSON dumps it covers the byte-string arrays (`names`, `paths`, `text_data`) and
//! `vis`, which `mjref model` leaves out.

use mjrs_core::layout::{ArrayVisitor, Elem, FieldInfo, Scalar};
use mjrs_core::Model;

/// Every value of a model by field name, in table order.
pub fn fields(m: &Model) -> Vec<(String, Vec<Scalar>)> {
    let mut out = Vec::new();
    m.sizes()
        .for_each(|name, v| out.push((name.to_string(), vec![Scalar::Int(v)])));
    m.opt
        .for_each(|name, _, v| out.push((format!("opt.{name}"), v.to_vec())));
    m.stat
        .for_each(|name, _, v| out.push((format!("stat.{name}"), v.to_vec())));
    let vis = &m.vis;
    vis.global
        .for_each(|name, _, v| out.push((format!("vis.global.{name}"), v.to_vec())));
    vis.quality
        .for_each(|name, _, v| out.push((format!("vis.quality.{name}"), v.to_vec())));
    vis.headlight
        .for_each(|name, _, v| out.push((format!("vis.headlight.{name}"), v.to_vec())));
    vis.map
        .for_each(|name, _, v| out.push((format!("vis.map.{name}"), v.to_vec())));
    vis.scale
        .for_each(|name, _, v| out.push((format!("vis.scale.{name}"), v.to_vec())));
    vis.rgba
        .for_each(|name, _, v| out.push((format!("vis.rgba.{name}"), v.to_vec())));
    struct Arrays<'o>(&'o mut Vec<(String, Vec<Scalar>)>);
    impl ArrayVisitor for Arrays<'_> {
        fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
            self.0.push((
                info.name.to_string(),
                data.iter().map(|&x| x.to_scalar()).collect(),
            ));
        }
    }
    m.visit(&mut Arrays(&mut out));
    out
}

/// One field that differs: its name, the index of the first difference (or the lengths), and
/// the largest relative difference of its real values.
#[derive(Clone, Debug)]
pub struct Difference {
    /// Field name.
    pub name: String,
    /// Description of the difference.
    pub what: String,
    /// Largest `|a - b| / max(|a|, |b|)` over real elements (infinite for integer fields).
    pub rel: f64,
}

fn same(a: Scalar, b: Scalar) -> bool {
    match (a, b) {
        (Scalar::Real(x), Scalar::Real(y)) => x == y || (x.is_nan() && y.is_nan()),
        (x, y) => x == y,
    }
}

/// The fields of `ours` that differ from `reference`, and the number of fields compared.
pub fn differences(reference: &Model, ours: &Model) -> (Vec<Difference>, usize) {
    let (r, o) = (fields(reference), fields(ours));
    let mut diffs = Vec::new();
    for ((name, a), (_, b)) in r.iter().zip(&o) {
        if a.len() != b.len() {
            diffs.push(Difference {
                name: name.clone(),
                what: format!("{} elements, MuJoCo {}", b.len(), a.len()),
                rel: f64::INFINITY,
            });
            continue;
        }
        let Some(first) = a.iter().zip(b).position(|(&x, &y)| !same(x, y)) else {
            continue;
        };
        let rel = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| match (x, y) {
                (Scalar::Real(x), Scalar::Real(y)) if !same(Scalar::Real(x), Scalar::Real(y)) => {
                    (x - y).abs() / x.abs().max(y.abs())
                }
                (x, y) if !same(x, y) => f64::INFINITY,
                _ => 0.0,
            })
            .fold(0.0, f64::max);
        diffs.push(Difference {
            name: name.clone(),
            what: format!("[{first}] {:?}, MuJoCo {:?}", b[first], a[first]),
            rel,
        });
    }
    (diffs, r.len())
}
