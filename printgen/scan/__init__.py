"""Reading photographed score sheets: photos in, what each sheet says and whether it is legal out.

The marks it reads (corner markers, the sheet's code) are printed by
`printgen.marks`, which needs nothing beyond printgen's core; reading photos
needs the optional scan extra (OpenCV and NumPy), imported only
by the modules that read pixels. Every threshold, tolerance and resolution
of the reading is named in `thresholds`; the photo simulator that tests and
measures the reader lives in `tests/scan/simulator`.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from printgen.errors import PrintgenError

INSTALL_HINT = "printgen score needs the scan extra: pip install '.[scan]' in printgen's folder (its clone)"
OPENCV_ADDRESS_SPACE = 640 * 2**20
"""Address space OpenCV needs to load and read a photo (its libraries map about 440 MB): below that,
OpenCV's own loader crashes instead of failing, so the limit is checked first."""


def _address_space_left() -> int:
    """Bytes of address space this process may still map under its limit (ulimit -v); very many if none."""
    import resource

    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit == resource.RLIM_INFINITY:
        return 2**62
    try:
        with open("/proc/self/statm") as handle:
            used = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return limit
    return max(limit - used, 0)


def require_opencv() -> None:
    """Load OpenCV and NumPy with their own messages silenced; a one-line PrintgenError when either is
    missing, or is installed but cannot be loaded (e.g. out of memory), saying which."""
    os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")  # read when cv2 loads: no "[ WARN:0@...]" lines
    for module in ("numpy", "cv2"):
        if importlib.util.find_spec(module) is None:
            raise PrintgenError(INSTALL_HINT)
    if "cv2" not in sys.modules and _address_space_left() < OPENCV_ADDRESS_SPACE:
        raise PrintgenError(f"out of memory while loading OpenCV for printgen score: it needs about "
                            f"{OPENCV_ADDRESS_SPACE // 2**20} MB of address space and the limit (ulimit -v) "
                            f"leaves {_address_space_left() // 2**20} MB")
    try:
        import cv2
        import numpy  # noqa: F401
    except MemoryError:
        raise PrintgenError("out of memory while loading OpenCV for printgen score") from None
    except ImportError as error:
        reason = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        if "failed to map segment" in reason:
            raise PrintgenError("out of memory while loading OpenCV for printgen score") from None
        raise PrintgenError(f"OpenCV is installed but cannot be loaded ({reason})") from None
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
