"""The README's pictures: printgen's own page descriptions in, docs/*.png out (run: python docs/make_pictures.py)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the checkout: its printgen, and the photo simulator of its tests

from printgen import layouts
from printgen.builders.filled import filled_sheet
from printgen.builders.one_to_nine_pieces import board_item
from printgen.builders.pad import pad_items
from printgen.builders.scoresheet import build_sheet
from printgen.kinds.decks import deck_faces
from printgen.page import Document, Item, Page
from printgen.printing.card_grid import CARD_SIZES, card_pages, mirror_axis, plan_cards
from printgen.printing.paper import paper_size
from printgen.render.pdf import write_pdf
from printgen.rules import qwixx

SCAN_SEED = 12
"""The simulated game and photo shown in the README's "Score a sheet" picture."""


def picture(page: Page, width: int) -> Image.Image:
    """`page` rendered `width` pixels wide (through the PDF backend and pypdfium2)."""
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    write_pdf(Document(page.symbols(), [page], "picture"), buffer)
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        rendered = document[0].render(scale=width / document[0].get_width()).to_pil()
    finally:
        document.close()
    return rendered.convert("RGB")


def save(image: Image.Image, name: str) -> None:
    image.quantize(colors=128).save(HERE / name, optimize=True)
    print(f"wrote docs/{name} ({image.size[0]} x {image.size[1]})")


def side_by_side(images: list[Image.Image], gap: int = 40) -> Image.Image:
    height = max(im.size[1] for im in images)
    joined = Image.new("RGB", (sum(im.size[0] for im in images) + gap * (len(images) - 1), height), "white")
    x = 0
    for im in images:
        joined.paste(im, (x, 0))
        x += im.size[0] + gap
    return joined


def scan_picture(seed: int) -> Image.Image:
    """A photo-like picture of a played Bonus A sheet with what `printgen score` read drawn over it (needs the
    scan extra)."""
    import cv2

    from printgen.scan.annotate import annotate
    from printgen.scan.reader import Reader
    from tests.scan.simulator.synthetic import sample

    photo = sample([layouts.load("qwixx-bonus-a")], seed, two_up=False, widest=2400)  # type: ignore[list-item]
    drawn = annotate(photo.image, Reader().read_image(photo.image, "photo.jpg"))
    image = Image.fromarray(cv2.cvtColor(drawn, cv2.COLOR_BGR2RGB))
    return image.resize((760, round(image.size[1] * 760 / image.size[0])), Image.LANCZOS)


def main() -> None:
    sheet = layouts.load("qwixx-standard")
    save(picture(build_sheet(sheet).as_page(), 1184), "qwixx-standard.png")  # type: ignore[arg-type]
    big = layouts.load("qwixx-big-points")
    save(picture(next(pad_items(big, 1)).as_page(), 1184), "qwixx-big-points.png")  # type: ignore[arg-type]
    mixed = layouts.load("qwixx-gemixxt-a")
    save(picture(build_sheet(mixed, symbols=True).as_page(), 861), "qwixx-gemixxt-a-symbols.png")  # type: ignore[arg-type]
    game = qwixx.Game("standard", players=3, seed=4)
    game.play()
    filled = filled_sheet(sheet, game.sheets[0], "filled")  # type: ignore[arg-type]
    save(picture(filled.as_page(), 1184), "qwixx-standard-filled.png")
    board = layouts.load("one-to-9-board")
    save(picture(board_item(board, CARD_SIZES["poker"]).as_page(), 958), "one-to-9-board.png")  # type: ignore[arg-type]
    deck = layouts.load("qwixx-cards-deck")
    faces = deck_faces(deck, CARD_SIZES["poker"], 3.0)  # type: ignore[arg-type]
    grid = plan_cards(paper_size("a4"), CARD_SIZES["poker"], 3.0, None, "a4")
    front = next(card_pages([f for _, f, _ in faces], grid, True))
    back = next(card_pages([b for _, _, b in faces], grid, True, mirror_axis("long", grid)))
    joker = next(face for name, face, _ in faces if name.startswith("joker-09"))
    save(side_by_side([picture(front, 720), picture(back, 720), picture(Item("joker", joker).as_page(), 240)]),
         "qwixx-cards-deck.png")
    save(scan_picture(SCAN_SEED), "scan-annotated.png")


if __name__ == "__main__":
    main()
