"""Building one layout: a layout and build options in, a checked plan and then its PDF/SVG files on disk out.

Thin dispatch: what a layout kind prints, checks and names lives in
`printgen.kinds`; this module reads option values into the kind's options
dataclass, makes every check a build makes (the options together, the
rules, the names of every file) before anything is written, and writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from printgen import layouts
from printgen.check import require_agreement
from printgen.errors import PrintgenError, UsageProblem
from printgen.files import ProgressCallback, Written
from printgen.kinds import Layout, OptionProblem, Plan, kind_of
from printgen.kinds.common import CommonOptions
from printgen.naming import names
from printgen.options import BUILD_BY_KEY, Option, parse, refuse_inapplicable
from printgen.output import check_file_target, check_folder_target, check_writable, special


class OptionsRefused(UsageProblem):
    """Options that cannot work together (or with the layout), named as the caller names options."""


FORMATS = ("pdf", "svg")
"""What a build writes (`format = "both"` is both)."""
Shown = Callable[[Option], str]
"""Names an option in messages: its flag on the command line, its key in a manifest."""


def flag_of(option: Option) -> str:
    return option.flag


def build_options(layout: Layout, given: Mapping[str, Any], defaults: Mapping[str, Any] | None = None,
                  shown: Shown = flag_of, sources: Mapping[str, str] | None = None) -> CommonOptions:
    """The options of `layout`'s kind from the options given (refused if the kind does not take them) over
    defaults.

    `given` and `defaults` map option keys to values already read by their declarations; defaults (config
    files, environment, the default pack) apply only where the layout takes them, where they change what this
    build writes and where they work with it; `sources` says where each came from (for messages). `shown`
    names an option in messages (a flag on the command line, a key in a manifest)."""
    kind = kind_of(layout)
    refuse_inapplicable((BUILD_BY_KEY[key] for key in given), kind.name, layout, layout.name,
                        switch_named(given, shown))
    given = dict(given)
    explicit_out = "out" in given
    out, output = Path(given.pop("out", (defaults or {}).get("out", "output"))), given.pop("output", None)
    if output is not None:  # -o names a file where the user stands, or in the folder --out names
        out, output = _output(output, given, out if explicit_out else Path("."), explicit_out, shown)
    values = {k: v for k, v in (defaults or {}).items() if k != "out" and BUILD_BY_KEY[k].applies(kind.name, layout)}
    values |= given
    fmt = values.pop("format", "pdf")
    if fmt == "svg":  # defaults that change only the PDF do not trouble an SVG-only build
        values = {k: v for k, v in values.items() if k in given or not BUILD_BY_KEY[k].pdf_only}
    elif fmt == "pdf":
        values = {k: v for k, v in values.items() if k in given or k != "svg_text"}
    if "paper" not in given and not kind.takes_paper(layout, values):
        values.pop("paper", None)  # a default paper is for pages printed on paper, not a sheet-sized page or
        # a whole board (which takes the smallest paper it fits)
    while True:  # a default that cannot work with what this build is (a deck's bleed on a pad) is not applied
        origins = tuple((key, where) for key, where in (sources or {}).items() if key in values and key not in given)
        options = kind.options_type(out=out, formats=("pdf", "svg") if fmt == "both" else (fmt,), output=output,
                                    origins=origins, **values)
        try:
            kind.check_options(layout, options)
        except OptionProblem as problem:
            if problem.key in values and problem.key not in given:
                del values[problem.key]
                continue
        return options


def switch_named(values: Mapping[str, Any], shown: Shown) -> Shown:
    """`shown`, but on the command line a switch `values` turns off is named by its off flag (--no-crop-marks);
    in a file its key stays its name."""
    def named(option: Option) -> str:
        if option.off and values.get(option.key) is False and shown(option).startswith("-"):
            return option.off
        return shown(option)

    return named


OTHER_FILES = frozenset((".png", ".jpg", ".jpeg", ".gif", ".tif", ".tiff", ".webp", ".bmp", ".heic", ".eps", ".ps",
                         ".zip", ".txt", ".html", ".htm", ".doc", ".docx", ".odt", ".toml", ".csv", ".json"))
"""Extensions of files a build does not write: `-o pad.png` is refused, not written as pad.png.pdf."""


def _output(output: str, given: dict[str, Any], out: Path, explicit_out: bool, shown: Shown) -> tuple[Path, str]:
    """The folder and file name `-o` gives; an extension .pdf or .svg also sets the format (into `given`)."""
    folder, _, stem = str(output).replace("\\", "/").rpartition("/")
    suffix = Path(stem).suffix.lower()
    if suffix in (".pdf", ".svg"):
        stem = stem[: -len(suffix)]
        if "format" not in given:  # -o club.svg: the extension says which file to write
            given["format"] = suffix[1:]
        elif given["format"] not in (suffix[1:], "both"):
            raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} ends in {suffix}, but the format is "
                               f"{given['format']}")
    elif suffix in OTHER_FILES:
        raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} ends in {Path(stem).suffix}, but a build "
                           "writes PDF and SVG: end it in .pdf or .svg (or in neither)")
    if stem in ("", ".", "..") or stem.lower() in (".pdf", ".svg"):  # (-o .pdf: an extension, no name)
        raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} does not name a file")
    if folder:
        if explicit_out:
            raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} names a folder ({folder}) and so does "
                               f"{shown(BUILD_BY_KEY['out'])}; give one of them")
        if (out := Path(folder)).exists() and not out.is_dir():  # (named by -o: not by --out)
            raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r}: {folder} is a file, not a folder")
    kind = special(out / stem) if not suffix else None  # (in the folder it is written to)
    if kind:  # -o /dev/null would write /dev/null.pdf beside the device
        raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} is {kind}; -o names the file to write (its "
                           f".pdf or .svg is added){' and --out the folder' * (kind == 'a folder')}")
    return out, stem


def plan(layout: Layout, options: CommonOptions, shown: Shown = flag_of) -> Plan:
    """Every check a build of `layout` makes (its options together, the rules, paper fit, lucky pool, the
    targets) done now, and the writers that then write its files: a batch plans every job before any job
    writes, and carries the plans to its workers."""
    kind = kind_of(layout)
    if not isinstance(options, kind.options_type):
        raise UsageProblem(f"{layout.name} is {kind.noun}: its options are {kind.options_type.__name__}, not "
                           f"{type(options).__name__}")
    origins = dict(options.origins)

    def sourced(option: Option) -> str:  # a default from printgen.toml or the environment: named as it is there
        return f"{option.key} (from {origins[option.key]})" if option.key in origins else shown(option)

    named = switch_named({key: getattr(options, key, None) for key in options.changed()}, sourced)
    _check_values(options, named)
    try:
        _check_common(options, named)
        kind.check_options(layout, options)
    except OptionProblem as problem:
        raise OptionsRefused(f"{named(BUILD_BY_KEY[problem.key])}: {problem}") from None
    require_agreement(layout)
    made = kind.plan(layout, options, names(layout, options))
    for target in made.targets:
        (check_file_target if target.suffix in (".pdf", ".svg") else check_folder_target)(target)
        check_writable(target, made=True, problem=PrintgenError)
    return made


def _check_values(options: CommonOptions, named: Shown) -> None:
    """UsageProblem naming the first option whose value its declaration would not accept (values from the command
    line, a manifest or a config file were read by it already; this holds library callers to the same)."""
    for fmt in options.formats:
        if fmt not in FORMATS:
            raise UsageProblem(f"{named(BUILD_BY_KEY['format'])}: {fmt!r} is not one of {', '.join(FORMATS)}")
    for key in options.changed():
        if key in ("format", "icc") or getattr(options, key) is None:
            continue
        parse(BUILD_BY_KEY[key], getattr(options, key), named(BUILD_BY_KEY[key]))


def _check_common(options: CommonOptions, named: Shown) -> None:
    """OptionProblem for common options that cannot work: the output folder a file, an unusable profile, an
    option that changes only a format this build does not write."""
    from printgen.colour_management import press

    if options.out.exists() and not options.out.is_dir():
        raise OptionProblem("out", f"{options.out} is a file, not a folder")
    if options.icc is not None:
        if not options.icc.is_file():  # (a FIFO would never end)
            raise OptionProblem("icc", f"{options.icc}: no such file (or not a regular file)")
        press(options.icc)  # a UsageProblem naming the file unless it is a usable CMYK printer profile
    changed = options.changed()
    if "pdf" not in options.formats:
        for key in changed:
            if BUILD_BY_KEY[key].pdf_only:
                raise OptionProblem(key, "changes only the PDF, and -f svg writes none (use -f both)")
    elif "svg" not in options.formats and "svg_text" in changed:
        raise OptionProblem("svg_text", "changes only SVGs, and -f pdf writes none (use -f both or -f svg)")


def options_for(ref: str | Layout, **values: Any) -> CommonOptions:
    """The options of `ref`'s kind (a layout, or its name or file) with `values` as the declarations read them
    (e.g. `options_for("qwixx-standard", sheets=100, out=Path("pads"))`); an option of another kind is a
    TypeError, as the kind's dataclass has no such field. `plan` checks the values."""
    layout = layouts.load(ref) if isinstance(ref, str) else ref
    return kind_of(layout).options_type(**values)


def build(ref: str | Layout, options: CommonOptions, on_page: ProgressCallback | None = None,
          on_written: Callable[[Written], None] | None = None) -> list[Path]:
    """Check layout `ref` (a name, a file, or a loaded layout) against the rules and write its files; returns the
    paths written (each also handed to `on_written` as soon as it is whole, so a later failure still reports
    what was written)."""
    layout = layouts.load(ref) if isinstance(ref, str) else ref
    return [written.path for written in plan(layout, options).write(on_page, on_written)]
