"""The `printgen` program: command-line arguments in, an exit code out, with Ctrl-C and SIGTERM answered from the
first line printgen runs.

Until a command starts its work (while Python imports printgen and click
reads the arguments) and after it, nothing is being written, so a signal
stops the program at once: one line and exit 130 (Ctrl-C) or 143 (SIGTERM),
never a traceback or click's "Aborted!". While a command works,
`printgen.cli.reports_errors` answers instead: the first signal unwinds the
command, removing its temporary files on the way. The handlers are set
before anything is imported (through `_signal`, the builtin module under
`signal`: `signal` itself builds enums first, which takes milliseconds). What
comes before printgen's first line is Python's: its start, the .pth files of
site-packages and the console script's first imports (some 10 to 20 ms), where
a signal meets Python's own default answer.
"""

from __future__ import annotations

import os
import sys

from printgen.signals import answer_signals, stop_now


def main() -> None:
    """The `printgen` command (and `python -m printgen`): the signal handlers first, then click."""
    answer_signals(stop_now)
    from printgen.cli import main as cli

    try:
        cli()
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None else 1)
    else:
        code = 0
    _leave(code)


def _leave(code: int) -> None:
    """Exit with `code` once what was said is flushed, skipping Python's own shutdown: the work is done (or
    undone), and a signal during that shutdown (which can take a while after loading reportlab, PIL and
    pypdfium2) would otherwise meet Python's default answer or stray lines from libraries' finalizers."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader went away (e.g. `| head`): nothing more to say
            code = code or 1
    os._exit(code)
