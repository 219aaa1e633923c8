"""Batches: a manifest (or the default pack) in, jobs checked up front, run in parallel, results and a summary out.

Every job is validated before any runs: an unknown layout, option or a
wrong type is one line naming the manifest, the job and the key; two jobs
writing the same name, or a name leaving the output folder, stop the batch
before it starts. One failing job does not stop the others.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from printgen.build import BuildOptions
from printgen.errors import LayoutError, PrintgenError, UsageProblem
from printgen.layouts.fields import Fields

OPTION_TYPES: dict[str, type | tuple[type, ...]] = {
    "format": str, "paper": str, "sheets": int, "per_page": int, "seed": int, "lang": str, "symbols": bool,
    "lucky_pool": str, "shuffle": bool, "cmyk": bool, "card_size": str, "bleed": (int, float),
    "gap": (int, float), "crop_marks": bool, "corner_guide": bool, "duplex": str, "backs_file": bool,
    "alignment_page": bool, "back_offset": str, "tile": bool,
}
"""Manifest keys of a job besides `layout` and `output`: the options of `printgen build`."""


@dataclass(frozen=True, slots=True)
class Job:
    """One thing to build: a layout (name or file) with its options; `label` names it in messages."""

    layout: str
    options: BuildOptions
    label: str


@dataclass(slots=True)
class FileResult:
    """A file (or SVG folder) a job wrote: its path, pages (or SVG files) and size in bytes."""

    path: Path
    pages: int
    size: int
    thumbnails: list[Path] = field(default_factory=list)


@dataclass(slots=True)
class JobResult:
    """What became of one job."""

    job: Job
    files: list[FileResult] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    group: str = ""
    kind: str = ""


def read_manifest(path: Path, out: Path, allow_outside: bool = False) -> list[Job]:
    """The jobs of manifest `path` (output under `out` unless the manifest sets `out`), all validated."""
    from printgen.layouts.loader import _parse

    shown = str(path)
    data = _parse(path, shown)
    problems: list[tuple[str, str]] = []
    top = Fields(data, "", problems)
    folder = Path(top.string("out", str(out)) or out)
    jobs = []
    for entry in top.tables("jobs", 1, 500):
        job = _job(entry, folder, allow_outside)
        if job is not None:
            jobs.append(job)
    top.finish()
    if problems:
        raise LayoutError([f"{shown}: {key}: {message}" for key, message in problems])
    check_outputs(jobs)
    return jobs


def _job(entry: Fields, out: Path, allow_outside: bool) -> Job | None:
    from printgen import layouts
    from printgen.printing.cards import back_offset

    before = len(entry.problems)
    layout = entry.string("layout")
    if layout is not None:
        try:
            layouts.resolve(layout)
        except UsageProblem as error:
            entry.problem("layout", str(error))
            layout = None
    output = entry.string("output", "") or None
    if output is not None and not allow_outside and not _plain_name(output):
        entry.problem("output", f"{output!r} must be a plain name inside the output folder (or --allow-outside)")
    elif not allow_outside and _escapes(out, output or Path(layout or "x").stem):
        entry.problem("output", f"{out / (output or Path(layout or 'x').stem)} is a link out of the output folder "
                                "(or --allow-outside)")
    settings: dict[str, Any] = {}
    for key, kind in OPTION_TYPES.items():
        if not entry.has(key):
            continue
        value = entry.value(key)
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            names = kind if isinstance(kind, tuple) else (kind,)
            entry.problem(key, f"must be {' or '.join(t.__name__ for t in names)}, not {value!r}")
            continue
        settings[key] = value
    entry.finish()
    if layout is None or len(entry.problems) > before:
        return None
    fmt = settings.pop("format", "pdf")
    if fmt not in ("pdf", "svg", "both"):
        entry.problem("format", f"{fmt!r} is not one of pdf, svg, both")
        return None
    if "back_offset" in settings:
        try:
            settings["back_offset"] = back_offset(settings["back_offset"])
        except UsageProblem as error:
            entry.problem("back_offset", str(error).removeprefix("--back-offset: "))
            return None
    options = BuildOptions(out=out, formats=("pdf", "svg") if fmt == "both" else (fmt,), output=output,
                           **settings)
    if "sheets" not in settings:
        options = replace(options, sheets=options.sheets_per_page)
    try:
        options.validate()
    except UsageProblem as error:
        key, _, message = str(error).partition(": ")
        entry.problem(key.removeprefix("--").replace("-", "_"), message)
        return None
    return Job(layout, options, f"{entry.path} ({output or layout})")


def _plain_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..") and not name.startswith(".")


def _escapes(out: Path, name: str) -> bool:
    """True when a file named `name` in `out` would land outside `out` (a symbolic link pointing away)."""
    root = out.resolve()
    for suffix in ("", ".pdf", ".svg"):
        target = (out / f"{name}{suffix}").resolve()
        if root != target and root not in target.parents:
            return True
    return False


def check_outputs(jobs: list[Job]) -> None:
    """Refuse two jobs that would write the same file."""
    seen: dict[tuple[Path, str], str] = {}
    for job in jobs:
        name = job.options.output or Path(job.layout).stem
        key = (job.options.out.resolve(), name)
        if key in seen:
            raise UsageProblem(f"{job.label} and {seen[key]} both write {job.options.out / name}")
        seen[key] = job.label


def run_jobs(jobs: list[Job], workers: int, previews: bool,
             on_done: Callable[[JobResult], None] | None = None) -> list[JobResult]:
    """Run every job (in `workers` processes when more than one); results in job order."""
    results: dict[int, JobResult] = {}
    if workers <= 1 or len(jobs) <= 1:
        for index, job in enumerate(jobs):
            results[index] = run_job(job, previews)
            if on_done:
                on_done(results[index])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(run_job, job, previews): index for index, job in enumerate(jobs)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if on_done:
                    on_done(results[futures[future]])
    return [results[i] for i in range(len(jobs))]


def run_job(job: Job, previews: bool) -> JobResult:
    """Build one job, never raising: a failure is recorded in the result."""
    from printgen import layouts
    from printgen.build import build

    start = time.perf_counter()
    result = JobResult(job)
    try:
        layout = layouts.load(job.layout)
        result.kind, result.group = layout.kind, group_of(layout)
        for path in build(job.layout, job.options):
            result.files.append(describe(path, job.options.out if previews else None))
    except PrintgenError as error:
        result.error = str(error).replace("\n", "; ")
    except Exception as error:  # noqa: BLE001 - one broken job must not stop the batch
        result.error = f"internal error: {type(error).__name__}: {error}"
    result.seconds = time.perf_counter() - start
    return result


def group_of(layout: Any) -> str:
    """The game a layout belongs to, for grouping the preview page."""
    game = getattr(layout, "game", "")
    if game == "one-to-9":
        return "One to 9"
    if game == "qwixx-cards" or getattr(layout, "rules", "") == "cards":
        return "Qwixx, the card game"
    return "Qwixx score sheets"


def describe(path: Path, previews_in: Path | None) -> FileResult:
    """Pages (or SVG files) and size of a written file or folder, with PNG thumbnails of a PDF's pages."""
    if path.is_dir():
        files = sorted(path.glob("*.svg"))
        return FileResult(path, len(files), sum(f.stat().st_size for f in files))
    if path.suffix == ".pdf":
        from printgen.preview import page_count, thumbnails

        thumbs = thumbnails(path, previews_in / "preview" / path.stem) if previews_in else []
        return FileResult(path, page_count(path), path.stat().st_size, thumbs)
    return FileResult(path, 1, path.stat().st_size)


def summary(results: Iterable[JobResult], seconds: float, workers: int) -> list[str]:
    """The closing table: one line per file, then failures, then totals."""
    results = list(results)
    lines = [f"{'file':<46} {'pages':>6} {'size':>11} {'time':>8}"]
    files = failed = 0
    for result in results:
        for item in result.files:
            files += 1
            pages = f"{item.pages}" + (" svg" if item.path.is_dir() else "")
            lines.append(f"{item.path!s:<46} {pages:>6} {_size(item.size):>11} {result.seconds:>7.2f}s")
    for result in results:
        if result.error:
            failed += 1
            lines.append(f"FAILED {result.job.label}: {result.error}")
    lines.append(f"{files} files from {len(results)} jobs, {failed} failed, {seconds:.2f} s with {workers} "
                 f"job{'s' if workers != 1 else ''} at once")
    return lines


def _size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{size / 1000:.1f} KB"


def default_workers() -> int:
    """As many jobs at once as the machine has cores."""
    return os.cpu_count() or 1
