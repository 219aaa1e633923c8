"""Batches: a manifest (or the default pack) in, every job checked up front, run in parallel, results out.

Every job is checked before any job writes: the manifest's keys (with a
did-you-mean for typos), the layout, its options (each must apply to the
layout's kind), the rules, the paper fit, the lucky pool, and the names of
every file each job will write (no two jobs may write the same file, and no
job may write `index.html`, `preview/` or over another kind of file). Paths
in a manifest (layout files, `out`) are relative to the manifest's folder;
`--out` on the command line wins over the manifest's `out`. One failing job
does not stop the others.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.errors import LayoutError, PrintgenError, Terminated, UsageProblem
from printgen.files import Written
from printgen.kinds import Plan
from printgen.options import BUILD_BY_KEY, Option, read_table
from printgen.output import (
    check_writable,
    flush_folder,
    folders_flushed_by_parent,
    remove_leftovers_in,
)
from printgen.signals import answer_signals, held_back, let_in, unwind
from printgen.tomlkeys import Fields
from printgen.values import did_you_mean

MAX_JOBS = 500
SILENT_POLLS = 10
"""Polls (0.2 s each) a worker that ended without an error may take to deliver its result before it counts as lost."""
RESERVED = ("index.html", "preview")
"""Names in the output folder that belong to the preview page."""


@dataclass(frozen=True)
class Job:
    """One thing to build, checked in full: its plan; `label` names it in messages."""

    plan: Plan
    label: str

    @property
    def out(self) -> Path:
        """The folder it writes into."""
        return self.plan.options.out


@dataclass(slots=True)
class JobResult:
    """What became of one job: what it wrote (carried on to the preview page), its time, or why it failed."""

    job: Job
    files: list[Written] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


def read_manifest(path: Path, out: Path | None = None, allow_outside: bool = False,
                  defaults: Mapping[str, Any] | None = None, sources: Mapping[str, str] | None = None) -> list[Job]:
    """The jobs of manifest `path`, every one checked as far as it can be without writing.

    Output goes to `out` if given, else the manifest's `out`, else ./output.
    """
    from printgen.tomlfile import parse_toml

    shown = str(path)
    data = parse_toml(path, shown)
    problems: list[tuple[str, str]] = []
    top = Fields(data, "", problems)
    home = path.parent
    manifest_out = top.string("out", "") or None
    if manifest_out is not None and "\x00" in manifest_out:
        top.problem("out", "holds a NUL character")
        manifest_out = None
    folder = out if out is not None else (home / manifest_out if manifest_out else Path("output"))
    where = f"{'--out' if out is not None else f'{shown}: out'}: {folder}"
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"{where} is a file, not a folder")
    check_writable(folder / "index.html", made=True, named=where, problem=PrintgenError)
    entries = top.tables("jobs", 1, MAX_JOBS)
    top.finish()
    if problems:
        raise LayoutError([f"{shown}: {key}: {message}" for key, message in problems])
    jobs = []
    for index, entry in enumerate(entries):
        try:
            jobs.append(_job(entry.data, f"jobs[{index}]", shown, home, folder, allow_outside, defaults or {},
                             sources or {}))
        except PrintgenError as error:
            problems.append(("", str(error)))
    if problems:
        raise LayoutError([message for _, message in problems])
    check_outputs(jobs, shown)
    return jobs


def _job(entry: dict[str, Any], where: str, shown: str, home: Path, out: Path, allow_outside: bool,
         defaults: Mapping[str, Any], sources: Mapping[str, str]) -> Job:
    from printgen import layouts
    from printgen.build import OptionsRefused, build_options, plan

    values = dict(entry)
    ref = values.pop("layout", None)
    if ref is None:
        misspelt = next((key for key in values if did_you_mean(key, ["layout"]) and key not in BUILD_BY_KEY), None)
        if misspelt is not None:
            raise UsageProblem(f"{shown}: {where}.{misspelt}: is not a known key (did you mean layout?)")
        raise UsageProblem(f"{shown}: {where}.layout: is missing")
    if not isinstance(ref, str) or not ref.strip() or "\x00" in ref:
        raise UsageProblem(f"{shown}: {where}.layout: must be a layout name or file, not {ref!r}")
    if ref.endswith(".toml") or "/" in ref or "\\" in ref:
        ref = str(home / ref)
    try:
        layout = layouts.load(ref)
    except UsageProblem as error:
        first = str(error).splitlines()[0]
        raise UsageProblem(f"{shown}: {where}.layout: {first}") from None
    if "out" in values:
        raise UsageProblem(f"{shown}: {where}.out: set the output folder once, at the top of the manifest")
    given = read_table(values, BUILD_BY_KEY, shown, f"{where}.")
    output = given.pop("output", None)
    if output is not None and not allow_outside and not _plain_name(output):
        raise UsageProblem(f"{shown}: {where}.output: {output!r} must be a plain name inside the output folder "
                           "(or --allow-outside)")
    if output is not None:
        folder, _, stem = output.replace("\\", "/").rpartition("/")
        given["output"] = stem
        given["out"] = str(out / folder) if folder else str(out)
    else:
        given["out"] = str(out)
    def named(option: Option) -> str:
        return f"{shown}: {where}.{option.key}"

    options = build_options(layout, given, defaults, named, sources)
    try:
        checked = plan(layout, options, named)
    except OptionsRefused:  # already named by the job's key
        raise
    except PrintgenError as error:
        raise UsageProblem(f"{shown}: {where}: {error}") from None
    return Job(checked, f"{where} ({output or layout.name})")


def _plain_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..") and not name.startswith(".")


def check_outputs(jobs: list[Job], shown: str = "") -> None:
    """Refuse two jobs that would write the same file (or one inside the other) and a job writing the preview
    page's own files (what is already on disk each job's plan checks)."""
    prefix = f"{shown}: " if shown else ""
    seen: dict[Path, str] = {}
    folded: dict[str, tuple[Path, str]] = {}
    for job in jobs:
        for target in job.plan.targets:
            key = Path(os.path.abspath(target))
            if key.name in RESERVED and key.parent == Path(os.path.abspath(job.out)):
                raise UsageProblem(f"{prefix}{job.label} would write {target}, which belongs to the preview page")
            for other, label in seen.items():
                if key == other or other in key.parents or key in other.parents:
                    raise UsageProblem(f"{prefix}{job.label} and {label} both write {target}")
            twin = folded.get(str(key).casefold())
            if twin is not None:  # one file on macOS and Windows, which ignore letter case
                raise UsageProblem(f"{prefix}{job.label} writes {target} and {twin[1]} writes {twin[0]}: names that "
                                   "differ only in letter case are one file on many systems")
            seen[key] = job.label
            folded[str(key).casefold()] = (target, job.label)


def run_jobs(jobs: list[Job], workers: int,
             on_done: Callable[[JobResult], None] | None = None) -> list[JobResult]:
    """Run every job (in up to `workers` processes at once); results in job order.

    A signal to the batch (SIGTERM, or Ctrl-C to its process group) cancels the queued jobs and stops the
    running workers, each of which removes its partial file on the way out; the signal then goes on to the
    caller (Terminated or KeyboardInterrupt) within a second or two.
    """
    if workers <= 1 or len(jobs) <= 1:
        results = []
        for job in jobs:
            results.append(run_job(job))
            if on_done:
                on_done(results[-1])
        return results
    return _in_processes(jobs, workers, on_done)


def _in_processes(jobs: list[Job], workers: int, on_done: Callable[[JobResult], None] | None) -> list[JobResult]:
    import multiprocessing
    import queue as queues
    import signal

    _warm()
    context = multiprocessing.get_context("fork")
    finished: Any = context.Queue()
    results: dict[int, JobResult] = {}
    running: dict[int, Any] = {}
    silent: dict[int, int] = {}
    waiting = list(enumerate(jobs))
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                index, job = waiting.pop(0)
                process = context.Process(target=_work, args=(index, job, finished, os.getpid()), daemon=True)
                with held_back():  # (a Ctrl-C in the fork's hooks or the child's first steps was lost or printed)
                    process.start()
                running[index] = process
            try:
                index, result = finished.get(timeout=0.2)
            except queues.Empty:
                for index, process in list(running.items()):
                    if process.is_alive():
                        continue
                    silent[index] = silent.get(index, 0) + 1  # a result may still be on its way through the pipe
                    if process.exitcode != 0 or silent[index] > SILENT_POLLS:
                        running.pop(index)
                        why = f"exit {process.exitcode}" if process.exitcode else "it sent no result"
                        results[index] = JobResult(jobs[index], error=f"the worker stopped ({why})")
                        if on_done:
                            on_done(results[index])
                continue
            running.pop(index).join()
            results[index] = JobResult(jobs[index], *result)
            if on_done:
                on_done(results[index])
    except BaseException:
        _flush_folders(jobs)
        for process in running.values():  # stop them: each one's signal handler unwinds and removes its .part
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        for process in running.values():
            process.join(2.0)
            if process.is_alive():  # too slow to unwind (a loaded machine): stopped, and its partial file
                process.kill()      # removed below
                process.join()
        for index in running:
            remove_leftovers_in(jobs[index].out)
        raise
    _flush_folders(jobs)
    return [results[i] for i in range(len(jobs))]


def _flush_folders(jobs: list[Job]) -> None:
    """Flush the folders the workers renamed files into, each once (the workers leave that to the batch)."""
    for folder in dict.fromkeys(os.path.abspath(target.parent) for job in jobs for target in job.plan.targets):
        if os.path.isdir(folder):
            flush_folder(Path(folder))


def _warm() -> None:
    """Load here, once, what every build loads on first use (renderers, reportlab, PIL, font tables and glyph
    outlines) by drawing one small sheet both ways, so that each forked worker starts with it loaded."""
    import io

    from printgen import layouts
    from printgen.builders.scoresheet import build_sheet
    from printgen.page import Document
    from printgen.render.pdfstream import write_streamed_pdf
    from printgen.render.svg import svg_document

    page = build_sheet(layouts.load("qwixx-standard")).as_page()  # type: ignore[arg-type]
    write_streamed_pdf(Document(page.symbols(), [page], "warm-up"), io.BytesIO())
    svg_document(page, "warm-up").tostring()
    import PIL.Image  # noqa: F401  (thumbnails and colour management)


def _work(index: int, job: Job, finished: Any, parent: int) -> None:
    """A worker process: build one job and report; a signal unwinds it (removing its partial file) and ends it
    quietly. It dies with the batch (`parent`), even one killed with kill -9, and never puts a file into place
    after it."""
    try:
        from printgen.workers import die_with

        answer_signals(unwind)  # (a Ctrl-C the batch ignores, as a background job does, its workers ignore too)
        let_in()  # (held back since the fork)
        die_with(parent)
        with folders_flushed_by_parent():
            result = run_job(job)  # sent back without its job: the plan's writers are closures
        finished.put((index, (result.files, result.seconds, result.error)))
        finished.close()  # the result through the pipe, then out at once: a Ctrl-C in multiprocessing's own
        finished.join_thread()  # ending of a worker printed a traceback
        os._exit(0)
    except Terminated:
        os._exit(143)
    except KeyboardInterrupt:
        os._exit(130)



def run_job(job: Job) -> JobResult:
    """Build one job, never raising: a failure is recorded in the result."""
    start = time.perf_counter()
    result = JobResult(job)
    try:
        job.plan.write(on_written=result.files.append)
    except PrintgenError as error:
        result.error = str(error).replace("\n", "; ")
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        result.error = f"{where}{error.strerror or error}; no partial file was left behind"
    except Exception as error:  # noqa: BLE001 - one broken job must not stop the batch
        result.error = f"internal error: {type(error).__name__}: {error}"
    result.seconds = time.perf_counter() - start
    return result


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
    lines.append(f"{files} file{'s' if files != 1 else ''} from {len(results)} job{'s' if len(results) != 1 else ''}, "
                 f"{failed} failed, {seconds:.2f} s with {min(workers, len(results))} "
                 f"job{'s' if min(workers, len(results)) != 1 else ''} at once")  # (1 job runs alone, whatever -j)
    return lines


def _size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{size / 1000:.1f} KB"


def default_workers() -> int:
    """As many jobs at once as the machine has cores."""
    return os.cpu_count() or 1
