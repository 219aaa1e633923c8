"""The command line: arguments in, calls into printgen and one-line reports out (click; no logic here)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from printgen import __version__
from printgen.errors import PrintgenError

LANGUAGES = ["en", "it", "de", "pl", "fr"]
"""The label catalogues in printgen/labels (a test keeps this list and the folder equal)."""

F = TypeVar("F", bound=Callable[..., Any])


class CliError(click.ClickException):
    """A PrintgenError shown as `Error: ...` with its own exit code."""

    def __init__(self, error: PrintgenError) -> None:
        super().__init__(str(error))
        self.exit_code = error.exit_code  # type: ignore[misc]


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C so temporary files are removed."""


def _terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def reports_errors(command: F) -> F:
    """Turn printgen's errors into one-line messages and exit codes, never tracebacks."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        previous = signal.signal(signal.SIGTERM, _terminated)
        try:
            return command(*args, **kwargs)
        except PrintgenError as error:
            raise CliError(error) from None
        except KeyboardInterrupt:
            click.echo("Error: interrupted; no partial file was left behind", err=True)
            sys.exit(130)
        except Terminated:
            click.echo("Error: terminated; no partial file was left behind", err=True)
            sys.exit(143)
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            raise CliError(PrintgenError(f"{where}{error.strerror or error}; no partial file was left behind")) from None
        finally:
            signal.signal(signal.SIGTERM, previous)

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printgen")
def main() -> None:
    """Print-ready Qwixx and One to 9 material as PDF and SVG, checked by rules engines.

    \b
    Example:
      printgen build qwixx-standard --sheets 100 --per-page 2 --paper a4
      printgen build --all
    """


@main.command("list")
@reports_errors
def list_layouts() -> None:
    """List every built-in layout: name, kind and size.

    \b
    Example:
      printgen list
    """
    from printgen import layouts
    for name in layouts.builtin_names():
        layout = layouts.load(name)
        size = layouts.describe(layout)
        click.echo(f"{name:<24} {layout.kind:<12} {size}")


@main.command()
@click.argument("names", nargs=-1, metavar="[NAME|FILE.toml]...")
@reports_errors
def check(names: tuple[str, ...]) -> None:
    """Hold layouts (default: all built-in ones) against the rules engine.

    Exits 1 naming every mismatch.

    \b
    Example:
      printgen check qwixx-standard ./my-sheet.toml
    """
    from printgen import layouts
    from printgen.check import mismatches
    from printgen.errors import CheckFailed

    found: list[str] = []
    for name in names or layouts.builtin_names():
        layout = layouts.load(name)
        problems = mismatches(layout)
        found += problems
        if not problems:
            click.echo(f"ok  {name}")
    if found:
        raise CheckFailed(found)


@main.command()
@click.argument("names", nargs=-1, metavar="[NAME|FILE.toml]...")
@click.option("--all", "build_all", is_flag=True, help="Build the default print pack.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="Output folder.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "svg", "both"]), default="pdf",
              show_default=True, help="What to write.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3", "a2", "a1", "a0"], case_sensitive=False),
              default=None, help="Paper of the PDF pages (default a4; the board: the smallest it fits).")
@click.option("--sheets", type=click.IntRange(1, None), default=None,
              help="Sheets in the pad (default: one page full).")
@click.option("--per-page", type=click.Choice(["1", "2", "4"]), default=None,
              help="Sheets per PDF page (default 2; scaled down only if they do not fit). "
                   "Decks: default as many cards as fit; 1 makes print-shop pages with trim and bleed boxes.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for sheets with variable data.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="Language of the labels.")
@click.option("--symbols", is_flag=True, help="Give every colour its own shape too (colour-blind players).")
@click.option("--lucky-pool", default="balanced", show_default=True, metavar="balanced|all|A-B,C-D...",
              help="Big Points: the lucky pairs dealt to the sheets.")
@click.option("--shuffle", is_flag=True, help="Gemixxt B: a new number order on every sheet.")
@click.option("--cmyk", is_flag=True, help="Write every colour as CMYK (for print shops that ask for it).")
@click.option("--card-size", default=None, metavar="poker|bridge|mini|WxH",
              help="Decks: card size (default from the layout, poker 63.5 x 88.9 mm); WxH in mm.")
@click.option("--bleed", type=float, default=3.0, show_default=True, help="Decks: bleed around each card, mm (0..10).")
@click.option("--gap", type=float, default=0.0, show_default=True, help="Decks: space between cards, mm.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True, help="Decks: crop marks.")
@click.option("--corner-guide", is_flag=True, help="Decks: a thin rounded-corner guide on the fronts.")
@click.option("--duplex", type=click.Choice(["long", "short", "off"]), default="long", show_default=True,
              help="Decks: each back page after its front, mirrored for a long- or short-edge flip; off: fronts only.")
@click.option("--backs-file", is_flag=True, help="Decks, with --duplex off: write the backs to OUT/NAME-backs.pdf.")
@click.option("--alignment-page", is_flag=True, help="Decks: add a duplex test page to measure --back-offset.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Decks: shift the backs by X,Y mm to correct the printer's duplex offset.")
@click.option("--tile", is_flag=True, help="Board: print it over several --paper pages to glue together.")
@click.option("--timestamp", is_flag=True, help="Stamp PDFs with the build time (default: byte-identical output).")
@click.option("--no-scan-marks", "scan_marks", is_flag=True, flag_value=False, default=True,
              help="Score sheets: leave out the corner markers and code that `printgen score` reads.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, help="With --all: jobs at once (default: cores).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@reports_errors
def build(names: tuple[str, ...], build_all: bool, out: Path, fmt: str, paper: str | None,
          sheets: int | None, per_page: str | None, seed: int, lang: str, symbols: bool, lucky_pool: str,
          shuffle: bool, cmyk: bool, card_size: str | None, bleed: float, gap: float, crop_marks: bool,
          corner_guide: bool, duplex: str, backs_file: bool, alignment_page: bool, back_offset: str,
          tile: bool, timestamp: bool, scan_marks: bool, jobs: int | None, quiet: bool) -> None:
    """Build layouts (built-in names or layout files) into OUT as PDF and/or SVG.

    PDF goes to OUT/NAME.pdf; SVG to OUT/NAME.svg (or a folder OUT/NAME/
    when the sheets differ). A layout that fails `printgen check` is refused.

    \b
    Examples:
      printgen build qwixx-standard --sheets 100 --per-page 2 --paper a4
      printgen build qwixx-big-points --sheets 50 --lang it --seed 7
      printgen build ./my-sheet.toml --format both --out prints/
      printgen build qwixx-cards-deck --paper letter --alignment-page
      printgen build qwixx-cards-deck --per-page 1 --cmyk --out print-shop/
      printgen build one-to-9-board --paper a1
      printgen build one-to-9-board --tile --paper letter
      printgen build --all
    """
    from printgen.build import BuildOptions, page_count
    from printgen.pack import default_pack
    from printgen.printing.cards import back_offset as parse_offset

    if build_all == bool(names):
        raise click.UsageError("give layout names or --all (not both, not neither)")
    values: dict[str, Any] = {
        "formats": ("pdf", "svg") if fmt == "both" else (fmt,),
        "paper": paper.lower() if paper else None,
        "sheets": sheets,
        "per_page": int(per_page) if per_page else None,
        "seed": seed,
        "lang": lang,
        "symbols": symbols,
        "lucky_pool": lucky_pool,
        "shuffle": shuffle,
        "cmyk": cmyk,
        "card_size": card_size,
        "bleed": bleed,
        "gap": gap,
        "crop_marks": crop_marks,
        "corner_guide": corner_guide,
        "duplex": duplex,
        "backs_file": backs_file,
        "alignment_page": alignment_page,
        "back_offset": parse_offset(back_offset),
        "tile": tile,
        "timestamp": timestamp,
        "scan_marks": scan_marks,
    }
    if build_all:
        from printgen.batch import Job

        ctx = click.get_current_context()
        params = {key: key for key in values} | {"formats": "fmt"}
        pack = default_pack(out, {key: values[key] for key, param in params.items() if _given(ctx, param)})
        _run_batch([Job(name, options, name) for name, options in pack], out, jobs, quiet)
        return
    values["sheets"] = sheets or int(per_page or 2)
    for name in names:
        options = BuildOptions(out=out, **values)
        for path in _run_build(name, options, page_count(options)):
            click.echo(f"wrote {path}")


@main.command()
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.toml")
@click.option("--out", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="Output folder (the manifest's `out` wins).")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, help="Jobs at once (default: the number of cores).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--allow-outside", is_flag=True, help="Let output names leave the output folder.")
@reports_errors
def batch(manifest: Path, out: Path, jobs: int | None, quiet: bool, allow_outside: bool) -> None:
    """Run every job of a manifest, in parallel, then write OUT/index.html.

    \b
    Example manifest (club.toml):
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
      printgen batch club.toml --jobs 2
    """
    from printgen.batch import read_manifest

    loaded = read_manifest(manifest, out, allow_outside)
    _run_batch(loaded, loaded[0].options.out if loaded else out, jobs, quiet)


@main.command()
@click.argument("pdf", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE.pdf")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the PNGs (default: FILE-preview/ beside the PDF).")
@click.option("--width", type=click.IntRange(50, 4000), default=600, show_default=True, help="PNG width, pixels.")
@reports_errors
def preview(pdf: Path, out: Path | None, width: int) -> None:
    """Render every page of a PDF to PNG.

    \b
    Example:
      printgen preview output/qwixx-standard.pdf --width 1200
    """
    from pypdfium2 import PdfiumError

    from printgen.preview import thumbnails

    folder = out or pdf.with_name(f"{pdf.stem}-preview")
    try:
        pngs = thumbnails(pdf, folder, width)
    except PdfiumError as error:
        raise PrintgenError(f"{pdf}: cannot render: {error}") from None
    click.echo(f"wrote {len(pngs)} PNGs to {folder}")


def _run_batch(jobs: list[Any], out: Path, workers: int | None, quiet: bool) -> None:
    import time

    from printgen.batch import default_workers, run_jobs, summary
    from printgen.preview import write_index

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
            results = run_jobs(jobs, workers, True, done)
    else:
        results = run_jobs(jobs, workers, True)
    index = write_index(results, out)
    for line in summary(results, time.perf_counter() - start, workers):
        click.echo(line)
    click.echo(f"preview: {index}")
    failed = [r for r in results if r.error]
    if failed:
        raise PrintgenError(f"{len(failed)} of {len(results)} jobs failed: {', '.join(r.job.label for r in failed)}")


@main.command()
@click.argument("name", metavar="NAME|FILE.toml")
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="Players (Qwixx 2-5, One to 9 2-6).")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--strategy", type=click.Choice(["greedy", "random", "mixed"]), default="greedy", show_default=True,
              help="How the simulated players decide (mixed: greedy and random alternate).")
@click.option("--render", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the first game's final sheets into this PDF.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--symbols", is_flag=True, help="Draw colour shapes on the rendered sheets.")
@click.option("--jokers", is_flag=True, help="Card game: shuffle the 11 jokers in.")
@click.option("--misplay-end", is_flag=True, help="Card game: a 4th misplay ends the game too.")
@click.option("--card-game", is_flag=True, help="Play the card game's gemixxt variant (on qwixx-gemixxt-a).")
@reports_errors
def simulate(name: str, players: int, games: int, seed: int, strategy: str, render: Path | None,
             lang: str, symbols: bool, jokers: bool, misplay_end: bool, card_game: bool) -> None:
    """Play whole games on a sheet's rules and check every final score against the printed table.

    \b
    Example:
      printgen simulate qwixx-big-points --players 4 --games 1000 --seed 1
      printgen simulate qwixx-standard --games 1 --render game.pdf
      printgen simulate qwixx-cards --players 3 --games 1000 --jokers
      printgen simulate one-to-9 --players 3 --games 500 --seed 1
    """
    from printgen import layouts
    from printgen.errors import CheckFailed, UsageProblem
    from printgen.layouts.model import ScoreSheetLayout
    from printgen.simulate import simulate as run

    if name == "one-to-9" or getattr(_layout_or_none(name), "game", "") == "one-to-9":
        from printgen.simulate import simulate_nine

        if sys.stderr.isatty() and games >= 50:
            with click.progressbar(length=games, label="one-to-9: games", file=sys.stderr) as bar:
                nine = simulate_nine(players, games, seed, strategy, lambda n: bar.update(1))
        else:
            nine = simulate_nine(players, games, seed, strategy)
        for line in nine.lines():
            click.echo(line)
        return
    layout = layouts.load(name)
    if not isinstance(layout, ScoreSheetLayout):
        raise UsageProblem(f"{name}: simulate plays on a score sheet layout, not a {layout.kind}")
    if sys.stderr.isatty() and games >= 50:
        with click.progressbar(length=games, label=f"{layout.name}: games", file=sys.stderr) as bar:
            report, first = run(layout, players, games, seed, strategy, lambda n: bar.update(1),
                                card_game, jokers, misplay_end)
    else:
        report, first = run(layout, players, games, seed, strategy, None, card_game, jokers, misplay_end)
    for warning in report.warnings:
        click.echo(f"Warning: {warning}", err=True)
    for line in report.lines():
        click.echo(line)
    if render is not None:
        from printgen.build import write_filled_pdf

        write_filled_pdf(layout, first.sheets, render, lang, symbols)
        click.echo(f"wrote {render}")
    if report.mismatches:
        raise CheckFailed(report.mismatches[:20])


def _layout_or_none(name: str) -> Any:
    from printgen import layouts

    try:
        return layouts.load(name)
    except PrintgenError:
        return None


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source != click.core.ParameterSource.DEFAULT


def _run_build(name: str, options: Any, pages: int) -> list[Path]:
    from printgen.build import build as build_layout

    if pages < 50 or not sys.stderr.isatty():
        return build_layout(name, options)
    with click.progressbar(length=pages, label=f"{name}: pages", file=sys.stderr) as bar:
        done = [0]

        def advance(count: int) -> None:
            bar.update(count - done[0])
            done[0] = count

        return build_layout(name, options, advance)


# -- printgen score (issue 15) ---------------------------------------------------------------------------------


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PHOTO|FOLDER...",
                type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per sheet instead of the summary.")
@click.option("--annotate", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="OUT.png",
              help="Draw what was read over the photo (several photos: OUT-PHOTO.png each).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE.csv", help="Write a ranking of every sheet read.")
@click.option("--layout", "layout_files", multiple=True, metavar="FILE.toml",
              help="A layout file the sheets were printed from (built-in layouts are always known).")
@reports_errors
def score(paths: tuple[Path, ...], as_json: bool, annotate: Path | None, csv_path: Path | None,
          layout_files: tuple[str, ...]) -> None:
    """Score photographed score sheets: read every sheet, add it up and referee it.

    Needs the scan extra (pip install 'printgen[scan]'). Every sheet in a
    photo is read (a photo of a whole 2-up page gives both); a photo that
    cannot be read gets one line and the others carry on. Exits 1 when any
    photo or sheet could not be read.

    \b
    Examples:
      printgen score IMG_2041.jpg
      printgen score IMG_2041.jpg --json --annotate read.png
      printgen score night/ --csv standings.csv
    """
    import json

    from printgen.scan import require_opencv

    require_opencv()
    from printgen.scan.report import as_json as sheet_json
    from printgen.scan.report import summary
    from printgen.scan.score import annotation_target, photos, reader_for, write_annotation, write_standings
    from printgen.scan.score import score as score_photos

    files = photos(list(paths))
    reader = reader_for(layout_files)
    everything: list[Any] = []
    unread = 0
    for path, image, results in score_photos(files, reader):
        everything += results
        for result in results:
            if not hasattr(result, "verdict"):
                unread += 1
                click.echo(summary(result)[0], err=as_json)
            elif as_json:
                click.echo(json.dumps(sheet_json(result), ensure_ascii=False))
            else:
                click.echo("\n".join(summary(result)))
        if annotate is not None and image is not None:
            written = write_annotation(annotation_target(annotate, path, len(files) > 1), image, results)
            click.echo(f"wrote {written}", err=as_json)
    if csv_path is not None:
        click.echo(f"wrote {write_standings(csv_path, everything)}", err=as_json)
    if unread:
        raise PrintgenError(f"{unread} of {len(everything)} sheets or photos could not be read")
