//! The table of MuJoCo's functions (`docs/functions.md`) covers MuJoCo 3.1.6's function list
//! (`docs/mujoco-functions.txt`): one row per function, in the list's order and section, each
//! naming its mjrs counterpart or saying why there is none. `cargo doc` (in `.ci/run`) checks
//! that every named counterpart exists: the page is the documentation of `mjrs::functions`, and
//! its links are intra-doc links.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (section, name) of every function of MuJoCo's list.
fn mujoco_list() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join("docs/mujoco-functions.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (section, name) = l.split_once('\t').expect("SECTION<TAB>NAME");
            (section.to_string(), name.to_string())
        })
        .collect()
}

/// A row of the table: section, MuJoCo's name, the mjrs cell.
#[derive(Clone)]
struct Row {
    section: String,
    name: String,
    mjrs: String,
}

fn table(md: &str) -> Vec<Row> {
    md.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Section") && !l.starts_with("| ---"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 3, "a row has three cells: {l}");
            Row {
                section: cells[0].to_string(),
                name: cells[1].trim_matches('`').to_string(),
                mjrs: cells[2].to_string(),
            }
        })
        .collect()
}

/// The Rust paths a cell links to (`[`path`]` or `[`path()`]`).
fn links(cell: &str) -> Vec<String> {
    cell.split("[`")
        .skip(1)
        .filter_map(|s| s.split_once("`]"))
        .map(|(path, _)| path.trim_end_matches("()").to_string())
        .collect()
}

/// The source folder of a crate of the workspace, by its Rust name.
fn crate_dir(krate: &str) -> Option<PathBuf> {
    let dir = match krate {
        "mjrs_core" => "core/src",
        "mjrs_alloc" => "alloc-front/src",
        "mjrs_std" => "std-front/src",
        "mjrs_xml" => "xml/src",
        "mjrs_gl" => "gl/src",
        "mjrs" => "src",
        _ => return None,
    };
    Some(repo().join(dir))
}

fn sources(dir: &Path, out: &mut String) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
}

/// Whether `word` stands in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        let before = text[..i].chars().next_back().is_none_or(|c| !ident(c));
        let after = text[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

fn check(list: &[(String, String)], rows: &[Row]) -> Vec<String> {
    let mut problems = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < list.len() || j < rows.len() {
        match (list.get(i), rows.get(j)) {
            (Some((section, name)), Some(row)) if *name == row.name => {
                if *section != row.section {
                    problems.push(format!(
                        "{name}: section {:?}, not {section:?}",
                        row.section
                    ));
                }
                if links(&row.mjrs).is_empty() && row.mjrs.len() < 20 {
                    problems.push(format!("{name}: neither a counterpart nor why not"));
                }
                i += 1;
                j += 1;
            }
            (Some((_, name)), _) if !rows[j..].iter().any(|r| r.name == *name) => {
                problems.push(format!("{name}: no row"));
                i += 1;
            }
            (_, Some(row)) => {
                problems.push(format!("{}: a row out of the list's order", row.name));
                j += 1;
            }
            (Some(_), None) => unreachable!("a name missing from the rows is reported above"),
            (None, None) => unreachable!(),
        }
    }
    problems
}

#[test]
fn every_function_of_mujocos_list_has_a_row() {
    let list = mujoco_list();
    assert!(
        list.len() > 300,
        "MuJoCo 3.1.6 lists 351 functions, read {}",
        list.len()
    );
    let md = std::fs::read_to_string(repo().join("docs/functions.md")).unwrap();
    let rows = table(&md);
    let problems = check(&list, &rows);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let linked = rows.iter().filter(|r| !links(&r.mjrs).is_empty()).count();
    println!(
        "{} functions, {linked} with a counterpart named",
        rows.len()
    );
}

/// A cheap stand-in for `cargo doc`'s link check: the last name of every linked path is an
/// identifier of the crate it names.
#[test]
fn linked_counterparts_name_items_of_their_crates() {
    let md = std::fs::read_to_string(repo().join("docs/functions.md")).unwrap();
    let mut text = std::collections::HashMap::new();
    let mut missing = Vec::new();
    for row in table(&md) {
        for path in links(&row.mjrs) {
            let krate = path.split("::").next().unwrap().to_string();
            let item = path.rsplit("::").next().unwrap();
            let Some(dir) = crate_dir(&krate) else {
                missing.push(format!(
                    "{}: {path}: not a crate of the workspace",
                    row.name
                ));
                continue;
            };
            let src = text.entry(krate).or_insert_with(|| {
                let mut s = String::new();
                sources(&dir, &mut s);
                s
            });
            if !has_word(src, item) {
                missing.push(format!(
                    "{}: {path}: no `{item}` in {}",
                    row.name,
                    dir.display()
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The check itself finds a missing row, a row without an explanation and a misplaced row.
#[test]
fn the_check_finds_gaps() {
    let list: Vec<(String, String)> = ["mj_a", "mj_b", "mj_c"]
        .iter()
        .map(|n| ("S".to_string(), n.to_string()))
        .collect();
    let row = |name: &str, mjrs: &str| Row {
        section: "S".into(),
        name: name.into(),
        mjrs: mjrs.into(),
    };
    let good = [
        row("mj_a", "[`mjrs_core::a`]"),
        row("mj_b", "none needed: a reason long enough"),
        row("mj_c", "[`mjrs_core::c()`]"),
    ];
    assert!(check(&list, &good).is_empty());
    let gaps = [row("mj_a", "[`mjrs_core::a`]"), row("mj_c", "?")];
    let p = check(&list, &gaps);
    assert_eq!(
        p,
        ["mj_b: no row", "mj_c: neither a counterpart nor why not"]
    );
    let swapped = [good[1].clone(), good[0].clone(), good[2].clone()];
    assert!(!check(&list, &swapped).is_empty());
}
