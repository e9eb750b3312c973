# Writes meshes/wedge.stl, a binary STL triangular prism (8 facets, zero normals: MuJoCo
# recomputes them): python3 make-wedge.py. Deterministic; the output is committed.
import struct
v = [(0, 0, 0), (0.2, 0, 0), (0, 0.1, 0), (0, 0, 0.1), (0.2, 0, 0.1), (0, 0.1, 0.1)]
f = [(0, 2, 1), (3, 4, 5), (0, 1, 4), (0, 4, 3), (0, 3, 5), (0, 5, 2), (1, 2, 5), (1, 5, 4)]
b = b"mjrs wedge".ljust(80, b"\0") + struct.pack("<I", len(f))
for t in f:
    b += struct.pack("<3f", 0, 0, 0)
    for i in t:
        b += struct.pack("<3f", *v[i])
    b += b"\0\0"
open("meshes/wedge.stl", "wb").write(b)
