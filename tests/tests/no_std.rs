//! `mjrs-core` builds as `no_std` without `alloc` when its `std` feature (platform math) is off,
//! in both precisions. The workspace build enables `std` for the desktop crates, so this test
//! builds the core alone, as firmware does.

use std::process::Command;

fn build(package: &str) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--quiet", "--lib", "-p", package, "--target-dir"])
        .arg(root.join("target").join("no-std-check"))
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "{package} without std:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn core_builds_without_std() {
    build("mjrs-core");
    build("mjrs-core-f32");
}
