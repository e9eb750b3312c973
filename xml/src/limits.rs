//! Buffers sized by numbers in the input (`nrow`, `nkey`, `nuser_*`, image sizes, counts in
//! mesh files): checked before anything is allocated.
//!
//! MuJoCo keeps every such buffer's length in an `int` and reads no file over `INT_MAX` bytes,
//! so no model it can hold needs one buffer over [`MAX_BUFFER_BYTES`]. These buffers are filled
//! as soon as they are made, so a size the heap accepts lazily (Linux overcommits) would still
//! exhaust memory: the limit comes first, then a fallible reservation. Both fail with MuJoCo's
//! "Could not allocate memory" and name what was too large.

/// The most bytes one buffer sized by the input may take: MuJoCo's `INT_MAX`.
pub const MAX_BUFFER_BYTES: usize = i32::MAX as usize;

/// `n` copies of `value` as the buffer of `what`, or the error of [`reserve`].
pub fn filled<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    reserve(&mut v, n, what)?;
    v.resize(n, value);
    Ok(v)
}

/// Room for `n` more values in `v`, the buffer of `what`: refused when the whole would take
/// more than [`MAX_BUFFER_BYTES`] or the heap cannot provide it.
pub fn reserve<T>(v: &mut Vec<T>, n: usize, what: &str) -> Result<(), String> {
    let total = v
        .len()
        .checked_add(n)
        .ok_or_else(|| too_large(what, None, size_of::<T>()))?;
    let bytes = check(total, size_of::<T>(), what)?;
    v.try_reserve_exact(n)
        .map_err(|_| format!("Could not allocate memory for {what}: {bytes} bytes"))
}

/// The bytes of `n` values of `size` bytes for `what`, refused over [`MAX_BUFFER_BYTES`].
pub fn check(n: usize, size: usize, what: &str) -> Result<usize, String> {
    n.checked_mul(size)
        .filter(|&b| b <= MAX_BUFFER_BYTES)
        .ok_or_else(|| too_large(what, Some(n), size))
}

/// `a * b` values of `what`, or the error of a count that does not fit in memory.
pub fn count(a: usize, b: usize, what: &str) -> Result<usize, String> {
    a.checked_mul(b).ok_or_else(|| too_large(what, None, 1))
}

/// The message for a buffer over the limit: `values` of `size` bytes, when their number is one.
fn too_large(what: &str, values: Option<usize>, size: usize) -> String {
    let amount = match values {
        Some(n) if size == 1 => format!("{n} bytes"),
        Some(n) => format!("{n} values of {size} bytes"),
        None => "a size that overflows".to_string(),
    };
    format!(
        "Could not allocate memory for {what}: {amount}, more than the {MAX_BUFFER_BYTES} bytes \
         one buffer may take"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_buffers_are_made() {
        assert_eq!(filled(3, 1.5f32, "x").unwrap(), vec![1.5; 3]);
    }

    #[test]
    fn buffers_over_the_limit_are_refused_before_allocating() {
        let e = filled(MAX_BUFFER_BYTES / 4 + 1, 0f32, "hfield 'h'").unwrap_err();
        assert_eq!(
            e,
            "Could not allocate memory for hfield 'h': 536870912 values of 4 bytes, more than \
             the 2147483647 bytes one buffer may take"
        );
        let e = filled(usize::MAX, 0u8, "x").unwrap_err();
        assert!(e.contains("more than the 2147483647 bytes"), "{e}");
        let e = filled(usize::MAX / 2, 0f64, "x").unwrap_err();
        assert!(e.contains("9223372036854775807 values"), "{e}");
        let e = count(usize::MAX, 2, "x").unwrap_err();
        assert!(e.contains("a size that overflows"), "{e}");
    }
}
