//! The crate's only `unsafe` code: safe wrappers over the OpenGL calls the renderer makes, and
//! the creation of OpenGL contexts (EGL for headless rendering).
//!
//! Every OpenGL entry point is `unsafe` in the `gl` crate for two reasons, and both are dealt
//! with here once:
//! 1. A function pointer must be loaded and a context current on the calling thread. A [`Gl`]
//!    token is only made by [`Gl::load`], called by the context types of this module right
//!    after making their context current, and it is neither `Send` nor `Sync`, so it cannot
//!    leave that thread. The renderer only ever calls OpenGL through a `&Gl`.
//! 2. Pointers handed to OpenGL must be valid for the sizes given. Every wrapper that passes a
//!    pointer takes a slice and derives the size from that slice (or checks it against the
//!    dimensions it passes), so OpenGL never reads or writes past a Rust allocation.
//!
//! Invalid enum values or object names are not undefined behaviour in OpenGL: they set an
//! error flag, which [`Gl::error`] reads.
#![allow(unsafe_code)]

pub mod egl;
pub mod foreign;
pub mod window;

use core::ffi::c_void;
use core::marker::PhantomData;
use gl::types::{GLenum, GLint, GLsizei, GLuint};

pub use gl::types;

/// Proof that OpenGL function pointers are loaded and a context is current on this thread.
pub struct Gl {
    _not_send: PhantomData<*const ()>,
}

