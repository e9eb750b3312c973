//! MuJoCo's UI framework (`mjrs_gl::ui`) against MuJoCo 3.1.6's own `mjui_*` functions
//! (fixtures of `tests/fixtures/generate-ui.sh`, a C program on libmujoco): the font metrics
//! of the context, the theme tables, the rectangles `mjui_resize` gives simulate's left and
//! right panels (humanoid.xml) at several spacings, font scales, sections open and closed, a
//! script of mouse, scroll and key events with the state and every value after each, and the
//! pixels `mjui_update` + `mjui_render` draw. Bad input: MuJoCo's errors as values, events
//! anywhere and on zero-sized rectangles without a panic.

use mjrs_gl::render::{FontMetrics, Rect};
use mjrs_gl::ui::{self, Button, Def, EventType, ItemType, State, Ui, Value};
use mjrs_tests::fixtures;
use serde_json::Value as Json;

fn load(name: &str) -> Json {
    let path = fixtures().join("ui").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn int(j: &Json) -> i32 {
    j.as_i64().unwrap() as i32
}

fn rect(j: &Json) -> Rect {
    let v: Vec<i32> = j.as_array().unwrap().iter().map(int).collect();
    Rect {
        left: v[0],
        bottom: v[1],
        width: v[2],
        height: v[3],
    }
}

/// The item value MuJoCo's data pointer held, as logged (null for items without data).
fn value_of(kind: ItemType, j: &Json) -> Option<Value> {
    let nums = || -> Vec<f64> {
        j.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    Some(match kind {
        ItemType::CheckByte => Value::Byte(j.as_u64()? as u8),
        ItemType::SliderNum => Value::Num(j.as_f64()?),
        ItemType::EditInt => {
            let mut a = [0; 7];
            nums()
                .iter()
                .enumerate()
                .for_each(|(i, &x)| a[i] = x as i32);
            Value::Ints(a)
        }
        ItemType::EditNum => {
            let mut a = [0.0; 7];
            a[..nums().len()].copy_from_slice(&nums());
            Value::Nums(a)
        }
        ItemType::EditFloat => {
            let mut a = [0.0f32; 7];
            nums()
                .iter()
                .enumerate()
                .for_each(|(i, &x)| a[i] = x as f32);
            Value::Floats(a)
        }
        ItemType::EditTxt => Value::Text(j.as_str()?.to_string()),
        k if k.has_data() => Value::Int(j.as_i64()? as i32),
        _ => return None,
    })
}

/// The definitions logged by the generator, with sections of `opened` set to `open`.
fn defs(panel: &Json, open: i32) -> Vec<Def> {
    let opened = [
        "Physics",
        "Rendering",
        "Visualization",
        "Group enable",
        "Joint",
        "Control",
    ];
    panel["defs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let t = int(&d["type"]);
            let name = d["name"].as_str().unwrap();
            let other = d["other"].as_str().unwrap();
            let state = int(&d["state"]);
            if t == -1 {
                let state = if opened.contains(&name) { open } else { state };
                return Def::section(name, state, other);
            }
            let kind = ItemType::from_code(t).unwrap();
            let value = value_of(kind, &d["value"]);
            Def::item(kind, name, state, value, other)
        })
        .collect()
}

fn make_ui(panel: &Json, spacing: i32, open: i32) -> Ui {
    let mut u = Ui::new(ui::theme_spacing(spacing), ui::theme_color(0));
    u.add(&defs(panel, open)).unwrap();
    u
}

#[test]
fn font_metrics_equal_mujocos_context() {
    let j = load("metrics.json");
    for f in j["fonts"].as_array().unwrap() {
        let scale = int(&f["scale"]);
        let m = FontMetrics::of_scale(scale).unwrap();
        assert_eq!(m.font_scale, scale);
        assert_eq!(m.char_height, int(&f["charHeight"]), "scale {scale}");
        assert_eq!(m.char_height_big, int(&f["charHeightBig"]), "scale {scale}");
        let w: Vec<i32> = f["charWidth"].as_array().unwrap().iter().map(int).collect();
        let wb: Vec<i32> = f["charWidthBig"]
            .as_array()
            .unwrap()
            .iter()
            .map(int)
            .collect();
        assert_eq!(&m.char_width[..127], &w[..], "scale {scale}");
        assert_eq!(&m.char_width_big[..127], &wb[..], "scale {scale}");
    }
    assert!(FontMetrics::of_scale(75).is_err());
}

#[test]
fn themes_are_mujocos_tables() {
    let j = load("metrics.json");
    for (k, s) in j["spacing"].as_array().unwrap().iter().enumerate() {
        let t = ui::theme_spacing(k as i32);
        let mine = [
            t.total,
            t.scroll,
            t.label,
            t.section,
            t.itemside,
            t.itemmid,
            t.itemver,
            t.texthor,
            t.textver,
            t.linescroll,
            t.samples,
        ];
        let theirs: Vec<i32> = s.as_array().unwrap().iter().map(int).collect();
        assert_eq!(&mine[..], &theirs[..], "spacing {k}");
    }
    assert_eq!(ui::theme_spacing(7), ui::theme_spacing(1));
    for (k, c) in j["color"].as_array().unwrap().iter().enumerate() {
        let mine: Vec<f32> = ui::theme_color(k as i32)
            .as_array()
            .iter()
            .flatten()
            .copied()
            .collect();
        let theirs: Vec<f32> = c
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect();
        assert_eq!(mine, theirs, "color {k}");
    }
    assert_eq!(ui::theme_color(-1), ui::theme_color(3));
    assert_eq!(ui::theme_color(9), ui::theme_color(3));
}

/// Every rectangle of `u` equals MuJoCo's layout `l`.
fn assert_layout(u: &Ui, l: &Json, what: &str) {
    assert_eq!(u.width, int(&l["width"]), "{what} width");
    assert_eq!(u.height, int(&l["height"]), "{what} height");
    assert_eq!(u.maxheight, int(&l["maxheight"]), "{what} maxheight");
    let sects = l["sect"].as_array().unwrap();
    assert_eq!(u.sect.len(), sects.len(), "{what} sections");
    for (s, j) in u.sect.iter().zip(sects) {
        let w = format!("{what} section {}", s.name);
        assert_eq!(s.name, j["name"].as_str().unwrap(), "{w}");
        assert_eq!(s.state, int(&j["state"]), "{w}");
        assert_eq!(
            (s.modifier, s.shortcut),
            (int(&j["modifier"]), int(&j["shortcut"])),
            "{w}"
        );
        assert_eq!(s.rtitle, rect(&j["rtitle"]), "{w} rtitle");
        assert_eq!(s.rcontent, rect(&j["rcontent"]), "{w} rcontent");
        let items = j["items"].as_array().unwrap();
        assert_eq!(s.item.len(), items.len(), "{w} items");
        for (it, ji) in s.item.iter().zip(items) {
            assert_eq!(it.kind as i32, int(&ji["type"]), "{w} {}", it.name);
            assert_eq!(it.state, int(&ji["state"]), "{w} {}", it.name);
            assert_eq!(it.rect, rect(&ji["rect"]), "{w} item {}", it.name);
        }
    }
}

#[test]
fn simulate_panels_have_mujocos_rectangles() {
    let j = load("simulate.json");
    let mut checked = 0;
    for panel in ["left", "right"] {
        let p = &j[panel];
        for l in p["layouts"].as_array().unwrap() {
            let (spacing, scale, open) =
                (int(&l["spacing"]), int(&l["fontscale"]), int(&l["open"]));
            let mut u = make_ui(p, spacing, open);
            ui::resize(&mut u, &FontMetrics::of_scale(scale).unwrap());
            let what = format!("{panel} spacing {spacing} font {scale} open {open}");
            assert_layout(&u, &l["ui"], &what);
            checked += u.sect.iter().map(|s| s.item.len() + 2).sum::<usize>();
        }
    }
    // both panels, 10 configurations each, every section's two rectangles and every item's
    assert!(checked > 2500, "{checked} rectangles");
}

/// Compare the UI's state after an event with MuJoCo's.
fn assert_state(u: &Ui, a: &Json, what: &str) {
    let f = |k: &str| int(&a[k]);
    assert_eq!(u.scroll, f("scroll"), "{what}: scroll");
    assert_eq!(
        (u.height, u.maxheight),
        (f("height"), f("maxheight")),
        "{what}: height"
    );
    assert_eq!(
        (u.mousesect, u.mouseitem),
        (f("mousesect"), f("mouseitem")),
        "{what}: mouse"
    );
    assert_eq!(i32::from(u.mousehelp), f("mousehelp"), "{what}: mousehelp");
    assert_eq!(u.editsect, f("editsect"), "{what}: editsect");
    if u.editsect > 0 {
        assert_eq!(u.edititem, f("edititem"), "{what}: edititem");
    }
    assert_eq!(
        (u.editcursor, u.editscroll),
        (f("editcursor"), f("editscroll")),
        "{what}: cursor"
    );
    assert_eq!(
        String::from_utf8_lossy(&u.edittext),
        a["edittext"].as_str().unwrap(),
        "{what}: text"
    );
    let states: Vec<i32> = u.sect.iter().map(|s| s.state).collect();
    let theirs: Vec<i32> = a["sect_state"]
        .as_array()
        .unwrap()
        .iter()
        .map(int)
        .collect();
    assert_eq!(states, theirs, "{what}: sections");
    let seps: Vec<i32> = u
        .sect
        .iter()
        .flat_map(|s| s.item.iter())
        .filter(|it| it.kind == ItemType::Separator)
        .map(|it| it.state)
        .collect();
    let theirs: Vec<i32> = a["sep_state"].as_array().unwrap().iter().map(int).collect();
    assert_eq!(seps, theirs, "{what}: separators");
    for (s, vals) in u.sect.iter().zip(a["values"].as_array().unwrap()) {
        for (it, v) in s.item.iter().zip(vals.as_array().unwrap()) {
            assert_eq!(
                it.value,
                value_of(it.kind, v),
                "{what}: value of {}",
                it.name
            );
        }
    }
}

fn simulate_predicate() -> ui::Predicate {
    // the generator's stand-in for simulate's: no keyframes (category 3), all else active
    Box::new(|category| category != 3)
}

/// Send MuJoCo's logged events to `u`, checking after each the changed item and the state;
/// returns how many events changed an item.
fn replay(u: &mut Ui, st: &mut State, events: &[Json], con: &FontMetrics) -> usize {
    let kinds = [
        EventType::None,
        EventType::Move,
        EventType::Press,
        EventType::Release,
        EventType::Scroll,
        EventType::Key,
        EventType::Resize,
    ];
    let buttons = [Button::None, Button::Left, Button::Right, Button::Middle];
    let mut changes = 0;
    for (k, e) in events.iter().enumerate() {
        let what = format!("event {k} ({})", e["what"].as_str().unwrap());
        st.rect[1] = rect(&e["rect"]);
        st.kind = kinds[e["type"].as_u64().unwrap() as usize];
        let num = |k: &str| e[k].as_f64().unwrap();
        (st.x, st.y, st.dx, st.dy) = (num("x"), num("y"), num("dx"), num("dy"));
        (st.sx, st.sy) = (num("sx"), num("sy"));
        st.button = buttons[e["button"].as_u64().unwrap() as usize];
        st.key = int(&e["key"]);
        st.control = int(&e["control"]) != 0;
        st.shift = int(&e["shift"]) != 0;
        st.alt = int(&e["alt"]) != 0;
        st.doubleclick = int(&e["doubleclick"]) != 0;
        let changed = ui::event(u, st, con);
        let theirs = e["changed"].as_array().map(|c| {
            (
                c[0].as_u64().unwrap() as usize,
                c[1].as_u64().unwrap() as usize,
            )
        });
        assert_eq!(changed, theirs, "{what}: changed item");
        changes += usize::from(changed.is_some());
        assert_state(u, &e["after"], &what);
        u.pending.clear();
    }
    changes
}

#[test]
fn scripted_events_give_mujocos_states() {
    let j = load("simulate.json");
    let ev = load("events.json");
    let con = FontMetrics::of_scale(100).unwrap();
    let mut u = make_ui(&j["left"], 0, 0);
    u.predicate = Some(simulate_predicate());
    u.rectid = 1;
    ui::resize(&mut u, &con);
    let mut st = State {
        nrect: 2,
        ..State::default()
    };
    st.rect[0] = Rect::sized(1200, 700);
    let events = ev["events"].as_array().unwrap();
    let changes = replay(&mut u, &mut st, events, &con);
    assert!(
        events.len() > 80 && changes > 10,
        "{} events, {changes} changes",
        events.len()
    );
}

#[test]
fn the_custom_ui_has_mujocos_rectangles() {
    let j = load("custom.json");
    for l in j["layouts"].as_array().unwrap() {
        let (spacing, scale) = (int(&l["spacing"]), int(&l["fontscale"]));
        let mut u = make_ui(&j, spacing, 1);
        u.radiocol = 3;
        ui::resize(&mut u, &FontMetrics::of_scale(scale).unwrap());
        assert_layout(
            &u,
            &l["ui"],
            &format!("custom spacing {spacing} font {scale}"),
        );
    }
}

#[test]
fn definitions_that_mujoco_refuses_are_errors() {
    let sp = ui::theme_spacing(0);
    let co = ui::theme_color(0);
    let check = |v: i32| Some(Value::Int(v));
    let bad: Vec<(Vec<Def>, &str)> = vec![
        (
            vec![Def::item(ItemType::Button, "b", 1, None, "")],
            "outside section",
        ),
        (vec![Def::section("s", 3, "")], "section state"),
        (vec![Def::section(&"x".repeat(39), 1, "")], "section name"),
        (vec![Def::section("s", 1, "Q1")], "shortcut modifier"),
        (vec![Def::section("s", 1, "C12")], "shortcut"),
        (vec![Def::section("s", 1, " #x")], "numeric shortcut"),
        (vec![Def::section("s", 1, "C")], "shortcut length"),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::CheckInt, "c", 2, None, ""),
            ],
            "no data",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::Button, "b", 2, check(0), ""),
            ],
            "data",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::CheckInt, "c", 2, Some(Value::Num(0.0)), ""),
            ],
            "type",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::CheckInt, "c", -1, check(0), ""),
            ],
            "item state",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::Static, &"n".repeat(40), 1, None, ""),
            ],
            "item name",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::SliderNum, "x", 2, Some(Value::Num(0.0)), "1"),
            ],
            "slider",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::SliderNum, "x", 2, Some(Value::Num(0.0)), "a b"),
            ],
            "slider text",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::EditNum, "x", 2, Some(Value::Nums([0.0; 7])), ""),
            ],
            "edit",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::EditNum, "x", 2, Some(Value::Nums([0.0; 7])), "8"),
            ],
            "edit 8",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(
                    ItemType::EditNum,
                    "x",
                    2,
                    Some(Value::Nums([0.0; 7])),
                    "2 0 1",
                ),
            ],
            "ranges",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::Radio, "r", 2, check(0), "a\n\nb"),
            ],
            "empty element",
        ),
        (
            vec![
                Def::section("s", 1, ""),
                Def::item(ItemType::Radio, "r", 2, check(0), &"a\n".repeat(36)),
            ],
            "elements",
        ),
    ];
    for (defs, what) in bad {
        let mut u = Ui::new(sp, co);
        assert!(u.add(&defs).is_err(), "{what} accepted");
    }
    // limits: 10 sections, 200 items per section
    let mut u = Ui::new(sp, co);
    let sections: Vec<Def> = (0..10)
        .map(|k| Def::section(&format!("s{k}"), 1, ""))
        .collect();
    u.add(&sections).unwrap();
    let err = u.add(&[Def::section("one more", 1, "")]).unwrap_err();
    assert!(err.to_string().contains("too many sections"), "{err}");
    let items: Vec<Def> = (0..200)
        .map(|k| Def::item(ItemType::CheckInt, &format!("c{k}"), 2, check(0), ""))
        .collect();
    u.add(&items).unwrap();
    let err = u.add(&items[..1]).unwrap_err();
    assert!(err.to_string().contains("too many items"), "{err}");
    assert_eq!(u.sect[9].item.len(), 200);
    // add_to_section: items into an earlier section, sections after it untouched
    u.add_to_section(2, &[Def::item(ItemType::Button, "late", 2, None, "CL")])
        .unwrap();
    assert_eq!(u.sect[2].item[0].name, "late");
    assert_eq!(
        (
            u.sect[2].item[0].single.modifier,
            u.sect[2].item[0].single.shortcut
        ),
        (1, 76)
    );
    assert_eq!(u.sect.len(), 10);
    assert!(u.add_to_section(10, &items[..1]).is_err());
    // accepted oddities: numeric shortcut codes, slider divisions at least 1, edit ranges
    let mut u = Ui::new(sp, co);
    u.add(&[
        Def::section("s", 1, " #290"),
        Def::item(ItemType::SliderInt, "k", 2, check(0), "0 0"),
        Def::item(
            ItemType::SliderNum,
            "x",
            2,
            Some(Value::Num(0.0)),
            "0 1 0.2",
        ),
        Def::item(
            ItemType::EditInt,
            "e",
            2,
            Some(Value::Ints([0; 7])),
            "2 0 10 -5 5",
        ),
    ])
    .unwrap();
    assert_eq!(u.sect[0].shortcut, 290);
    assert_eq!(u.sect[0].item[0].slider.divisions, 1.0);
    assert_eq!(u.sect[0].item[1].slider.divisions, 1.0);
    assert_eq!(u.sect[0].item[2].edit.range[1], [-5.0, 5.0]);
}

