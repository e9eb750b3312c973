#!/usr/bin/env python3
"""Pictures of MuJoCo's simulate and mjrs's viewer on the same model, for docs/viewer/.

Runs both under a virtual X server (Xvfb), each in a window of the same size, lets them
simulate for a few seconds and grabs the window from the X server (XGetImage through ctypes,
PNG written with zlib: no packages beyond the standard library). A second pair is taken after
the same keys and clicks sent to both through XTest.

    python3 docs/viewer/capture.py MJREF_PYTHON MJRS_BINARY MODEL.xml OUT_PREFIX

MJREF_PYTHON is a Python with the mujoco 3.1.6 wheel (its `mujoco.viewer.launch` runs
simulate's UI); MJRS_BINARY is `target/release/mjrs`. Writes OUT_PREFIX-mujoco.png,
OUT_PREFIX-mjrs.png and the same with -panels.
"""
import ctypes
import os
import struct
import subprocess
import sys
import time
import zlib

W, H = 1200, 800
# simulate opens its window at 2/3 of the screen
SCREEN = "1800x1200x24"
SETTLE = 6.0  # seconds of simulation before the picture

# from a path, as the simulate program: the free camera is aligned to the model
LAUNCH = """
import sys, mujoco.viewer
mujoco.viewer.launch_from_path(sys.argv[1])
"""


def grab(display, w, h):
    """The screen's top-left w x h pixels as RGB rows, top row first."""
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XGetImage.restype = ctypes.c_void_p
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                              ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XGetPixel.restype = ctypes.c_ulong
    x11.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    dpy = x11.XOpenDisplay(display.encode())
    if not dpy:
        sys.exit(f"cannot open display {display}")
    root = x11.XDefaultRootWindow(dpy)
    all_planes, zpixmap = 0xFFFFFFFF, 2
    img = x11.XGetImage(dpy, root, 0, 0, w, h, all_planes, zpixmap)
    if not img:
        sys.exit("XGetImage failed")

    # XImage: int width, height, xoffset, format; char* data; ... bytes_per_line at a fixed
    # offset on 64-bit Linux: read the 24-bit TrueColor data directly (4 bytes a pixel, BGRX)
    class XImage(ctypes.Structure):
        _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int),
                    ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                    ("data", ctypes.POINTER(ctypes.c_ubyte)), ("byte_order", ctypes.c_int),
                    ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
                    ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                    ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]

    xi = XImage.from_address(img)
    if xi.bits_per_pixel != 32:
        sys.exit(f"unexpected {xi.bits_per_pixel} bits per pixel")
    raw = ctypes.string_at(xi.data, xi.bytes_per_line * h)
    rows = []
    for y in range(h):
        line = raw[y * xi.bytes_per_line: y * xi.bytes_per_line + 4 * w]
        rgb = bytearray(3 * w)
        rgb[0::3], rgb[1::3], rgb[2::3] = line[2::4], line[1::4], line[0::4]
        rows.append(bytes(rgb))
    return rows


def send(display, actions):
    """Send keys and clicks through the XTest extension: ("key", "Alt_L+r"), ("click", x, y)."""
    x11 = ctypes.CDLL("libX11.so.6")
    xtst = ctypes.CDLL("libXtst.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XStringToKeysym.restype = ctypes.c_ulong
    x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
    x11.XKeysymToKeycode.restype = ctypes.c_ubyte
    x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                          ctypes.c_ulong]
    xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                          ctypes.c_int, ctypes.c_ulong]
    dpy = x11.XOpenDisplay(display.encode())

    def flush():
        x11.XFlush(dpy)
        time.sleep(0.3)

    # no window manager: give the keyboard to the window under the pointer
    xtst.XTestFakeMotionEvent(dpy, 0, W // 2, H // 2, 0)
    flush()
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    win, child = ctypes.c_ulong(), ctypes.c_ulong()
    ints = [ctypes.c_int() for _ in range(4)]
    mask = ctypes.c_uint()
    x11.XQueryPointer(ctypes.c_void_p(dpy), ctypes.c_ulong(x11.XDefaultRootWindow(dpy)),
                      ctypes.byref(win), ctypes.byref(child), *[ctypes.byref(i) for i in ints],
                      ctypes.byref(mask))
    if child.value:
        revert_to_parent, current_time = 2, 0
        x11.XSetInputFocus(ctypes.c_void_p(dpy), child, revert_to_parent,
                           ctypes.c_ulong(current_time))
        flush()
    for action in actions:
        if action[0] == "key":
            codes = [x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(k.encode()))
                     for k in action[1].split("+")]
            for c in codes:
                xtst.XTestFakeKeyEvent(dpy, c, 1, 0)
            for c in reversed(codes):
                xtst.XTestFakeKeyEvent(dpy, c, 0, 0)
        else:
            _, x, y = action
            xtst.XTestFakeMotionEvent(dpy, 0, x, y, 0)
            flush()
            xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
            flush()
            xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
        flush()


def write_png(path, w, h, rows):
    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)

    body = zlib.compress(b"".join(b"\0" + r for r in rows), 9)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", body))
        f.write(chunk(b"IEND", b""))


def xvfb():
    """A virtual X server on the first free display from :90."""
    n = 90
    while os.path.exists(f"/tmp/.X{n}-lock"):
        n += 1
    server = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", SCREEN, "-nolisten", "tcp"],
                              stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    return server, f":{n}"


def shoot(cmd, out, actions):
    server, display = xvfb()
    env = dict(os.environ, DISPLAY=display)
    app = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(SETTLE)
        if actions:
            send(display, actions)
            time.sleep(2.0)
        write_png(out, W, H, grab(display, W, H))
        print("wrote", out)
    finally:
        app.kill()
        app.wait()
        server.kill()
        server.wait()


# second pictures: the rendering section alone (alt-R), the info overlay (F2), the right
# panel's control section opened by a click on its title
ACTIONS = [("key", "Alt_L+r"), ("key", "F2"), ("click", W - 200, 55)]


def main():
    python, mjrs, model, prefix = sys.argv[1:5]
    for suffix, actions in (("-panels", ACTIONS), ("", [])):
        shoot([python, "-c", LAUNCH, model], f"{prefix}{suffix}-mujoco.png", actions)
        shoot([mjrs, "view", model, "--size", f"{W}x{H}"], f"{prefix}{suffix}-mjrs.png", actions)


if __name__ == "__main__":
    main()
