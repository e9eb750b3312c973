//! The OpenGL renderer against MuJoCo 3.1.6's images (`fixtures/render-scenes.txt`, made by
//! `generate-render.py` with `mujoco.Renderer`): segmentation images equal on at least 99% of
//! the pixels, colour images within a mean absolute difference of 6/255 per channel. Rendering
//! is headless (EGL; Mesa's software device on machines without a GPU). Scenes with labels
//! draw MuJoCo's bitmap font but place labels slightly differently: within 12/255 (measured
//! 10/255 on labels_body).

use mjrs::render::{self, Options, Renderer};
use mjrs_tests::{compile_model as compile, fixtures};
use std::path::Path;

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "{}", path.display());
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

struct Case {
    name: String,
    labelled: bool,
    xml: String,
    steps: usize,
    opt: Options,
}

fn cases() -> Vec<Case> {
    let list = std::fs::read_to_string(fixtures().join("render-scenes.txt")).unwrap();
    let none = |s: &str| -> Vec<String> {
        if s == "-" {
            Vec::new()
        } else {
            s.split(',').map(String::from).collect()
        }
    };
    list.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (camera, track) = match f[3].strip_prefix("track:") {
                Some(body) => ("-1".to_string(), Some(body.to_string())),
                None => (f[3].to_string(), None),
            };
            Case {
                name: f[0].into(),
                labelled: f[7] != "none",
                xml: f[1].into(),
                steps: f[2].parse().unwrap(),
                opt: Options {
                    camera,
                    track,
                    width: 320,
                    height: 240,
                    vis: mjrs::scene::options(&none(f[4]), f[6], f[7]).unwrap(),
                    rnd: render::rnd_flags(&none(f[5])).unwrap(),
                    ..Options::default()
                },
            }
        })
        .collect()
}

fn image(case: &Case, segment: bool) -> Vec<u8> {
    let mut owned = compile(&case.xml);
    let m = owned.view();
    let opt = Options {
        segment,
        ..case.opt.clone()
    };
    let mut r = Renderer::new(&m, opt).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs::stepping::run_control(&m, &mut d, case.steps).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    r.image(&m, &mut d).unwrap()
}

fn reference(name: &str) -> Vec<u8> {
    let (w, h, px) = read_png(&fixtures().join("render").join(format!("{name}.png")));
    assert_eq!((w, h), (320, 240), "{name}");
    px
}

#[test]
fn segmentation_images_match_the_reference() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for case in &cases {
        let ours = image(case, true);
        let theirs = reference(&format!("{}-seg", case.name));
        let same = ours
            .chunks(3)
            .zip(theirs.chunks(3))
            .filter(|(a, b)| a == b)
            .count();
        let share = same as f64 / (ours.len() / 3) as f64;
        assert!(share >= 0.99, "{}: {:.2}% equal", case.name, 100.0 * share);
        // the encoding is of real objects: some pixel is not background
        assert!(theirs.iter().any(|&b| b != 0), "{}", case.name);
        // a small object MuJoCo draws is drawn, though 1% of the pixels would hide it
        let ours_by_object = pixels_by_object(&ours);
        for (object, n) in pixels_by_object(&theirs) {
            let ours_n = ours_by_object.get(&object).copied().unwrap_or(0);
            assert!(
                n < 100 || 2 * ours_n >= n,
                "{}: object {object:?} has {ours_n} pixels, MuJoCo's {n}",
                case.name
            );
        }
    }
}

/// Pixels of each object (its segmentation colour) in a segmentation image.
fn pixels_by_object(image: &[u8]) -> std::collections::BTreeMap<[u8; 3], usize> {
    let mut counts = std::collections::BTreeMap::new();
    for px in image.chunks_exact(3) {
        *counts.entry([px[0], px[1], px[2]]).or_insert(0) += 1;
    }
    counts
}