/// The simulate left panel, laid out, in a state of its own.
fn left_ui() -> (Ui, State, FontMetrics) {
    let j = load("simulate.json");
    let con = FontMetrics::of_scale(100).unwrap();
    let mut u = make_ui(&j["left"], 0, 1);
    u.predicate = Some(simulate_predicate());
    u.rectid = 1;
    ui::resize(&mut u, &con);
    let mut st = State {
        nrect: 2,
        ..State::default()
    };
    st.rect[0] = Rect::sized(1200, 700);
    st.rect[1] = Rect::sized(u.width, 700);
    (u, st, con)
}

#[test]
fn text_edits_that_do_not_parse_stay_uncommitted() {
    let (mut u, mut st, con) = left_ui();
    let (s, i) = (4, 6); // Physics, Iterations (EditInt "1 0 1000")
    assert_eq!(u.sect[s].item[i].name, "Iterations");
    let r = u.sect[s].item[i].rect;
    // window pixels of the item's centre: the UI's top at the rectangle's top, scrolled
    let room = st.rect[1].height - u.height;
    st.kind = EventType::Press;
    st.button = Button::Left;
    st.x = f64::from(r.left + r.width / 2);
    st.y = f64::from(r.bottom + r.height / 2 + room + u.scroll);
    assert_eq!(ui::event(&mut u, &mut st, &con), None);
    assert_eq!(u.editsect, s as i32 + 1);
    let before = u.sect[s].item[i].value.clone();
    let mut key = |u: &mut Ui, k: i32| {
        st.kind = EventType::Key;
        st.key = k;
        ui::event(u, &mut st, &con)
    };
    key(&mut u, ui::KEY_END);
    for c in "0.5".bytes() {
        key(&mut u, i32::from(c));
    }
    // '.' is not a key of an integer edit
    assert_eq!(String::from_utf8_lossy(&u.edittext), "5005");
    assert_eq!(
        ui::check_edit(&u.edittext, &u.sect[s].item[i]),
        Err(ui::EditError::Range)
    );
    assert_eq!(
        ui::check_edit(&u.edittext, &u.sect[s].item[i]),
        Err(ui::EditError::Range)
    );
    assert_eq!(key(&mut u, ui::KEY_ENTER), None);
    assert_eq!(u.sect[s].item[i].value, before);
    assert_eq!(u.editsect, s as i32 + 1, "still editing");
    for _ in 0..5 {
        key(&mut u, ui::KEY_BACKSPACE);
    }
    assert!(u.edittext.is_empty());
    assert_eq!(
        ui::check_edit(&u.edittext, &u.sect[s].item[i]),
        Err(ui::EditError::Count)
    );
    assert_eq!(key(&mut u, ui::KEY_ENTER), None);
    key(&mut u, ui::KEY_ESCAPE);
    assert_eq!(u.editsect, 0);
    assert_eq!(u.sect[s].item[i].value, before);
    // a text longer than MuJoCo's buffer stops taking keys
    let mut it = u.sect[s].item[i].clone();
    it.value = Some(Value::Ints([3; 7]));
    assert_eq!(ui::array_to_text(&it), b"3");
    assert_eq!(
        ui::valid_key(i32::from(b'7'), 299, ItemType::EditInt, &st),
        None
    );
    assert_eq!(
        ui::valid_key(i32::from(b'7'), 298, ItemType::EditInt, &st),
        Some(b'7')
    );
    assert_eq!(
        ui::valid_key(i32::from(b'a'), 39, ItemType::EditTxt, &st),
        None
    );
    assert_eq!(
        ui::valid_key(ui::KEY_NUMPAD_0 + 4, 0, ItemType::EditNum, &st),
        Some(b'4')
    );
    assert_eq!(
        ui::valid_key(i32::from(b'E'), 0, ItemType::EditNum, &st),
        Some(b'e')
    );
    assert_eq!(
        ui::valid_key(i32::from(b'E'), 0, ItemType::EditInt, &st),
        None
    );
    assert_eq!(
        ui::text_to_array(b"1 2", &mut it),
        Err(ui::EditError::Count)
    );
    assert_eq!(
        ui::text_to_array(b"1.5", &mut it),
        Err(ui::EditError::NotInteger)
    );
    assert_eq!(ui::text_to_array(b"1e3", &mut it), Ok(()));
    assert_eq!(it.value, Some(Value::Ints([1000, 3, 3, 3, 3, 3, 3])));
}

