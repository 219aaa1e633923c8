"""The phone: optics blur, an RGGB sensor with shot and read noise, OpenCV's edge-aware demosaic, white balance
partly off, a colour matrix, a filmic tone curve, sharpening, and Pillow's JPEG with an EXIF orientation."""

from __future__ import annotations

import io
import math

import cv2
import numpy as np
from PIL import Image

SENSITIVITY = np.array([0.55, 1.0, 0.75], np.float32)  # the sensor's raw response to R, G, B light


def disc_kernel(radius: float) -> np.ndarray:
    r = max(radius, 0.5)
    n = math.ceil(r) * 2 + 1
    yy, xx = np.mgrid[:n, :n] - n // 2
    k = np.clip(r + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    return k / k.sum()


def motion_kernel(length: float, angle: float, bend: float) -> np.ndarray:
    n = math.ceil(length) + 3
    k = np.zeros((n, n), np.float32)
    t = np.linspace(-0.5, 0.5, 64)
    x = n / 2 + t * length * math.cos(angle) - bend * (t * t - 0.08) * length * math.sin(angle)
    y = n / 2 + t * length * math.sin(angle) + bend * (t * t - 0.08) * length * math.cos(angle)
    for a, b in zip(x, y):
        k[int(np.clip(b, 0, n - 1)), int(np.clip(a, 0, n - 1))] += 1
    k = cv2.GaussianBlur(k, (0, 0), 0.5)
    return k / k.sum()


def develop(radiance: np.ndarray, rng: np.random.Generator, illuminant: np.ndarray, *, defocus: float = 0.0,
            motion: float = 0.0, electrons: float = 6000, balance: float = 0.9, vignette: float = 0.3,
            sharpen: float = 0.6) -> np.ndarray:
    """Linear scene radiance (RGB float32) in, the phone's 8-bit sRGB picture out."""
    h, w = radiance.shape[:2]
    image = np.nan_to_num(radiance, nan=0.0, posinf=1.0, neginf=0.0)
    if defocus > 0.3:
        image = cv2.filter2D(image, -1, disc_kernel(defocus))
    if motion > 0.8:
        image = cv2.filter2D(image, -1, motion_kernel(motion, rng.uniform(0, np.pi), rng.uniform(-0.6, 0.6)))
    yy, xx = np.ogrid[:h, :w]
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    falloff = (1 - vignette * r2 + 0.3 * vignette * r2 * r2).astype(np.float32)
    raw_rgb = image * (SENSITIVITY * falloff[..., None] if False else SENSITIVITY)
    raw = np.empty((h, w), np.float32)
    raw[0::2, 0::2] = raw_rgb[0::2, 0::2, 0]
    raw[0::2, 1::2] = raw_rgb[0::2, 1::2, 1]
    raw[1::2, 0::2] = raw_rgb[1::2, 0::2, 1]
    raw[1::2, 1::2] = raw_rgb[1::2, 1::2, 2]
    raw *= falloff
    exposure = 0.8 / max(float(np.percentile(raw[::7, ::7], 99.5)), 1e-4)  # auto exposure on the bright end
    e = raw * exposure * electrons
    e += rng.standard_normal((h, w)).astype(np.float32) * np.sqrt(np.maximum(e, 0) + (electrons * 0.0008) ** 2 + 4)
    digital = np.clip(e / electrons * 4095 + 64, 0, 4095).astype(np.uint16)
    rgb = cv2.cvtColor(digital, cv2.COLOR_BayerBG2RGB_EA).astype(np.float32)  # RGGB at the top left
    rgb = np.maximum(rgb - 64, 0) / 4095
    if electrons < 1500:  # the phone's noise reduction in dim light
        rgb = cv2.bilateralFilter(rgb, 5, 0.06, 3)
    seen = SENSITIVITY * illuminant / illuminant[1]
    gains = (1 / seen) ** balance * (1 / SENSITIVITY) ** (1 - balance)
    gains = gains / gains[1]
    rgb = rgb * gains.astype(np.float32)
    matrix = np.array([[1.2, -0.15, -0.05], [-0.1, 1.18, -0.08], [-0.03, -0.2, 1.23]], np.float32)
    rgb = rgb @ matrix.T
    rgb = rgb / max(float(np.percentile(rgb[::7, ::7, 1], 99.3)), 1e-4) * 0.92
    x = np.linspace(0, 1.5, 4096, dtype=np.float32)
    curve = x * (1 + x / 2.2) / (1 + x)  # a filmic shoulder
    curve = curve / curve[int(4095 / 1.5)]
    srgb = np.where(curve <= 0.0031308, 12.92 * curve, 1.055 * np.power(np.maximum(curve, 0), 1 / 2.4) - 0.055)
    lut = np.clip(srgb * 255, 0, 255).astype(np.uint8)
    index = np.clip(rgb / 1.5 * 4095, 0, 4095).astype(np.uint16)
    out = lut[index]
    if sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = cv2.addWeighted(out, 1 + sharpen, soft, -sharpen, 0)
    return out


# What a viewer does for each EXIF orientation (display = transform(stored)) and its inverse.
_INVERSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
            5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
            8: Image.Transpose.ROTATE_270}


def jpeg(picture: np.ndarray, quality: int, orientation: int = 1, subsampling: int = 2) -> bytes:
    """The picture (as a viewer should show it) stored through Pillow with the EXIF orientation tag."""
    image = Image.fromarray(picture)
    exif = Image.Exif()
    exif[0x010F] = "printgen-fifth"
    if orientation != 1:
        image = image.transpose(_INVERSE[orientation])
        exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality, subsampling=subsampling, exif=exif.tobytes())
    return buffer.getvalue()
