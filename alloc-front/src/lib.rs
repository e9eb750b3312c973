//! `mjrs-alloc`: owned `Model` and `Data` on heap buffers.
#![no_std]
extern crate alloc;
