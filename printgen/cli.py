"""The command line: arguments in, calls into printgen and one-line reports out (click; no logic here).

`build` and `simulate` take their options from the declarations in
printgen.options; defaults come from printgen.config below the command line.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, wraps
from pathlib import Path
from typing import Any, TypeVar

import click
from click.shell_completion import CompletionItem

from printgen import __version__
from printgen.errors import PrintgenError, Terminated, UsageProblem
from printgen.options import BUILD_OPTIONS, SIMULATE_OPTIONS, Option, parse
from printgen.signals import answer_signals, unwind

F = TypeVar("F", bound=Callable[..., Any])


class _Path(click.Path):
    """click's Path, refusing an empty value (which would name the current folder)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name names no file or folder", param, ctx)
        return super().convert(value, param, ctx)


class CliError(click.ClickException):
    """A PrintgenError shown as `Error: ...` with its own exit code."""

    def __init__(self, error: PrintgenError) -> None:
        super().__init__(str(error))
        self.exit_code = error.exit_code  # type: ignore[misc]


def reports_errors(command: F) -> F:
    """Turn printgen's errors into one-line messages and exit codes, never tracebacks.

    While the command runs, its first Ctrl-C or SIGTERM unwinds it (KeyboardInterrupt or Terminated: temporary
    files are removed on the way) and any later one is ignored, so nothing cuts that short; it then exits 130 or
    143 with one line. Before and after, printgen.launch answers signals at once.
    """

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
        answer_signals(unwind)
        try:
            try:
                return command(*args, **kwargs)
            except PrintgenError as error:
                raise CliError(error) from None
            except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                sys.exit(1)
            except RecursionError:
                raise CliError(UsageProblem("input nested too deeply to read")) from None
            except RuntimeError as error:  # a signal landing while Python makes a class comes wrapped in one
                if isinstance(error.__cause__, (KeyboardInterrupt, Terminated)):
                    raise error.__cause__ from None
                raise
            except MemoryError:
                raise CliError(PrintgenError("out of memory; no partial file was left behind")) from None
            except ImportError as error:  # an installed module that cannot be loaded: mostly memory (ulimit -v)
                raise CliError(PrintgenError(_load_failure(error))) from None
            except OSError as error:
                if not error.filename and _stdout_failing(error):  # (what was written to files is whole)
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (no second try at exit)
                    raise CliError(PrintgenError(f"cannot write to standard output: {error.strerror or error}")) \
                        from None
                where = f"{error.filename}: " if error.filename else ""
                raise CliError(PrintgenError(f"{where}{error.strerror or error}; no partial file was left "
                                             "behind")) from None
        except KeyboardInterrupt:  # (also when it arrives while one of the errors above is being reported)
            click.echo("Error: interrupted; no partial file was left behind", err=True)
            sys.exit(130)
        except Terminated:
            click.echo("Error: terminated; no partial file was left behind", err=True)
            sys.exit(143)
        finally:
            if signal.getsignal(signal.SIGTERM) is unwind:  # no signal came (after one, printgen is leaving and
                for signum, handler in previous.items():     # further ones stay ignored)
                    if handler is not None:
                        signal.signal(signum, handler)

    return wrapper  # type: ignore[return-value]


def _stdout_failing(error: OSError) -> bool:
    """Whether `error` came from writing to standard output (click's echo to it: a full disk, /dev/full), not
    from a file printgen writes."""
    trace = error.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        if frame.f_code.co_name == "echo" and frame.f_globals.get("__name__") == "click.utils":
            try:
                return bool(frame.f_locals.get("file").fileno() == sys.stdout.fileno())  # type: ignore[union-attr]
            except (AttributeError, OSError, ValueError):
                return False
        trace = trace.tb_next
    return False


def _load_failure(error: ImportError) -> str:
    """One line for a module that is installed but cannot be loaded."""
    what = error.name or "a library"
    text = str(error).splitlines()[0] if str(error) else ""
    if "failed to map segment" in text or "cannot allocate memory" in text.lower():
        return f"out of memory while loading {what}; no partial file was left behind"
    return f"cannot load {what} ({text[:120]}); no partial file was left behind"


