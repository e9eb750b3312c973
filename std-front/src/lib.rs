//! `mjrs-std`: files, VFS, handlers.
