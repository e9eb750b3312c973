#!/usr/bin/env python3
"""Makes the renderer's bundled fonts (gl/assets/fonts/font-SCALE.png and fonts.txt) from
MuJoCo 3.1.6's own bitmap fonts (src/render/font/{normal,back,big}SCALE.inc, Apache-2.0), so
that text has MuJoCo's pixels and its metrics (mjrContext's charWidth, charHeight,
charWidthBig, charHeightBig), on which the UI framework's layout depends.

    python3 make-fonts.py [MUJOCO_REPO]     (default: /work/.mirror/google-deepmind+mujoco/repo;
                                            reads the files of tag 3.1.6 with git show)

For each of MuJoCo's font scales (50..300 percent) three styles of the printable ASCII
characters 32..126: normal, shadow (MuJoCo's "back" font, drawn in translucent black behind
normal text) and big. Each scale is one grayscale PNG (255 where MuJoCo's bitmap has a bit set,
0 elsewhere) with the three styles in horizontal bands: normal at the bottom, then shadow, then
big; characters side by side in code order, each cell as wide as its advance. fonts.txt lists
per scale and style: the cell height and the 95 advance widths. Standard library only.
"""
import os
import re
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/google-deepmind+mujoco/repo"
SCALES = (50, 100, 150, 200, 250, 300)


def inc(name):
    """The bytes of one MuJoCo font table."""
    text = subprocess.run(["git", "-C", REPO, "show", f"3.1.6:src/render/font/{name}.inc"],
                          check=True, capture_output=True, text=True).stdout
    body = text[text.index("{") + 1:text.rindex("}")]
    return [int(v) for v in re.findall(r"\d+", body)]


def cells(data):
    """(height, [(width, rows bottom first of 0/255)]) for characters 32..126."""
    adr, out, height = 0, [], 0
    for code in range(32, 127):
        assert data[adr] == code, f"font table out of step at {code}"
        w, h = data[adr + 1], data[adr + 2]
        stride = (w - 1) // 8 + 1
        bits = data[adr + 3:adr + 3 + stride * h]
        rows = [[255 if bits[r * stride + c // 8] & (0x80 >> (c % 8)) else 0 for c in range(w)]
                for r in range(h)]
        out.append((w, rows))
        height = h
        adr += 3 + stride * h
    assert data[adr] == 123, "font table does not end where expected"
    return height, out


def band(glyphs, height):
    """Rows bottom first of the glyphs side by side."""
    return [[p for _, rows in glyphs for p in rows[r]] for r in range(height)]


def png(path, rows_top_first):
    w, h = len(rows_top_first[0]), len(rows_top_first)
    raw = b"".join(b"\0" + bytes(r) for r in rows_top_first)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def main():
    lines = ["# scale style height widths(95, characters 32..126)"]
    for scale in SCALES:
        styles = [("normal", *cells(inc(f"normal{scale}"))), ("shadow", *cells(inc(f"back{scale}"))),
                  ("big", *cells(inc(f"big{scale}")))]
        bands = [band(g, h) for _, h, g in styles]
        width = max(len(b[0]) for b in bands)
        bottom_first = [r + [0] * (width - len(r)) for b in bands for r in b]
        png(os.path.join(HERE, f"font-{scale}.png"), bottom_first[::-1])
        for style, height, glyphs in styles:
            lines.append(f"{scale} {style} {height} " + " ".join(str(w) for w, _ in glyphs))
    with open(os.path.join(HERE, "fonts.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