#[test]
fn colour_images_match_the_reference() {
    for case in &cases() {
        let ours = image(case, false);
        let theirs = reference(&case.name);
        let mut sum = [0u64; 3];
        for (a, b) in ours.chunks(3).zip(theirs.chunks(3)) {
            for c in 0..3 {
                sum[c] += u64::from(a[c].abs_diff(b[c]));
            }
        }
        let n = (ours.len() / 3) as f64;
        let mad = sum.map(|s| s as f64 / n);
        let tol = if case.labelled { 12.0 } else { 6.0 };
        assert!(mad.iter().all(|&x| x <= tol), "{}: MAD {mad:?}", case.name);
    }
}

#[test]
fn bad_options_are_clear_errors() {
    let mut owned = compile("render_effects.xml");
    let m = owned.view();
    let err = |opt: Options| Renderer::new(&m, opt).err().unwrap();
    let too_wide = err(Options {
        width: 641,
        ..Options::default()
    });
    assert!(too_wide.contains("offwidth"), "{too_wide}");
    let too_high = err(Options {
        height: 481,
        ..Options::default()
    });
    assert!(too_high.contains("offheight"), "{too_high}");
    let zero = err(Options {
        width: 0,
        ..Options::default()
    });
    assert!(zero.contains("positive"), "{zero}");
    let missing = err(Options {
        camera: "nope".into(),
        ..Options::default()
    });
    assert!(missing.contains("does not exist"), "{missing}");
    let range = err(Options {
        camera: "7".into(),
        ..Options::default()
    });
    assert!(range.contains("out of range"), "{range}");
    let track = err(Options {
        track: Some("nobody".into()),
        ..Options::default()
    });
    assert!(track.contains("no body"), "{track}");
    let flag = render::rnd_flags(&["shadows".into()]).unwrap_err();
    assert!(flag.contains("wireframe"), "{flag}");
}

