"""The phone: blur, noise, white balance, exposure, tone curve, sharpening, JPEG with an EXIF orientation."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from benchmarks.photosets.dev.scene import noise as smooth_noise

INVERSE = {1: None, 2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
           4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90,
           7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_270}
"""How to store a picture so that a viewer obeying each EXIF orientation shows it as it was."""


@dataclass
class Sensor:
    """What the phone does between the light and the file."""

    blur: float = 0.6
    """Optical blur (Gaussian sigma, px) including defocus."""
    motion: float = 0.0
    """Motion blur length (px)."""
    motion_angle: float = 0.0
    photons: float = 20000.0
    """Electrons at full scale: low light gives few, so much shot noise."""
    read: float = 0.002
    white_level: float = 0.8
    """Where auto exposure puts the paper's white (linear)."""
    contrast: float = 0.1
    sharpen: float = 0.5
    denoise: float = 0.0
    quality: int = 90
    orientation: int = 1
    exif: bool = True

    def describe(self) -> str:
        parts = []
        if self.motion > 1:
            parts.append(f"motion {self.motion:.0f}px")
        if self.photons < 5000:
            parts.append(f"low light ({self.photons:.0f} e-)")
        parts.append(f"JPEG {self.quality}")
        if self.orientation != 1:
            parts.append(f"EXIF orientation {self.orientation}")
        return ", ".join(parts)


def vignette_field(shape: tuple[int, int], amount: float) -> np.ndarray:
    """A coarse-friendly radial falloff (1 in the middle)."""
    h, w = shape
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((x - w / 2) ** 2 + (y - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    return 1 - amount * r2 ** 1.2


def expose(scene: np.ndarray, sensor: Sensor, paper_white: float, rng: np.random.Generator) -> np.ndarray:
    """Linear scene light (changed in place) to the sRGB picture a phone writes (uint8)."""
    h, w = scene.shape[:2]
    if sensor.motion > 1:
        length = math.ceil(sensor.motion) | 1
        kernel = np.zeros((length, length), np.float32)
        c = length // 2
        dx, dy = math.cos(sensor.motion_angle), math.sin(sensor.motion_angle)
        for t in np.linspace(-sensor.motion / 2, sensor.motion / 2, length * 3):
            kernel[round(c + t * dy), round(c + t * dx)] += 1
        kernel /= kernel.sum()
        cv2.filter2D(scene, -1, kernel, dst=scene, borderType=cv2.BORDER_REFLECT)
    if sensor.blur > 0.3:
        cv2.GaussianBlur(scene, (0, 0), sensor.blur, dst=scene)
    gain = sensor.white_level / max(paper_white, 1e-4)
    scene *= gain
    # shot and read noise, grainy as a demosaiced sensor's (generated at half size)
    hh, ww = (h + 1) // 2, (w + 1) // 2
    small = cv2.resize(scene, (ww, hh), interpolation=cv2.INTER_AREA)
    sigma = np.sqrt(np.maximum(small, 0) / sensor.photons + sensor.read ** 2).astype(np.float32)
    grain = rng.standard_normal(small.shape, dtype=np.float32) * sigma
    if sensor.denoise > 0:
        luma = grain.mean(2, keepdims=True)
        chroma = cv2.GaussianBlur(grain - luma, (0, 0), 2.5) * 0.5
        grain = luma * (1 - 0.5 * sensor.denoise) + chroma
        grain = cv2.GaussianBlur(grain, (0, 0), 0.6 * sensor.denoise)
    scene += cv2.resize(grain, (w, h), interpolation=cv2.INTER_LINEAR)
    if sensor.photons < 3000:  # low light: fine luminance grain too
        fine = rng.standard_normal((h, w), dtype=np.float32)
        fine *= float(np.sqrt(0.3 / sensor.photons))
        scene += fine[:, :, None]
    # tone curve: sRGB with a little extra contrast, by a table over the square root of the light (a fast
    # 8-bit step that keeps the shadows' precision)
    levels = (np.arange(256) / 255.0) ** 2
    srgb = np.where(levels <= 0.0031308, 12.92 * levels, 1.055 * levels ** (1 / 2.4) - 0.055)
    srgb = srgb + sensor.contrast * (srgb - 0.5) * (1 - np.abs(2 * srgb - 1)) * 1.5
    table = np.clip(srgb * 255 + 0.5, 0, 255).astype(np.uint8)
    cv2.max(scene, 0.0, dst=scene)
    cv2.sqrt(scene, dst=scene)
    picture = cv2.LUT(cv2.convertScaleAbs(scene, alpha=255.0), table)
    if sensor.sharpen > 0:
        soft = cv2.GaussianBlur(picture, (0, 0), 1.2)
        picture = cv2.addWeighted(picture, 1 + sensor.sharpen, soft, -sensor.sharpen, 0)
    return picture


def save(picture: np.ndarray, path: Path, sensor: Sensor) -> None:
    """Write the JPEG: stored turned or mirrored as `sensor.orientation` says, so that a viewer shows `picture`."""
    image = Image.fromarray(picture)
    method = INVERSE[sensor.orientation]
    if method is not None:
        image = image.transpose(method)
    options: dict[str, object] = {"quality": sensor.quality, "subsampling": 2 if sensor.quality < 90 else 1}
    if sensor.exif or sensor.orientation != 1:
        exif = Image.Exif()
        exif[0x0112] = sensor.orientation
        exif[0x010F] = "printgen photoset dev"
        exif[0x0110] = "simulated phone"
        options["exif"] = exif.tobytes()
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    path.write_bytes(buffer.getvalue())


def uneven(rng: np.random.Generator, shape: tuple[int, int], amount: float) -> np.ndarray:
    """Light that falls off across the picture: a tilted ramp times a lamp's round pool, about 1 - amount..1."""
    h, w = shape
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = ((x / w - 0.5) * math.cos(angle) + (y / h - 0.5) * math.sin(angle)) + 0.5
    lamp = np.array([rng.uniform(-0.5, 1.5) * w, rng.uniform(-0.5, 1.5) * h])
    pool = 1 / (1 + ((x - lamp[0]) ** 2 + (y - lamp[1]) ** 2) / (rng.uniform(0.5, 1.5) * max(h, w)) ** 2)
    field = 0.5 * np.clip(ramp, 0, 1) + 0.5 * pool / pool.max() + 0.05 * smooth_noise(rng, shape, max(h, w) / 3)
    field = (field - field.min()) / max(float(np.ptp(field)), 1e-6)
    return (1 - amount + amount * field).astype(np.float32)
