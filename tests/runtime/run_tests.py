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

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main([here, "-p", "no:cacheprovider", *sys.argv[1:]]))
