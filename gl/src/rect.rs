//! The plain types shared by the OpenGL wrapper ([`crate::Gl`]) and the renderer above it;
//! here, on the crate's ground floor, so that neither imports the other for them.

/// A rectangle of the framebuffer in pixels, origin at the bottom left (`mjrRect`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub left: i32,
    /// Bottom edge.
    pub bottom: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
}

impl Rect {
    /// The rectangle `width x height` at the origin.
    pub fn sized(width: i32, height: i32) -> Rect {
        Rect {
            left: 0,
            bottom: 0,
            width,
            height,
        }
    }
}
