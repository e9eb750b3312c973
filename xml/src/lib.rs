//! `mjrs-xml`: the MJCF (and URDF) parser on `roxmltree`, the model compiler that turns the
//! parsed spec into a `Model`, mesh/texture/height-field decoders, and the XML writer.
//!
//! Not implemented yet: it arrives with the XML-compiler issue. Until then, models are loaded
//! from MJB files written by MuJoCo (`mjref mjb M.xml -o M.mjb`).
