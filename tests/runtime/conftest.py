"""pytest set-up of the runtime tests: the package from the source tree, the schedule maker, and
the `slimpack` program (SLIMPACK_BIN, as CTest sets it, else the usual build folders)."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "app", "runtime"))
sys.path.insert(0, HERE)

torch = pytest.importorskip("torch")
torch.set_num_threads(1)
# The launcher (a shell script) runs the interpreter these tests run under.
os.environ["SLIMPACK_PYTHON"] = sys.executable


def _find_slimpack():
    env = os.environ.get("SLIMPACK_BIN")
    if env:
        return env
    for build in ("build", "build-test"):
        path = os.path.join(ROOT, build, "app", "cli", "slimpack")
        if os.access(path, os.X_OK):
            return path
    return None


@pytest.fixture(scope="session")
def slimpack_bin():
    path = _find_slimpack()
    if path is None:
        pytest.skip("no slimpack program: set SLIMPACK_BIN or build build/app/cli/slimpack")
    return path


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def run_script():
    return os.path.join(ROOT, "app", "runtime", "slimpack-run")
