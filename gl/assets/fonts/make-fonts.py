#!/usr/bin/env python3
"""Makes the renderer's bundled fonts (gl/assets/fonts/font-SCALE.png and fonts.txt).

    python3 make-fonts.py [DejaVuSans.ttf]   (needs Pillow; Debian: fonts-dejavu-core)

For each of MuJoCo's font scales (50..300 percent) three styles of the printable ASCII
characters 32..126, rasterized from DejaVu Sans: normal (cell height 18 px at 100%, like
MuJoCo's), shadow (normal dilated by one pixel, drawn in translucent black behind normal text)
and big (cell height 37 px at 100%). Each scale is one grayscale PNG, alpha coverage, with the
three styles in horizontal bands: normal at the bottom, then shadow, then big; characters side
by side in code order. fonts.txt lists per scale and style: the cell height and the 95 advance
widths (the glyph cells' widths).
"""
import os
import sys

from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
TTF = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SCALES = (50, 100, 150, 200, 250, 300)
CHARS = [chr(c) for c in range(32, 127)]


def glyphs(height):
    """Cells of one style: (height, [(width, image)]) with the text baseline at the descent."""
    size = height
    while True:
        font = ImageFont.truetype(TTF, size)
        ascent, descent = font.getmetrics()
        if ascent + descent <= height - 1 or size <= 4:
            break
        size -= 1
    cells = []
    for ch in CHARS:
        width = max(1, round(font.getlength(ch))) + 1
        img = Image.new("L", (width, height), 0)
        ImageDraw.Draw(img).text((0, height - 1 - ascent - descent), ch, font=font, fill=255)
        cells.append((width, img))
    return cells


def band(cells, height):
    img = Image.new("L", (sum(w for w, _ in cells), height), 0)
    x = 0
    for w, g in cells:
        img.paste(g, (x, 0))
        x += w
    return img


def main():
    lines = ["# scale style height widths(95, characters 32..126)"]
    for scale in SCALES:
        h, hb = round(18 * scale / 100), round(37 * scale / 100)
        normal = glyphs(h)
        shadow = [(w, g.filter(ImageFilter.MaxFilter(3))) for w, g in normal]
        big = glyphs(hb)
        bands = [band(normal, h), band(shadow, h), band(big, hb)]
        atlas = Image.new("L", (max(b.width for b in bands), 2 * h + hb), 0)
        # bottom band first: image rows run top-down
        atlas.paste(bands[2], (0, 0))
        atlas.paste(bands[1], (0, hb))
        atlas.paste(bands[0], (0, hb + h))
        atlas.save(os.path.join(HERE, f"font-{scale}.png"), optimize=True)
        for style, height, cells in (("normal", h, normal), ("shadow", h, shadow), ("big", hb, big)):
            lines.append(f"{scale} {style} {height} " + " ".join(str(w) for w, _ in cells))
    with open(os.path.join(HERE, "fonts.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
