"""printgen's user-facing errors: what went wrong in, one line per problem and an exit code out.

Usage problems (bad files, bad options) exit 2; runtime problems exit 1.
The CLI prints `str(error)` and exits with `error.exit_code`, never a traceback.
"""

import os
from pathlib import Path


class PrintgenError(Exception):
    """A problem the user can act on; runtime problems exit 1."""

    exit_code = 1


class UsageProblem(PrintgenError):
    """The user asked for something impossible (a bad file or option); exit 2."""

    exit_code = 2


class LayoutError(UsageProblem):
    """A layout file that cannot be read or is invalid; each line is `file: key: what is wrong`."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class CheckFailed(PrintgenError):
    """A layout disagrees with the rules engine; each line names the layout, key and mismatch."""

    def __init__(self, mismatches: list[str]) -> None:
        super().__init__("\n".join(mismatches))
        self.mismatches = mismatches


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C (KeyboardInterrupt) so temporary files are removed."""


def shown(value: object) -> str:
    """A value from outside in a message: its repr, cut to 40 characters (a 5,000-digit number stays a line)."""
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)  # (as TOML writes them)
    if len(text) <= 40:
        return text
    quote = text[-1] if isinstance(value, str) else ""  # (a text cut short keeps its closing quote)
    return text[:37 - len(quote)] + "..." + quote


def display_name(path: Path | str) -> str:
    """A file name fit to print and to write as UTF-8: bytes that are not UTF-8 shown as `\\xNN`."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def is_utf8(path: Path | str) -> bool:
    """Whether a name (as Python decodes the file system's bytes) is valid UTF-8 text."""
    try:
        os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def utf8_name(path: Path | str, what: str) -> None:
    """UsageProblem unless `path` is valid UTF-8 text (`what` it is, for the message): printgen writes names
    into PDFs, SVGs and the preview page, which hold nothing else."""
    if not is_utf8(path):
        raise UsageProblem(f"{display_name(path)}: {what} must be valid UTF-8 text (rename it)")
