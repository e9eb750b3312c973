//! The pipeline's timers (MuJoCo's `TM_START`/`TM_END`): [`tic`] reads the user's clock
//! (`Callbacks::time`, MuJoCo's `mjcb_time`) and [`toc`] adds the time since then to one of
//! `d.timer`. Without a clock nothing is timed.

use crate::data::Data;
use crate::real::Real;

/// Starts a timer: the clock reading, if there is a clock.
pub(crate) fn tic(d: &Data) -> Option<Real> {
    d.callbacks.time.map(|t| t())
}

/// Adds the time since `start` to timer `id`.
pub(crate) fn toc(d: &mut Data, id: i32, start: Option<Real>) {
    if let (Some(start), Some(clock)) = (start, d.callbacks.time) {
        let t = &mut d.timer[id as usize];
        t.duration += clock() - start;
        t.number += 1;
    }
}
