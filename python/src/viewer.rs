//! MuJoCo's interactive viewer for Python (`mjrs.viewer`, over `mjrs_gl::viewer`): the passive
//! viewer (`launch_passive`: the program steps its model and data, `sync` exchanges them with
//! the window) and the managed one (`launch`: the viewer steps copies on its physics thread
//! until the window closes, then they are copied back).
//!
//! A process has one windowing event loop: it lives on a thread of its own, made at the first
//! launch, which runs the viewer sessions one after the other. That thread never takes the
//! GIL; the functions here release it while they wait for the viewer.

use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use mjrs_gl::viewer::passive::{copy_data, copy_model, Mailbox};
use mjrs_gl::viewer::{self, Options, Windowing};
use mjrs_gl::vis::{Camera, VisOption};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::data::{check_pair, MjData};
use crate::model::MjModel;
use crate::scene::{MjvCamera, MjvOption, MjvPerturb, MjvScene};

/// A viewer session, run on the event loop (or told why there is none).
type Job = Box<dyn FnOnce(Result<&mut Windowing, &str>) + Send>;

/// Sends `job` to the viewer thread, made (with its event loop) on first use.
fn submit(job: Job) -> PyResult<()> {
    viewer::check_display().map_err(PyRuntimeError::new_err)?;
    static THREAD: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    let sender = THREAD.get_or_init(|| {
        let (sender, jobs) = channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("mjrs-viewer".into())
            .spawn(move || {
                let mut event_loop: Result<Windowing, String> = Err(String::new());
                for job in jobs {
                    // a display that was not there (or went) may be there now
                    if event_loop.is_err() {
                        event_loop = viewer::event_loop(true);
                    }
                    match &mut event_loop {
                        Ok(l) => job(Ok(l)),
                        Err(e) => job(Err(e)),
                    }
                }
            });
        // without a thread the job is dropped: the launch sees its viewer end with an error
        let _ = spawned;
        Mutex::new(sender)
    });
    sender
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send(job)
        .map_err(|_| PyRuntimeError::new_err("the viewer thread is gone"))
}

