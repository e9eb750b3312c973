//! Fuzz targets for mjrs (arrive with the fuzzing issue): the MJB loader fed arbitrary bytes,
//! MJB round trips, the XML compiler, and stepping arbitrary states. Until then, the MJB loader
//! is exercised by deterministic corruption tests in `core/tests/`.