def _complete_layouts(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from printgen import layouts
    from printgen.games import GAMES

    games = [game.key for game in GAMES.values() if game.sheetless]
    names = [*layouts.builtin_names(), *games] if ctx.command.name == "simulate" else layouts.builtin_names()
    found = [CompletionItem(n) for n in names if n.startswith(incomplete)]
    return found or [CompletionItem(incomplete, type="file")]


class _Described(click.Option):
    """A click option whose help is written only when it is shown: saying which layout kinds take an option
    loads every kind's code, which a build of one kind does not need."""

    def __init__(self, *args: Any, describe: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._describe = describe

    @property
    def help(self) -> str:
        return self._describe()

    @help.setter
    def help(self, value: str | None) -> None:
        """(click's own help is set once, empty: `describe` writes it)"""


def _declared(table: tuple[Option, ...]) -> Callable[[F], F]:
    """Add every option of `table` to a command: values arrive as raw text and are read by the declaration."""

    @cache
    def everyone() -> frozenset[str]:
        return frozenset().union(*(o.who() for o in table))

    def described(option: Option) -> Callable[[], str]:
        def describe() -> str:
            text = option.help if option.who() == everyone() and not option.only else (
                f"{option.help} [{option.takers_text()}]")
            if not option.switch and option.default not in (None, False) and not isinstance(option.default, tuple):
                text += f"  [default: {option.default}]"
            return text
        return describe

    def decorate(command: F) -> F:
        for option in reversed(table):
            if option.switch:
                flags = f"{option.flag}/{option.off}" if option.off else option.flag
                decls = [flags, *option.flags[1:], option.key]
                click.option(*decls, is_flag=True, default=option.default, cls=_Described,
                             describe=described(option))(command)
                continue

            def complete(ctx: click.Context, param: click.Parameter, incomplete: str,
                         choices: tuple[str, ...] = option.choices) -> list[CompletionItem]:
                return [CompletionItem(c) for c in choices if c.startswith(incomplete.lower())]

            click.option(*option.flags, option.key, default=None, metavar=option.metavar or "VALUE",
                         cls=_Described, describe=described(option), shell_complete=complete)(command)
        return command

    return decorate


def _given(ctx: click.Context, table: tuple[Option, ...], values: dict[str, Any]) -> dict[str, Any]:
    """The options typed on the command line, read by their declarations (UsageProblem naming the flag)."""
    given: dict[str, Any] = {}
    for option in table:
        source = ctx.get_parameter_source(option.key)
        if source is None or source is click.core.ParameterSource.DEFAULT:
            continue
        value = values[option.key]
        given[option.key] = value if option.switch else parse(option, value, option.flag)
    return given


class _OneLine(click.ClickException):
    """A usage error of click's own (an unknown option, a value out of its range) as the house says them: one
    line naming the option, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)


def one_line(error: click.UsageError, command: str = "printgen") -> str:
    """Click's usage error in printgen's words: `--jobs: 0 is out of range 1..64`; after an unknown option or
    command, the --help to read (`command`'s, when the error does not say which command it met)."""
    def ranged(text: str) -> str:
        text = re.sub(r" is not a valid integer range\.?$", " is not a whole number", text)  # (`--port abc`)
        return re.sub(r"(\S+) is not in the range (\S+)<=x<=(\S+)\.$", r"\1 is out of range \2..\3", text).rstrip(".")

    command = error.ctx.command_path if error.ctx is not None else command
    if isinstance(error, click.MissingParameter) and error.param is not None:  # (its own message is empty)
        param = error.param
        if isinstance(param, click.Argument):
            return f"Missing argument '{param.metavar or (param.name or '').upper()}' (see {command} --help)"
        return f"{param.opts[0]}: missing (see {command} --help)"
    if isinstance(error, click.BadOptionUsage) and not isinstance(error, click.NoSuchOption):
        return f"{error.option_name}: needs a value (see {command} --help)"
    if isinstance(error, click.BadParameter) and error.param is not None:
        option = f"{error.param.opts[0]}: " if isinstance(error.param, click.Option) else ""
        missing = re.fullmatch(r"(?:Path|File|Directory) '(.*)' does not exist\.?", error.message)
        if missing:  # a file argument or option naming nothing: the file is what the line is about
            if os.path.islink(missing.group(1)):
                return f"{option}{missing.group(1)}: a link to nothing (its target is missing, or links go round)"
            return f"{option}{missing.group(1)}: no such file or folder"
        kind = re.fullmatch(r"(?:Path|File|Directory) '(.*)' is a (directory|file)\.?", error.message)
        if kind:
            return f"{option}{kind.group(1)}: " + ("a folder, not a file" if kind.group(2) == "directory" else
                                                   "a file, not a folder")
        if isinstance(error.param, click.Argument):
            return ranged(error.message)
        return f"{error.param.opts[0]}: {ranged(error.message)}"
    if isinstance(error, click.NoSuchOption):  # (in words of its own: click's change from version to version)
        guess = f" (did you mean {' or '.join(sorted(error.possibilities))}?)" if error.possibilities else ""
        return f"{error.option_name}: no such option{guess}; see {command} --help"
    return f"{ranged(error.format_message())} (see {command} --help)"


@contextmanager
def _in_one_line(ctx: click.Context | None = None) -> Iterator[None]:
    """Click's usage errors raised within, as one line (`one_line`); `printgen` alone still shows its help.
    `ctx`: the group's, whose subcommand is meant where click's error names no command (`-o` with no value)."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as error:
        command = " ".join(filter(None, [ctx.command_path, ctx.invoked_subcommand])) if ctx else "printgen"
        raise _OneLine(one_line(error, command)) from None


class _Commands(click.Group):
    """printgen's commands, whose usage errors (click's own) are one line each: those of the group's own
    arguments (`make_context`) and those of a command's (`invoke`)."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _in_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _in_one_line(ctx):
            return super().invoke(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printgen")
def main() -> None:
    """Print-ready Qwixx and One to 9 material as PDF and SVG, checked by rules engines.

    Defaults for any build option can live in printgen.toml (this folder, then
    ~/.config/printgen/) or in PRINTGEN_PAPER and PRINTGEN_LANG; the command
    line wins. Shell completion (layout names too): see the README.

    \b
    Example:
      printgen build qwixx-standard -n 100 -p letter -l de
      printgen build --all
    """


@main.command("list")
@reports_errors
def list_layouts() -> None:
    """List every built-in layout: name, kind, size and what it is.

    \b
    Example:
      printgen list
    """
    from printgen import layouts

    rows = [(name, layout.kind, layouts.describe(layout), layout.description)
            for name, layout in ((n, layouts.load(n)) for n in layouts.builtin_names())]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])


@main.command()
@click.argument("name", metavar="NAME|FILE.toml", shell_complete=_complete_layouts)
@reports_errors
def show(name: str) -> None:
    """Show a layout: its kind, size, the options it takes and every key with its value.

    \b
    Example:
      printgen show qwixx-big-points
      printgen show ./my-sheet.toml
    """
    from printgen.show import show_layout

    for line in show_layout(name):
        click.echo(line)


@main.command()
@click.argument("names", nargs=-1, metavar="[NAME|FILE.toml]...", shell_complete=_complete_layouts)
@reports_errors
def check(names: tuple[str, ...]) -> None:
    """Hold layouts (default: all built-in ones) against the rules engine.

    Exits 1 naming every mismatch (2 when a layout file cannot be read,
    naming those too). Warns (exit 0) about text or fields below the
    minimum sizes.

    \b
    Example:
      printgen check qwixx-standard ./my-sheet.toml
    """
    from printgen import layouts
    from printgen.check import mismatches, warnings
    from printgen.errors import CheckFailed, LayoutError

    found: list[str] = []
    unread: list[str] = []
    for name in names or layouts.builtin_names():
        try:
            layout = layouts.load(name)
        except UsageProblem as error:  # (the other layouts are still checked: every problem is named at once)
            unread.append(str(error))
            continue
        problems = mismatches(layout)
        found += problems
        if not problems:
            for warning in warnings(layout):
                click.echo(f"Warning: {warning}", err=True)
            click.echo(f"ok  {name}")
    if unread:
        raise LayoutError(found + unread)
    if found:
        raise CheckFailed(found)


@main.command()
@click.argument("names", nargs=-1, metavar="[NAME|FILE.toml]...", shell_complete=_complete_layouts)
@click.option("--all", "build_all", is_flag=True, help="Build the default print pack (options given apply "
              "to the layouts that take them).")
@_declared(BUILD_OPTIONS)
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="With --all: jobs at once, 1..64 (default: the number of cores).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--index/--no-index", "index", default=None,
              help="Refresh OUT/index.html, the preview page (default: on, but never with -o; `index = false` in "
                   "printgen.toml).")
