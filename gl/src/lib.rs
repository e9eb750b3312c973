//! `mjrs-gl`: abstract visualization (camera, scene, perturbation, selection) and the OpenGL
//! renderer on `gl` + `glutin`, with the interactive viewer behind `mjrs view`.
//!
//! Not implemented yet: it arrives with the visualization issue.
