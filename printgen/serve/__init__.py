"""The game-night server (`printgen serve`): photos from phones in, read and reviewed sheets, standings and printed pads out.

One package per job: `names` tidies and checks game and player names, `store`
keeps games and sheets in SQLite, `uploads`
reads uploads with one warm reader behind a bounded queue, `sheetview`
turns a reviewed sheet into what the page draws over its photo, `guard`
holds every request to the network rules (token, same-origin, size,
headers), `making` builds pads from the one options declaration, `app` maps
the HTTP contract of issue 24 onto them, `connections` times request heads
and answers uvicorn's own refusals in JSON, and `terminal` says where the
server listens. Needs the optional serve extra (Starlette, uvicorn,
python-multipart, segno) and the scan extra for reading.
"""

from __future__ import annotations

import importlib.util

from printgen.errors import PrintgenError

INSTALL_HINT = ("printgen serve needs the serve and scan extras: pip install '.[serve,scan]' in printgen's folder "
                "(its clone)")
MODULES = ("starlette", "uvicorn", "multipart", "segno", "cv2", "numpy")
"""What the serve and scan extras install (python-multipart is imported as `multipart`, OpenCV as `cv2`)."""


def require_serve() -> None:
    """A one-line PrintgenError saying how to install the extras when any of their libraries is missing."""
    for module in MODULES:
        if importlib.util.find_spec(module) is None:
            raise PrintgenError(INSTALL_HINT)
