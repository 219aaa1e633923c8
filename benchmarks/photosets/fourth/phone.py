"""Phone: the light reaching the sensor (linear RGB floats) in, the JPEG bytes a phone would save (with its EXIF orientation) out.

Lens blur (a disc, as a defocused lens makes) or hand shake (a curved
motion path), vignetting, auto exposure on the brighter part of the frame,
partial white balance from the brightest neutral pixels, sensor noise whose
variance grows with the signal (luma at full and chroma at half resolution),
in low light chroma and luma smoothing, a shoulder tone curve with sRGB
gamma, unsharp masking, and OpenCV's JPEG encoder; the EXIF Orientation tag is written by hand into an
APP1 segment that replaces the JFIF one, and the pixels are stored turned
so that a viewer honouring the tag shows the photo upright.
"""

from __future__ import annotations

import itertools
import math
import struct

import cv2
import numpy as np


def disc_blur(image: np.ndarray, radius: float) -> np.ndarray:
    if radius < 0.4:
        return image
    size = math.ceil(radius) * 2 + 1
    kernel = np.zeros((size, size), np.float32)
    cv2.circle(kernel, (size // 2, size // 2), round(radius * 4), 1.0, -1, cv2.LINE_AA, shift=2)
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def shake(image: np.ndarray, length: float, angle: float, bend: float) -> np.ndarray:
    if length < 1:
        return image
    size = math.ceil(length) * 2 + 3
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    pts = []
    for t in np.linspace(-0.5, 0.5, 24):
        along = t * length
        side = bend * length * (t * t - 0.25)
        pts.append((c + along * math.cos(angle) - side * math.sin(angle),
                    c + along * math.sin(angle) + side * math.cos(angle)))
    for p, q in itertools.pairwise(pts):
        cv2.line(kernel, (round(p[0] * 4), round(p[1] * 4)), (round(q[0] * 4), round(q[1] * 4)), 1.0, 1,
                 cv2.LINE_AA, shift=2)
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def develop(radiance: np.ndarray, rng: np.random.Generator, *, blur: float = 0.0, motion: float = 0.0,
            photons: float = 4000.0, balance: float = 0.7, sharpen: float = 0.6,
            vignette: float = 0.25) -> tuple[np.ndarray, str]:
    """The photo as 8-bit RGB from the light on the sensor; `photons`: full-well electrons (fewer: noisier)."""
    h, w = radiance.shape[:2]
    image = radiance  # changed in place
    if motion > 0:
        image = shake(image, motion, rng.uniform(0, math.pi), rng.uniform(-0.4, 0.4))
    image = disc_blur(image, blur)
    yy, xx = np.ogrid[0:h, 0:w]
    falloff = 1 - vignette * (((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2))
    image *= falloff.astype(np.float32)[..., None]
    # white balance (the brightest near-neutral pixels part of the way to grey) and auto exposure (the bright
    # part of the frame near the top of the range), as one gain per channel
    sample = image[::8, ::8].reshape(-1, 3)
    luma = sample.mean(axis=1)
    bright = sample[luma > np.percentile(luma, 90)]
    reference = bright.mean(axis=0) if len(bright) else np.ones(3)
    gains = (reference.mean() / np.maximum(reference, 1e-4)) ** balance
    level = np.percentile((sample * gains).mean(axis=1), 97)
    gains = gains * rng.uniform(0.78, 0.92) / max(level, 1e-4)
    image *= gains.astype(np.float32)[None, None, :]
    # sensor noise: shot noise (variance ~ signal / photons) and read noise; chroma noise coarser
    lum = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    np.clip(lum, 0, 1.5, out=lum)
    sigma = np.sqrt(lum * photons + float(rng.uniform(2, 6)) ** 2) / photons
    noise = rng.standard_normal((h, w), dtype=np.float32) * sigma
    image += noise[..., None]
    small = rng.standard_normal((h // 2 + 1, w // 2 + 1, 3), dtype=np.float32)
    chroma = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    chroma *= (sigma * 0.6)[..., None]
    image += chroma
    # the phone's processing: chroma smoothed, tone curve, sharpening
    np.clip(image, 0, 1.999, out=image)
    if photons < 1500:  # low light: the phone's noise reduction smooths chroma, and luma a little
        ycc = cv2.cvtColor(image, cv2.COLOR_RGB2YCrCb)
        ycc[..., 1] = cv2.blur(ycc[..., 1], (5, 5))
        ycc[..., 2] = cv2.blur(ycc[..., 2], (5, 5))
        ycc[..., 0] = cv2.GaussianBlur(ycc[..., 0], (0, 0), 0.9)
        image = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
        np.clip(image, 0, 1.999, out=image)
    knee = rng.uniform(0.9, 1.3)
    x = np.linspace(0, 2, 4096)
    toned = np.clip(x * (1 + x / (knee * knee)) / (1 + x) * 1.08, 0, 1)  # a shoulder, white at the knee
    encoded = np.where(toned <= 0.0031308, 12.92 * toned, 1.055 * np.power(toned, 1 / 2.4) - 0.055)
    contrast = rng.uniform(0.0, 0.12)
    curve = encoded + contrast * (encoded - 0.5) * (1 - np.abs(2 * encoded - 1))
    table = np.clip(np.round(curve * 255), 0, 255).astype(np.uint8)
    image *= 2047.5
    out = table[image.astype(np.uint16)]
    if sharpen > 0:  # unsharp masking on the 8-bit picture (saturating)
        soft = cv2.GaussianBlur(out, (0, 0), rng.uniform(1.0, 2.2))
        out = cv2.addWeighted(out, 1 + sharpen, soft, -sharpen, 0)
    return out, f"photons {photons:.0f}, blur {blur:.1f}px, shake {motion:.0f}px, balance {balance:.2f}"


def stored(upright: np.ndarray, orientation: int) -> np.ndarray:
    """The pixels to store so that a viewer applying EXIF `orientation` shows `upright`."""
    if orientation == 2:
        return upright[:, ::-1]
    if orientation == 3:
        return upright[::-1, ::-1]
    if orientation == 4:
        return upright[::-1]
    if orientation == 5:
        return upright.transpose(1, 0, 2)
    if orientation == 6:
        return np.rot90(upright, 1)  # the viewer turns it 90° clockwise
    if orientation == 7:
        return np.rot90(upright, 2).transpose(1, 0, 2)
    if orientation == 8:
        return np.rot90(upright, -1)
    return upright


def exif_segment(orientation: int) -> bytes:
    """An APP1 segment holding only the Orientation tag (big-endian TIFF)."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def jpeg(rgb: np.ndarray, quality: int, orientation: int) -> bytes:
    """The photo as a JPEG from OpenCV's encoder, turned and tagged for `orientation`."""
    pixels = np.ascontiguousarray(stored(rgb, orientation))
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, int(quality), cv2.IMWRITE_JPEG_OPTIMIZE, 1])
    if not ok:
        raise RuntimeError("OpenCV could not encode the photo")
    raw = data.tobytes()
    rest = raw[2:]
    if rest[:2] == b"\xff\xe0":  # drop the JFIF header: phones write EXIF in its place
        length = struct.unpack(">H", rest[2:4])[0]
        rest = rest[2 + length:]
    return b"\xff\xd8" + exif_segment(orientation) + rest