/// Waits, without the GIL, until `done` holds (checked every 5 ms) or `timeout` passes.
fn wait(py: Python<'_>, timeout: Duration, done: impl Fn() -> bool + Send + Sync) -> bool {
    py.detach(|| {
        let start = Instant::now();
        while !done() {
            if start.elapsed() > timeout {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    })
}

/// How long a window may take to open (a software OpenGL device on a loaded machine is slow).
const OPEN_TIMEOUT: Duration = Duration::from_secs(120);

fn options(title: String, show_ui: (bool, bool)) -> Options {
    Options {
        title,
        any_thread: true,
        show_ui,
        ..Options::default()
    }
}

/// A passive viewer's window (`mujoco.viewer.Handle` holds one).
#[pyclass(module = "mjrs", name = "_PassiveViewer")]
pub struct PassiveViewer {
    mailbox: Arc<Mailbox>,
    /// The handle's camera and options after the last sync: changed since, they go to the
    /// viewer; else (and at the first sync) the viewer's come back.
    last_cam: Option<Camera>,
    last_vopt: Option<VisOption>,
}

#[pymethods]
impl PassiveViewer {
    /// Opens the window on copies of `m` and `d` and returns when it is open; an error says
    /// why it did not open (no display, no OpenGL).
    #[new]
    #[pyo3(signature = (m, d, title, show_left_ui, show_right_ui))]
    fn py_new(
        py: Python<'_>,
        m: PyRef<'_, MjModel>,
        d: PyRef<'_, MjData>,
        title: String,
        show_left_ui: bool,
        show_right_ui: bool,
    ) -> PyResult<Self> {
        check_pair(&m, &d)?;
        let (model, data) = (m.model(), &*d.cell);
        let mailbox = Mailbox::new(model, data).map_err(PyRuntimeError::new_err)?;
        let mut own_model = copy_model(model).map_err(PyRuntimeError::new_err)?;
        let mut own_data = copy_data(model, data).map_err(PyRuntimeError::new_err)?;
        let mut opts = options(title, (show_left_ui, show_right_ui));
        opts.passive = Some(mailbox.clone());
        let session = mailbox.clone();
        submit(Box::new(move |event_loop| {
            let result = event_loop.map_err(str::to_string).and_then(|l| {
                let (mut m, mut d) = (own_model.view(), own_data.view());
                viewer::run_on(l, &mut m, &mut d, opts).map(|_| ())
            });
            let mut ex = session.lock();
            ex.closed = true;
            if let Err(e) = result {
                ex.error.get_or_insert(e);
            }
        }))?;
        let opened = {
            let mailbox = mailbox.clone();
            wait(py, OPEN_TIMEOUT, move || {
                let ex = mailbox.lock();
                ex.opened || ex.closed
            })
        };
        let ex = mailbox.lock();
        if let Some(e) = &ex.error {
            return Err(PyRuntimeError::new_err(format!("the viewer failed: {e}")));
        }
        if !opened || ex.closed {
            return Err(PyRuntimeError::new_err("the viewer's window did not open"));
        }
        drop(ex);
        Ok(Self {
            mailbox,
            last_cam: None,
            last_vopt: None,
        })
    }

    /// MuJoCo's `Handle.sync`: what the viewer changed (joint and control sliders, physics
    /// options, perturbations, resets) into `m` and `d`, then `m` and `d` to the viewer; the
    /// camera and visualization options both ways; `user_scn`'s geoms added to the scene.
    /// Nothing once the viewer has closed.
    #[pyo3(signature = (m, d, cam, opt, pert, user_scn))]
    #[allow(clippy::too_many_arguments)]
    fn sync(
        &mut self,
        py: Python<'_>,
        mut m: PyRefMut<'_, MjModel>,
        mut d: PyRefMut<'_, MjData>,
        mut cam: PyRefMut<'_, MjvCamera>,
        mut opt: PyRefMut<'_, MjvOption>,
        mut pert: PyRefMut<'_, MjvPerturb>,
        user_scn: Option<PyRefMut<'_, MjvScene>>,
    ) -> PyResult<()> {
        check_pair(&m, &d)?;
        let mut ex = self.mailbox.lock();
        if ex.closed {
            return Ok(());
        }
        ex.sync(&mut m.cell, &mut d.cell)
            .map_err(|e| PyValueError::new_err(format!("sync: {e}")))?;
        let user = cam.value(py);
        if self.last_cam.as_ref().is_none_or(|c| *c == user) {
            cam.set(py, &ex.cam);
            self.last_cam = Some(ex.cam.clone());
        } else {
            ex.cam = user.clone();
            ex.user_cam = Some(user.clone());
            self.last_cam = Some(user);
        }
        let user = opt.value(py);
        if self.last_vopt.as_ref().is_none_or(|o| *o == user) {
            opt.set(py, &ex.vopt);
            self.last_vopt = Some(ex.vopt.clone());
        } else {
            ex.vopt = user.clone();
            ex.user_vopt = Some(user.clone());
            self.last_vopt = Some(user);
        }
        pert.set(py, &ex.pert);
        if let Some(mut scn) = user_scn {
            let scene = scn.synced(py)?;
            ex.user_geoms.clone_from(&scene.geoms);
        }
        Ok(())
    }

    /// Frames the window has synchronized for so far (each then drawn).
    #[getter]
    fn frames(&self) -> u64 {
        self.mailbox.lock().frames
    }

    /// Whether the window is open.
    fn is_running(&self) -> bool {
        !self.mailbox.lock().closed
    }

    /// Closes the window and waits until it has closed.
    fn close(&self, py: Python<'_>) {
        self.mailbox.lock().close_request = true;
        let mailbox = self.mailbox.clone();
        wait(py, OPEN_TIMEOUT, move || mailbox.lock().closed);
    }
}

/// MuJoCo's `viewer.launch(model, data)`: the viewer steps copies of `m` and `d` in real time
/// until its window closes, then they are copied back (the calling thread waits without the
/// GIL). An error says why it did not run.
#[pyfunction]
#[pyo3(name = "_launch")]
#[pyo3(signature = (m, d, title, show_left_ui, show_right_ui))]
pub fn launch(
    py: Python<'_>,
    mut m: PyRefMut<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    title: String,
    show_left_ui: bool,
    show_right_ui: bool,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let (model, data) = (m.model(), &*d.cell);
    let mut own_model = copy_model(model).map_err(PyRuntimeError::new_err)?;
    let mut own_data = copy_data(model, data).map_err(PyRuntimeError::new_err)?;
    let opts = options(title, (show_left_ui, show_right_ui));
    type Ended = Option<Result<(mjrs_std::OwnedModel, mjrs_std::OwnedData), String>>;
    let ended: Arc<Mutex<Ended>> = Arc::new(Mutex::new(None));
    let report = ended.clone();
    submit(Box::new(move |event_loop| {
        let result = event_loop.map_err(str::to_string).and_then(|l| {
            let (mut m, mut d) = (own_model.view(), own_data.view());
            viewer::run_on(l, &mut m, &mut d, opts).map(|_| ())
        });
        let result = result.map(|()| (own_model, own_data));
        *report.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
    }))?;
    let watched = ended.clone();
    wait(py, Duration::MAX, move || {
        watched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    });
    let result = ended.lock().unwrap_or_else(PoisonError::into_inner).take();
    let (mut final_model, mut final_data) = result
        .unwrap_or_else(|| Err("the viewer ended without a result".into()))
        .map_err(|e| PyRuntimeError::new_err(format!("the viewer failed: {e}")))?;
    m.cell
        .copy_from(&final_model.view())
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    d.cell
        .copy_from(&final_data.view())
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(())
}
