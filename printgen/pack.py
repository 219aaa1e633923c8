"""The default print pack: the options given in, the checked jobs (plans) that `build --all` runs out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printgen import layouts
from printgen.batch import Job
from printgen.build import build_options, plan
from printgen.errors import PrintgenError, UsageProblem
from printgen.kinds import kind_of
from printgen.options import BUILD_BY_KEY

_PAD = {"sheets": 50, "format": "both"}
PACK: tuple[tuple[str, dict[str, object]], ...] = (
    ("qwixx-standard", _PAD),
    ("qwixx-big-points", _PAD),
    ("qwixx-gemixxt-a", _PAD),
    ("qwixx-gemixxt-b", _PAD),
    ("qwixx-bonus-a", _PAD),
    ("qwixx-bonus-b", _PAD),
    ("qwixx-cards", _PAD),
    ("qwixx-cards-deck", {"format": "both"}),
    ("one-to-9-deck", {"format": "both"}),
    ("one-to-9-board", {"format": "both"}),
    ("one-to-9-stars", {"format": "both"}),
)
"""Every score sheet as a 50-sheet pad (as many a page as the paper holds whole: 2 on A4) plus its SVG (Big
Points sheets each with their lucky pair); both decks for long-edge duplex on A4 with their card SVGs; the One to 9 board whole on the smallest
paper it fits (A1) and its star tokens."""


def default_pack(given: Mapping[str, Any] | None = None, defaults: Mapping[str, Any] | None = None,
                 sources: Mapping[str, str] | None = None) -> tuple[list[Job], list[str]]:
    """The default print pack's jobs, and a line for each option typed that a layout could not take as typed;
    `given` options (typed by the user) apply to every layout that takes them.

    An option that no layout of the pack takes is a UsageProblem; `-o` cannot name eleven jobs. A paper the
    whole board does not fit leaves it on its own (said in a line). Every job is planned (options, rules, paper
    fit, file names) before the list is returned.
    """
    given = dict(given or {})
    if "output" in given:
        raise UsageProblem("--output: names one layout's files; --all writes eleven (use --out for the folder)")
    loaded = [(layouts.load(name), settings) for name, settings in PACK]
    for key in given:
        option = BUILD_BY_KEY[key]
        if not any(option.applies(kind_of(layout).name, layout) for layout, _ in loaded):
            raise UsageProblem(f"{option.flag}: does not apply to any layout of the default pack")
    jobs: list[Job] = []
    notes: list[str] = []
    for layout, settings in loaded:
        chosen = {k: v for k, v in given.items() if BUILD_BY_KEY[k].applies(kind_of(layout).name, layout)}
        if "seed" in chosen and not (getattr(layout, "lucky_numbers", False) or {**settings, **chosen}.get("shuffle")):
            del chosen["seed"]  # (the pack's shuffle-able sheets are printed unshuffled: a seed changes nothing)
        options = build_options(layout, {**settings, **chosen}, defaults, sources=sources)
        try:
            checked = plan(layout, options)  # every check a build makes, for every job, before any job writes
        except PrintgenError as error:
            if not isinstance(error, UsageProblem):  # (the disk, not the options: a folder that cannot be written)
                raise
            if "paper" not in chosen or kind_of(layout).takes_paper(layout, settings):  # (only the whole board
                raise UsageProblem(f"{layout.name}: {error}") from None                # takes no paper of its own)
            del chosen["paper"]  # a whole board on the paper typed for the pack's pads and decks: on its own
            checked = plan(layout, build_options(layout, {**settings, **chosen}, defaults, sources=sources))
            notes.append(f"{layout.name}: printed whole on {checked.options.paper or 'its own paper'}: it does "
                         f"not fit {given['paper']} (add --tile to print it on {given['paper']} sheets)")
        jobs.append(Job(checked, layout.name))
    return jobs, notes
