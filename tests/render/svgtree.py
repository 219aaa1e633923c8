"""Walking an SVG page in tests: its root element in, every drawn element with the offset and scale put on it out."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def transform_of(element: ET.Element) -> tuple[float, float, float]:
    """(tx, ty, scale) of a `translate(x y) scale(s)` transform (either part may be missing)."""
    transform = element.get("transform", "")
    tx = ty = 0.0
    scale = 1.0
    if m := re.search(r"translate\(([-\d.e]+) ([-\d.e]+)\)", transform):
        tx, ty = float(m[1]), float(m[2])
    if m := re.search(r"scale\(([-\d.e]+)\)", transform):
        scale = float(m[1])
    return tx, ty, scale


def placed(root: ET.Element, whole: Callable[[ET.Element], bool] = lambda g: False
           ) -> Iterator[tuple[ET.Element, float, float, float]]:
    """(element, dx, dy, scale) in page units for everything drawn outside <defs>: <g> and <use> are entered
    (their transforms applied), except a <g> for which `whole` is true, which is given as it is."""
    symbols = {el.get("id"): el for el in root.iter(f"{SVG}symbol")}

    def walk(node: ET.Element, dx: float, dy: float, s: float) -> Iterator[tuple[ET.Element, float, float, float]]:
        for child in node:
            tag = child.tag.removeprefix(SVG)
            if tag == "defs":
                continue
            if tag == "g" and not whole(child):
                tx, ty, sc = transform_of(child)
                yield from walk(child, dx + s * tx, dy + s * ty, s * sc)
            elif tag == "use":
                symbol = symbols[child.get(XLINK, "").lstrip("#")]
                view_w = float(re.split(r"[ ,]+", symbol.get("viewBox", "0 0 1 1"))[2])
                sc = float(child.get("width", view_w)) / view_w
                yield from walk(symbol, dx + s * float(child.get("x", 0)), dy + s * float(child.get("y", 0)), s * sc)
            else:
                yield child, dx, dy, s

    yield from walk(root, 0.0, 0.0, 1.0)
