"""docs/notebooks/tour.ipynb runs end to end on the shared traces: executed by Debian's
`jupyter nbconvert --execute` when it is installed (offline: a local kernel), else its
cells run in order as one script."""
import os
import shutil
import subprocess
import sys


from conftest import need_shared

NOTEBOOK = os.path.join(os.environ.get("KS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                        "docs", "notebooks", "tour.ipynb")


def test_tour_notebook_runs(tmp_path):
    need_shared()
    nbconvert = shutil.which("jupyter-nbconvert")
    folder = os.path.dirname(NOTEBOOK)
    if nbconvert:
        run = subprocess.run([nbconvert, "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=300",
                              "--output-dir", str(tmp_path), NOTEBOOK], capture_output=True, text=True, cwd=folder)
        assert run.returncode == 0, run.stderr[-3000:]
        import nbformat

        executed = nbformat.read(os.path.join(tmp_path, "tour.ipynb"), as_version=4)
        errors = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])
                  if o.get("output_type") == "error"]
        assert not errors
        assert all(c.get("outputs") for c in executed.cells if c.cell_type == "code"), "a cell printed nothing"
        return
    import json

    with open(NOTEBOOK) as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    script = "\n\n".join("".join(c["source"]) for c in cells).replace("get_ipython()", "None")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=folder)
    assert run.returncode == 0, run.stderr[-3000:]
