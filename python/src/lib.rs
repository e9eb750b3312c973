//! `mjrs._mjrs`: the Python extension of the `mjrs` package, MuJoCo's Python API over the
//! Rust layers (`import mjrs as mujoco`).
//!
//! Models and datas own their buffers (`owner`); their arrays are NumPy views generated from
//! the core's layout table (`arrays`); functions release the GIL while the core computes.

mod arrays;
mod data;
mod enums;
mod errors;
mod functions;
mod last_xml;
mod layout_rows;
mod mjmodel;
mod model;
mod model_functions;
mod named;
mod option;
mod owner;
mod pickling;
mod raycast;
mod records;
mod render;
mod rollout;
mod scene;
mod small_arrays;
mod statistic;
mod support;
mod viewer;
mod visual;

use pyo3::prelude::*;

#[pymodule]
fn _mjrs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<model::MjModel>()?;
    m.add_class::<data::MjData>()?;
    m.add_class::<viewer::PassiveViewer>()?;
    m.add_function(wrap_pyfunction!(viewer::launch, m)?)?;
    m.add_class::<option::MjOption>()?;
    m.add_class::<visual::MjVisual>()?;
    m.add_class::<records::RecordList>()?;
    m.add_class::<records::RecordItem>()?;
    m.add("FatalError", py.get_type::<errors::FatalError>())?;
    m.add("UnexpectedError", py.get_type::<errors::UnexpectedError>())?;
    m.add_function(wrap_pyfunction!(functions::mj_step, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_forward, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_rne_post_constraint, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_reset_data, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_reset_data_keyframe, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_name2id, m)?)?;
    m.add_function(wrap_pyfunction!(functions::mj_id2name, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_jac, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_jac_body, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_jac_body_com, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_jac_geom, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_jac_site, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_full_m, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_mul_m, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_state_size, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_get_state, m)?)?;
    m.add_function(wrap_pyfunction!(support::mj_set_state, m)?)?;
    m.add_function(wrap_pyfunction!(support::mjd_transition_fd, m)?)?;
    m.add_function(wrap_pyfunction!(rollout::_rollout, m)?)?;
    // ray casting, whole-model functions, the last XML, pickling (issue 27's remaining list)
    m.add_function(wrap_pyfunction!(raycast::mj_ray, m)?)?;
    m.add_function(wrap_pyfunction!(raycast::mj_multi_ray, m)?)?;
    m.add_function(wrap_pyfunction!(support::mjd_inverse_fd, m)?)?;
    m.add_function(wrap_pyfunction!(model_functions::mj_set_const, m)?)?;
    m.add_function(wrap_pyfunction!(model_functions::mj_print_model, m)?)?;
    m.add_function(wrap_pyfunction!(model_functions::mj_print_data, m)?)?;
    m.add_function(wrap_pyfunction!(
        model_functions::mj_print_formatted_model,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(
        model_functions::mj_print_formatted_data,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(last_xml::mj_save_last_xml, m)?)?;
    m.add_function(wrap_pyfunction!(pickling::_model_from_mjb, m)?)?;
    m.add_function(wrap_pyfunction!(data::_data_from_state, m)?)?;
    m.add("MJTNUM_DTYPE", py.import("numpy")?.getattr("float64")?)?;
    enums::add(m)?;
    add_rendering(m)?;
    Ok(())
}

/// The visualization and the renderer: `MjvScene`, `MjrContext`, `GLContext`, the `mjv_*` and
/// `mjr_*` functions and their enums (`render`, `scene`).
fn add_rendering(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<statistic::MjStatistic>()?;
    m.add_class::<scene::MjvOption>()?;
    m.add_class::<scene::MjvCamera>()?;
    m.add_class::<scene::MjvPerturb>()?;
    m.add_class::<scene::MjvScene>()?;
    m.add_class::<scene::MjvGeom>()?;
    m.add_class::<scene::MjvGeomList>()?;
    m.add_class::<render::GLContext>()?;
    m.add_class::<render::MjrRect>()?;
    m.add_class::<render::MjrContext>()?;
    m.add_function(wrap_pyfunction!(scene::mjv_default_option, m)?)?;
    m.add_function(wrap_pyfunction!(scene::mjv_default_camera, m)?)?;
    m.add_function(wrap_pyfunction!(scene::mjv_default_free_camera, m)?)?;
    m.add_function(wrap_pyfunction!(scene::mjv_default_perturb, m)?)?;
    m.add_function(wrap_pyfunction!(scene::mjv_update_scene, m)?)?;
    m.add_function(wrap_pyfunction!(scene::mjv_init_geom, m)?)?;
    m.add_function(wrap_pyfunction!(scene::mjv_move_camera, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_set_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_resize_offscreen, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_render, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_read_pixels, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_overlay, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_max_viewport, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_finish, m)?)?;
    m.add_function(wrap_pyfunction!(render::mjr_get_error, m)?)?;
    enums::add_enums(m, render::ENUMS)
}
