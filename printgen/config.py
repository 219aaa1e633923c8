"""User defaults: printgen.toml files and PRINTGEN_* environment variables in, default option values out.

Order, highest first: the command line (not seen here), `printgen.toml` in
the working folder, `printgen.toml` in the user config folder
($XDG_CONFIG_HOME/printgen, else ~/.config/printgen), then the environment
variables PRINTGEN_PAPER and PRINTGEN_LANG. A config file holds build
options at the top level (`paper = "letter"`, `lang = "de"`, any key of a
batch job) and simulate options in a `[simulate]` table. Defaults apply only
to layouts that take them: `sheets = 100` does not trouble a deck. One key
is about the commands rather than the layouts: `index = false` keeps
`build` and `batch` from refreshing OUT/index.html (as `--no-index` does).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.errors import UsageProblem
from printgen.options import BUILD_BY_KEY, SIMULATE_BY_KEY, parse, read_table
from printgen.values import flag

FILE_NAME = "printgen.toml"
ENVIRONMENT = {"PRINTGEN_PAPER": "paper", "PRINTGEN_LANG": "lang"}
INDEX = "index"
"""The key that turns the preview page (OUT/index.html) of `build` and `batch` on or off."""


@dataclass(frozen=True, slots=True)
class Defaults:
    """Default option values for `build` and `simulate`, each with where it came from."""

    build: dict[str, Any] = field(default_factory=dict)
    simulate: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    index: bool = True
    """Refresh OUT/index.html after `build` and `batch`."""


def user_config_file(environ: Mapping[str, str] | None = None) -> Path:
    """The user's printgen.toml (it need not exist)."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / "printgen" / FILE_NAME


def load_defaults(cwd: Path | None = None, environ: Mapping[str, str] | None = None,
                  for_build: bool = True) -> Defaults:
    """The defaults in force: environment, then the user's file, then the working folder's file on top. Not
    `for_build` (simulate's): the build defaults are not read, so one that is wrong does not stop it."""
    environ = os.environ if environ is None else environ
    build: dict[str, Any] = {}
    simulate: dict[str, Any] = {}
    sources: dict[str, str] = {}
    index = True
    for variable, key in ENVIRONMENT.items() if for_build else ():
        value = environ.get(variable)
        if value:
            build[key] = parse(BUILD_BY_KEY[key], value, variable)
            sources[key] = variable
    for path in (user_config_file(environ), (cwd or Path.cwd()) / FILE_NAME):
        if _present(path):
            read_build, read_simulate, read_index = _read(path, for_build)
            build.update(read_build)
            simulate.update(read_simulate)
            sources.update({key: str(path) for key in [*read_build, *read_simulate]})
            if read_index is not None:
                index = read_index
                sources[INDEX] = str(path)
    return Defaults(build, simulate, sources, index)


def _present(path: Path) -> bool:
    """Whether a config file is there to read: a folder printgen may not look into (a HOME kept by `sudo -u`)
    holds none that this user could have meant."""
    try:
        return path.is_file()
    except OSError:
        return False


def _read(path: Path, for_build: bool = True) -> tuple[dict[str, Any], dict[str, Any], bool | None]:
    """A config file's build defaults (not read unless `for_build`), simulate defaults and `index` switch (None:
    not set there)."""
    from printgen.tomlfile import parse_toml

    data = parse_toml(path, str(path))
    index = None
    if INDEX in data:
        try:
            index = flag(data.pop(INDEX))
        except ValueError as error:
            raise UsageProblem(f"{path}: {INDEX}: {error}") from None
    simulate = data.pop("simulate", {})
    if not isinstance(simulate, dict):
        raise UsageProblem(f"{path}: simulate: must be a table ([simulate])")
    if "output" in data:
        raise UsageProblem(f"{path}: output: names one build's files, so it cannot be a default (use out for "
                           "the folder)")
    misplaced = next((key for key in data if key in SIMULATE_BY_KEY and key not in BUILD_BY_KEY), None)
    if misplaced is not None:
        raise UsageProblem(f"{path}: {misplaced}: is a key of simulate; put it under a [simulate] table")
    if "layout" in data:
        raise UsageProblem(f"{path}: layout: printgen.toml holds defaults of options; name the layout on the "
                           "command line (or in a batch manifest's jobs)")
    if isinstance(data.get("build"), dict):
        raise UsageProblem(f"{path}: build: build's defaults are the file's top-level keys, not a [build] table")
    build = read_table(data, BUILD_BY_KEY, str(path), also=("simulate", INDEX)) if for_build else {}
    return build, read_table(simulate, SIMULATE_BY_KEY, str(path), "simulate."), index
