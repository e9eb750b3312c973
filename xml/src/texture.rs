//! Textures: PNG and custom-format files, cube and skybox layouts, built-in procedural textures.