@reports_errors
def build(names: tuple[str, ...], build_all: bool, jobs: int | None, quiet: bool, index: bool | None,
          **values: Any) -> None:
    """Build layouts (built-in names or layout files) into OUT as PDF and/or SVG.

    Files are named after the layout and what sets the build apart (e.g.
    qwixx-big-points-it.pdf, one-to-9-board-tiles-a4.pdf); -o names them.
    An option that does not apply to a layout is refused. A layout that
    fails `printgen check` is refused. OUT/index.html is refreshed (not
    when -o names the file).

    \b
    Examples:
      printgen build qwixx-standard -n 100 --per-page 2 -p a4
      printgen build qwixx-big-points -n 50 -l it --seed 7
      printgen build ./my-sheet.toml -f both --out prints/ -o club-sheet
      printgen build qwixx-cards-deck -p letter --alignment-page
      printgen build qwixx-cards-deck --card-size 2.5x3.5in --per-page 1 --cmyk
      printgen build one-to-9-board --tile -p letter
      printgen build --all -j 2
    """
    from printgen.build import build_options
    from printgen.config import load_defaults

    ctx = click.get_current_context()
    given = _given(ctx, BUILD_OPTIONS, values)
    if build_all == bool(names):
        raise UsageProblem("give layout names or --all (not both, not neither)")
    if jobs is not None and not build_all:
        raise UsageProblem("--jobs: runs several jobs at once, so it goes with --all (or use printgen batch)")
    if "output" in given and len(names) > 1:
        raise UsageProblem("--output: names one layout's files; give one layout, or leave -o out")
    if "output" in given and index:
        raise UsageProblem("--index: a file named with -o is just that file, with no preview page beside it; "
                           "leave out one of them")
    defaults = load_defaults()
    with_index = defaults.index if index is None else index
    if build_all:
        from printgen.pack import default_pack

        pack, notes = default_pack(given, defaults.build, defaults.sources)
        for note in notes:
            click.echo(f"Note: {note}", err=True)
        _run_batch(pack, pack[0].out, jobs, quiet, with_index)
        return
    from printgen import layouts
    from printgen.batch import Job, check_outputs
    from printgen.build import plan
    from printgen.output import folders_flushed_once

    twice = next((name for k, name in enumerate(names) if name in names[:k]), None)
    if twice is not None:
        raise UsageProblem(f"{twice}: given twice; give each layout once")
    planned = []
    for name in names:  # every layout checked, and no two writing one file, before any is written
        layout = layouts.load(name)
        planned.append((name, layout, plan(layout, build_options(layout, given, defaults.build,
                                                                 sources=defaults.sources))))
    try:
        check_outputs([Job(checked, name) for name, _, checked in planned])
    except UsageProblem as error:
        hint = "build them one at a time, each with its own -o" if len(names) > 1 else "choose another name"
        raise UsageProblem(f"{error} ({hint})") from None
    for name, layout, checked in planned:
        with folders_flushed_once():  # the build's files and the preview page: each folder flushed once
            written = _run_build(name, checked)
            _warn(layout, checked.options)
            if with_index and "output" not in given:  # a file named with -o is just that file: no preview beside it
                _refresh_index(checked.options.out, written)


