#!/usr/bin/env python3
"""Writes the generated bench models: stack.xml (a pyramid of 30 boxes), quadruped.xml (a
12-joint quadruped with a 20-ray height scanner on the height field of terrain.xml), arm.xml (the
Menagerie WidowX arm among free objects) and hand.xml (the Menagerie Allegro hand with touch
sensors and mesh fingertips, objects in its palm). The last two are derived from the Menagerie
files in tests/models/compile/menagerie (their licenses there), edited as each function says.

    python3 bench/models/make-models.py      (deterministic: rewrites the same files)"""
import math
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent
MENAGERIE = HERE.parent.parent / "tests" / "models" / "compile" / "menagerie"
MENAGERIE_REL = "../../tests/models/compile/menagerie"


def rocks(scale=None):
    """The three convex rock meshes of terrain.xml, optionally scaled."""
    out = re.findall(r'<mesh name="rock\d" [^>]*/>', (HERE / "terrain.xml").read_text())
    if scale:
        out = [m.replace("<mesh ", f'<mesh scale="{scale} {scale} {scale}" ') for m in out]
    return "\n".join("    " + m for m in out)


def menagerie(folder, xml, header):
    """A Menagerie model with its asset folder reached from bench/models and a header naming its
    origin and license; the body of the file is returned for the caller's edits."""
    text = (MENAGERIE / folder / xml).read_text()
    text = text.replace('meshdir="assets"', f'meshdir="{MENAGERIE_REL}/{folder}/assets"')
    text = text.replace('texturedir="assets"', f'texturedir="{MENAGERIE_REL}/{folder}/assets"')
    notice = (MENAGERIE / folder / "LICENSE").read_text().splitlines()[0]
    return f"""<!-- mjrs benchmark (bench/models.txt): {header}
     Derived by bench/models/make-models.py from MuJoCo Menagerie's {folder}/{xml}
     (tests/models/compile/menagerie/{folder}; {notice}; license text in LICENSE there). -->
""" + text


def arm():
    """wx250s.xml without its keyframe (whose qpos would not cover the objects), on a floor
    with eight free objects in reach: the sine law sweeps every joint through its range."""
    text = menagerie("trossen_wx250s", "wx250s.xml",
                     "the WidowX 250 arm (links collide as convex hulls of their STL meshes)\n"
                     "     sweeping its joints through their ranges among eight free objects.")
    text = re.sub(r"\s*<keyframe>.*?</keyframe>", "", text, flags=re.S)
    kinds = ['mesh" mesh="rock0', 'box" size=".03 .03 .03', 'mesh" mesh="rock1',
             'cylinder" size=".025 .04', 'mesh" mesh="rock2', 'box" size=".04 .025 .02',
             'mesh" mesh="rock0', 'mesh" mesh="rock1']
    objects = []
    for i, kind in enumerate(kinds):
        a, r = 2 * math.pi * i / len(kinds) + 0.3, 0.3 + 0.06 * (i % 2)
        objects.append(f'    <body pos="{r * math.cos(a):.3f} {r * math.sin(a):.3f} .12"><freejoint/>'
                       f'<geom type="{kind}" rgba=".6 .5 .4 1" density="300"/></body>')
    text = text.replace("  </asset>", f"{rocks(0.5)}\n  </asset>", 1)
    return text.replace("  <worldbody>\n", '  <worldbody>\n    <geom type="plane" size="2 2 .1"/>\n'
                        + "\n".join(objects) + "\n", 1)


def hand():
    """right_hand.xml with its fingertips colliding as the convex hulls of their tip meshes
    (instead of capsules), a touch sensor on each fingertip and the palm, three free objects
    (a scaled rock mesh, a box, a sphere) dropped into the upturned palm and a floor below."""
    text = menagerie("wonik_allegro", "right_hand.xml",
                     "the Allegro hand, palm up, fingertips colliding as convex meshes, touch\n"
                     "     sensors on the fingertips and the palm, three objects in its palm.")
    text = text.replace('<geom type="capsule" size="0.012 0.01" pos="0 0 0.019"/>',
                        '<geom type="mesh" mesh="link_3.0_tip" pos="0 0 0.0267" mass="0.01"/>')
    text = text.replace('<geom type="capsule" size="0.012 0.008" pos="0 0 0.035"/>',
                        '<geom type="mesh" mesh="link_15.0_tip" pos="0 0 0.0423" mass="0.01"/>')
    for finger, z in (("ff", 0.03), ("mf", 0.03), ("rf", 0.03), ("th", 0.045)):
        text = text.replace(f'<body name="{finger}_tip">',
                            f'<body name="{finger}_tip">\n                <site name="{finger}_touch" pos="0 0 {z}" size=".02"/>')
    text = text.replace('<geom class="palm_collision"/>',
                        '<geom class="palm_collision"/>\n      <site name="palm_touch" type="box" '
                        'size="0.03 0.06 0.05" pos="-0.0093 0 -0.0475"/>')
    text = text.replace("  </asset>", f"{rocks(0.25)}\n  </asset>", 1)
    objects = """    <geom type="plane" pos="0 0 -.15" size="1 1 .1"/>
    <body pos="-.03 0 .05"><freejoint/><geom type="mesh" mesh="rock0" density="500"/></body>
    <body pos=".04 .02 .06"><freejoint/><geom type="box" size=".015 .015 .015" density="500"/></body>
    <body pos=".02 -.03 .09"><freejoint/><geom type="sphere" size=".018" density="500"/></body>
"""
    text = text.replace("  <worldbody>\n", "  <worldbody>\n" + objects, 1)
    sensors = "\n".join(f'    <touch site="{s}_touch"/>' for s in ("ff", "mf", "rf", "th", "palm"))
    return text.replace("</mujoco>", f"  <sensor>\n{sensors}\n  </sensor>\n</mujoco>")


