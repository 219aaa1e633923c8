"""Phone: scene light in, a phone's JPEG out (blur, Bayer sensor and demosaic, denoise, local tone mapping, sharpening, EXIF)."""

from __future__ import annotations

import io

import cv2
import numpy as np
from PIL import Image

ORIENTATION_UNDO = {  # how to store the pixels so that a viewer applying the tag shows them upright
    1: [], 2: [Image.Transpose.FLIP_LEFT_RIGHT], 3: [Image.Transpose.ROTATE_180],
    4: [Image.Transpose.FLIP_TOP_BOTTOM], 5: [Image.Transpose.TRANSPOSE], 6: [Image.Transpose.ROTATE_90],
    7: [Image.Transpose.TRANSVERSE], 8: [Image.Transpose.ROTATE_270],
}


def develop(scene: np.ndarray, rng: np.random.Generator, *, blur: float, motion: float, photons: float,
            quality: int, orientation: int, local: float, sharpen: float) -> tuple[bytes, str]:
    """The JPEG a phone makes of linear-light `scene`: lens blur (`blur` px) and hand shake (`motion` px),
    auto exposure, an RGGB sensor with `photons` electrons at white, demosaic, partial white balance,
    denoising, local tone mapping (`local`), unsharp masking (`sharpen`), 4:2:0 JPEG at `quality`, stored
    with EXIF `orientation`."""
    image = scene
    if blur > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if motion > 1:
        length = int(motion)
        kernel = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
        angle = rng.uniform(0, np.pi)
        cv2.line(kernel, (int(length - np.cos(angle) * length), int(length - np.sin(angle) * length)),
                 (int(length + np.cos(angle) * length), int(length + np.sin(angle) * length)), 1.0, 1, cv2.LINE_AA)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    h, w = image.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    vignette = 1 - 0.35 * ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * rng.uniform(0.5, 1.5)
    bright = float(np.percentile(image[::16, ::16].max(axis=2), 97))
    image = image * (vignette * (0.85 / max(bright, 1e-4))).astype(np.float32)[..., None]
    mosaic = np.empty((h, w), np.float32)
    mosaic[0::2, 0::2] = image[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = image[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = image[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = image[1::2, 1::2, 2]
    electrons = np.maximum(mosaic, 0) * np.float32(photons)
    noise = rng.standard_normal((h, w), dtype=np.float32)
    noise *= np.sqrt(electrons + 9.0)
    electrons += noise
    electrons *= np.float32(4095 * 0.9 / photons)
    raw = np.clip(electrons, 0, 4095).astype(np.uint16)
    rgb = cv2.cvtColor(raw, cv2.COLOR_BayerBG2RGB)
    means = rgb[::8, ::8].reshape(-1, 3).mean(axis=0)
    gains = (means.mean() / np.maximum(means, 1e-4)) ** rng.uniform(0.6, 0.9)  # white balance, partly
    level = np.arange(4096, dtype=np.float64) / (4095 * 0.9)
    eight = np.empty(rgb.shape, np.uint8)
    for channel in range(3):  # gain, sRGB curve and a gentle S curve, as one lookup table a channel
        x = np.clip(level * gains[channel], 0, 1)
        x = np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)
        x = x + 0.08 * np.sin(np.pi * (x - 0.5)) * (x * (1 - x)) * 4
        eight[..., channel] = np.clip(x * 255 + 0.5, 0, 255).astype(np.uint8)[rgb[..., channel]]
    ycc = cv2.cvtColor(eight, cv2.COLOR_RGB2YCrCb)
    luma, cr, cb = cv2.split(ycc)
    noise_level = 3 + 400 / np.sqrt(photons)
    luma = cv2.bilateralFilter(luma, 5, noise_level * 2.5, 3)  # multi-frame-like smoothing, edges kept
    cr = cv2.GaussianBlur(cv2.medianBlur(cr, 5), (0, 0), 2.0)
    cb = cv2.GaussianBlur(cv2.medianBlur(cb, 5), (0, 0), 2.0)
    if local > 0:
        clahe = cv2.createCLAHE(clipLimit=1.0 + 1.2 * local, tileGridSize=(8, 8))
        luma = cv2.addWeighted(luma, 1 - local, clahe.apply(luma), local, 0)
    if sharpen > 0:
        soft = cv2.GaussianBlur(luma, (0, 0), rng.uniform(1.5, 3.0))
        luma = cv2.addWeighted(luma, 1 + sharpen, soft, -sharpen, 0)  # halos at every edge
    out = cv2.cvtColor(cv2.merge([luma, cr, cb]), cv2.COLOR_YCrCb2RGB)
    picture = Image.fromarray(out)
    for step in ORIENTATION_UNDO[orientation]:
        picture = picture.transpose(step)
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "fresh-photoset"
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", quality=quality, subsampling=2, exif=exif.tobytes())
    return buffer.getvalue(), f"sensor {photons:.0f} e-, jpeg {quality}, exif {orientation}"