/// A cheap deterministic random sequence (no dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn events_anywhere_and_zero_sized_windows_never_panic() {
    let (mut u, mut st, con) = left_ui();
    let kinds = [
        EventType::Move,
        EventType::Press,
        EventType::Release,
        EventType::Scroll,
        EventType::Key,
        EventType::Resize,
        EventType::Redraw,
        EventType::FilesDrop,
    ];
    let mut rng = Lcg(7);
    let mut changes = 0;
    for n in 0..20000 {
        let pick = |r: &mut Lcg, k: usize| ((r.next() * k as f64) as usize).min(k - 1);
        st.kind = kinds[pick(&mut rng, kinds.len())];
        st.button = [Button::Left, Button::Left, Button::Right, Button::None][pick(&mut rng, 4)];
        st.x = rng.next() * 400.0 - 60.0;
        st.y = rng.next() * 900.0 - 100.0;
        st.dx = rng.next() * 100.0 - 50.0;
        st.dy = rng.next() * 100.0 - 50.0;
        st.sy = rng.next() * 10.0 - 5.0;
        st.key = [
            32, 48, 57, 65, 70, 80, 101, 46, 45, 256, 257, 259, 261, 262, 263, 268, 269, 290, 325,
        ][pick(&mut rng, 19)];
        st.alt = rng.next() < 0.2;
        st.shift = rng.next() < 0.2;
        st.control = rng.next() < 0.2;
        st.doubleclick = rng.next() < 0.1;
        // now and then a zero-sized or vanished rectangle, or a UI rectangle that does not exist
        match n % 500 {
            0 => st.rect[1] = Rect::sized(0, 0),
            100 => st.rect[1] = Rect::sized(u.width, 1),
            200 => u.rectid = 40,
            300 => u.rectid = 1,
            _ if n % 500 == 400 => st.rect[1] = Rect::sized(u.width, 700),
            _ => {}
        }
        changes += usize::from(ui::event(&mut u, &mut st, &con).is_some());
        if n % 1000 == 0 {
            ui::resize(&mut u, &con);
        }
        assert!(u.scroll >= 0 || u.height <= st.rect_of(u.rectid).height);
        u.pending.clear();
    }
    assert!(changes > 100, "{changes} changes");
    // an empty UI and zero font scale
    let mut empty = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
    let zero = FontMetrics {
        font_scale: 0,
        ..FontMetrics::of_scale(100).unwrap()
    };
    ui::resize(&mut empty, &zero);
    assert_eq!((empty.width, empty.height), (0, 0));
    st.kind = EventType::Press;
    st.button = Button::Left;
    assert_eq!(ui::event(&mut empty, &mut st, &zero), None);
}

