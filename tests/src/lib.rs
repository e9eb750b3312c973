//! Conformance helpers shared by the integration tests.