#[test]
fn images_are_written_as_png_atomically() {
    let dir = std::env::temp_dir().join(format!("mjrs-render-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut owned = compile("hopper.xml");
    let m = owned.view();
    let opt = Options {
        width: 160,
        height: 120,
        rnd: render::rnd_flags(&["-shadow".into()]).unwrap(),
        ..Options::default()
    };
    let mut r = Renderer::new(&m, opt).unwrap();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let img = r.image(&m, &mut d).unwrap();
    assert_eq!(img.len(), 160 * 120 * 3);
    assert!(img.iter().any(|&b| b != 0));
    let out = dir.join("hopper.png");
    render::write_png(&out, 160, 120, &img).unwrap();
    assert_eq!(read_png(&out), (160, 120, img.clone()));
    // a write that fails (image data too short) leaves the earlier file and no temporary
    assert!(render::write_png(&out, 160, 121, &img).is_err());
    assert_eq!(read_png(&out).2, img);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(render::write_png(&dir.join("missing/x.png"), 160, 120, &img).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

mod two_d {
    use super::compile;
    use mjrs_gl::render::{self, Context, Font, GridPos, Rect};
    use mjrs_gl::Headless;

    fn read(gl: &mjrs_gl::Gl, con: &Context, rect: Rect) -> Vec<u8> {
        let mut px = vec![0; 3 * (rect.width * rect.height) as usize];
        render::read_pixels(gl, con, rect, Some(&mut px), None).unwrap();
        px
    }

    fn lit(px: &[u8]) -> usize {
        px.chunks(3).filter(|p| p.iter().any(|&c| c > 40)).count()
    }

    #[test]
    fn overlays_rectangles_labels_and_text_draw_where_asked() {
        let mut owned = compile("hopper.xml");
        let m = owned.view();
        let h = Headless::new().unwrap();
        let gl = h.gl();
        let mut con = Context::new(gl, &m, 100).unwrap();
        let full = render::max_viewport(gl, &con);
        assert_eq!(full, Rect::sized(640, 480));
        let clear = |con: &Context| render::rectangle(gl, con, full, [0.0, 0.0, 0.0, 1.0]);
        clear(&con);
        let r = Rect {
            left: 10,
            bottom: 20,
            width: 30,
            height: 40,
        };
        render::rectangle(gl, &con, r, [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            read(
                gl,
                &con,
                Rect {
                    left: 25,
                    bottom: 40,
                    width: 1,
                    height: 1
                }
            ),
            [255, 0, 0]
        );
        assert_eq!(
            read(
                gl,
                &con,
                Rect {
                    left: 5,
                    bottom: 5,
                    width: 1,
                    height: 1
                }
            ),
            [0, 0, 0]
        );
        // an overlay in the top left corner, nothing in the bottom right
        clear(&con);
        render::overlay(
            gl,
            &con,
            Font::Normal,
            GridPos::TopLeft,
            full,
            "Time\nSteps",
            "1.25\n20",
        );
        let top_left = Rect {
            left: 0,
            bottom: 380,
            width: 200,
            height: 100,
        };
        let bottom_right = Rect {
            left: 440,
            bottom: 0,
            width: 200,
            height: 100,
        };
        assert!(lit(&read(gl, &con, top_left)) > 50);
        assert_eq!(lit(&read(gl, &con, bottom_right)), 0);
        // a label: its rectangle, with text of another colour in the middle
        clear(&con);
        let button = Rect {
            left: 100,
            bottom: 100,
            width: 200,
            height: 40,
        };
        render::label(
            gl,
            &con,
            button,
            Font::Normal,
            "Reset",
            [0.0, 0.0, 1.0, 1.0],
            [1.0; 3],
        );
        let px = read(gl, &con, button);
        let white = px.chunks(3).filter(|p| p[0] > 200 && p[1] > 200).count();
        assert!(white > 20, "{white}");
        assert_eq!(&px[..3], &[0, 0, 255]);
        // relative text: in the middle of the current viewport
        clear(&con);
        render::text(gl, &con, Font::Big, "mjrs", 0.45, 0.45, [0.0, 1.0, 0.0]);
        let middle = Rect {
            left: 270,
            bottom: 200,
            width: 120,
            height: 80,
        };
        assert!(lit(&read(gl, &con, middle)) > 30);
        // bigger fonts are bigger; invalid scales are errors
        let small = con.text_width(Font::Normal, "Reset");
        con.change_font(gl, 300).unwrap();
        assert!(con.text_width(Font::Normal, "Reset") > 2 * small);
        assert!(con.change_font(gl, 75).is_err());
        assert_eq!(con.font_scale(), 300);
    }

    #[test]
    fn drawn_pixels_read_back_unchanged() {
        let mut owned = compile("hopper.xml");
        let m = owned.view();
        let h = Headless::new().unwrap();
        let gl = h.gl();
        let con = Context::new(gl, &m, 100).unwrap();
        let rect = Rect {
            left: 7,
            bottom: 9,
            width: 33,
            height: 21,
        };
        let n = (rect.width * rect.height) as usize;
        let rgb: Vec<u8> = (0..3 * n).map(|i| (i * 7 % 251) as u8).collect();
        let depth: Vec<f32> = (0..n).map(|i| i as f32 / n as f32).collect();
        render::draw_pixels(gl, &con, rect, Some(&rgb), Some(&depth)).unwrap();
        let mut back = vec![0u8; 3 * n];
        let mut dback = vec![0f32; n];
        render::read_pixels(gl, &con, rect, Some(&mut back), Some(&mut dback)).unwrap();
        assert_eq!(back, rgb);
        let worst = depth
            .iter()
            .zip(&dback)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-6, "{worst}");
        // a buffer too small for the rectangle is an error, not a write past its end
        let mut short = vec![0u8; 10];
        assert!(render::read_pixels(gl, &con, rect, Some(&mut short), None).is_err());
        assert!(render::draw_pixels(gl, &con, rect, Some(&rgb[..10]), None).is_err());
    }
}

mod plots {
    use super::compile;
    use mjrs_gl::render::{self, Context, Rect};
    use mjrs_gl::vis::Figure;
    use mjrs_gl::Headless;

    #[test]
    fn figures_draw_lines_grid_and_legend_in_their_viewport() {
        let mut owned = compile("hopper.xml");
        let m = owned.view();
        let h = Headless::new().unwrap();
        let gl = h.gl();
        let con = Context::new(gl, &m, 100).unwrap();
        render::rectangle(gl, &con, Rect::sized(640, 480), [0.0, 0.0, 0.0, 1.0]);
        let mut fig = Figure {
            title: "Energy  Forces".into(),
            subplot: 1,
            xlabel: "time".into(),
            gridsize: [5, 5],
            ..Figure::default()
        };
        fig.linedata[0] = (0..=100).map(|i| [i as f32, i as f32 * 0.5]).collect();
        fig.linename[0] = "diagonal".into();
        fig.linedata[1] = vec![[0.0, 10.0], [100.0, 10.0]];
        let vp = Rect {
            left: 100,
            bottom: 50,
            width: 400,
            height: 300,
        };
        render::figure(gl, &con, vp, &mut fig);
        // the plot area lies inside the viewport, ranges fit the data
        assert!(fig.xaxispixel[0] > vp.left && fig.xaxispixel[1] < vp.left + vp.width);
        assert!(fig.yaxispixel[0] > vp.bottom && fig.yaxispixel[1] < vp.bottom + vp.height);
        assert_eq!(fig.xaxisdata, [0.0, 100.0]);
        assert_eq!(fig.yaxisdata, [0.0, 50.0]);
        let mut px = vec![0u8; 640 * 480 * 3];
        render::read_pixels(gl, &con, Rect::sized(640, 480), Some(&mut px), None).unwrap();
        let at = |x: i32, y: i32| {
            let i = 3 * (y as usize * 640 + x as usize);
            [px[i], px[i + 1], px[i + 2]]
        };
        // the first line's colour (1, .3, .3) on the diagonal's middle; the second line (green)
        // at y = 10 of 50
        let (x0, x1) = (fig.xaxispixel[0] as f32, fig.xaxispixel[1] as f32);
        let (y0, y1) = (fig.yaxispixel[0] as f32, fig.yaxispixel[1] as f32);
        // the line is one pixel wide: look around the middle for its colour
        let (mx, my) = (((x0 + x1) / 2.0) as i32, ((y0 + y1) / 2.0) as i32);
        let near = (-2..=2).flat_map(|dx| (-2..=2).map(move |dy| (dx, dy)));
        let red = near
            .map(|(dx, dy)| at(mx + dx, my + dy))
            .filter(|p| p[0] > 200 && p[1] < 120)
            .count();
        assert!(red > 0, "no line near ({mx}, {my})");
        let (gx, gy) = (((x0 + x1) / 3.0) as i32, (y0 + (y1 - y0) * 0.2) as i32);
        let near = (-2..=2).flat_map(|dx| (-2..=2).map(move |dy| (dx, dy)));
        let green = near
            .map(|(dx, dy)| at(gx + dx, gy + dy))
            .filter(|p| p[1] > 200 && p[0] < 100)
            .count();
        assert!(green > 0, "no green line near ({gx}, {gy})");
        // nothing outside the viewport
        assert_eq!(at(50, 400), [0, 0, 0]);
        // a legend box at the top right of the plot
        let legend = (0..40).flat_map(|dy| (0..80).map(move |dx| (dx, dy)));
        let lit = legend
            .map(|(dx, dy)| at(fig.xaxispixel[1] - dx, fig.yaxispixel[1] - dy))
            .filter(|p| p[0] > 150)
            .count();
        assert!(lit > 20, "{lit}");
    }
}

#[test]
fn frames_every_k_steps_end_at_the_single_image() {
    let dir = std::env::temp_dir().join(format!("mjrs-render-frames-{}", std::process::id()));
    let mut owned = compile("hopper.xml");
    let m = owned.view();
    let opt = Options {
        width: 96,
        height: 64,
        ..Options::default()
    };
    let mut r = Renderer::new(&m, opt).unwrap();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    assert!(render::write_frames(&mut r, &m, &mut d, 20, 0, &dir).is_err());
    let frames = render::write_frames(&mut r, &m, &mut d, 25, 10, &dir).unwrap();
    assert_eq!(frames.count, 3);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".png"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["frame-000000.png", "frame-000001.png", "frame-000002.png"]
    );
    if let Some(video) = &frames.video {
        assert!(std::fs::metadata(video).unwrap().len() > 0);
    }
    // the last frame is the state after 20 steps, as a single render of it
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs::stepping::run_control(&m, &mut d, 20).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    let single = r.image(&m, &mut d).unwrap();
    assert_eq!(read_png(&dir.join("frame-000002.png")).2, single);
    assert_ne!(read_png(&dir.join("frame-000000.png")).2, single);
    assert!((render::frame_rate(0.002, 10) - 50.0).abs() < 1e-9);
    std::fs::remove_dir_all(&dir).unwrap();
}

mod buffers {
    use super::compile;
    use mjrs_gl::render::{self, Context, Font, Rect};
    use mjrs_gl::Headless;

    fn pixel(gl: &mjrs_gl::Gl, con: &Context, x: i32, y: i32) -> Vec<u8> {
        let mut px = vec![0; 3];
        let r = Rect {
            left: x,
            bottom: y,
            width: 1,
            height: 1,
        };
        render::read_pixels(gl, con, r, Some(&mut px), None).unwrap();
        px
    }

    #[test]
    fn aux_buffers_resizes_and_reuploads_work_and_refuse_bad_indices() {
        let mut owned = compile("render_effects.xml");
        let m = owned.view();
        let h = Headless::new().unwrap();
        let gl = h.gl();
        let mut con = Context::new(gl, &m, 100).unwrap();
        // draw green into an auxiliary buffer, copy a corner of it into the offscreen buffer
        con.add_aux(gl, 2, 64, 32, 4).unwrap();
        con.set_aux(gl, 2).unwrap();
        render::rectangle(gl, &con, Rect::sized(64, 32), [0.0, 1.0, 0.0, 1.0]);
        con.set_buffer(gl, render::Framebuffer::Offscreen);
        render::rectangle(gl, &con, Rect::sized(640, 480), [0.0, 0.0, 0.0, 1.0]);
        con.blit_aux(gl, 2, Rect::sized(16, 16), 100, 200).unwrap();
        assert_eq!(pixel(gl, &con, 105, 205), [0, 255, 0]);
        assert_eq!(pixel(gl, &con, 95, 205), [0, 0, 0]);
        assert!(con.add_aux(gl, render::NAUX, 8, 8, 0).is_err());
        assert!(con.set_aux(gl, 3).is_err());
        assert!(con.add_aux(gl, 0, 0, 8, 0).is_err());
        // a smaller offscreen buffer is what the maximal viewport reports
        con.resize_offscreen(gl, 320, 200).unwrap();
        assert_eq!(render::max_viewport(gl, &con), Rect::sized(320, 200));
        assert!(con.resize_offscreen(gl, 0, 10).is_err());
        // re-uploads keep drawing; bad indices are errors
        con.upload_texture(gl, &m, 0).unwrap();
        con.upload_mesh(gl, &m, 0).unwrap();
        con.upload_hfield(gl, &m, 0).unwrap();
        assert!(con.upload_texture(gl, &m, 99).is_err());
        assert!(con.upload_mesh(gl, &m, 1).is_err());
        assert!(con.upload_hfield(gl, &m, 1).is_err());
        render::text(gl, &con, Font::Normal, "ok", 0.1, 0.1, [1.0; 3]);
        render::finish(gl);
        assert_eq!(render::get_error(gl), 0);
        con.free(gl);
    }
}
