//! Model validation: every size, index and address a pipeline stage relies on, checked once
//! when a model is loaded, so that stages can index freely afterwards.

/// A model inconsistency found by [`validate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ValidationError {
    /// The array holding the bad value.
    pub field: &'static str,
    /// Index of the bad element.
    pub index: usize,
    /// What is wrong.
    pub problem: &'static str,
}

impl core::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}[{}]: {}", self.field, self.index, self.problem)
    }
}

/// Checks `m` (placeholder until the checks land in the next commit).
pub fn validate(_m: &crate::Model) -> Result<(), ValidationError> {
    Ok(())
}
