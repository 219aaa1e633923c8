"""Colour arithmetic on "#rrggbb" strings: a colour in, its tint, a readable ink shade or screen colour out."""

from __future__ import annotations

from printgen.page import REGISTRATION, Hex

LUMA = (0.299, 0.587, 0.114)
"""Rec. 601 weights of red, green and blue in a colour's grey (luma): what a black-and-white printer or a
grey photo makes of it. The scanner's `printgen.scan.raster.luma` weighs pixels with them too."""


def on_screen(colour: Hex) -> Hex:
    """The "#rrggbb" that shows `colour` on screen and on a home printer (registration colour: black)."""
    return "#000000" if colour == REGISTRATION else colour


def rgb(colour: Hex) -> tuple[float, float, float]:
    """The colour's red, green and blue as 0..1."""
    value = on_screen(colour).lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


def to_hex(r: float, g: float, b: float) -> Hex:
    """0..1 channels back to "#rrggbb"."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in (r, g, b))


def mix(colour: Hex, other: Hex, amount: float) -> Hex:
    """`colour` moved `amount` (0..1) of the way towards `other`."""
    a, b = rgb(colour), rgb(other)
    return to_hex(*(x + (y - x) * amount for x, y in zip(a, b)))


def _linear(c: float) -> float:
    """An sRGB channel (0..1) as linear light."""
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: Hex) -> float:
    """Relative luminance (WCAG) of the colour, 0 (black) .. 1 (white)."""
    r, g, b = (_linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def lab(colour: Hex) -> tuple[float, float, float]:
    """The colour in CIE L*a*b* (D65 white)."""
    r, g, b = (_linear(c) for c in rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def difference(a: Hex, b: Hex) -> float:
    """How far apart two colours look: the CIE76 delta E of their L*a*b* (about 2.3 is just noticeable)."""
    return float(sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5)


def luma(colour: Hex) -> float:
    """The colour's grey on a black-and-white printer: Rec. 601 luma, 0..255."""
    r, g, b = rgb(colour)
    red, green, blue = LUMA
    return 255 * (red * r + green * g + blue * b)


def grey(colour: Hex) -> Hex:
    """The grey `colour` prints as without colour ink."""
    value = round(luma(colour))
    return f"#{value:02x}{value:02x}{value:02x}"


def contrast(a: Hex, b: Hex) -> float:
    """The WCAG contrast ratio of two colours (1 .. 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def legibility(text: Hex, ground: Hex) -> float:
    """The lower of the contrast of `text` on `ground` in colour and in grey."""
    return min(contrast(text, ground), contrast(grey(text), grey(ground)))


MIN_CONTRAST = 3.0
"""Least contrast of any printed index, number or label against what is behind it (colour and grey)."""


def readable_on(ground: Hex, light: Hex = "#ffffff", dark: Hex = "#222222") -> Hex:
    """`light` text on `ground` when that reads well (MIN_CONTRAST in colour and grey), else `dark`."""
    return light if legibility(light, ground) >= MIN_CONTRAST else dark


def text_on(ground: Hex, toward: Hex) -> Hex:
    """The colour nearest `ground` on the way to `toward` that still reads on it (MIN_CONTRAST + 0.2)."""
    for step in range(1, 21):
        shade = mix(ground, toward, step / 20)
        if legibility(shade, ground) >= MIN_CONTRAST + 0.2:
            return shade
    return toward


def tint(colour: Hex, amount: float = 0.84) -> Hex:
    """A pale version of `colour` (mixed `amount` of the way to white)."""
    return mix(colour, "#ffffff", amount)


def ink(colour: Hex) -> Hex:
    """`colour` darkened (towards a warm brown, so yellows stay golden) until text in it reads well on white."""
    shade = colour
    while luminance(shade) > 0.2:
        shade = mix(shade, "#5a2800", 0.1)
    return shade


def edge(colour: Hex, ground: Hex = "#ffffff") -> Hex:
    """`colour` for a line or outline on `ground`: itself when it stands out (MIN_CONTRAST, in colour and in
    grey), else darkened towards its ink shade just until it does (a yellow or light green outline on white
    paper, the edge of a white arrow on a yellow band)."""
    if legibility(colour, ground) >= MIN_CONTRAST:
        return colour
    darkest = ink(colour)
    for step in range(1, 21):
        shade = mix(colour, darkest, step / 20)
        if legibility(shade, ground) >= MIN_CONTRAST:
            return shade
    return darkest
