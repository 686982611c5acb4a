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


# The review's refusal of a run whose unit times scatter more than the model explains
# (core/app/run_calibration.h): on a machine loaded by other work, tiny CPU units do.
SCATTER_REFUSAL = "the unit times scatter more than the cost model explains"


@pytest.fixture(scope="session")
def fit_costs(slimpack_bin):
    """`slimpack fit-costs --trace TRACES --plan SCHEDULE --out OUT`, as a user runs it. A refusal
    for scatter is the review working (a loaded machine times tiny CPU units unevenly): it must
    say why and write nothing, and then --force writes the fit, which the caller checks. Any other
    failure fails the test. Returns the output of the run that wrote the profile."""
    import subprocess

    def run(traces, schedule, out):
        cmd = [slimpack_bin, "fit-costs", "--trace", traces, "--plan", schedule, "--out", out]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode == 2 and SCATTER_REFUSAL in proc.stderr:
            assert "was not written (--force writes it)" in proc.stderr, proc.stderr
            assert not os.path.exists(out)
            proc = subprocess.run(cmd + ["--force"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    return run
