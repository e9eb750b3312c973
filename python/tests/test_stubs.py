"""The type stubs (mjrs/_mjrs.pyi) are valid Python and match the built extension: regenerating
them from the layout table through the extension gives the committed file."""
import ast
import pathlib
import subprocess
import sys

TOOLS = pathlib.Path(__file__).resolve().parents[1] / "tools"
STUBS = pathlib.Path(__file__).resolve().parents[1] / "mjrs" / "_mjrs.pyi"


def test_stubs_parse_and_are_up_to_date():
    tree = ast.parse(STUBS.read_text())
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    assert {"MjModel", "MjData", "MjOption", "mjtObj", "FatalError"} <= classes
    run = subprocess.run([sys.executable, str(TOOLS / "generate_stubs.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_every_function_has_a_stub():
    import mjrs._mjrs as ext
    tree = ast.parse(STUBS.read_text())
    declared = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    functions = {n for n in dir(ext) if n.startswith(("mj_", "mjd_")) and callable(getattr(ext, n))}
    assert functions <= declared, sorted(functions - declared)
