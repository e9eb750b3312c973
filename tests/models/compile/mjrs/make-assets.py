# Writes the small binary assets of assets.xml into assets/ (PNG, custom texture, custom height
# field, SKN skin): python3 make-assets.py assets. Deterministic; the outputs are committed.
import struct, zlib, os, sys
out = sys.argv[1]
def png(path, w, h, pix, grey=False):
    raw = b""
    ch = 1 if grey else 3
    for r in range(h):
        raw += b"\x00" + bytes(pix[r*w*ch:(r+1)*w*ch])
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0 if grey else 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(os.path.join(out, path), "wb").write(data)
def rgb(w, h, seed):
    return [(seed * 37 + r * 61 + c * 23 + k * 101) % 256 for r in range(h) for c in range(w) for k in range(3)]
png("checker6x4.png", 6, 4, rgb(6, 4, 1))
png("cube_cross.png", 16, 12, rgb(16, 12, 2))      # 3 rows x 4 columns of 4x4 faces
png("sky_cross.png", 16, 12, rgb(16, 12, 3))
for i, face in enumerate(("right", "left", "up", "down", "front", "back")):
    png(f"face_{face}.png", 4, 4, rgb(4, 4, 10 + i))
png("terrain.png", 5, 4, [(r * 5 + c) * 12 for r in range(4) for c in range(5)], grey=True)
# custom texture: int32 width, height, then RGB bytes
w, h = 3, 2
open(os.path.join(out, "custom.tex"), "wb").write(struct.pack("<ii", w, h) + bytes(rgb(w, h, 4)))
# custom height field: int32 nrow, ncol, then float32 elevations
nrow, ncol = 3, 4
elev = [0.1 * ((r * ncol + c) % 5) for r in range(nrow) for c in range(ncol)]
open(os.path.join(out, "terrain.bin"), "wb").write(struct.pack("<ii", nrow, ncol) + struct.pack(f"<{nrow*ncol}f", *elev))
# SKN skin: header nvert, ntexcoord, nface, nbone; float vert, float texcoord, int face; bones
vert = [0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0.2, 0.2, 0, 0.1, 0.1, 0.1]
tex = [0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.5]
face = [0, 2, 1, 1, 2, 3, 0, 1, 4, 1, 3, 4, 3, 2, 4, 2, 0, 4]
bones = [("skinbody1", [0, 0, 0], [1, 0, 0, 0], [0, 1, 4], [1, 0.5, 0.5]),
         ("skinbody2", [0.2, 0.2, 0], [1, 0, 0, 0], [2, 3, 4], [1, 1, 0.5])]
b = struct.pack("<4i", 5, 5, 6, len(bones)) + struct.pack(f"<{len(vert)}f", *vert) \
    + struct.pack(f"<{len(tex)}f", *tex) + struct.pack(f"<{len(face)}i", *face)
for name, pos, quat, ids, wts in bones:
    b += name.encode().ljust(40, b"\0") + struct.pack("<3f", *pos) + struct.pack("<4f", *quat) \
        + struct.pack("<i", len(ids)) + struct.pack(f"<{len(ids)}i", *ids) + struct.pack(f"<{len(wts)}f", *wts)
open(os.path.join(out, "patch.skn"), "wb").write(b)
