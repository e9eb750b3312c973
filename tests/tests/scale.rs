//! Models at the sizes where compiling used to be quadratic or to overflow the stack: many
//! sibling bodies compile in linear time (MuJoCo 3.1.6 compiles 100,000, and so does mjrs,
//! bit for bit alike); a `replicate` too large to finish is refused before it copies
//! anything; trees nested as deep as the XML parser allows compile on a 2 MiB thread stack,
//! the default of Rust's test threads.

use mjrs_core::name::name2id;
use mjrs_core::types::OBJ_BODY;

/// The stack of a Rust test thread, on which every deep model below must compile.
const TEST_STACK: usize = 2 << 20;

/// Nesting levels of the deep models: below the parser's limit (TinyXML2's depth of about 500
/// elements, less the `mujoco` and `worldbody` levels).
const DEPTH: usize = 490;

fn compile(xml: &str) -> Result<mjrs_alloc::OwnedModel, String> {
    mjrs_xml::compile_str(xml, "scale.xml", "", None)
        .map(|c| c.model)
        .map_err(|e| e.to_string())
}

/// `xml` compiled on a thread with a 2 MiB stack; returns the model's body count.
fn compile_on_small_stack(xml: String) -> Result<usize, String> {
    std::thread::Builder::new()
        .stack_size(TEST_STACK)
        .spawn(move || compile(&xml).map(|mut m| m.view().nbody))
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the compiling thread panicked".to_string())?
}

/// A model whose world holds `content`.
fn world(content: &str) -> String {
    format!("<mujoco><worldbody>{content}</worldbody></mujoco>")
}

/// 100,000 sibling bodies, each with a geom, every tenth with a hinge (a few
/// seconds and under 1 GB in a release build). MuJoCo 3.1.6 compiles this many bodies too:
/// its refusal of 65534 bodies counts them before it has listed them.
#[test]
fn hundred_thousand_sibling_bodies_compile() {
    let n = 100_000;
    let mut content = String::new();
    for i in 0..n {
        let joint = if i % 10 == 0 { "<joint/>" } else { "" };
        content += &format!(
            "<body name=\"b{i}\" pos=\"{} 0 0\">{joint}<geom size=\".1\"/></body>",
            0.3 * i as f64
        );
    }
    let mut owned = compile(&world(&content)).unwrap();
    let m = owned.view();
    assert_eq!(m.nbody, n + 1);
    assert_eq!(m.nv, n / 10);
    for i in [0, 1, 65_535, 65_536, n - 1] {
        assert_eq!(name2id(&m, OBJ_BODY, &format!("b{i}")), Some(i + 1));
        assert_eq!(m.body_parentid[i + 1], 0);
    }
}

/// MuJoCo 3.1.6 writes and loads models of more than 65534 bodies; so does mjrs.
#[test]
fn seventy_thousand_bodies_round_trip_through_mjb() {
    let n = 70_000;
    let content: String = (0..n)
        .map(|i| format!("<body name=\"b{i}\" pos=\"{} 0 0\"/>", 0.3 * i as f64))
        .collect();
    let mut owned = compile(&world(&content)).unwrap();
    let blob = owned.to_mjb(8).unwrap();
    let mut loaded = mjrs_alloc::OwnedModel::from_mjb(&blob).unwrap();
    let m = loaded.view();
    assert_eq!(m.nbody, n + 1);
    assert_eq!(name2id(&m, OBJ_BODY, &format!("b{}", n - 1)), Some(n));
}

#[test]
fn a_replicate_too_large_is_refused_before_copying() {
    let xml = world(
        "<replicate count=\"300000\" offset=\".3 0 0\"><body><joint/><geom size=\".1\"/></body>\
         </replicate>",
    );
    let start = std::time::Instant::now();
    let err = compile(&xml).unwrap_err();
    assert!(
        err.contains("replicate count=\"300000\" would make 1200000 copies of objects")
            && err.contains("more than the 262144 mjrs allows"),
        "{err}"
    );
    // refused up front, not after copying a quarter of a million objects
    assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
    let nested = world(
        "<replicate count=\"1000\"><replicate count=\"1000\"><geom size=\".1\"/></replicate>\
         </replicate>",
    );
    let err = compile(&nested).unwrap_err();
    assert!(err.contains("would make 2001000 copies"), "{err}");
}

/// With referencing elements, each replica re-resolves them against the whole model: a count
/// that would take hours is refused before it starts.
#[test]
fn a_replicate_that_would_re_resolve_too_long_is_refused() {
    let xml = "<mujoco><worldbody><body name=\"a\"><joint name=\"ja\"/><geom size=\".1\"/></body>\
               <replicate count=\"60000\" offset=\".3 0 0\"><body><joint/><geom size=\".1\"/></body>\
               </replicate></worldbody><actuator><motor joint=\"ja\"/></actuator></mujoco>";
    let err = compile(xml).unwrap_err();
    assert!(
        err.contains("replicate count=\"60000\" in a model with referencing elements")
            && err.contains("more than the 67108864 mjrs allows"),
        "{err}"
    );
}

#[test]
fn deep_bodies_compile_on_a_small_stack() {
    let open: String = (0..DEPTH)
        .map(|i| {
            format!(
                "<body name=\"b{i}\" pos=\"0 0 .1\"><joint axis=\"0 1 0\"/><geom size=\".05\"/>"
            )
        })
        .collect();
    let xml = world(&(open + &"</body>".repeat(DEPTH)));
    assert_eq!(compile_on_small_stack(xml), Ok(DEPTH + 1));
}

#[test]
fn deep_frames_compile_on_a_small_stack() {
    let content = "<frame pos=\"0 0 .1\">".repeat(DEPTH)
        + "<body><freejoint/><geom size=\".1\"/></body>"
        + &"</frame>".repeat(DEPTH);
    assert_eq!(compile_on_small_stack(world(&content)), Ok(2));
}

#[test]
fn deep_default_classes_compile_on_a_small_stack() {
    let classes: String = (0..DEPTH)
        .map(|i| {
            format!(
                "<default class=\"c{i}\"><geom size=\"{}\"/>",
                0.01 * (i + 1) as f64
            )
        })
        .collect();
    let last = DEPTH - 1;
    let xml = format!(
        "<mujoco><default>{classes}{}</default><worldbody><body childclass=\"c{last}\"><geom/>\
         </body><geom class=\"c{}\"/></worldbody></mujoco>",
        "</default>".repeat(DEPTH),
        DEPTH / 2
    );
    assert_eq!(compile_on_small_stack(xml), Ok(2));
}

#[test]
fn deep_replicates_compile_on_a_small_stack() {
    let content = "<replicate count=\"1\" offset=\"0 0 .1\">".repeat(DEPTH)
        + "<body><joint/><geom size=\".1\"/></body>"
        + &"</replicate>".repeat(DEPTH);
    assert_eq!(compile_on_small_stack(world(&content)), Ok(2));
}

#[test]
fn deep_bodies_in_a_replicate_compile_on_a_small_stack() {
    let depth = DEPTH - 1;
    let open: String = (0..depth)
        .map(|i| format!("<body name=\"b{i}\" pos=\"0 0 .1\"><joint/><geom size=\".05\"/>"))
        .collect();
    let content = format!(
        "<replicate count=\"2\" offset=\"1 0 0\">{open}{}</replicate>",
        "</body>".repeat(depth)
    );
    assert_eq!(compile_on_small_stack(world(&content)), Ok(2 * depth + 1));
}
