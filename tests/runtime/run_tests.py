"""Runs the runtime's pytest suite for CTest: exit 77 (CTest's SKIP_RETURN_CODE) when this Python
lacks torch or pytest, so a machine without them skips cleanly instead of failing."""

import os
import sys

try:
    import pytest  # noqa: F401
    import torch  # noqa: F401
except ImportError as e:
    print(f"runtime tests skipped: {e.name} is not installed for {sys.executable} "
          "(scripts/deps.sh installs python3-torch and python3-pytest)")
    sys.exit(77)

# Test files named on the command line (relative to this folder) run alone; otherwise the whole
# folder runs, less the files named after --ignore.
here = os.path.dirname(os.path.abspath(__file__))
files = [os.path.join(here, a) for a in sys.argv[1:] if a.endswith(".py") and "=" not in a]
options = [a if not a.startswith("--ignore=") else "--ignore=" + os.path.join(here, a[9:])
           for a in sys.argv[1:] if not (a.endswith(".py") and "=" not in a)]
sys.exit(pytest.main([*(files or [here]), "-p", "no:cacheprovider", *options]))
