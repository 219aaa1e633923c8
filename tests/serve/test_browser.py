"""The pages in a real browser (headless Chromium from the system's packages, driven by Playwright): on a 360 px
phone screen, upload a photo, see the sheet drawn over it, correct a field with a tap, confirm, and watch the
standings page change; the build page previews and downloads a pad. Screenshots go to the test's folder, and to
$PRINTGEN_SCREENSHOTS when set (how docs/screenshots is made)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.serve.test_cli_serve import address_in, serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright for Python "
                                                            "(pip install playwright)")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def address(tmp_path: Path) -> Iterator[str]:
    with serving("--port", "0", "--data", str(tmp_path / "data")) as (_process, lines):
        yield address_in(lines)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium, started once for this module's tests (`browser` gives each its own contexts)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The browser, with no context open; every context (its cookies, storage and pages) the test opens is closed
    after it."""
    assert chromium.contexts == []
    yield chromium
    for context in chromium.contexts:
        context.close()


def keep(page: Any, tmp_path: Path, name: str) -> Path:
    """A full-page screenshot in the test's folder (and in $PRINTGEN_SCREENSHOTS)."""
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    wanted = os.environ.get("PRINTGEN_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, Path(wanted) / name)
    return shot


def fits(page: Any) -> bool:
    """Nothing wider than the screen (no sideways scrolling)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def phone_upload(browser: Any, address: str, photo: bytes, tmp_path: Path, player: str) -> Any:
    """A touch phone's page with `photo` read for `player` (the photo saved as the player's file first)."""
    path = tmp_path / f"{player.lower()}.jpg"
    path.write_bytes(photo)
    page = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    upload(page, address, path, player)
    return page


def upload(page: Any, address: str, photo: Path, player: str) -> None:
    page.goto(address)
    page.fill("#game", "Friday")
    page.fill("#player", player)
    page.set_input_files("#photo", str(photo))
    page.click("#send")
    page.wait_for_selector(".sheet .total")


def test_a_phone_scores_corrects_and_confirms_a_sheet_and_the_standings_follow(
        address: str, browser: Any, demo: Any, tmp_path: Path) -> None:
    photo = tmp_path / "anna.jpg"
    photo.write_bytes(demo.jpeg)
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = phone.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(address)
    assert page.locator("#games-section").is_hidden()  # no game yet
    upload(page, address, photo, "Anna")
    assert page.inner_text(".sheet .total") == f"Total {demo.total}"
    page.wait_for_selector('#games-list a[href="/games/Friday"]')  # the game the upload started is listed at once
    assert page.locator("#games-section").is_visible()
    assert page.eval_on_selector_all("#games option", "options => options.map(o => o.value)") == ["Friday"]
    assert page.inner_text(".sheet .legal") == "legal"
    assert page.locator(".sheet svg .field").count() == 52 and page.locator(".sheet svg .field.crossed").count() > 0
    assert page.get_attribute("#photo", "capture") == "environment"
    assert fits(page)
    keep(page, tmp_path, "phone-score.png")

    # The standings on another phone at the table (a second page of this phone would be a background tab, whose
    # frames Chromium throttles: every action on it would wait seconds for the page to settle).
    table = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    table.goto(address.rstrip("/") + "/games/Friday")
    assert table.inner_text("#table tbody td.total") == str(demo.total)

    empty = page.locator('.sheet svg .field:not(.crossed)[data-name="row 1: 2"]')
    assert min(empty.bounding_box()["width"], empty.bounding_box()["height"]) < 25  # the whole sheet: too small
    empty.tap()  # the first tap zooms in there
    page.wait_for_selector(".sheet.zoomed")
    box = empty.bounding_box()
    assert box["width"] >= 40 and box["height"] >= 40, box  # where it is tapped to be corrected
    assert page.locator(".sheet .field.corrected").count() == 0 and fits(page)
    keep(page, tmp_path, "phone-zoomed.png")
    empty.tap()
    page.wait_for_selector(f'.sheet .total:not(:text-is("Total {demo.total}"))')
    corrected = int(page.inner_text(".sheet .total").removeprefix("Total "))
    assert corrected > demo.total
    assert page.locator('.sheet svg .field.crossed.corrected[data-name="row 1: 2"]').count() == 1
    assert page.input_value("#photo") == ""  # read: a second press does not send it again
    page.click("#send")
    assert page.evaluate("document.getElementById('photo').validity.valueMissing")
    page.click(".sheet .confirm")
    page.wait_for_selector(".sheet .confirm.done")
    assert page.inner_text(".sheet .confirm") == "Confirmed ✓"
    keep(page, tmp_path, "phone-corrected.png")

    table.wait_for_selector(f'#table tbody td.total:text-is("{corrected}")', timeout=15_000)  # it refreshes
    # (every 3 s: one between the correction and the confirmation shows the new total, not yet confirmed)
    table.wait_for_selector("#table .round.checked", timeout=15_000)
    assert table.locator("#table .round.checked").count() == 1
    assert fits(table)
    keep(table, tmp_path, "phone-standings.png")
    assert errors == []

    # a game's page opened before its first sheet says there is no such game yet, until the sheet comes
    table.goto(address.rstrip("/") + "/games/Saturday")
    assert table.locator("#others").is_visible() and "No game is called Saturday" in table.inner_text("#others")
    again = tmp_path / "ben.jpg"
    again.write_bytes(demo.jpeg + b"\0")  # (another file: the same one is refused as read already)
    page.goto(address)
    page.fill("#game", "Saturday")
    page.fill("#player", "Ben")
    page.set_input_files("#photo", str(again))
    page.click("#send")
    page.wait_for_selector(".sheet .total")
    table.wait_for_selector("#table tbody td.total", timeout=15_000)
    assert table.locator("#others").is_hidden()


def test_the_build_page_previews_and_downloads_a_pad_on_a_phone(address: str, browser: Any, tmp_path: Path) -> None:
    page = browser.new_context(viewport=PHONE, device_scale_factor=2, accept_downloads=True).new_page()
    page.goto(address.rstrip("/") + "/build")
    with page.expect_navigation():  # choosing a layout loads its page; its script is there only once loaded
        page.select_option("#layout", "qwixx-big-points")
    page.wait_for_selector('input[name="lucky_pool"]')
    page.fill('input[name="sheets"]', "4")
    page.select_option('select[name="lang"]', "it")
    page.click("#preview-button")
    page.wait_for_selector('#preview[src^="blob:"]:not([hidden])')
    assert page.evaluate("document.getElementById('preview').complete")
    assert fits(page)
    keep(page, tmp_path, "phone-build.png")
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".pdf" and saved.read_bytes().startswith(b"%PDF")
    page.fill('input[name="sheets"]', "0")
    page.click("#preview-button")
    page.wait_for_selector("#build-status.error")
    assert "sheets" in page.inner_text("#build-status")


def test_without_javascript_a_pad_is_downloaded_and_a_sheet_read(address: str, browser: Any, demo: Any,
                                                                   tmp_path: Path) -> None:
    """A form posted without JavaScript carries `Origin: null` (the pages' `Referrer-Policy: no-referrer`): the
    download and the upload were refused as from another site every time."""
    page = browser.new_context(viewport=PHONE, java_script_enabled=False, accept_downloads=True).new_page()
    page.goto(address.rstrip("/") + "/build")
    page.fill('input[name="sheets"]', "2")
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".pdf" and saved.read_bytes().startswith(b"%PDF")
    photo = tmp_path / "anna.jpg"
    photo.write_bytes(demo.jpeg)
    page.goto(address)
    assert "Without JavaScript the sheet is read and kept" in page.inner_text("#upload")
    page.fill("#game", "Friday")
    page.fill("#player", "Anna")
    page.set_input_files("#photo", str(photo))
    with page.expect_navigation():
        page.click("#send")
    (sheet,) = json.loads(page.inner_text("body"))["sheets"]  # (the answer, as plain text)
    assert sheet["total"] == demo.total


def test_the_desktop_layout(address: str, browser: Any, demo: Any, tmp_path: Path) -> None:
    photo = tmp_path / "bruno.jpg"
    photo.write_bytes(demo.jpeg)
    page = browser.new_context(viewport=DESKTOP).new_page()
    upload(page, address, photo, "Bruno")
    assert fits(page)
    keep(page, tmp_path, "desktop-score.png")
    page.goto(address.rstrip("/") + "/games/Friday")
    assert page.inner_text("#table tbody td:nth-child(2)") == "Bruno"
    keep(page, tmp_path, "desktop-standings.png")


def test_a_doubtful_field_is_marked_on_the_phone_and_settled_with_a_tap(
        address: str, browser: Any, doubtful: bytes, tmp_path: Path) -> None:
    from tests.serve.doubtful import DOUBTFUL

    page = phone_upload(browser, address, doubtful, tmp_path, "Cleo")
    field = page.locator(f'.sheet svg .field.uncertain[data-name="{DOUBTFUL}"]')
    assert field.count() == 1 and page.locator(".sheet svg .field.uncertain").count() == 1
    assert "1 field needs a look" in page.inner_text(".sheet .problems")
    keep(page, tmp_path, "phone-review.png")
    crossed = field.get_attribute("aria-pressed") == "true"
    field.tap()
    page.wait_for_selector(".sheet.zoomed")
    assert min(field.bounding_box()["width"], field.bounding_box()["height"]) >= 40
    field.tap()
    page.wait_for_selector(f'.sheet svg .field.corrected[data-name="{DOUBTFUL}"]')
    assert page.locator(".sheet svg .field.uncertain").count() == 0
    assert page.get_attribute(f'.sheet svg .field[data-name="{DOUBTFUL}"]', "aria-pressed") == (
        "false" if crossed else "true")
    assert "needs a look" not in page.inner_text(".sheet .problems")


def test_a_photo_of_two_sheets_is_shared_between_two_players_and_long_names_fit(
        address: str, browser: Any, demo: Any, tmp_path: Path) -> None:
    import io

    from PIL import Image

    pdf = io.BytesIO()
    sheet = Image.open(io.BytesIO(demo.jpeg))
    sheet.save(pdf, "PDF", resolution=200, save_all=True, append_images=[sheet.copy()])
    long = "Maximiliankonstantinwolfgangfriedrichson"  # 40 letters, one word
    page = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf.getvalue())
    upload(page, address, path, long)
    page.wait_for_selector(".sheet:nth-child(2) .total")
    assert "all under " + long in page.inner_text("#status") and fits(page)
    keep(page, tmp_path, "phone-two-sheets.png")
    page.once("dialog", lambda dialog: dialog.accept("Lea"))
    page.locator(".sheet:nth-child(2) .move").click()
    page.wait_for_selector('.sheet:nth-child(2) .who:text-is("Lea · Friday")')
    assert page.inner_text(".sheet:nth-child(1) .who") == f"{long} · Friday"
    assert "Lea's sheet now" in page.inner_text("#status")
    page.reload()  # both sheets come back with the page's address
    page.wait_for_selector(".sheet:nth-child(2) .total")
    assert page.inner_text(".sheet:nth-child(2) .who") == "Lea · Friday"
    page.goto(address.rstrip("/") + "/games/Friday")
    page.wait_for_selector("#table a.round")
    assert sorted(page.locator("#table tbody td:nth-child(2)").all_inner_texts()) == sorted([long, "Lea"])
    assert fits(page)
    keep(page, tmp_path, "phone-standings-long-name.png")


def test_back_to_the_build_page_shows_the_layout_it_builds(address: str, browser: Any) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(address.rstrip("/") + "/build?layout=qwixx-gemixxt-b")
    with page.expect_navigation():
        page.select_option("#layout", "one-to-9-board")
    page.go_back()
    page.wait_for_selector('input[name="layout"][value="qwixx-gemixxt-b"]', state="attached")
    assert page.input_value("#layout") == "qwixx-gemixxt-b"
    assert page.locator('select[name="svg_text"]').is_hidden()  # PDF only: how SVGs carry text does not matter
    page.select_option('select[name="format"]', "both")
    assert page.locator('select[name="svg_text"]').is_visible()


def test_a_round_in_the_standings_opens_its_sheet_to_confirm_after_a_reload(
        address: str, browser: Any, doubtful: bytes, tmp_path: Path) -> None:
    page = phone_upload(browser, address, doubtful, tmp_path, "Dora")
    page.reload()
    page.wait_for_selector(".sheet .total")  # the page's address keeps the sheet just read (a reload, Back)
    assert page.locator(".sheet").count() == 1 and "?sheet=" in page.url
    page.goto(address.rstrip("/") + "/games/Friday")
    page.wait_for_selector("#table a.round.doubt")
    assert "1 to check" in page.inner_text("#table a.round") and page.locator("#table .round.checked").count() == 0
    keep(page, tmp_path, "phone-standings-doubt.png")
    page.locator("#table a.round").tap()
    page.wait_for_selector(".sheet .total")
    assert "Dora · Friday" in page.inner_text(".sheet .who") and page.input_value("#game") == "Friday"
    assert "1 field needs a look" in page.inner_text(".sheet .problems")
    page.click(".sheet .confirm")
    page.wait_for_selector(".sheet .confirm.done")
    assert "needs a look" not in page.inner_text(".sheet .problems")  # confirming accepted it as shown
    assert page.locator(".sheet svg .field.uncertain").count() == 0
    page.locator(".sheet svg").tap()  # zoom in, then correct: the sheet is open again
    page.locator('.sheet svg .field[data-name="row 1: 12"]').tap()
    page.wait_for_selector('.sheet .confirm:text-is("Confirm again")')
    assert "confirm it again" in page.inner_text("#status")
    page.goto(address.rstrip("/") + "/games/Friday")
    page.wait_for_selector("#table a.round")
    assert page.locator("#table .round.checked").count() == 0 and page.locator("#table .round.doubt").count() == 0