def stack():
    """A square pyramid of 30 boxes (layers of 4 x 4, 3 x 3, 2 x 2 and 1), each layer resting
    1 mm above the one below, so that it settles into many persistent box-box contacts."""
    h, gap = 0.05, 0.001
    bodies = []
    for layer in range(4):
        n = 4 - layer
        z = h + layer * (2 * h + gap) + gap
        for i in range(n):
            for j in range(n):
                x, y = ((k - (n - 1) / 2) * (2 * h + 0.004) for k in (i, j))
                bodies.append(f'    <body pos="{x:.4f} {y:.4f} {z:.4f}"><freejoint/>'
                              f'<geom size="{h} {h} {h}"/></body>')
    return f"""<!-- mjrs benchmark (bench/models.txt): a square pyramid of 30 free boxes on a plane (layers
     of 16, 9, 4 and 1), which settles into persistent box-box and box-plane contacts. Generated
     by bench/models/make-models.py; MIT like the repo. -->
<mujoco model="stack">
  <option timestep="0.002"/>
  <default>
    <geom type="box" rgba=".7 .5 .3 1" density="500"/>
  </default>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1"/>
    <geom type="plane" size="3 3 .1" rgba=".8 .8 .8 1"/>
{chr(10).join(bodies)}
  </worldbody>
</mujoco>
"""


def quadruped():
    """Legs: hip roll, hip pitch and knee, position-controlled through their ranges by the
    bench's sine law; the scanner: 4 x 5 rangefinders under the torso, tilted outwards."""
    terrain = (HERE / "terrain.xml").read_text()
    hfield = re.search(r'<hfield [^>]*/>', terrain).group(0)
    legs = []
    for name, sx, sy in (("fl", 1, 1), ("fr", 1, -1), ("hl", -1, 1), ("hr", -1, -1)):
        legs.append(f"""      <body name="{name}_hip" pos="{0.22 * sx} {0.14 * sy} 0">
        <joint name="{name}_roll" axis="1 0 0" range="-3 3"/>
        <geom type="sphere" size=".04"/>
        <body name="{name}_thigh" pos="0 {0.05 * sy} 0">
          <joint name="{name}_pitch" axis="0 1 0" range="-25 25"/>
          <geom type="capsule" fromto="0 0 0 0 0 -.18" size=".03"/>
          <body name="{name}_shin" pos="0 0 -.18">
            <joint name="{name}_knee" axis="0 1 0" range="{'-60 0' if sx > 0 else '0 60'}"/>
            <geom type="capsule" fromto="0 0 0 0 0 -.18" size=".022"/>
            <geom type="sphere" pos="0 0 -.18" size=".03" friction="1.2"/>
            <site name="{name}_foot" pos="0 0 -.18" size=".035"/>
          </body>
        </body>
      </body>""")
    sites, sensors = [], []
    for i in range(4):
        for j in range(5):
            x, y = -0.15 + 0.1 * i, -0.1 + 0.05 * j
            sites.append(f'      <site name="scan{i}{j}" pos="{x:.2f} {y:.2f} -.05" zaxis="{2 * x:.2f} {2 * y:.2f} -1" size=".005"/>')
            sensors.append(f'    <rangefinder site="scan{i}{j}"/>')
    acts = []
    for name in ("fl", "fr", "hl", "hr"):
        for j in ("roll", "pitch", "knee"):
            acts.append(f'    <position joint="{name}_{j}" kp="150" inheritrange="1"/>')
    return f"""<!-- mjrs benchmark (bench/models.txt): a quadruped (12 position-controlled joints) walking on
     the height field of terrain.xml, with a 4 x 5 rangefinder height scanner under its torso and
     a touch sensor per foot. Generated by bench/models/make-models.py; MIT like the repo. -->
<mujoco model="quadruped">
  <compiler angle="degree"/>
  <option timestep="0.004"/>
  <default>
    <joint damping="2" armature=".01"/>
    <geom rgba=".5 .6 .7 1" density="600"/>
  </default>
  <asset>
    {hfield}
  </asset>
  <worldbody>
    <light pos="0 0 4" dir="0 0 -1"/>
    <geom type="hfield" hfield="terrain" rgba=".6 .5 .4 1"/>
    <body name="torso" pos=".3 -.7 .84">
      <freejoint/>
      <geom type="box" size=".27 .1 .05"/>
{chr(10).join(sites)}
{chr(10).join(legs)}
    </body>
  </worldbody>
  <actuator>
{chr(10).join(acts)}
  </actuator>
  <sensor>
{chr(10).join(sensors)}
{chr(10).join(f'    <touch site="{n}_foot"/>' for n in ("fl", "fr", "hl", "hr"))}
    <accelerometer site="scan00"/>
    <gyro site="scan00"/>
  </sensor>
</mujoco>
"""


(HERE / "stack.xml").write_text(stack())
(HERE / "quadruped.xml").write_text(quadruped())
(HERE / "arm.xml").write_text(arm())
(HERE / "hand.xml").write_text(hand())
