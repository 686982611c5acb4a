"""`python -m slimpack_runtime ...` is `slimpack-run ...` (torchrun -m slimpack_runtime)."""

import os
import sys

from .cli import main

if __name__ == "__main__":
    code = main()
    # Everything is written and every rank is gone: skip the interpreter's teardown, which
    # unloads torch for seconds on a loaded machine and would delay the exit status.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
