"""Reading photographed score sheets: photos in, what each sheet says and whether it is legal out.

Drawing the scan marks (`codes`, `marks`) needs nothing beyond printgen's
core; reading photos needs the optional extra `printgen[scan]` (OpenCV and
NumPy), imported only by the modules that read pixels.
"""

from __future__ import annotations

from printgen.errors import PrintgenError

INSTALL_HINT = "printgen score needs the scan extra: pip install 'printgen[scan]'"


def require_opencv() -> None:
    """Raise a one-line PrintgenError when OpenCV or NumPy is missing."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        raise PrintgenError(INSTALL_HINT) from None
