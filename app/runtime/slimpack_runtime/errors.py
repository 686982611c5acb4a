"""The two kinds of failure, kept apart so that the command line maps them to the CLI's exit codes.

`UserError` is bad input (a schedule the runtime cannot run, a bad option): exit 2 with one line
that names the file or field and the reason, never a traceback. `RunError` is a run that started and
failed (a rank crashed, gradients do not match): exit 1.
"""


class UserError(Exception):
    """Bad input: the message names the file/field and the reason (exit 2)."""


class RunError(Exception):
    """A run that failed after it started (exit 1)."""