#[test]
fn the_same_definitions_sizes_by_font_scale() {
    let (mut u, _, _) = left_ui();
    let mut last = 0;
    for scale in mjrs_gl::render::FONT_SCALES {
        ui::resize(&mut u, &FontMetrics::of_scale(scale).unwrap());
        assert!(u.maxheight > last);
        assert_eq!(
            u.width,
            ui::scl(270, &FontMetrics::of_scale(scale).unwrap())
        );
        last = u.maxheight;
    }
    assert_eq!(ui::shortcut_text(4, i32::from(b'P')), "Alt P");
    assert_eq!(ui::shortcut_text(0, 291), "F2");
    assert_eq!(ui::shortcut_text(1, ui::KEY_BACKSPACE), "Ctrl BackSpace");
}

mod pixels {
    use super::*;
    use mjrs_gl::render::{self, Context, Framebuffer};
    use mjrs_gl::Headless;

    fn read_png(name: &str) -> (usize, usize, Vec<u8>) {
        let path = fixtures().join("ui").join(name);
        let file = std::fs::File::open(&path).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width as usize, info.height as usize, buf)
    }

    /// Draw `u` as the generator did, after `events`: the UI's rectangle the whole image.
    fn draw(u: &mut Ui, h: i32, font: i32, events: &[Json]) -> Vec<u8> {
        let mut owned = mjrs_tests::compile_model("humanoid.xml");
        let m = owned.view();
        let head = Headless::new().unwrap();
        let gl = head.gl();
        let mut con = Context::new(gl, &m, font).unwrap();
        con.resize_offscreen(gl, 1200, 900).unwrap();
        con.add_aux(gl, u.auxid, u.width, u.maxheight, u.spacing.samples)
            .unwrap();
        let mut st = State {
            nrect: 2,
            ..State::default()
        };
        st.rect[0] = Rect::sized(u.width, h);
        st.rect[1] = Rect::sized(u.width, h);
        u.rectid = 1;
        replay(u, &mut st, events, &con.font_metrics());
        ui::update(-1, -1, u, &st, gl, &con).unwrap();
        con.set_buffer(gl, Framebuffer::Offscreen);
        render::rectangle(gl, &con, st.rect[0], [0.0, 0.0, 0.0, 1.0]);
        ui::render(u, &st, gl, &con).unwrap();
        let mut rgb = vec![0; 3 * (u.width * h) as usize];
        render::read_pixels(gl, &con, st.rect[0], Some(&mut rgb), None).unwrap();
        // bottom row first: flip to the PNG's order
        let w = 3 * u.width as usize;
        rgb.chunks(w).rev().flatten().copied().collect()
    }

    /// (share of pixels within 2/255 on every channel, mean absolute difference, pixels that
    /// differ at all).
    fn agreement(a: &[u8], b: &[u8]) -> (f64, f64, usize) {
        let n = a.len() / 3;
        let differ = a.chunks(3).zip(b.chunks(3)).filter(|(p, q)| p != q).count();
        let close = a
            .chunks(3)
            .zip(b.chunks(3))
            .filter(|(p, q)| p.iter().zip(q.iter()).all(|(x, y)| x.abs_diff(*y) <= 2))
            .count();
        let mad = a
            .iter()
            .zip(b)
            .map(|(x, y)| f64::from(x.abs_diff(*y)))
            .sum::<f64>()
            / a.len() as f64;
        (close as f64 / n as f64, mad, differ)
    }

    fn set_values(u: &mut Ui, values: &Json) {
        for (s, vals) in u.sect.iter_mut().zip(values.as_array().unwrap()) {
            for (it, v) in s.item.iter_mut().zip(vals.as_array().unwrap()) {
                if it.kind.has_data() {
                    it.value = value_of(it.kind, v);
                }
            }
        }
    }

    #[test]
    fn panels_draw_mujocos_pixels() {
        let j = load("simulate.json");
        let values = load("images.json");
        let mut left = make_ui(&j["left"], 0, 0);
        left.predicate = Some(simulate_predicate());
        set_values(&mut left, &values["left"]);
        ui::resize(&mut left, &FontMetrics::of_scale(100).unwrap());
        let mut right = Ui::new(ui::theme_spacing(1), ui::theme_color(1));
        right.add(&defs(&j["right"], 1)).unwrap();
        right.predicate = Some(simulate_predicate());
        right.auxid = 1;
        set_values(&mut right, &values["right"]);
        ui::resize(&mut right, &FontMetrics::of_scale(100).unwrap());
        compare(&mut left, "left.png", 100, &[]);
        compare(&mut right, "right.png", 100, &[]);
    }

    /// The images after events: an invalid edit in progress with shortcut help, an open
    /// selection box, the custom UI (radio line and grid, static lines, collapsible
    /// separators, a held button).
    #[test]
    fn scripted_panels_draw_mujocos_pixels() {
        let images = load("images.json");
        for (name, source) in [
            ("edit", "simulate.json"),
            ("select", "simulate.json"),
            ("custom", "custom.json"),
        ] {
            let c = &images[name];
            let j = load(source);
            let panel = if name == "custom" { &j } else { &j["left"] };
            let mut u = Ui::new(
                ui::theme_spacing(int(&c["spacing"])),
                ui::theme_color(int(&c["color"])),
            );
            u.add(&defs(panel, 0)).unwrap();
            u.radiocol = int(&c["radiocol"]);
            u.predicate = Some(simulate_predicate());
            for (s, state) in u.sect.iter_mut().zip(c["sect_state"].as_array().unwrap()) {
                s.state = int(state);
            }
            set_values(&mut u, &c["values"]);
            ui::resize(&mut u, &FontMetrics::of_scale(int(&c["font"])).unwrap());
            compare(
                &mut u,
                &format!("{name}.png"),
                int(&c["font"]),
                c["events"].as_array().unwrap(),
            );
        }
    }

    /// Draw `u` at `font` percent after `events` and compare with MuJoCo's image `name`.
    fn compare(u: &mut Ui, name: &str, font: i32, events: &[Json]) {
        let (w, h, theirs) = read_png(name);
        assert_eq!(w as i32, u.width, "{name}");
        let mine = draw(u, h as i32, font, events);
        if let Ok(dir) = std::env::var("MJRS_UI_IMAGES") {
            let path = std::path::Path::new(&dir).join(name);
            render::write_png(&path, w as u32, h as u32, &mine).unwrap();
        }
        let (close, mad, differ) = agreement(&mine, &theirs);
        eprintln!(
            "{name}: {differ} of {} pixels differ, {close:.5} within 2/255, mean difference {mad:.4}/255",
            w * h
        );
        // measured: identical (MuJoCo's fonts, the same rectangles, shapes and colours)
        assert!(
            close > 0.999 && mad < 0.1,
            "{name}: {close} close, {mad} mean"
        );
    }
}

