//! Deeply nested input: refused at TinyXML2's nesting limit with MuJoCo's message, never a
//! stack overflow, also when includes stack files on top of each other. These run on the test
//! harness's threads (2 MB stacks), smaller than a main thread's.

use mjrs_xml::{compile_str, load_xml, XmlError};

fn nested(open: &str, close: &str, n: usize, inner: &str) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

fn message(xml: &str) -> String {
    match compile_str(xml, "deep.xml", "", None) {
        Ok(_) => panic!("compiled"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn nesting_past_the_limit_is_refused_with_mujocos_message() {
    let bodies = nested("<body>", "</body>", 3000, "<geom size='1'/>");
    let xml = format!("<mujoco><worldbody>{bodies}</worldbody></mujoco>");
    let msg = message(&xml);
    assert!(
        msg.starts_with("XML parse error 18:\nError=XML_ELEMENT_DEPTH_EXCEEDED ErrorID=18 (0x12) Line number=1: Element nesting is too deep."),
        "{msg}"
    );
    for (open, close) in [
        ("<default>", "</default>"),
        ("<frame>", "</frame>"),
        ("<x>", "</x>"),
    ] {
        let deep = nested(open, close, 100_000, "");
        let msg = message(&format!("<mujoco><worldbody>{deep}</worldbody></mujoco>"));
        assert!(msg.contains("XML_ELEMENT_DEPTH_EXCEEDED"), "{msg}");
    }
    // unclosed tags only: still the depth limit, not a stack overflow
    assert!(message(&"<a>".repeat(1_000_000)).contains("XML_ELEMENT_DEPTH_EXCEEDED"));
}

#[test]
fn includes_nest_up_to_mjrs_limit() {
    let dir = std::env::temp_dir().join(format!("mjrs-nesting-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // the main file: mujoco, worldbody, 496 bodies, and the include at the deepest level
    let inc = |file: &str| format!("<include file='{file}'/>");
    let main = nested("<body>", "</body>", 496, &inc("part1.xml"));
    let main = format!("<mujoco><worldbody>{main}</worldbody></mujoco>");
    std::fs::write(dir.join("main.xml"), main).unwrap();
    // each part adds 497 levels (its root is not spliced in)
    let part = |inner: &str| {
        format!(
            "<mujoco>{}</mujoco>",
            nested("<body>", "</body>", 497, inner)
        )
    };
    std::fs::write(dir.join("part1.xml"), part("<geom size='1'/>")).unwrap();
    let mut c = load_xml(dir.join("main.xml"), None).unwrap();
    assert_eq!(c.model.view().nbody, 1 + 496 + 497);
    // a second part on top goes past 1000 levels: refused by name
    std::fs::write(dir.join("part1.xml"), part(&inc("part2.xml"))).unwrap();
    std::fs::write(dir.join("part2.xml"), part("<geom size='1'/>")).unwrap();
    let err = load_xml(dir.join("main.xml"), None).err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(err, Some(XmlError::Unsupported { .. })), "{err:?}");
}

/// Just under the limit, every kind of nesting MuJoCo reads compiles (or is refused by the
/// schema) on a 2 MB stack.
#[test]
fn nesting_just_under_the_limit_fits_a_small_stack() {
    let world = |inner: String| format!("<mujoco><worldbody>{inner}</worldbody></mujoco>");
    let bodies = nested("<body>", "</body>", 496, "<geom size='1'/>");
    let frames = nested("<frame>", "</frame>", 496, "<geom size='1'/>");
    let classes: String = (0..496)
        .map(|i| format!("<default class='c{i}'>"))
        .collect();
    let classes = format!("{classes}{}", "</default>".repeat(496));
    let defaults = format!("<mujoco><default>{classes}</default></mujoco>");
    for xml in [world(bodies), world(frames), defaults] {
        compile_str(&xml, "deep.xml", "", None).unwrap();
    }
    let unknown = nested("<x>", "</x>", 496, "");
    assert!(message(&world(unknown)).contains("unrecognized"));
}
