"""Around and over the paper: procedural tables, dice, a finger or a pen over the sheet, the light's shapes."""

from __future__ import annotations

import math

import cv2
import numpy as np

from benchmarks.photosets.dev.pens import TO_LINEAR


def noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Smooth value noise of `shape` with features about `cell` px across, about N(0, 1)."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / cell) + 2), max(2, int(w / cell) + 2))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (big.std() + 1e-6)


def _rgb(value: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    return np.asarray(value, np.float32) / 255.0


def table(kind: str, rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> np.ndarray:
    """A table top `shape` px at `ppm` px/mm, RGB uint8 (sRGB)."""
    h, w = shape
    if kind == "wood":
        image = _wood(rng, h, w, ppm)
    elif kind == "cloth":
        image = _cloth(rng, h, w, ppm)
    elif kind == "newspaper":
        image = _newspaper(rng, h, w, ppm)
    elif kind == "stone":
        stones = ((200, 196, 188), (120, 118, 116), (60, 58, 60), (226, 218, 200), (150, 130, 110), (36, 36, 40))
        base = _rgb(stones[int(rng.integers(len(stones)))]) * rng.uniform(0.95, 1.05, 3)
        image = np.ones((h, w, 3), np.float32) * base
        image *= (1 + 0.07 * noise(rng, (h, w), 30 * ppm) + 0.03 * noise(rng, (h, w), 3 * ppm))[:, :, None]
        for size, share in ((0.6, 0.07), (2.0, 0.03)):
            spots = noise(rng, (h, w), max(size * ppm, 1.0))
            dots = np.clip((spots - np.quantile(spots[::7, ::7], 1 - share)) * 4, 0, 1)
            colour = base * rng.choice([0.35, 0.6, 1.35, 1.6])
            image = image * (1 - dots[:, :, None]) + np.clip(colour, 0, 1) * dots[:, :, None]
    elif kind == "dots":
        image = np.ones((h, w, 3), np.float32) * _rgb(rng.uniform(90, 250, 3))
        colour = _rgb(rng.uniform(0, 200, 3))
        pitch = rng.uniform(8, 25) * ppm
        radius = pitch * rng.uniform(0.15, 0.35)
        mask = np.zeros((h, w), np.uint8)
        for y in np.arange(0, h + pitch, pitch):
            for i, x in enumerate(np.arange(0, w + pitch, pitch)):
                off = pitch / 2 if int(y / pitch) % 2 else 0
                cv2.circle(mask, (int(x + off + i * 0), int(y)), max(1, int(radius)), 255, -1, cv2.LINE_AA)
        m = mask.astype(np.float32)[:, :, None] / 255
        image = image * (1 - m) + colour * m
        image *= (1 + 0.06 * noise(rng, (h, w), 60 * ppm))[:, :, None]
    else:
        tone = rng.choice([rng.uniform(200, 245), rng.uniform(110, 190), rng.uniform(25, 90)])
        tint = rng.normal(1, 0.08, 3)
        image = np.ones((h, w, 3), np.float32) * _rgb(np.clip(tone * tint, 0, 255))
        image *= (1 + 0.04 * noise(rng, (h, w), 80 * ppm) + 0.015 * noise(rng, (h, w), 2))[:, :, None]
    return np.clip(image * 255, 0, 255).astype(np.uint8)


def _rotated_coordinates(h: int, w: int, angle: float) -> tuple[np.ndarray, np.ndarray]:
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    c, s = math.cos(angle), math.sin(angle)
    return x * c + y * s, -x * s + y * c


def _wrap(values: np.ndarray, size: int) -> np.ndarray:
    """`values` modulo `size` (numpy's mod is slow on float32)."""
    values -= np.floor(values * np.float32(1 / size)) * np.float32(size)
    return values


def stretched_noise(rng: np.random.Generator, along: np.ndarray, across: np.ndarray, cell_along: float,
                    cell_across: float) -> np.ndarray:
    """Smooth noise over rotated coordinates, features `cell_along` by `cell_across` long, about N(0, 1)."""
    size = 64
    small = rng.standard_normal((size, size)).astype(np.float32)
    ox, oy = (float(v) for v in rng.uniform(0, size, 2))
    map_x = _wrap(along * np.float32(1 / cell_along) + np.float32(ox), size)
    map_y = _wrap(across * np.float32(1 / cell_across) + np.float32(oy), size)
    out = cv2.remap(small, map_x, map_y, cv2.INTER_CUBIC, borderMode=cv2.BORDER_WRAP)
    return out / (float(out.std()) + 1e-6)


WOODS = ((192, 150, 102), (112, 76, 52), (214, 178, 128), (158, 96, 62), (214, 204, 188), (76, 54, 40),
         (176, 128, 84))


def _wood(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    along, across = _rotated_coordinates(h, w, rng.uniform(0, math.pi))
    along *= np.float32(1 / ppm)
    across *= np.float32(1 / ppm)  # mm
    light = _rgb(WOODS[int(rng.integers(len(WOODS)))]) * rng.uniform(0.92, 1.08, 3)
    dark = light * rng.uniform(0.55, 0.8) * np.array([1.0, 0.92, 0.85])
    plank = rng.uniform(90, 220)
    index = np.floor(across / plank)
    wobble = (stretched_noise(rng, along, across, 300, 60) * np.float32(rng.uniform(4, 12))
              + stretched_noise(rng, along, across, 70, 12) * np.float32(rng.uniform(0.5, 2.5)))
    spacing = rng.uniform(3, 10)
    phase = (across + wobble + index * np.float32(37.0)) * np.float32(1 / spacing)
    late = np.exp(-np.square((_wrap(phase, 1) - np.float32(0.5)) * np.float32(1 / rng.uniform(0.06, 0.16))))
    fine = np.sin((across + np.float32(0.8) * wobble) * np.float32(2 * math.pi / rng.uniform(0.6, 1.3)))
    fine = fine * np.float32(0.5) + np.float32(0.5)
    flecks = np.clip((stretched_noise(rng, along, across, 5, 0.3) - 1.5) * 2, 0, 1)
    value = np.clip(late * rng.uniform(0.45, 0.85) + 0.12 * fine + 0.3 * flecks, 0, 1)
    image = light * (1 - value[:, :, None]) + dark * value[:, :, None]
    tone = (1 + 0.07 * np.sin(index * 2.1 + rng.uniform(0, 6))
            + 0.05 * stretched_noise(rng, along, across, 250, 150))
    image *= tone[:, :, None]
    seam = np.abs(across - (index + 1) * plank) < 0.35
    image[seam] *= 0.5
    return image


def _cloth(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    along, across = _rotated_coordinates(h, w, rng.uniform(0, math.pi))
    base = _rgb(rng.uniform(150, 250, 3))
    first, second = _rgb(rng.uniform(20, 220, 3)), _rgb(rng.uniform(20, 220, 3))
    pitch = rng.uniform(6, 30) * ppm
    a = ((along / pitch) % 1 < rng.uniform(0.3, 0.6)).astype(np.float32)
    b = ((across / (pitch * rng.uniform(0.6, 1.6))) % 1 < rng.uniform(0.2, 0.6)).astype(np.float32)
    image = np.ones((h, w, 3), np.float32) * base
    image = image * (1 - 0.55 * a[:, :, None] * (1 - first)) * (1 - 0.55 * b[:, :, None] * (1 - second))
    if ppm > 1.5:
        weave = np.sin(2 * math.pi * along / (0.7 * ppm)) * np.sin(2 * math.pi * across / (0.7 * ppm))
        image *= (1 + 0.06 * weave)[:, :, None]
    wrinkles = stretched_noise(rng, along / ppm, across / ppm, rng.uniform(40, 120), rng.uniform(10, 30))
    image *= (1 + 0.1 * np.tanh(wrinkles) + 0.03 * noise(rng, (h, w), 1.5))[:, :, None]
    return image


def _newspaper(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    grey = rng.uniform(205, 232)
    paper = (grey, grey * rng.uniform(0.97, 0.99), grey * rng.uniform(0.9, 0.95))
    side = int(math.hypot(h, w)) + 2
    page = np.full((side, side, 3), paper, np.uint8)
    column = rng.uniform(40, 60) * ppm
    gutter = 4 * ppm
    line = rng.uniform(3.2, 4.2) * ppm
    scale = max(line / 30.0, 0.12)
    thickness = max(1, round(scale * 1.6))
    font = cv2.FONT_HERSHEY_SIMPLEX
    per_char = cv2.getTextSize("etaoinshrdlu etaoinshrdlu", font, scale, thickness)[0][0] / 25
    letters = list("etaoinshrdlcumwfgypbvkjxqz")
    weights = np.linspace(2.0, 0.2, len(letters))
    weights /= weights.sum()
    ink = (int(rng.uniform(20, 50)),) * 3
    x = gutter
    while x < side:
        y = gutter + rng.uniform(0, 20) * ppm
        while y < side:
            if rng.random() < 0.03:  # a headline or a printed photo
                if rng.random() < 0.5:
                    big = scale * rng.uniform(2.2, 3.5)
                    words = "".join(rng.choice(letters, int(column / (per_char * big / scale) * 0.9), p=weights))
                    y += line * 2.5
                    cv2.putText(page, words.capitalize(), (int(x), int(y)), cv2.FONT_HERSHEY_DUPLEX, big, ink,
                                max(1, int(big * 2)), cv2.LINE_AA)
                    y += line
                else:
                    tall = int(rng.uniform(30, 70) * ppm)
                    block = noise(rng, (max(2, tall), max(2, int(column))), rng.uniform(4, 15) * ppm)
                    block += 0.5 * noise(rng, block.shape, 1.5 * ppm)
                    yy, xx = np.mgrid[0:block.shape[0], 0:block.shape[1]]
                    screen = np.sin(xx * 2 * math.pi / max(ppm, 2.5)) * np.sin(yy * 2 * math.pi / max(ppm, 2.5))
                    tone = np.where(block * 0.6 > screen, 40, 225).astype(np.uint8)
                    y0, x0 = int(y), int(x)
                    region = page[y0:y0 + tone.shape[0], x0:x0 + tone.shape[1]]
                    region[:] = tone[:region.shape[0], :region.shape[1], None]
                    y += tall + line
                continue
            short = rng.integers(0, 3) if rng.random() < 0.9 else column / per_char / 2  # a paragraph ends
            count = int(column / per_char) - int(short)
            chars = rng.choice(letters, max(count, 1), p=weights)
            gaps = rng.random(len(chars)) < 0.17
            chars[gaps] = " "
            cv2.putText(page, "".join(chars), (int(x), int(y)), font, scale, ink, thickness, cv2.LINE_AA)
            y += line
        x += column + gutter
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), rng.uniform(0, 360), 1)
    turn[:, 2] -= [(side - w) / 2, (side - h) / 2]
    image = cv2.warpAffine(page, turn, (w, h), borderMode=cv2.BORDER_REFLECT).astype(np.float32) / 255
    image *= (1 + 0.05 * noise(rng, (h, w), 40 * ppm))[:, :, None]
    return image


# -- things over the sheet (in the picture, px) -------------------------------------------------------------------


def _capsule(shape: tuple[int, int], a: np.ndarray, b: np.ndarray, r0: float, r1: float, box: tuple[int, ...]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Signed distance (negative inside) to a tapered capsule from a (radius r0) to b (r1) over `box`, with each
    pixel's position along (0..1) and across (-1..1) it."""
    x0, y0, x1, y1 = box
    y, x = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    axis = b - a
    length = float(np.hypot(*axis))
    along_unit = axis / length
    rel_x, rel_y = x - a[0], y - a[1]
    s = (rel_x * along_unit[0] + rel_y * along_unit[1]) / length
    t = -rel_x * along_unit[1] + rel_y * along_unit[0]
    sc = np.clip(s, 0, 1)
    r = r0 + (r1 - r0) * sc
    dist = np.hypot((s - sc) * length, t) - r
    return dist, s, t / np.maximum(r, 1e-3)


def _box(points: np.ndarray, pad: float, shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    h, w = shape
    x0, y0 = np.floor(points.min(0) - pad).astype(int)
    x1, y1 = np.ceil(points.max(0) + pad).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    return (x0, y0, x1, y1) if x1 > x0 + 1 and y1 > y0 + 1 else None


class Layer:
    """Something over the scene: colour (linear), coverage and the shadow it casts, each over a box."""

    def __init__(self, box: tuple[int, int, int, int], colour: np.ndarray, alpha: np.ndarray,
                 shadow: np.ndarray, shadow_box: tuple[int, int, int, int]) -> None:
        self.box, self.colour, self.alpha, self.shadow, self.shadow_box = box, colour, alpha, shadow, shadow_box

    def darken(self, scene: np.ndarray, strength: float) -> None:
        x0, y0, x1, y1 = self.shadow_box
        scene[y0:y1, x0:x1] *= (1 - strength * self.shadow)[:, :, None]

    def cover(self, scene: np.ndarray) -> None:
        x0, y0, x1, y1 = self.box
        a = self.alpha[:, :, None]
        scene[y0:y1, x0:x1] = scene[y0:y1, x0:x1] * (1 - a) + self.colour * a

    def enlarged(self, factor: float, shape: tuple[int, int]) -> Layer:
        """This layer, made at 1/`factor` of the picture's size, at full size."""
        def grow(box: tuple[int, int, int, int], *images: np.ndarray) -> tuple[tuple[int, int, int, int],
                                                                               list[np.ndarray]]:
            x0, y0 = int(box[0] * factor), int(box[1] * factor)
            x1, y1 = min(int(box[2] * factor), shape[1]), min(int(box[3] * factor), shape[0])
            return (x0, y0, x1, y1), [cv2.resize(i, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
                                      for i in images]
        box, (colour, alpha) = grow(self.box, self.colour, self.alpha)
        shadow_box, (shadow,) = grow(self.shadow_box, self.shadow)
        return Layer(box, colour, alpha, shadow, shadow_box)


def _soft_shadow(alpha: np.ndarray, box: tuple[int, ...], offset: np.ndarray, blur: float,
                 shape: tuple[int, int]) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    x0, y0, x1, y1 = box
    pad = int(3 * blur + abs(offset).max()) + 2
    sx0, sy0 = max(x0 - pad, 0), max(y0 - pad, 0)
    sx1, sy1 = min(x1 + pad, shape[1]), min(y1 + pad, shape[0])
    canvas = np.zeros((sy1 - sy0, sx1 - sx0), np.float32)
    canvas[y0 - sy0:y1 - sy0, x0 - sx0:x1 - sx0] = alpha
    moved = cv2.warpAffine(canvas, np.float32([[1, 0, offset[0]], [0, 1, offset[1]]]),
                           (canvas.shape[1], canvas.shape[0]))
    if blur > 6:  # a wide blur at a lower resolution (same look, far faster)
        factor = blur / 3
        small = cv2.resize(moved, (max(2, int(moved.shape[1] / factor)), max(2, int(moved.shape[0] / factor))),
                           interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), 3)
        moved = cv2.resize(small, (moved.shape[1], moved.shape[0]), interpolation=cv2.INTER_LINEAR)
    elif blur > 0.3:
        moved = cv2.GaussianBlur(moved, (0, 0), blur)
    return moved, (sx0, sy0, sx1, sy1)


SKIN = ((233, 190, 160), (220, 170, 135), (196, 140, 105), (160, 105, 75), (110, 72, 52), (240, 200, 178))


def finger(rng: np.random.Generator, shape: tuple[int, int], tip: np.ndarray, direction: np.ndarray,
           width: float, light: np.ndarray) -> Layer | None:
    """A finger (a thumb holding the sheet) reaching from outside the frame to `tip`, `width` px wide, the
    hand behind it; its edge soft (it is nearer the lens than the paper). Made at a lower resolution."""
    factor = max(1.0, width / 60)
    small = (int(shape[0] / factor), int(shape[1] / factor))
    layer = _finger(rng, small, tip / factor, direction, width / factor, light)
    return layer.enlarged(factor, shape) if layer is not None and factor > 1 else layer


def _finger(rng: np.random.Generator, shape: tuple[int, int], tip: np.ndarray, direction: np.ndarray,
            width: float, light: np.ndarray) -> Layer | None:
    h, w = shape
    direction = direction / np.hypot(*direction)
    knuckle = tip + direction * width * rng.uniform(3.0, 4.2)
    far = knuckle + direction * max(h, w) * 1.5
    r_tip, r_knuckle = width / 2 * rng.uniform(0.85, 0.95), width / 2 * rng.uniform(1.0, 1.15)
    r_hand = width / 2 * rng.uniform(2.2, 3.0)
    blur = max(rng.uniform(0.01, 0.05) * width, 0.8)
    reach = knuckle + direction * r_hand * 2
    box = _box(np.array([tip, reach, far]), r_hand + 4 * blur + 4, shape)
    if box is None:
        return None
    d_finger, s_finger, t_finger = _capsule(shape, tip, knuckle, r_tip, r_knuckle, box)
    palm = knuckle + direction * width * rng.uniform(1.5, 2.5)
    d_ramp, _, t_ramp = _capsule(shape, knuckle, palm, r_knuckle * 1.05, r_hand, box)
    d_palm, _, t_palm = _capsule(shape, palm, far, r_hand, r_hand * 1.1, box)
    d_hand = np.minimum(d_ramp, d_palm)
    t_hand = np.where(d_ramp <= d_palm, t_ramp, t_palm)
    dist = np.minimum(d_finger, d_hand)
    alpha = np.clip(0.5 - dist / max(blur * 1.5, 0.8), 0, 1)
    skin = TO_LINEAR[np.array(SKIN[int(rng.integers(len(SKIN)))])] * rng.uniform(0.9, 1.08, 3)
    across = np.clip(np.where(d_finger <= d_hand, t_finger, t_hand), -1, 1)
    side = float(np.dot([-direction[1], direction[0]], light[:2]))
    roundness = np.sqrt(np.clip(1 - across ** 2, 0, 1))
    shade = 0.4 + 0.6 * roundness * (1 + 0.3 * side * across)
    texture = 1 + 0.03 * noise(rng, alpha.shape, max(width / 40, 1.5)) + 0.04 * noise(rng, alpha.shape, width)
    colour = skin * (shade * texture)[:, :, None]
    colour[..., 0] *= 1 + 0.15 * (1 - roundness)  # redder where skin is thin at the edges
    colour[..., 2] *= 1 - 0.1 * (1 - roundness)
    along_px = s_finger * float(np.hypot(*(knuckle - tip)))
    if rng.random() < 0.7:  # the nail (a thumb seen from its back)
        nail = ((along_px - width * 0.45) / (width * 0.38)) ** 2 + (t_finger / 0.62) ** 2
        nail_alpha = (np.clip((1 - nail) * 5, 0, 1) * (d_finger <= d_hand))[:, :, None]
        nail_colour = (skin * 0.6 + np.array([0.55, 0.42, 0.42])) * 0.9 * shade[:, :, None]
        colour *= (1 - 0.25 * np.exp(-((1 - nail) / 0.12) ** 2) * (d_finger <= d_hand))[:, :, None]
        colour = colour * (1 - nail_alpha) + nail_colour * nail_alpha
        shine = np.exp(-((along_px - width * 0.42) / (width * 0.15)) ** 2 - ((t_finger + 0.25) / 0.18) ** 2)
        colour += (0.25 * shine)[:, :, None] * nail_alpha
    for crease in (1.7, 1.85):
        colour *= (1 - 0.15 * np.exp(-((along_px - width * crease) / (width * 0.025)) ** 2)
                   * (d_finger <= d_hand))[:, :, None]
    colour = cv2.GaussianBlur(colour.astype(np.float32), (0, 0), max(blur * 0.6, 0.5))
    offset = -light[:2] * width * rng.uniform(0.3, 0.8)
    shadow, shadow_box = _soft_shadow(alpha, box, offset, width * rng.uniform(0.2, 0.5), shape)
    return Layer(box, colour.astype(np.float32), alpha.astype(np.float32), shadow, shadow_box)


PEN_BODIES = ((30, 60, 160), (25, 25, 28), (235, 235, 235), (200, 30, 40), (40, 140, 70), (180, 180, 190),
              (250, 200, 40))


def pen(rng: np.random.Generator, shape: tuple[int, int], tip: np.ndarray, direction: np.ndarray,
        width: float, light: np.ndarray) -> Layer | None:
    """A ballpoint pen lying on the sheet, its tip at `tip`, its body along `direction` (px)."""
    direction = direction / np.hypot(*direction)
    length = width * rng.uniform(12, 15)
    back = tip + direction * length
    cone_end = tip + direction * width * 1.8
    box = _box(np.array([tip, back]), width + 6, shape)
    if box is None:
        return None
    d_body, s_body, t_body = _capsule(shape, cone_end, back, width / 2, width / 2, box)
    d_cone, _s_cone, t_cone = _capsule(shape, tip, cone_end, width * 0.08, width / 2, box)
    body = np.clip(0.5 - d_body, 0, 1)
    cone = np.clip(0.5 - d_cone, 0, 1)
    alpha = np.maximum(body, cone)
    colour_body = TO_LINEAR[np.array(PEN_BODIES[int(rng.integers(len(PEN_BODIES)))])]
    colour_cone = TO_LINEAR[np.array(PEN_BODIES[int(rng.integers(len(PEN_BODIES)))])] * 0.8
    across = np.clip(np.where(body >= cone, t_body, t_cone), -1, 1)
    side = float(np.dot([-direction[1], direction[0]], light[:2]))
    shade = 0.35 + 0.65 * np.sqrt(np.clip(1 - across ** 2, 0, 1)) * (1 + 0.3 * side * across)
    colour = np.where((body >= cone)[:, :, None], colour_body, colour_cone) * shade[:, :, None]
    clip_zone = (s_body > 0.7) & (s_body < 0.95) & (np.abs(t_body) < 0.25)
    colour[clip_zone] = TO_LINEAR[np.array([170, 170, 175])] * 1.2
    stripe = np.exp(-((across + 0.35 * np.sign(side or 1)) / 0.12) ** 2)
    colour += (rng.uniform(0.2, 0.6) * stripe)[:, :, None]
    offset = -light[:2] * width * rng.uniform(0.2, 0.5)
    shadow, shadow_box = _soft_shadow(alpha, box, offset, width * rng.uniform(0.1, 0.3), shape)
    return Layer(box, colour.astype(np.float32), alpha.astype(np.float32), shadow, shadow_box)


DICE = ((245, 245, 240), (245, 245, 240), (210, 40, 50), (240, 200, 40), (40, 150, 80), (40, 80, 170))


def die(rng: np.random.Generator, shape: tuple[int, int], centre: np.ndarray, side: float,
        light: np.ndarray) -> Layer | None:
    """A die lying on the table (its top face), `side` px."""
    box = _box(np.array([centre]), side, shape)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    y, x = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    angle = rng.uniform(0, math.pi / 2)
    c, s = math.cos(angle), math.sin(angle)
    u = (x - centre[0]) * c + (y - centre[1]) * s
    v = -(x - centre[0]) * s + (y - centre[1]) * c
    half, corner = side / 2, side * 0.18
    qx, qy = np.maximum(np.abs(u) - half + corner, 0), np.maximum(np.abs(v) - half + corner, 0)
    dist = np.hypot(qx, qy) - corner + np.minimum(np.maximum(np.abs(u) - half, np.abs(v) - half), 0)
    alpha = np.clip(0.5 - dist, 0, 1)
    face = int(rng.integers(len(DICE)))
    colour = np.ones(alpha.shape + (3,), np.float32) * TO_LINEAR[np.array(DICE[face])]
    pip_colour = TO_LINEAR[np.array((20, 20, 20) if face < 2 else (245, 245, 245))]
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[int(rng.integers(1, 7))]
    for sx, sy in spots:
        d = np.hypot(u - sx * side * 0.27, v - sy * side * 0.27) - side * 0.09
        p = np.clip(0.5 - d, 0, 1)[:, :, None]
        colour = colour * (1 - p) + pip_colour * p
    edge = np.clip(-dist / (side * 0.12), 0, 1)
    colour *= (0.75 + 0.25 * edge)[:, :, None]
    shadow, shadow_box = _soft_shadow(alpha, box, -light[:2] * side * 0.4, side * 0.15, shape)
    return Layer(box, colour, alpha, shadow, shadow_box)


# -- light ------------------------------------------------------------------------------------------------


def cast_colour(kelvin: float) -> np.ndarray:
    """Linear RGB of a light of about `kelvin` relative to daylight (green 1)."""
    t = math.log(kelvin / 5500.0)
    r = math.exp(-0.55 * t) if t < 0 else math.exp(-0.35 * t)
    b = math.exp(1.05 * t) if t < 0 else math.exp(0.45 * t)
    return np.array([r, 1.0, b], np.float32)


def shadow_polygon(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A phone's (or hand's) shadow: a rounded slab reaching in from one side of the picture."""
    h, w = shape
    side = int(rng.integers(4))
    reach = rng.uniform(0.2, 0.6)
    span = rng.uniform(0.3, 0.7)
    start = rng.uniform(0, 1 - span)
    if side in (0, 1):
        edge_x = -0.1 * w if side == 0 else 1.1 * w
        inner_x = reach * w if side == 0 else (1 - reach) * w
        ys = (start * h, (start + span) * h)
        corners = [(edge_x, ys[0]), (inner_x, ys[0] + rng.normal(0, 0.05) * h),
                   (inner_x + rng.normal(0, 0.05) * w, ys[1]), (edge_x, ys[1])]
    else:
        edge_y = -0.1 * h if side == 2 else 1.1 * h
        inner_y = reach * h if side == 2 else (1 - reach) * h
        xs = (start * w, (start + span) * w)
        corners = [(xs[0], edge_y), (xs[0] + rng.normal(0, 0.05) * w, inner_y),
                   (xs[1], inner_y + rng.normal(0, 0.05) * h), (xs[1], edge_y)]
    points = np.array(corners, np.float32)
    middle = points.mean(0)
    turn = cv2.getRotationMatrix2D(tuple(map(float, middle)), rng.normal(0, 12), 1)
    points = np.c_[points, np.ones(4)] @ turn.T
    # round the corners a little
    rounded = []
    for i in range(4):
        p, q, r = points[i - 1], points[i], points[(i + 1) % 4]
        rounded += [q + (p - q) * 0.08, q + (r - q) * 0.08]
    return np.array(rounded, np.float32)
