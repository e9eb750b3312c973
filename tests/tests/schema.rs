//! `mj_printSchema`: the MJCF schema printed by mjrs-xml is MuJoCo 3.1.6's, as text and as both
//! HTML tables (`fixtures/generate-schema.py`). The same table validates every model read, so
//! this also checks that it names MuJoCo's elements, multiplicities and attributes.

use mjrs_tests::fixtures;

fn reference(name: &str) -> String {
    std::fs::read_to_string(fixtures().join("misc").join(name)).unwrap()
}

/// The first differing line, for a readable failure.
fn first_difference(ours: &str, theirs: &str) -> Option<(usize, String, String)> {
    let (mut a, mut b) = (ours.lines(), theirs.lines());
    for i in 0.. {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (x, y) if x != y => {
                let s = |l: Option<&str>| l.unwrap_or("<end>").to_string();
                return Some((i + 1, s(x), s(y)));
            }
            _ => {}
        }
    }
    None
}

#[test]
fn print_schema_is_mujocos() {
    for (file, html, pad) in [
        ("schema.txt", false, false),
        ("schema.html", true, false),
        ("schema.pad.html", true, true),
    ] {
        let ours = mjrs_xml::print_schema(html, pad);
        let theirs = reference(file);
        assert_eq!(first_difference(&ours, &theirs), None, "{file}");
        assert_eq!(ours, theirs, "{file}");
    }
}
