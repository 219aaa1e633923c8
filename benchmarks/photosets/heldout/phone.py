"""The phone: lens blur, chromatic aberration and vignetting, a Bayer sensor with shot and read noise, and the
phone's own processing (white balance, tone curve, denoising, sharpening, JPEG, EXIF orientation)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from .light import CASTS

STORED = {  # EXIF orientation: how the upright photo is turned to be stored (the viewer undoes it)
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


@dataclass
class Phone:
    """One phone and shot: optics, sensor, processing and how the file is stored."""

    aberration: float = 0.0005
    defocus: float = 0.6
    motion: tuple[float, float] = (0.0, 0.0)
    vignette: float = 0.25
    photons: float = 6000.0
    read_noise: float = 3.0
    exposure: float = 0.9
    white_balance: float = 0.9
    saturation: float = 1.15
    contrast: float = 0.25
    denoise: float = 0.5
    sharpen: float = 0.6
    quality: int = 88
    subsampling: int = 2
    orientation: int | None = 1

    def describe(self) -> str:
        parts = [f"defocus {self.defocus:.1f} px"]
        if self.motion[0] > 0.5:
            parts.append(f"motion blur {self.motion[0]:.1f} px")
        parts += [f"{self.photons:.0f} e- at white", f"JPEG {self.quality}", f"white balance {self.white_balance:.0%}"]
        if self.orientation and self.orientation > 1:
            parts.append(f"EXIF orientation {self.orientation}")
        return ", ".join(parts)


def _disc(radius: float) -> np.ndarray:
    size = int(np.ceil(radius)) * 2 + 3
    c = size // 2
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    kernel = np.clip(radius + 0.5 - np.hypot(xx - c, yy - c), 0, 1)
    return kernel / kernel.sum()


def _streak(length: float, angle: float) -> np.ndarray:
    size = int(np.ceil(length)) + 3
    kernel = np.zeros((size * 4, size * 4), np.float32)
    c = size * 2
    d = np.array([np.cos(angle), np.sin(angle)]) * length * 2
    cv2.line(kernel, (int((c - d[0]) * 16), int((c - d[1]) * 16)), (int((c + d[0]) * 16), int((c + d[1]) * 16)),
             1.0, 4, cv2.LINE_AA, 4)
    kernel = cv2.resize(kernel, (size, size), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


def optics(image: np.ndarray, phone: Phone) -> np.ndarray:
    """What reaches the sensor: chromatic aberration, defocus and motion blur (vignetting is in the light)."""
    h, w = image.shape[:2]
    if phone.aberration:
        for channel, scale in ((0, 1 + phone.aberration), (2, 1 - phone.aberration)):
            matrix = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 0.0, scale)
            image[..., channel] = cv2.warpAffine(image[..., channel], matrix, (w, h), flags=cv2.INTER_LINEAR,
                                                 borderMode=cv2.BORDER_REFLECT)
    if phone.defocus > 0.3:
        image = cv2.filter2D(image, -1, _disc(phone.defocus), borderType=cv2.BORDER_REFLECT)
    if phone.motion[0] > 0.5:
        image = cv2.filter2D(image, -1, _streak(*phone.motion), borderType=cv2.BORDER_REFLECT)
    return image


def sensor(image: np.ndarray, phone: Phone, rng: np.random.Generator, white: float, cast: str) -> np.ndarray:
    """The raw Bayer picture (RGGB) with shot and read noise, white-balanced and demosaiced: 12-bit RGB."""
    h, w = image.shape[:2]
    illuminant = np.array(CASTS[cast], np.float32)
    gains = illuminant ** -phone.white_balance
    gains = gains / gains[1] * (phone.exposure / max(white, 1e-6))
    raw = np.empty((h, w), np.float32)
    raw[0::2, 0::2] = image[0::2, 0::2, 0]
    raw[0::2, 1::2] = image[0::2, 1::2, 1]
    raw[1::2, 0::2] = image[1::2, 0::2, 1]
    raw[1::2, 1::2] = image[1::2, 1::2, 2]
    del image
    site_gain = np.empty((2, 2), np.float32)
    site_gain[:] = [[gains[0], gains[1]], [gains[1], gains[2]]]
    electrons = raw
    electrons *= np.tile(site_gain, (h // 2, w // 2)) * phone.photons
    np.maximum(electrons, 0, out=electrons)
    sigma = np.sqrt(electrons + phone.read_noise ** 2)
    sigma *= rng.standard_normal((h, w), dtype=np.float32)
    electrons += sigma
    electrons *= 4095 / phone.photons
    levels = np.clip(electrons, 0, 4095, out=electrons).astype(np.uint16)
    return cv2.cvtColor(levels, cv2.COLOR_BayerBG2RGB_EA)


def develop(rgb: np.ndarray, phone: Phone) -> np.ndarray:
    """The phone's processing of white-balanced 12-bit linear RGB into an 8-bit RGB picture."""
    luma_weights = np.array([0.2126, 0.7152, 0.0722], np.float32)
    matrix = phone.saturation * np.eye(3, dtype=np.float32) + (1 - phone.saturation) * luma_weights[None, :]
    rgb = cv2.transform(rgb, matrix)
    curve = np.minimum(np.arange(65536, dtype=np.float32) / 4095, 1.0)
    encoded = np.where(curve <= 0.0031308, 12.92 * curve, 1.055 * curve ** (1 / 2.4) - 0.055)
    encoded = (1 - phone.contrast) * encoded + phone.contrast * (3 * encoded ** 2 - 2 * encoded ** 3)
    lut = np.clip(encoded * 255 + 0.5, 0, 255).astype(np.uint8)
    picture = lut[rgb]
    ycc = cv2.cvtColor(picture, cv2.COLOR_RGB2YCrCb)
    luma = ycc[..., 0].astype(np.float32)
    if phone.denoise > 0:
        smooth = cv2.GaussianBlur(luma, (0, 0), 0.6 + phone.denoise)
        edges = np.abs(cv2.Laplacian(smooth, cv2.CV_32F, ksize=3))
        edges *= 1 / (2 + 6 * phone.denoise)
        keep = np.minimum(edges, 1, out=edges)
        luma = smooth + (luma - smooth) * keep
        h, w = luma.shape
        for c in (1, 2):
            small = cv2.resize(ycc[..., c], (w // 2, h // 2), interpolation=cv2.INTER_AREA)
            small = cv2.GaussianBlur(small, (0, 0), 0.8 + 2 * phone.denoise)
            ycc[..., c] = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if phone.sharpen > 0:
        luma += phone.sharpen * (luma - cv2.GaussianBlur(luma, (0, 0), 1.4))
    ycc[..., 0] = cv2.convertScaleAbs(np.maximum(luma, 0, out=luma))
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)


def save(picture: np.ndarray, phone: Phone, path: Path) -> None:
    """Write the JPEG as the phone stores it: turned or mirrored with the EXIF orientation that undoes it."""
    image = Image.fromarray(picture)
    exif = Image.Exif()
    exif[0x010F] = "printgen heldout"
    exif[0x0110] = "pinhole model"
    if phone.orientation is not None:
        transpose = STORED[phone.orientation]
        if transpose is not None:
            image = image.transpose(transpose)
        exif[0x0112] = phone.orientation
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=phone.quality, subsampling=phone.subsampling, exif=exif.tobytes())
    path.write_bytes(buffer.getvalue())
