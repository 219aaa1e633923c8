"""Colour management: an sRGB "#rrggbb" colour and a CMYK press profile in, ink amounts through littleCMS out.

Colours go from sRGB to the press profile with littleCMS (Pillow's
`ImageCms`), relative colorimetric. Neutral greys never do: they print with
black ink alone, as much K as matches their lightness through the profile,
so greys cannot drift in hue when the press is off balance and black text
(anything at least as dark as solid K) is 100 % K. printgen ships one
profile, `printgen-fogra39.icc` (offset on coated paper, 300 % total ink);
`press(icc)` takes any CMYK output profile instead. Every answer is cached
per colour.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeAlias

from printgen.errors import UsageProblem
from printgen.page import Hex
from printgen.resources import resource_dir

Cmyk: TypeAlias = tuple[float, float, float, float]
"""Ink amounts, 0..1 each."""
Lab: TypeAlias = tuple[float, float, float]
"""CIE L*a*b* under D50, relative to the medium's white."""

BUNDLED = "printgen-fogra39.icc"
BUNDLED_CONDITION = "FOGRA39"
"""The registered characterization the bundled profile was built from (ICC registry name)."""


def bundled_profile() -> Path:
    """The press profile printgen ships."""
    return resource_dir("profiles") / BUNDLED


@dataclass(eq=False)
class Press:
    """A CMYK printing condition: its ICC profile, what it is called, and the conversions through it."""

    profile: Path
    data: bytes
    description: str
    condition: str
    """The OutputConditionIdentifier an OutputIntent names: FOGRA39 for the bundled profile, else Custom."""
    _transforms: dict[str, Any] = field(default_factory=dict, repr=False)
    _cache: dict[Hex, Cmyk] = field(default_factory=dict, repr=False)
    _ramp: list[float] = field(default_factory=list, repr=False)

    def cmyk(self, colour: Hex) -> Cmyk:
        """The ink amounts that print `colour` on this press (greys and black: K only)."""
        found = self._cache.get(colour)
        if found is None:
            found = self._cache[colour] = self._convert(colour)
        return found

    def lab(self, ink: Cmyk) -> Lab:
        """What `ink` looks like printed on this press (the profile's colorimetric table)."""
        image = _image("CMYK", [tuple(round(v * 255) for v in ink)])
        return _lab8(self._transform("CMYK", "LAB").apply(image).getpixel((0, 0)))

    def _convert(self, colour: Hex) -> Cmyk:
        r, g, b = _rgb8(colour)
        if r == g == b:
            return (0.0, 0.0, 0.0, self._k_for(srgb_lab(colour)[0]))
        c, m, y, k = self._transform("RGB", "CMYK").apply(_image("RGB", [(r, g, b)])).getpixel((0, 0))
        return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))

    def _k_for(self, lightness: float) -> float:
        """The black ink alone that prints `lightness` (L*); 1.0 for anything as dark as solid K or darker."""
        ramp = self._ramp
        if not ramp:
            image = _image("CMYK", [(0, 0, 0, k) for k in range(256)])
            out = self._transform("CMYK", "LAB").apply(image)
            falling: list[float] = []
            for k in range(256):  # 8-bit Lab repeats values: make the ramp strictly falling
                value = _lab8(out.getpixel((k, 0)))[0]
                falling.append(min(value, falling[-1] - 1e-6) if falling else value)
            ramp.extend(-value for value in falling)  # rising, for bisect
        target = -lightness
        if target <= ramp[0]:
            return 0.0
        if target >= ramp[-1]:
            return 1.0
        i = bisect_left(ramp, target)
        share = (target - ramp[i - 1]) / (ramp[i] - ramp[i - 1])
        return round((i - 1 + share) / 255, 4)

    def _transform(self, source: str, target: str) -> Any:
        key = f"{source}>{target}"
        if key not in self._transforms:
            from PIL import ImageCms

            profiles: dict[str, Any] = {"RGB": ImageCms.createProfile("sRGB"),
                                        "LAB": ImageCms.createProfile("LAB", 5000),
                                        "CMYK": ImageCms.ImageCmsProfile(str(self.profile))}
            self._transforms[key] = ImageCms.buildTransform(
                profiles[source], profiles[target], source, target, ImageCms.Intent.RELATIVE_COLORIMETRIC)
        return self._transforms[key]


