//! Standard output that reports its failures: `println!` panics when stdout is a full device or
//! a closed pipe; these return the error, so the command fails with a message and exit status 1.

use std::io::Write as _;

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// Writes `text` and a newline to standard output.
pub fn println(text: &str) -> Result<(), String> {
    print(&format!("{text}\n"))
}
