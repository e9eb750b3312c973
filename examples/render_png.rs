//! Render a model to a PNG without a display (EGL):
//! `cargo run --release --example render_png [-- MODEL.xml [OUT.png]]`.
//!
//! `mjrs_gl::vis` computes the abstract scene (`mjv_updateScene`) and `mjrs_gl::render` draws it
//! with OpenGL 3.3 the way MuJoCo's renderer does, in a headless EGL context (Mesa's llvmpipe
//! when there is no GPU: `libegl1 libegl-mesa0 libgl1-mesa-dri` on Debian).

use mjrs_gl::render::{self, Context, Rect};
use mjrs_gl::vis::{self, Camera, Perturb, Scene, VisOption};
use mjrs_gl::Headless;
use mjrs_std::OwnedData;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/assets/humanoid.xml").to_string());
    let out = args.next().map_or_else(
        || std::env::temp_dir().join("mjrs-render.png"),
        std::path::PathBuf::from,
    );

    let mut model = mjrs_xml::load_xml(&path, None)?.model;
    let m = model.view();
    let mut data = OwnedData::new(&m)?;
    let mut d = data.view();
    for _ in 0..100 {
        mjrs_core::step(&m, &mut d)?; // let the model settle a little
    }
    mjrs_core::forward(&m, &mut d)?; // positions of the current state for the scene

    // the scene: default options, MuJoCo's default free camera, contact forces shown
    let mut opt = VisOption::default();
    opt.flags[vis::flag::CONTACTFORCE] = 1;
    let mut cam = Camera::default_free(&m);
    let mut scn = Scene::new(10_000); // mjv_makeScene(maxgeom)
    vis::update_scene(
        &m,
        &mut d,
        &opt,
        &Perturb::default(),
        &mut cam,
        vis::CAT_ALL,
        &mut scn,
    )?;

    // draw it offscreen (at most the model's offscreen buffer, 640x480 by default)
    let (w, h) = (640, 480);
    let egl = Headless::new()?;
    let gl = egl.gl();
    let con = Context::new(gl, &m, 150)?; // mjr_makeContext: meshes, textures, fonts at 150%
    let rect = Rect::sized(w, h);
    render::render(gl, rect, &mut scn, &con)?; // mjr_render
    let time = format!("{:.3} s", d.time);
    render::overlay(
        gl,
        &con,
        render::Font::Normal,
        render::GridPos::TopLeft,
        rect,
        "Time",
        &time,
    );
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    render::read_pixels(gl, &con, rect, Some(&mut rgb), None)?; // mjr_readPixels

    // OpenGL's rows go bottom to top, PNG's top to bottom
    let stride = (w * 3) as usize;
    let top_first: Vec<u8> = rgb.chunks(stride).rev().flatten().copied().collect();
    render::write_png(&out, w as u32, h as u32, &top_first)?;
    println!("{} geoms drawn into {}", scn.geoms.len(), out.display());
    Ok(())
}
