//! Meshes and skins: file decoders (STL, OBJ, MSH, SKN), processing, inertia, convex hull.