@main.command()
@click.argument("manifest", type=_Path(dir_okay=False, path_type=Path), metavar="FILE.toml")
@click.option("--out", type=_Path(path_type=Path), default=None,
              help="Output folder; wins over the manifest's `out` (default: the manifest's `out`, else output/).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Jobs at once, 1..64 (default: the number of cores).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--allow-outside", is_flag=True, help="Let output names leave the output folder.")
@click.option("--index/--no-index", "index", default=None,
              help="Refresh OUT/index.html, the preview page (default: on; `index = false` in printgen.toml).")
@reports_errors
def batch(manifest: Path, out: Path | None, jobs: int | None, quiet: bool, allow_outside: bool,
          index: bool | None) -> None:
    """Check every job of a manifest, then run them in parallel and refresh OUT/index.html.

    Each [[jobs]] entry has a `layout` (a name, or a file relative to the
    manifest's folder), an optional `output` name and any option of
    `printgen build` as a key (sheets, per_page, lang, format, card_size,
    duplex, ...). Every job is checked (layout, options, paper fit, points
    table, file names) before any job writes.

    \b
    Example manifest (club.toml):
      out = "club"
      [[jobs]]
      layout = "qwixx-standard"
      output = "club-pad"
      sheets = 200
      format = "both"
      [[jobs]]
      layout = "qwixx-big-points"
      sheets = 100
      lang = "it"
    \b
    Example:
      printgen batch club.toml -j 2
    """
    from printgen.batch import read_manifest
    from printgen.config import load_defaults

    defaults = load_defaults()
    loaded = read_manifest(manifest, out, allow_outside, defaults.build, defaults.sources)
    for job in loaded:
        _warn(job.plan.layout, job.plan.options)
    _run_batch(loaded, loaded[0].out if loaded else (out or Path("output")), jobs, quiet,
               defaults.index if index is None else index)