@cache
def press(icc: Path | None = None) -> Press:
    """The printing condition of profile `icc` (default: the bundled FOGRA39 profile).

    A file that is not a CMYK output profile is a UsageProblem naming it.
    """
    from PIL import ImageCms

    path = icc or bundled_profile()
    shown = f"--icc: {path}" if icc is not None else str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageProblem(f"{shown}: cannot read: {error.strerror or error}") from None
    try:
        profile = ImageCms.ImageCmsProfile(str(path))
    except (OSError, ImageCms.PyCMSError):
        raise UsageProblem(f"{shown}: not an ICC profile") from None
    info = profile.profile
    if info.xcolor_space.strip() != "CMYK" or info.device_class != "prtr":
        raise UsageProblem(f"{shown}: not a CMYK printer profile ({info.xcolor_space.strip()} "
                           f"{info.device_class}); print shops give one, e.g. ISO Coated v2 (FOGRA39)")
    description = (ImageCms.getProfileDescription(profile) or path.name).strip()
    condition = BUNDLED_CONDITION if icc is None else "Custom"
    found = Press(path, data, description, condition)
    try:  # littleCMS reads a profile's tables only when it builds a transform: build both now, before anything
        found.cmyk("#ff0000")  # is written, so a damaged profile (its header intact, the rest cut off) is refused
        found.lab((0.0, 0.0, 0.0, 1.0))  # here, and the transforms are kept for the build
    except (ImageCms.PyCMSError, OSError, ValueError):
        raise UsageProblem(f"{shown}: a damaged ICC profile: littleCMS cannot convert colours through it") from None
    return found


def press_for(cmyk: bool, icc: Path | None = None) -> Press | None:
    """The press a PDF's colours go to: `icc`'s if given, else the bundled one if `cmyk`, else None (sRGB)."""
    if icc is not None:
        return press(icc)
    return press() if cmyk else None


def srgb_lab(colour: Hex) -> Lab:
    """The CIE L*a*b* (D50, Bradford-adapted as ICC profiles do) of an sRGB colour, computed exactly."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v / 255) for v in _rgb8(colour))
    # sRGB -> XYZ (D50), the matrix of the ICC sRGB profile
    x = 0.4360747 * r + 0.3850649 * g + 0.1430804 * b
    y = 0.2225045 * r + 0.7168786 * g + 0.0606169 * b
    z = 0.0139322 * r + 0.0971045 * g + 0.7141733 * b
    white = (0.9642, 1.0, 0.8249)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / white[0]), f(y / white[1]), f(z / white[2])
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e2000(one: Lab, other: Lab) -> float:
    """The CIEDE2000 colour difference between two L*a*b* colours (1 is about a just noticeable difference)."""
    l1, a1, b1 = one
    l2, a2, b2 = other
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c**7 / (mean_c**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    turn = h2 - h1
    if c1 * c2 == 0:
        turn = 0.0
    elif turn > 180:
        turn -= 360
    elif turn < -180:
        turn += 360
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(turn / 2))
    mean_l, mean_cp = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6)) - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c = 1 + 0.045 * mean_cp
    s_h = 1 + 0.015 * mean_cp * t
    rotation = (-2 * math.sqrt(mean_cp**7 / (mean_cp**7 + 25**7))
                * math.sin(math.radians(60 * math.exp(-(((mean_h - 275) / 25) ** 2)))))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + rotation * (d_c / s_c) * (d_h / s_h))


def _rgb8(colour: Hex) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def _image(mode: str, pixels: list[tuple[int, ...]]) -> Any:
    from PIL import Image

    image = Image.new(mode, (len(pixels), 1))
    image.putdata(pixels)
    return image


def _lab8(pixel: tuple[int, int, int]) -> Lab:
    """Pillow's 8-bit LAB pixel as L* 0..100, a*, b* -128..127."""
    lightness, a, b = pixel
    return (lightness * 100 / 255, float(a - 128), float(b - 128))
