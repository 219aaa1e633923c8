"""PDFium's lock: nothing in, one process-wide lock out, held by every call into pypdfium2 (PDFium is not
thread-safe, and `printgen serve` reads uploads and draws previews in threads)."""

from __future__ import annotations

import threading

PDFIUM = threading.RLock()
"""Held while PDFium opens, renders or closes anything (a document, a page, a bitmap), in any thread."""
