"""PDFium's lock: pages rendered in several threads at once (as `printgen serve` renders previews and blank sheets
while it reads uploads) come out as they do one at a time, and the process survives it."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from reportlab.lib.pagesizes import A6
from reportlab.pdfgen.canvas import Canvas

from printgen.preview import opened_pdf, render_page

THREADS = 4
ROUNDS = 12


def _pdf(label: str) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A6)
    for size in range(8, 40, 4):
        canvas.setFont("Helvetica", size)
        canvas.drawString(20, 20 + 8 * size, f"{label} {size}")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def _preview(pdf: bytes) -> bytes:
    with opened_pdf(io.BytesIO(pdf)) as document:
        return render_page(document, 0, 300).tobytes()


def test_previews_drawn_in_threads_at_once_are_those_drawn_one_at_a_time() -> None:
    pdfs = [_pdf(f"sheet {k}") for k in range(THREADS)]
    alone = [_preview(pdf) for pdf in pdfs]
    with ThreadPoolExecutor(THREADS) as pool:
        together = list(pool.map(_preview, pdfs * ROUNDS))
    assert together == alone * ROUNDS


def test_blank_sheets_and_previews_rendered_in_threads_at_once_are_those_rendered_alone() -> None:
    pytest.importorskip("numpy", reason="printgen.scan's rendering needs the scan extra")
    from printgen.scan.raster import render

    pdfs = [_pdf(f"blank {k}") for k in range(THREADS)]
    alone = [render(pdf, 3.0)[0].tobytes() for pdf in pdfs]

    def either(job: tuple[int, bytes]) -> bytes:
        k, pdf = job
        return render(pdf, 3.0)[0].tobytes() if k % 2 else _preview(pdf)

    jobs = [(k, pdfs[k % THREADS]) for k in range(THREADS * ROUNDS)]
    with ThreadPoolExecutor(THREADS) as pool:
        together = list(pool.map(either, jobs))
    for (k, pdf), got in zip(jobs, together):
        assert got == (alone[k % THREADS] if k % 2 else _preview(pdf))