@main.command()
@click.argument("folder", type=_Path(file_okay=False, path_type=Path), default=Path("output"),
                metavar="[OUT]")
@reports_errors
def index(folder: Path) -> None:
    """Rebuild OUT/index.html: every PDF and SVG set in OUT with pages, paper, options and thumbnails.

    \b
    Example:
      printgen index output/
    """
    from printgen.index import write_index

    if not folder.is_dir():
        raise UsageProblem(f"{folder}: " + ("not a folder" if folder.exists() else "no such folder"))
    click.echo(f"wrote {write_index(folder)}")


@main.command()
@click.argument("pdf", type=_Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE.pdf")
@click.option("--out", type=_Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the PNGs (default: FILE-preview/ beside the PDF).")
@click.option("--width", type=click.IntRange(50, 4000), default=600, show_default=True,
              help="PNG width, 50..4000 pixels.")
@click.option("--pages", default=None, metavar="RANGE", help="Pages to render, e.g. 1-3,7 (default: the first 100).")
@reports_errors
def preview(pdf: Path, out: Path | None, width: int, pages: str | None) -> None:
    """Render pages of a PDF to PNG (the first 100 unless --pages says which).

    \b
    Example:
      printgen preview output/qwixx-standard.pdf --width 1200 --pages 1-3
    """
    from printgen.preview import page_count, page_range, render_pages

    folder = out or pdf.with_name(f"{pdf.stem}-preview")
    drawn: list[Path] = []
    bar: Any = None

    def advance(png: Path, total: int) -> None:  # a bar on a terminal once a few pages are to be drawn
        nonlocal bar
        drawn.append(png)
        if bar is None and total >= 5 and sys.stderr.isatty():
            bar = click.progressbar(length=total, label=f"{pdf.name}: pages", file=sys.stderr)
            bar.__enter__()
        if bar is not None:
            bar.update(1)

    try:
        pngs = render_pages(pdf, folder, width, page_range(pages) if pages else None, advance)
    except (PrintgenError, OSError):
        if bar is not None:  # (the bar's line ends before the note)
            bar.__exit__(None, None, None)
            bar = None
        if drawn:  # (each PNG written is whole: the user should know they are there)
            click.echo(f"Note: {len(drawn)} PNG{'s' if len(drawn) != 1 else ''} had been written to {folder}",
                       err=True)
        raise
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    click.echo(f"wrote {len(pngs)} PNG{'s' if len(pngs) != 1 else ''} to {folder}")
    total = page_count(pdf)
    if not pages and total > len(pngs):
        click.echo(f"(the first {len(pngs)} of {total:,} pages; --pages renders others)")


def _run_batch(jobs: list[Any], out: Path, workers: int | None, quiet: bool, with_index: bool) -> None:
    from printgen.output import folders_flushed_once

    with folders_flushed_once():  # every job's files and the preview page: each folder flushed once
        _run_jobs(jobs, out, workers, quiet, with_index)


def _run_jobs(jobs: list[Any], out: Path, workers: int | None, quiet: bool, with_index: bool) -> None:
    import time

    from printgen.batch import default_workers, run_jobs, summary

    workers = workers or default_workers()
    start = time.perf_counter()
    show = not quiet and sys.stderr.isatty()
    if show:
        pages = [0]

        def done(result: Any) -> None:
            pages[0] += sum(f.pages for f in result.files if f.path.suffix == ".pdf")
            bar.update(1, pages[0])

        bar: Any
        with click.progressbar(length=len(jobs), label="jobs", file=sys.stderr,
                               item_show_func=lambda n: n is not None and f"{n} pages written" or "") as bar:
            results = run_jobs(jobs, workers, done)
    else:
        results = run_jobs(jobs, workers)
    for line in summary(results, time.perf_counter() - start, workers):
        click.echo(line)
    if with_index:
        _refresh_index(out, [written for result in results for written in result.files])
    failed = [r for r in results if r.error]
    if failed:
        raise PrintgenError(f"{len(failed)} of {len(results)} jobs failed: {', '.join(r.job.label for r in failed)}")


def _warn(layout: Any, options: Any) -> None:
    """One line on stderr per legibility warning for `layout` built with `options` (the exit code stays 0)."""
    from printgen.check import warnings

    for warning in warnings(layout, options):
        click.echo(f"Warning: {warning}", err=True)


def _refresh_index(out: Path, written: list[Any]) -> None:
    """Rewrite OUT/index.html after a build (given what it wrote); a failure there is one warning line, never a
    lost summary. A folder that is not there (every job failed to make it) has no page to refresh."""
    from printgen.index import write_index

    if not written and not out.is_dir():
        return
    try:
        click.echo(f"preview: {write_index(out, written)}")
    except (PrintgenError, OSError) as error:
        reason = error.strerror or error if isinstance(error, OSError) else error
        click.echo(f"Warning: {out / 'index.html'} was not refreshed: {reason}", err=True)


@main.command()
@click.argument("name", metavar="NAME|FILE.toml|one-to-9", shell_complete=_complete_layouts)
@_declared(SIMULATE_OPTIONS)
@reports_errors
def simulate(name: str, **values: Any) -> None:
    """Play whole games on a sheet's rules and check every final score against the printed table.

    Options a game does not take are refused (e.g. --jokers outside the card
    game, --render for One to 9).

    \b
    Example:
      printgen simulate qwixx-big-points --players 4 --games 1000 --seed 1
      printgen simulate qwixx-standard --games 1 --render game.png
      printgen simulate qwixx-cards --players 3 --games 1000 --jokers
      printgen simulate one-to-9 --players 3 --games 500 --seed 1
    """
    from printgen.config import load_defaults
    from printgen.simulate import run_simulation

    ctx = click.get_current_context()
    given = _given(ctx, SIMULATE_OPTIONS, values)
    defaults = load_defaults(for_build=False)  # (a build default that is wrong is build's problem, not simulate's)
    settings, game = _simulation_settings(name, given, defaults.simulate)
    players = settings["players"]
    fewest, most = game.players
    if not fewest <= players <= most:
        played = f"{'One to 9' if game.sheetless else 'Qwixx'} is played by {fewest} to {most} players, not {players}"
        if "players" not in given and "players" in defaults.simulate:
            raise UsageProblem(f"{defaults.sources['players']}: simulate.players: {played} (give --players)")
        raise UsageProblem(f"--players: {played}")
    show = sys.stderr.isatty() and settings["games"] >= 50
    if show:
        with click.progressbar(length=settings["games"], label=f"{name}: games", file=sys.stderr) as bar:
            outcome = run_simulation(name, game, settings, lambda n: bar.update(1))
    else:
        outcome = run_simulation(name, game, settings)
    for warning in outcome.warnings:
        click.echo(f"Warning: {warning}", err=True)
    for line in outcome.lines:
        click.echo(line)
    for path in outcome.written:
        click.echo(f"wrote {path}")
    if outcome.mismatches:
        from printgen.errors import CheckFailed

        raise CheckFailed(outcome.mismatches[:20])


def _simulation_settings(name: str, given: dict[str, Any], defaults: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    from printgen.games import QWIXX_CARDS
    from printgen.options import SIMULATE_BY_KEY, refuse_inapplicable
    from printgen.simulate import game_of

    game, layout = game_of(name)
    if given.get("card_game"):  # the gemixxt A sheet played with cards: then the card game's options apply
        refuse_inapplicable([SIMULATE_BY_KEY["card_game"]], game.key, layout, name)
        game = QWIXX_CARDS
    refuse_inapplicable((o for o in SIMULATE_OPTIONS if o.key in given), game.key, layout, name)
    settings = {o.key: o.default for o in SIMULATE_OPTIONS}
    settings |= {k: v for k, v in defaults.items() if SIMULATE_BY_KEY[k].applies(game.key, layout)}
    settings |= given
    if ("lang" in given or "symbols" in given) and not settings.get("render"):
        raise UsageProblem(f"--{'lang' if 'lang' in given else 'symbols'}: only changes the drawn sheets, so it "
                           "goes with --render FILE")
    return settings, game


def _run_build(name: str, checked: Any) -> list[Any]:
    """Write a checked plan, each file reported as soon as it is whole, with a progress bar for long pads."""
    def report(written: Any) -> None:
        click.echo(f"wrote {written.path}")

    if checked.pages < 50 or not sys.stderr.isatty():
        return list(checked.write(None, report))
    with click.progressbar(length=checked.pages, label=f"{name}: pages", file=sys.stderr) as bar:
        done = [0]

        def advance(count: int) -> None:
            bar.update(count - done[0])
            done[0] = count

        return list(checked.write(advance, report))


# -- printgen score (issue 15) ---------------------------------------------------------------------------------


@main.command()
@click.argument("paths", nargs=-1, metavar="PHOTO|FOLDER...", type=_Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per sheet instead of the summary.")
@click.option("--annotate", type=_Path(dir_okay=False, path_type=Path), default=None, metavar="OUT.png",
              help="Draw what was read over the photo (several photos: OUT-PHOTO.png each; a PDF's pages one "
                   "under another).")
@click.option("--csv", "csv_path", type=_Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE.csv", help="Write the standings: every player's rounds and total, ranked (-: to "
              "standard output, the sheets' lines then to standard error).")
@click.option("--player", default=None, metavar="NAME",
              help="The player whose sheets these are (default: each photo's file name, less a round number: "
                   "anna-2.jpg is Anna's).")
@click.option("--layout", "layout_files", multiple=True, metavar="FILE.toml",
              help="A layout file the sheets were printed from (built-in layouts are always known).")
@click.option("--demo", type=_Path(dir_okay=False, path_type=Path), default=None, metavar="OUT.jpg",
              help="Write a photo of a played, hand-filled sheet to try this command on (.jpg or .png), and "
                   "score nothing.")
@reports_errors
def score(paths: tuple[Path, ...], as_json: bool, annotate: Path | None, csv_path: Path | None,
          player: str | None, layout_files: tuple[str, ...], demo: Path | None) -> None:
    """Score photographed score sheets: read every sheet, add it up and referee it.

    Needs the scan extra (pip install '.[scan]' in printgen's folder, its clone). Takes photos
    (JPEG, PNG, WebP, BMP, TIFF; HEIC with pillow-heif) and PDFs from a
    scanner app (each page of a PDF or a TIFF read). Every sheet in a photo is read (a photo
    of a whole 2-up page gives both); a photo that cannot be read gets one
    line and the others carry on. Exits 1 when any photo or sheet could
    not be read.

    \b
    Examples:
      printgen score --demo demo.jpg && printgen score demo.jpg
      printgen score IMG_2041.jpg
      printgen score IMG_2041.jpg --json --annotate read.png
      printgen score night/ --csv standings.csv
    """
    import json

    from printgen.scan import require_opencv

    if demo is not None:
        if paths or as_json or annotate or csv_path or player or layout_files:
            raise UsageProblem("--demo: writes a photo to try score on and scores nothing; give it alone")
        require_opencv()
        from printgen.scan.score import write_demo

        click.echo(f"wrote {write_demo(demo)}; now try: printgen score {demo}")
        return
    if not paths:
        raise UsageProblem("Missing argument 'PHOTO|FOLDER...' (no sheet at hand? printgen score --demo "
                           "demo.jpg writes a photo to try)")
    require_opencv()
    from printgen.errors import display_name
    from printgen.photo_workers import MAX_WORKERS, cores, read_photos
    from printgen.scan.reader import SheetReading, Unreadable
    from printgen.scan.report import as_json as sheet_json
    from printgen.scan.report import summary, where
    from printgen.scan.score import (
        PICTURE_SUFFIXES,
        annotation_targets,
        check_targets,
        not_read,
        photos,
        reader_for,
        score_files,
        twins,
        write_annotation,
        write_standings,
    )
    from printgen.scan.standings import Tally, player_of, ranked, standings_csv, unplayed

    if player is not None:  # (it names a row of the standings' CSV)
        from printgen.values import text

        try:
            text(player)
        except ValueError as problem:
            raise UsageProblem(f"--player: {'give a name' if not player.strip() else problem}") from None
    if player is not None and csv_path is None:
        raise UsageProblem("--player: names the player of the standings --csv writes; give --csv too")
    csv_out = csv_path == Path("-")  # the standings on standard output, every other line on standard error
    notes_to_stderr = as_json or csv_out  # standard output holds only what was asked for there
    if csv_out and as_json:
        raise UsageProblem("--csv: - writes the standings to standard output, where --json writes its sheets; "
                           "give --csv a file name")
    files, copies = twins(photos(list(paths)))
    if annotate is not None and annotate.suffix.lower() not in PICTURE_SUFFIXES:
        raise UsageProblem(f"--annotate: {display_name(annotate)}: the picture's name must end in "
                           f"{', '.join(PICTURE_SUFFIXES)} (the format follows it)")
    pictures = dict(zip(files, annotation_targets(annotate, files))) if annotate else {}
    check_targets([*(("--annotate", t) for t in pictures.values()),
                   *([("--csv", csv_path)] if csv_path and not csv_out else [])], files)
    reader = reader_for(layout_files)
    named = sorted({player_of(display_name(f.name)).casefold() for f in files}) if player else []
    if len(named) > 1:
        copies.append(f"--player {player}: the photos' names name {len(named)} players ({', '.join(named[:4])}"
                      f"{', ...' * (len(named) > 4)}); every sheet counts as {player}'s")
    for note in [*not_read(list(paths)), *copies]:
        click.echo(note, err=True)
    tally = Tally()
    unread = seen = 0  # (what could not be read, of every sheet read and every photo, page or pages not read)
    if len(files) > 1 and sys.stderr.isatty():  # a sign of life before the first photo's lines
        click.echo(f"reading {len(files)} photos on {min(cores(), MAX_WORKERS, len(files))} cores ...", err=True)
    for scored in score_files(read_photos(files, reader, annotate is not None), draw=annotate is not None):
        owner = player.strip() if player else player_of(display_name(scored.path.name))
        sheets = 0  # (sheets read that count as rounds)
        for result in scored.results:
            seen += 1
            left_out = unplayed(result)
            repeated = None if left_out else tally.add(owner, display_name(scored.path), result, named=not player)
            if isinstance(result, Unreadable):
                unread += 1
                click.echo(summary(result)[0], err=notes_to_stderr)
            elif as_json:
                click.echo(json.dumps(sheet_json(result), ensure_ascii=False))
            else:
                click.echo("\n".join(summary(result)), err=csv_out)
            if left_out:
                click.echo(f"{where(result)}: nothing crossed on it: not counted as a round", err=True)
            else:
                sheets += isinstance(result, SheetReading)
            if repeated:
                click.echo(repeated, err=True)
        if sheets > 1 and not player:
            click.echo(f"{display_name(scored.path)}: {sheets} sheets, all counted as {owner}'s rounds (another "
                       "player's sheet in it: photograph it apart, or give it to them in printgen serve)", err=True)
        if annotate is not None and scored.drawn:
            written = write_annotation(pictures[scored.path], scored.drawn)
            click.echo(f"wrote {display_name(written)}", err=notes_to_stderr)
    if csv_out:
        click.echo(standings_csv(ranked(tally.rounds)), nl=False)
    elif csv_path is not None:
        click.echo(f"wrote {display_name(write_standings(csv_path, ranked(tally.rounds)))}", err=as_json)
    if unread:
        raise PrintgenError(f"{unread} of {seen} sheets, photos or pages could not be read (said above)")


# -- printgen serve (issue 24) ---------------------------------------------------------------------------------


@main.command()
@click.option("--data", type=_Path(path_type=Path), default=None, metavar="DIR",
              help="Folder that keeps the games (SQLite; default: a printgen folder in your data directory).")
@click.option("--lan", is_flag=True, help="Listen on every interface, with an access token shown as an "
              "address and a QR code for phones (default: this computer only, 127.0.0.1). The token is kept in "
              "the data folder, so phones get in again after a restart.")
@click.option("--new-token", is_flag=True, help="With --lan: make a new access token (phones must scan the new "
              "QR code; the old token no longer works).")
@click.option("--port", type=click.IntRange(0, 65535), default=8420, show_default=True,
              help="Port to listen on (0: any free one).")
@reports_errors
def serve(data: Path | None, lan: bool, new_token: bool, port: int) -> None:
    """Game night in a browser: phones photograph sheets, the table sees the standings, anyone prints a pad.

    Needs the serve and scan extras (pip install '.[serve,scan]' in printgen's
    folder, its clone). Pages: / scores a photographed sheet (correct a field with a tap),
    /games/NAME shows a game's standings (CSV and JSON export), /build
    prints a pad. Ctrl-C stops it; games are kept for the next start.

    \b
    Examples:
      printgen serve
      printgen serve --lan --data ~/game-night
    """
    from printgen.serve import require_serve

    require_serve()
    from printgen.scan import require_opencv

    require_opencv()
    from printgen.serve.terminal import serve as run

    run(data, lan, port, new_token=new_token)