/// Functions the renderer cannot work without; checked when loading.
type Check = (&'static str, fn() -> bool);
const REQUIRED: [Check; 8] = [
    ("glCreateShader", gl::CreateShader::is_loaded),
    ("glGenVertexArrays", gl::GenVertexArrays::is_loaded),
    ("glGenFramebuffers", gl::GenFramebuffers::is_loaded),
    (
        "glRenderbufferStorageMultisample",
        gl::RenderbufferStorageMultisample::is_loaded,
    ),
    ("glBlitFramebuffer", gl::BlitFramebuffer::is_loaded),
    ("glUniformMatrix4fv", gl::UniformMatrix4fv::is_loaded),
    ("glGenerateMipmap", gl::GenerateMipmap::is_loaded),
    ("glReadPixels", gl::ReadPixels::is_loaded),
];

impl Gl {
    /// Load the function pointers through `loader` for the context current on this thread.
    /// Fails, naming the first missing function, when the implementation lacks OpenGL 3.3.
    fn load(loader: impl FnMut(&'static str) -> *const c_void) -> Result<Gl, String> {
        gl::load_with(loader);
        for (name, loaded) in REQUIRED {
            if !loaded() {
                return Err(format!(
                    "the OpenGL implementation has no {name} (OpenGL 3.3 is needed)"
                ));
            }
        }
        Ok(Gl {
            _not_send: PhantomData,
        })
    }

    /// `glGetString`: vendor, renderer or version text.
    pub fn string(&self, name: GLenum) -> String {
        // SAFETY: a current context (see module docs); the result is a NUL-terminated static
        // string owned by the implementation, or null.
        let p = unsafe { gl::GetString(name) };
        if p.is_null() {
            return String::new();
        }
        // SAFETY: non-null results of glGetString point to NUL-terminated strings.
        unsafe { core::ffi::CStr::from_ptr(p.cast()) }
            .to_string_lossy()
            .into_owned()
    }

    /// `glGetError`: the oldest recorded error, 0 when none.
    pub fn error(&self) -> GLenum {
        // SAFETY: a current context.
        unsafe { gl::GetError() }
    }

    /// `glGetIntegerv` for a single value.
    pub fn integer(&self, name: GLenum) -> GLint {
        let mut v = 0;
        // SAFETY: the queries used return one integer; v is valid for one write.
        unsafe { gl::GetIntegerv(name, &mut v) };
        v
    }

    /// `glGetIntegerv` for a four-value state (the viewport, the scissor box).
    pub fn integer4(&self, name: GLenum) -> [GLint; 4] {
        let mut v = [0; 4];
        // SAFETY: the queries used return four integers; v holds four.
        unsafe { gl::GetIntegerv(name, v.as_mut_ptr()) };
        v
    }

    /// `glEnable` or `glDisable`.
    pub fn set(&self, cap: GLenum, on: bool) {
        // SAFETY: a current context; bad caps only raise GL errors.
        unsafe {
            if on {
                gl::Enable(cap)
            } else {
                gl::Disable(cap)
            }
        }
    }

    /// `glViewport`.
    pub fn viewport(&self, x: i32, y: i32, w: i32, h: i32) {
        // SAFETY: a current context.
        unsafe { gl::Viewport(x, y, w, h) }
    }

    /// `glScissor`.
    pub fn scissor(&self, x: i32, y: i32, w: i32, h: i32) {
        // SAFETY: a current context.
        unsafe { gl::Scissor(x, y, w, h) }
    }

    /// `glClearColor`.
    pub fn clear_color(&self, c: [f32; 4]) {
        // SAFETY: a current context.
        unsafe { gl::ClearColor(c[0], c[1], c[2], c[3]) }
    }

    /// `glClearDepth` and `glClearStencil`.
    pub fn clear_depth_stencil(&self, depth: f64, stencil: i32) {
        // SAFETY: a current context.
        unsafe {
            gl::ClearDepth(depth);
            gl::ClearStencil(stencil);
        }
    }

    /// `glClear`.
    pub fn clear(&self, mask: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::Clear(mask) }
    }

    /// `glDepthFunc`, `glDepthMask`.
    pub fn depth(&self, func: GLenum, write: bool) {
        // SAFETY: a current context.
        unsafe {
            gl::DepthFunc(func);
            gl::DepthMask(u8::from(write));
        }
    }

    /// `glClipControl` when the implementation has it (OpenGL 4.5 or ARB_clip_control);
    /// returns whether it did.
    pub fn clip_control(&self, origin: GLenum, depth: GLenum) -> bool {
        if !gl::ClipControl::is_loaded() {
            return false;
        }
        // SAFETY: a current context and a loaded function.
        unsafe { gl::ClipControl(origin, depth) };
        true
    }

    /// `glCullFace`.
    pub fn cull_face(&self, face: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::CullFace(face) }
    }

    /// `glFrontFace`.
    pub fn front_face(&self, mode: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::FrontFace(mode) }
    }

    /// `glPolygonMode` for both faces.
    pub fn polygon_mode(&self, mode: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::PolygonMode(gl::FRONT_AND_BACK, mode) }
    }

    /// `glLineWidth`.
    pub fn line_width(&self, w: f32) {
        // SAFETY: a current context.
        unsafe { gl::LineWidth(w) }
    }

    /// `glBlendFunc`.
    pub fn blend_func(&self, src: GLenum, dst: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::BlendFunc(src, dst) }
    }

    /// `glColorMask` for all four channels.
    pub fn color_mask(&self, on: bool) {
        let b = u8::from(on);
        // SAFETY: a current context.
        unsafe { gl::ColorMask(b, b, b, b) }
    }

    /// `glStencilFunc` and `glStencilOp` (same op for all three cases).
    pub fn stencil(&self, func: GLenum, reference: i32, op: GLenum) {
        // SAFETY: a current context.
        unsafe {
            gl::StencilFunc(func, reference, 0xFF);
            gl::StencilOp(op, op, op);
        }
    }

    /// `glFinish`.
    pub fn finish(&self) {
        // SAFETY: a current context.
        unsafe { gl::Finish() }
    }

    // ------------------------------------------------------------------ buffers and arrays

    /// A vertex array with one interleaved float buffer; `attribs` are (location, floats,
    /// offset in floats) within vertices of `stride` floats. Returns (vao, vbo).
    pub fn vertex_array(
        &self,
        data: &[f32],
        stride: usize,
        attribs: &[(u32, i32, usize)],
    ) -> (GLuint, GLuint) {
        let (mut vao, mut vbo) = (0, 0);
        // SAFETY: a current context; the buffer size is the slice's byte length and OpenGL
        // copies from the slice before returning; attribute pointers are offsets into the
        // bound buffer, not client memory.
        unsafe {
            gl::GenVertexArrays(1, &mut vao);
            gl::BindVertexArray(vao);
            gl::GenBuffers(1, &mut vbo);
            gl::BindBuffer(gl::ARRAY_BUFFER, vbo);
            gl::BufferData(
                gl::ARRAY_BUFFER,
                core::mem::size_of_val(data) as isize,
                data.as_ptr().cast(),
                gl::STATIC_DRAW,
            );
            for &(loc, n, offset) in attribs {
                gl::EnableVertexAttribArray(loc);
                gl::VertexAttribPointer(
                    loc,
                    n,
                    gl::FLOAT,
                    gl::FALSE,
                    (stride * 4) as GLsizei,
                    (offset * 4) as *const c_void,
                );
            }
            gl::BindVertexArray(0);
        }
        (vao, vbo)
    }

    /// Replace the contents of buffer `vbo` (streamed data: skins, overlays).
    pub fn buffer_data(&self, vbo: GLuint, data: &[f32]) {
        // SAFETY: a current context; size from the slice, copied before returning.
        unsafe {
            gl::BindBuffer(gl::ARRAY_BUFFER, vbo);
            gl::BufferData(
                gl::ARRAY_BUFFER,
                core::mem::size_of_val(data) as isize,
                data.as_ptr().cast(),
                gl::STREAM_DRAW,
            );
            gl::BindBuffer(gl::ARRAY_BUFFER, 0);
        }
    }

    /// `glDrawArrays` on vertex array `vao`.
    pub fn draw_arrays(&self, vao: GLuint, mode: GLenum, first: usize, count: usize) {
        // SAFETY: a current context; the array's buffer was sized by us and OpenGL checks
        // draws against buffer sizes (out-of-range reads are defined as errors or zeros with
        // robust access; our counts come from the same data we uploaded).
        unsafe {
            gl::BindVertexArray(vao);
            gl::DrawArrays(mode, first as GLint, count as GLsizei);
            gl::BindVertexArray(0);
        }
    }

    /// Delete vertex arrays and buffers.
    pub fn delete_arrays(&self, vaos: &[GLuint], vbos: &[GLuint]) {
        // SAFETY: a current context; the counts are the slices' lengths.
        unsafe {
            gl::DeleteVertexArrays(vaos.len() as GLsizei, vaos.as_ptr());
            gl::DeleteBuffers(vbos.len() as GLsizei, vbos.as_ptr());
        }
    }

    // ------------------------------------------------------------------ shaders

    fn compile(&self, kind: GLenum, src: &str) -> Result<GLuint, String> {
        // SAFETY: a current context; the source pointer and length come from one &str.
        unsafe {
            let shader = gl::CreateShader(kind);
            let ptr = src.as_ptr().cast();
            let len = src.len() as GLint;
            gl::ShaderSource(shader, 1, &ptr, &len);
            gl::CompileShader(shader);
            let mut ok = 0;
            gl::GetShaderiv(shader, gl::COMPILE_STATUS, &mut ok);
            if ok == 0 {
                let log = self.info_log(shader, true);
                gl::DeleteShader(shader);
                return Err(log);
            }
            Ok(shader)
        }
    }

    fn info_log(&self, object: GLuint, shader: bool) -> String {
        let mut buf = vec![0u8; 4096];
        let mut len: GLsizei = 0;
        // SAFETY: the buffer holds buf.len() bytes, which is the size passed.
        unsafe {
            if shader {
                gl::GetShaderInfoLog(
                    object,
                    buf.len() as GLsizei,
                    &mut len,
                    buf.as_mut_ptr().cast(),
                );
            } else {
                gl::GetProgramInfoLog(
                    object,
                    buf.len() as GLsizei,
                    &mut len,
                    buf.as_mut_ptr().cast(),
                );
            }
        }
        buf.truncate(len.clamp(0, 4096) as usize);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// Compile and link a program from vertex and fragment sources.
    pub fn program(&self, vertex: &str, fragment: &str) -> Result<GLuint, String> {
        let vs = self.compile(gl::VERTEX_SHADER, vertex)?;
        let fs = self.compile(gl::FRAGMENT_SHADER, fragment)?;
        // SAFETY: a current context; shader names were just created.
        unsafe {
            let p = gl::CreateProgram();
            gl::AttachShader(p, vs);
            gl::AttachShader(p, fs);
            gl::LinkProgram(p);
            gl::DeleteShader(vs);
            gl::DeleteShader(fs);
            let mut ok = 0;
            gl::GetProgramiv(p, gl::LINK_STATUS, &mut ok);
            if ok == 0 {
                let log = self.info_log(p, false);
                gl::DeleteProgram(p);
                return Err(log);
            }
            Ok(p)
        }
    }

    /// `glUseProgram`.
    pub fn use_program(&self, p: GLuint) {
        // SAFETY: a current context.
        unsafe { gl::UseProgram(p) }
    }

    /// Location of a uniform (-1 when absent; setting -1 is a no-op in OpenGL).
    pub fn uniform_location(&self, p: GLuint, name: &str) -> GLint {
        let c = std::ffi::CString::new(name).unwrap_or_default();
        // SAFETY: a current context; c is NUL-terminated.
        unsafe { gl::GetUniformLocation(p, c.as_ptr()) }
    }

    /// Set an int uniform of the program in use.
    pub fn uniform_i(&self, loc: GLint, v: i32) {
        // SAFETY: a current context.
        unsafe { gl::Uniform1i(loc, v) }
    }

    /// Set a float uniform.
    pub fn uniform_f(&self, loc: GLint, v: f32) {
        // SAFETY: a current context.
        unsafe { gl::Uniform1f(loc, v) }
    }

    /// Set a vec3 or vec4 uniform (by the slice length, 3 or 4), or an array of them when
    /// `per` divides the length.
    pub fn uniform_vec(&self, loc: GLint, per: usize, v: &[f32]) {
        let n = (v.len() / per) as GLsizei;
        // SAFETY: a current context; n elements of `per` floats are within the slice.
        unsafe {
            match per {
                1 => gl::Uniform1fv(loc, n, v.as_ptr()),
                2 => gl::Uniform2fv(loc, n, v.as_ptr()),
                3 => gl::Uniform3fv(loc, n, v.as_ptr()),
                _ => gl::Uniform4fv(loc, n, v.as_ptr()),
            }
        }
    }

    /// Set an int array uniform.
    pub fn uniform_iv(&self, loc: GLint, v: &[i32]) {
        // SAFETY: a current context; the count is the slice length.
        unsafe { gl::Uniform1iv(loc, v.len() as GLsizei, v.as_ptr()) }
    }

    /// Set a mat4 uniform (column-major).
    pub fn uniform_mat4(&self, loc: GLint, m: &[f32; 16]) {
        // SAFETY: a current context; 16 floats.
        unsafe { gl::UniformMatrix4fv(loc, 1, gl::FALSE, m.as_ptr()) }
    }

    /// Set a mat3 uniform (column-major).
    pub fn uniform_mat3(&self, loc: GLint, m: &[f32; 9]) {
        // SAFETY: a current context; 9 floats.
        unsafe { gl::UniformMatrix3fv(loc, 1, gl::FALSE, m.as_ptr()) }
    }

    /// Set the value of a vertex attribute that has no array enabled.
    pub fn vertex_attrib4(&self, loc: GLuint, v: [f32; 4]) {
        // SAFETY: a current context.
        unsafe { gl::VertexAttrib4f(loc, v[0], v[1], v[2], v[3]) }
    }

    // ------------------------------------------------------------------ textures

    /// A new texture name bound to `target` on texture unit `unit`.
    pub fn new_texture(&self, target: GLenum, unit: u32) -> GLuint {
        let mut t = 0;
        // SAFETY: a current context; one name written.
        unsafe {
            gl::GenTextures(1, &mut t);
            gl::ActiveTexture(gl::TEXTURE0 + unit);
            gl::BindTexture(target, t);
        }
        t
    }

    /// Bind texture `t` to `target` on unit `unit`.
    pub fn bind_texture(&self, unit: u32, target: GLenum, t: GLuint) {
        // SAFETY: a current context.
        unsafe {
            gl::ActiveTexture(gl::TEXTURE0 + unit);
            gl::BindTexture(target, t);
        }
    }

    /// `glTexParameteri` on the texture bound to `target`.
    pub fn tex_parameter(&self, target: GLenum, name: GLenum, v: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::TexParameteri(target, name, v as GLint) }
    }

    /// Upload tightly packed 8-bit pixels (`channels` 1, 3 or 4) to `target` (a 2D texture or a
    /// cube face) of the bound texture. Fails when `data` is shorter than the image.
    pub fn tex_image_u8(
        &self,
        target: GLenum,
        w: usize,
        h: usize,
        channels: usize,
        data: &[u8],
    ) -> Result<(), String> {
        if data.len() < w * h * channels {
            return Err(format!(
                "texture data holds {} bytes, a {w}x{h} image needs {}",
                data.len(),
                w * h * channels
            ));
        }
        let format = match channels {
            1 => gl::RED,
            3 => gl::RGB,
            _ => gl::RGBA,
        };
        let internal = match channels {
            1 => gl::R8,
            3 => gl::RGB8,
            _ => gl::RGBA8,
        };
        // SAFETY: a current context; unpack alignment 1 makes OpenGL read exactly
        // w*h*channels bytes, which the check above guarantees are in the slice.
        unsafe {
            gl::PixelStorei(gl::UNPACK_ALIGNMENT, 1);
            gl::TexImage2D(
                target,
                0,
                internal as GLint,
                w as GLsizei,
                h as GLsizei,
                0,
                format,
                gl::UNSIGNED_BYTE,
                data.as_ptr().cast(),
            );
        }
        Ok(())
    }

    /// Upload one float per pixel (`w * h`, bottom row first) to the bound 2D texture (`R32F`).
    pub fn tex_image_f32(&self, w: usize, h: usize, data: &[f32]) -> Result<(), String> {
        if data.len() < w * h {
            return Err(format!(
                "data holds {} values, {w}x{h} needs {}",
                data.len(),
                w * h
            ));
        }
        // SAFETY: a current context; exactly w*h floats are read, checked above.
        unsafe {
            gl::PixelStorei(gl::UNPACK_ALIGNMENT, 4);
            gl::TexImage2D(
                gl::TEXTURE_2D,
                0,
                gl::R32F as GLint,
                w as GLsizei,
                h as GLsizei,
                0,
                gl::RED,
                gl::FLOAT,
                data.as_ptr().cast(),
            );
        }
        Ok(())
    }

    /// Allocate an uninitialized depth texture of `size x size` on the bound 2D texture.
    pub fn tex_depth(&self, internal: GLenum, size: usize) {
        // SAFETY: a current context; a null pointer asks OpenGL to allocate without reading.
        unsafe {
            gl::TexImage2D(
                gl::TEXTURE_2D,
                0,
                internal as GLint,
                size as GLsizei,
                size as GLsizei,
                0,
                gl::DEPTH_COMPONENT,
                gl::FLOAT,
                core::ptr::null(),
            );
        }
    }

    /// `glGenerateMipmap`.
    pub fn generate_mipmap(&self, target: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::GenerateMipmap(target) }
    }

    /// Delete textures.
    pub fn delete_textures(&self, t: &[GLuint]) {
        // SAFETY: a current context; the count is the slice length.
        unsafe { gl::DeleteTextures(t.len() as GLsizei, t.as_ptr()) }
    }

    // ------------------------------------------------------------------ framebuffers

    /// A new framebuffer, bound.
    pub fn new_framebuffer(&self) -> GLuint {
        let mut f = 0;
        // SAFETY: a current context; one name written.
        unsafe {
            gl::GenFramebuffers(1, &mut f);
            gl::BindFramebuffer(gl::FRAMEBUFFER, f);
        }
        f
    }

    /// `glBindFramebuffer` for `target` (FRAMEBUFFER, READ_FRAMEBUFFER or DRAW_FRAMEBUFFER).
    pub fn bind_framebuffer(&self, target: GLenum, f: GLuint) {
        // SAFETY: a current context.
        unsafe { gl::BindFramebuffer(target, f) }
    }

    /// A renderbuffer of `format` with `samples` samples (0: single), attached to the bound
    /// framebuffer at `attachment`.
    pub fn attach_renderbuffer(
        &self,
        attachment: GLenum,
        format: GLenum,
        samples: i32,
        w: i32,
        h: i32,
    ) -> GLuint {
        let mut r = 0;
        // SAFETY: a current context; one name written.
        unsafe {
            gl::GenRenderbuffers(1, &mut r);
            gl::BindRenderbuffer(gl::RENDERBUFFER, r);
            if samples > 0 {
                gl::RenderbufferStorageMultisample(gl::RENDERBUFFER, samples, format, w, h);
            } else {
                gl::RenderbufferStorage(gl::RENDERBUFFER, format, w, h);
            }
            gl::FramebufferRenderbuffer(gl::FRAMEBUFFER, attachment, gl::RENDERBUFFER, r);
        }
        r
    }

    /// Samples of the bound renderbuffer.
    pub fn renderbuffer_samples(&self) -> i32 {
        let mut s = 0;
        // SAFETY: a current context; one integer written.
        unsafe {
            gl::GetRenderbufferParameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_SAMPLES, &mut s)
        };
        s
    }

    /// Attach a 2D texture to the bound framebuffer.
    pub fn attach_texture(&self, attachment: GLenum, t: GLuint) {
        // SAFETY: a current context.
        unsafe { gl::FramebufferTexture2D(gl::FRAMEBUFFER, attachment, gl::TEXTURE_2D, t, 0) }
    }

    /// `glDrawBuffer` and `glReadBuffer`.
    pub fn draw_read_buffer(&self, draw: GLenum, read: GLenum) {
        // SAFETY: a current context.
        unsafe {
            gl::DrawBuffer(draw);
            gl::ReadBuffer(read);
        }
    }

    /// `glDrawBuffer`.
    pub fn draw_buffer(&self, draw: GLenum) {
        // SAFETY: a current context.
        unsafe { gl::DrawBuffer(draw) }
    }

    /// Completeness of the bound framebuffer.
    pub fn framebuffer_status(&self) -> GLenum {
        // SAFETY: a current context.
        unsafe { gl::CheckFramebufferStatus(gl::FRAMEBUFFER) }
    }

    /// `glBlitFramebuffer` from rectangle `src` to `dst` (x, y, width, height each).
    pub fn blit_rects(
        &self,
        src: crate::rect::Rect,
        dst: crate::rect::Rect,
        mask: GLenum,
        filter: GLenum,
    ) {
        // SAFETY: a current context.
        unsafe {
            gl::BlitFramebuffer(
                src.left,
                src.bottom,
                src.left + src.width,
                src.bottom + src.height,
                dst.left,
                dst.bottom,
                dst.left + dst.width,
                dst.bottom + dst.height,
                mask,
                filter,
            )
        }
    }

    /// Read an RGB 8-bit rectangle of the bound read framebuffer into `out`
    /// (`w * h * 3` bytes, bottom row first).
    pub fn read_rgb(
        &self,
        x: i32,
        y: i32,
        w: usize,
        h: usize,
        out: &mut [u8],
    ) -> Result<(), String> {
        if out.len() < w * h * 3 {
            return Err(format!(
                "pixel buffer holds {} bytes, {w}x{h} RGB needs {}",
                out.len(),
                w * h * 3
            ));
        }
        // SAFETY: pack alignment 1 makes OpenGL write exactly w*h*3 bytes, checked above.
        unsafe {
            gl::PixelStorei(gl::PACK_ALIGNMENT, 1);
            gl::ReadPixels(
                x,
                y,
                w as GLsizei,
                h as GLsizei,
                gl::RGB,
                gl::UNSIGNED_BYTE,
                out.as_mut_ptr().cast(),
            );
        }
        Ok(())
    }

    /// Read the depth of a rectangle of the bound read framebuffer into `out` (`w * h` floats).
    pub fn read_depth(
        &self,
        x: i32,
        y: i32,
        w: usize,
        h: usize,
        out: &mut [f32],
    ) -> Result<(), String> {
        if out.len() < w * h {
            return Err(format!(
                "depth buffer holds {} values, {w}x{h} needs {}",
                out.len(),
                w * h
            ));
        }
        // SAFETY: exactly w*h floats are written, checked above.
        unsafe {
            gl::PixelStorei(gl::PACK_ALIGNMENT, 1);
            gl::ReadPixels(
                x,
                y,
                w as GLsizei,
                h as GLsizei,
                gl::DEPTH_COMPONENT,
                gl::FLOAT,
                out.as_mut_ptr().cast(),
            );
        }
        Ok(())
    }

    /// Delete framebuffers and renderbuffers.
    pub fn delete_framebuffers(&self, fbos: &[GLuint], rbos: &[GLuint]) {
        // SAFETY: a current context; counts are the slice lengths.
        unsafe {
            gl::DeleteFramebuffers(fbos.len() as GLsizei, fbos.as_ptr());
            gl::DeleteRenderbuffers(rbos.len() as GLsizei, rbos.as_ptr());
        }
    }
}