mod bad_drawing {
    use super::*;
    use mjrs_gl::render::Context;
    use mjrs_gl::Headless;

    /// Drawing without the UI's buffer is an error (MuJoCo: `mju_error`); zero-sized windows
    /// and UIs, and items changed by hand past MuJoCo's limits, draw nothing or what fits.
    #[test]
    fn missing_buffers_and_zero_sizes_are_not_panics() {
        let mut owned = mjrs_tests::compile_model("hopper.xml");
        let m = owned.view();
        let head = Headless::new().unwrap();
        let gl = head.gl();
        let mut con = Context::new(gl, &m, 100).unwrap();
        let j = load("custom.json");
        let mut u = make_ui(&j, 0, 1);
        ui::resize(&mut u, &con.font_metrics());
        let mut st = State::default();
        st.rect[0] = Rect::sized(640, 480);
        st.rect[1] = Rect::sized(u.width, 480);
        u.rectid = 1;
        u.auxid = 3;
        assert!(ui::update(-1, -1, &u, &st, gl, &con).is_err());
        assert!(ui::render(&mut u, &st, gl, &con).is_err());
        con.add_aux(gl, 3, u.width, u.maxheight, 4).unwrap();
        // a radio line with more elements than MuJoCo allows, selected past its end
        let line = u.sect[0]
            .item
            .iter()
            .position(|it| it.name == "Mode")
            .unwrap();
        u.sect[0].item[line].multi = vec!["x".into(); 50];
        u.sect[0].item[line].value = Some(Value::Int(45));
        ui::update(-1, -1, &u, &st, gl, &con).unwrap();
        ui::update(0, 99, &u, &st, gl, &con).unwrap();
        ui::update(42, -1, &u, &st, gl, &con).unwrap();
        for r in [
            Rect::sized(0, 0),
            Rect::sized(u.width, 0),
            Rect::sized(-5, -5),
        ] {
            st.rect[1] = r;
            ui::render(&mut u, &st, gl, &con).unwrap();
        }
        let mut empty = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
        empty.auxid = 3;
        ui::resize(&mut empty, &con.font_metrics());
        ui::update(-1, -1, &empty, &st, gl, &con).unwrap();
        ui::render(&mut empty, &st, gl, &con).unwrap();
    }
}

