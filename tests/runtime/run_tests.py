"""Runs the runtime's pytest suite for CTest. Without torch or pytest for this Python: exit 77
(CTest's SKIP_RETURN_CODE) on a developer's machine, but a failure under CI=true, where the
runtime's environment (scripts/runtime-env.sh) must be there."""

import os
import sys

try:
    import pytest  # noqa: F401
    import torch  # noqa: F401
except ImportError as e:
    if __name__ == "__main__":
        print(f"runtime tests: {e.name} is not installed for {sys.executable} "
              "(scripts/runtime-env.sh creates the runtime's environment)")
        sys.exit(1 if os.environ.get("CI") == "true" else 77)
    raise


def main() -> int:
    # Test files named on the command line (relative to this folder) run alone; otherwise the
    # whole folder runs, less the files named after --ignore.
    here = os.path.dirname(os.path.abspath(__file__))
    files = [os.path.join(here, a) for a in sys.argv[1:] if a.endswith(".py") and "=" not in a]
    options = [a if not a.startswith("--ignore=") else "--ignore=" + os.path.join(here, a[9:])
               for a in sys.argv[1:] if not (a.endswith(".py") and "=" not in a)]
    return pytest.main([*(files or [here]), "-p", "no:cacheprovider", *options])


# Guarded: the runtime's fork server imports the main module of the process that starts it (a
# test that calls the launcher in process), which must not run the suite again.
if __name__ == "__main__":
    sys.exit(main())
