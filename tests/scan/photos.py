"""Test helpers: a printed page in, a simple controlled photo of it (turned, tilted, scaled, blurred) out."""

from __future__ import annotations

import cv2
import numpy as np

from printgen.page import Item, Page
from printgen.scan.raster import raster


def printed(page: Page | Item, px_per_mm: float = 8.0) -> np.ndarray:
    """A page or item rendered as BGR uint8."""
    if isinstance(page, Item):
        page = page.as_page()
    return np.ascontiguousarray(raster(page, px_per_mm)[..., ::-1])


def photo(picture: np.ndarray, turn: float = 0.0, keystone: float = 0.0, width: int = 1600, fill: float = 0.6,
          blur: float = 0.0, background: tuple[int, int, int] = (70, 90, 60), jpeg: int = 90) -> np.ndarray:
    """`picture` photographed: turned `turn` degrees, one side `keystone` shorter, filling `fill` of a 4:3
    frame `width` pixels wide, blurred and JPEG-compressed."""
    h, w = picture.shape[:2]
    height = width * 3 // 4
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - [w / 2, h / 2]
    corners[:, 0] *= 1 - keystone * (corners[:, 1] > 0)
    a = np.radians(turn)
    corners = corners @ np.float32([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    span = corners.max(axis=0) - corners.min(axis=0)
    scale = min(np.sqrt(fill * width * height / (w * h)), 0.97 * width / span[0], 0.97 * height / span[1])
    placed = (corners - (corners.min(axis=0) + corners.max(axis=0)) / 2) * scale + [width / 2, height / 2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), placed.astype(np.float32))
    out = cv2.warpPerspective(picture, matrix, (width, height), flags=cv2.INTER_AREA, borderValue=background)
    if blur:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    _ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)