/// `ui::simulate` makes the definitions the generator logged from `simulate.cc`'s tables:
/// names, types, states, type-specific text and values. The generator kept simulate's own
/// settings and flags in zeroed memory (and did not filter joint or actuator groups), so the
/// left panel is made from zeroed visualization options here.
#[test]
fn simulate_definitions_are_simulates() {
    use mjrs_gl::ui::simulate;
    use mjrs_gl::vis::VisOption;
    let j = load("simulate.json");
    let mut owned = mjrs_tests::compile_model("humanoid.xml");
    let m = owned.view();
    let mut data = mjrs_alloc::OwnedData::new(&m).unwrap();
    let d = data.view();
    let zeroed = VisOption {
        label: 0,
        frame: 0,
        geomgroup: [0; 6],
        sitegroup: [0; 6],
        jointgroup: [0; 6],
        tendongroup: [0; 6],
        actuatorgroup: [0; 6],
        flexgroup: [0; 6],
        skingroup: [0; 6],
        flags: [0; mjrs_gl::vis::flag::N],
        bvh_depth: 0,
        flex_layer: 0,
    };
    let settings = simulate::Settings {
        field: "qpos".into(),
        ..simulate::Settings::default()
    };
    let left = simulate::left_panel(&m, &zeroed, &[0; 10], &settings, [1; 4]);
    let right = simulate::right_panel(&m, &d, &VisOption::default(), [1; 2]);
    for (mine, panel) in [(left, "left"), (right, "right")] {
        let theirs = defs(&j[panel], 1);
        assert_eq!(mine.len(), theirs.len(), "{panel}");
        for (a, b) in mine.iter().zip(&theirs) {
            assert_eq!(a, b, "{panel}");
        }
        // and they make a UI
        let mut u = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
        u.add(&mine).unwrap();
        assert_eq!(u.sect.len(), if panel == "left" { 8 } else { 2 });
    }
}
