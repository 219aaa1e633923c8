"""Undoing the perspective: a photo and a homography (sheet mm to pixels) in, the sheet as if scanned flat at a fixed resolution out."""

from __future__ import annotations

import cv2
import numpy as np

from printgen.scan.thresholds import SHRINK_ABOVE, SHRINK_TO


def pixels_per_mm(to_photo: np.ndarray, width: float, height: float) -> float:
    """The photo's smallest resolution over the sheet, in pixels per mm (from the homography's local scale)."""
    scales = []
    for x, y in ((0, 0), (width, 0), (width, height), (0, height), (width / 2, height / 2)):
        points = np.float64([[[x, y]], [[x + 1, y]], [[x, y + 1]]])
        p = cv2.perspectiveTransform(points, to_photo).reshape(3, 2)
        scales.append(min(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0])))
    return float(min(scales))


def rectify(photo: np.ndarray, to_photo: np.ndarray, width: float, height: float, px_per_mm: float) -> np.ndarray:
    """The sheet (`width` x `height` mm) cut out of `photo` and flattened at `px_per_mm`; pixel (i, j) covers
    the sheet's millimetres from (j, i) / px_per_mm. A photo much finer than that is shrunk first (no aliasing)."""
    matrix = to_photo.copy()
    local = pixels_per_mm(to_photo, width, height)
    image = photo
    if local > SHRINK_ABOVE * px_per_mm:
        shrink = SHRINK_TO * px_per_mm / local
        image = cv2.resize(photo, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        matrix = np.diag([shrink, shrink, 1.0]) @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]]) @ matrix
        matrix = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]]) @ matrix
    to_sheet_px = np.array([[1 / px_per_mm, 0, 0.5 / px_per_mm], [0, 1 / px_per_mm, 0.5 / px_per_mm], [0, 0, 1]])
    size = (round(width * px_per_mm), round(height * px_per_mm))
    return cv2.warpPerspective(image, matrix @ to_sheet_px, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
