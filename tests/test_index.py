"""The preview page: always true to the folder, bounded thumbnails, safe links, nothing of the user's removed."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main
from printgen.index import MAX_THUMBNAILS


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def html_of(out: Path) -> str:
    return (out / "index.html").read_text(encoding="utf-8")


def test_the_page_follows_every_build(tmp_path: Path, write_layout) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    run("build", "qwixx-standard", "-n", "2", "--out", str(out))
    assert "qwixx-standard-2sheets.pdf" in html_of(out) and "1 page " in html_of(out)
    run("build", "qwixx-standard", "-n", "100", "--out", str(out))
    assert "PDF · 50 pages · A4 portrait" in html_of(out) and "page 1 (+49 like it)" in html_of(out)
    run("build", "qwixx-standard", "--out", str(out))  # the default pad: 50 sheets, 25 pages
    mine = write_layout('title = "Qwixx"', 'title = "Club"', name="my-sheet.toml")
    run("build", str(mine), "-f", "both", "--out", str(out))
    page = html_of(out)
    assert "my-sheet.pdf" in page and "my-sheet.svg" in page and "qwixx-standard.pdf" in page
    (out / "qwixx-standard.pdf").unlink()
    run("index", str(out))
    assert "qwixx-standard.pdf" not in html_of(out)
    assert not (out / "preview" / "qwixx-standard").exists()


def test_options_and_paper_are_shown(tmp_path: Path) -> None:
    run("build", "qwixx-cards-deck", "-p", "letter", "--duplex", "short", "--out", str(tmp_path))
    page = html_of(tmp_path)
    assert "Letter landscape" in page and "duplex short" in page and "paper letter" in page


def test_at_most_24_thumbnails_a_file(tmp_path: Path) -> None:
    run("build", "qwixx-gemixxt-b", "--shuffle", "-n", "100", "-f", "both", "--out", str(tmp_path))
    assert len(list((tmp_path / "preview" / "qwixx-gemixxt-b-100sheets-shuffled").glob("*.png"))) == MAX_THUMBNAILS
    page = html_of(tmp_path)
    assert "and 26 more distinct pages" in page and "and 76 more distinct files" in page
    assert 'href="./qwixx-gemixxt-b-100sheets-shuffled.pdf#page=24"' in page


def test_links_are_relative_and_never_a_scheme(tmp_path: Path) -> None:
    run("build", "qwixx-standard", "-o", "javascript:alert(document.domain)", "--out", str(tmp_path))
    assert not (tmp_path / "index.html").exists()  # a file named with -o gets no preview page beside it
    run("index", str(tmp_path))
    page = html_of(tmp_path)
    hrefs = re.findall(r'(?:href|src)="([^"]*)"', page)
    assert hrefs and all(h.startswith(("./", "#")) for h in hrefs)
    assert './javascript%3Aalert%28document.domain%29.pdf' in hrefs


def test_the_default_pack_thumbnails_stay_small(default_pack: tuple[Path, int, str]) -> None:
    out, code, output = default_pack
    assert code == 0, output
    pngs = list((out / "preview").rglob("*.png"))
    assert pngs and sum(p.stat().st_size for p in pngs) < 2_000_000
    assert all(len(list(folder.glob("*.png"))) <= MAX_THUMBNAILS for folder in (out / "preview").iterdir())


def test_files_of_the_user_in_the_preview_folder_are_kept(tmp_path: Path) -> None:
    run("build", "qwixx-standard", "--out", str(tmp_path))
    notes = tmp_path / "preview" / "notes"
    notes.mkdir()
    (notes / "notes.txt").write_text("mine")
    (tmp_path / "preview" / "qwixx-standard" / "mine.txt").write_text("mine too")
    (tmp_path / "qwixx-standard.pdf").unlink()
    run("index", str(tmp_path))
    assert (notes / "notes.txt").read_text() == "mine"
    assert (tmp_path / "preview" / "qwixx-standard" / "mine.txt").read_text() == "mine too"


def test_preview_pages(tmp_path: Path) -> None:
    run("build", "qwixx-standard", "-n", "10", "--out", str(tmp_path))
    output = run("preview", str(tmp_path / "qwixx-standard-10sheets.pdf"), "--pages", "2-3,5", "--width", "200")
    assert "wrote 3 PNGs" in output
    folder = tmp_path / "qwixx-standard-10sheets-preview"
    assert sorted(p.name for p in folder.iterdir()) == ["page-002.png", "page-003.png", "page-005.png"]
    result = CliRunner().invoke(main, ["preview", str(tmp_path / "qwixx-standard-10sheets.pdf"), "--pages", "9"])
    assert result.exit_code == 2 and "page 9 goes beyond" in result.output and "5 pages" in result.output


def test_previews_drawn_in_worker_processes_match_those_drawn_one_by_one(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from printgen import index

    pages: dict[int, tuple[str, set[str]]] = {}
    for cores in (1, 2):
        out = tmp_path / f"cores{cores}"
        run("build", "qwixx-standard", "qwixx-big-points", "one-to-9-stars", "--out", str(out), "-q")
        for folder in (out / "preview").iterdir():  # drawn again below, with this many cores
            for png in folder.glob("page-*.png"):
                png.unlink()
        monkeypatch.setattr(index.os, "cpu_count", lambda cores=cores: cores)
        index.write_index(out)
        pngs = {f"{p.parent.name}/{p.name}" for p in (out / "preview").glob("*/page-*.png")}
        pages[cores] = (html_of(out).replace(f"cores{cores}", "OUT"), pngs)
    assert pages[1] == pages[2] and len(pages[2][1]) >= 3


def test_one_odd_file_gets_a_placeholder_and_the_page_is_always_written(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from reportlab.pdfgen.canvas import Canvas

    from printgen import index

    out = tmp_path / "out"
    run("build", "qwixx-standard", "--out", str(out))
    narrow = Canvas(str(out / "narrow.pdf"), pagesize=(1, 2000))  # says it is printgen's; its thumbnail would
    narrow.setCreator("printgen")                                    # be 220 x 440,000 pixels
    narrow.setSubject("Qwixx score sheets | a narrow strip")
    narrow.showPage()
    narrow.save()
    (out / "odd.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm"/>')
    real = index._svg_subject

    def failing(path: Path) -> str:
        if path.name == "odd.svg":
            raise RuntimeError("the disk\nhiccupped")
        return real(path)

    monkeypatch.setattr(index, "_svg_subject", failing)
    result = CliRunner().invoke(main, ["index", str(out)])
    assert result.exit_code == 0 and result.output == f"wrote {out / 'index.html'}\n"
    page = html_of(out)
    assert "narrow.pdf" in page and "not shown: page 1 would be 220 x 440,000 pixels, more than 40,000,000" in page
    assert "--width" not in page
    assert "odd.svg" in page and "not shown: the disk hiccupped" in page
    assert (out / "preview" / "qwixx-standard" / "page-000001.png").is_file()  # the other files as always
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "-n", "4", "--out", str(out)])
    assert result.exit_code == 0 and "not refreshed" not in result.output and "Warning" not in result.output
    assert "PDF · 2 pages" in html_of(out) and "narrow.pdf" in html_of(out)
    (out / "narrow.pdf").unlink()
    run("index", str(out))
    assert not (out / "preview" / "narrow").exists()  # its info was kept, so it is known as printgen's


TEMPORARY = re.compile(r"\.(.+)\.\d+\.[a-z0-9_]{8}\.(?:part|old|lock)")
"""printgen's temporary name for NAME (printgen.output.LEFTOVER, with NAME as the group)."""


def drawn_pages(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    """The pages the preview page renders from now on (0-based), in order."""
    from printgen import preview

    drawn: list[int] = []
    real = preview.render_page

    def counting(document, index, width):  # type: ignore[no-untyped-def]
        drawn.append(index)
        return real(document, index, width)

    monkeypatch.setattr(preview, "render_page", counting)
    return drawn


def test_thumbnails_are_kept_while_the_pdf_is_the_same_and_redrawn_when_it_changes(tmp_path: Path,
                                                                                  monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from printgen.index import _write_index

    out = tmp_path / "out"
    pdf, thumbnail = out / "pad.pdf", out / "preview" / "pad" / "page-000001.png"
    run("build", "qwixx-standard", "-n", "2", "-o", "pad", "--out", str(out))
    run("index", str(out))
    first = thumbnail.read_bytes()
    drawn = drawn_pages(monkeypatch)
    monkeypatch.setattr("printgen.index.os.cpu_count", lambda: 1)  # drawn here, where render_page is counted
    run("build", "qwixx-standard", "-n", "2", "-o", "pad", "--out", str(out))  # the same bytes, a new file
    run("index", str(out))
    assert drawn == [] and thumbnail.read_bytes() == first
    run("build", "qwixx-bonus-a", "-n", "2", "-o", "pad", "--out", str(out))  # another sheet, the same name
    _write_index(out, [])
    assert drawn == [0] and thumbnail.read_bytes() != first
    other = thumbnail.read_bytes()
    data = bytearray(pdf.read_bytes())  # same size, same time, another /ID: a file printgen did not write
    stamp = pdf.stat()
    at = data.rindex(b"/ID [<") + 6
    data[at] = ord("0") if data[at] != ord("0") else ord("1")
    pdf.write_bytes(bytes(data))
    os.utime(pdf, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    run("index", str(out))
    assert drawn == [0, 0]
    thumbnail.write_bytes(other[: len(other) // 2])  # a thumbnail cut short (say by a power cut): drawn again
    run("index", str(out))
    assert drawn == [0, 0, 0] and thumbnail.read_bytes() == other


def test_a_pad_build_flushes_each_finished_file_once_and_each_folder_once(tmp_path: Path,
                                                                          monkeypatch) -> None:  # type: ignore[no-untyped-def]
    synced: list[str] = []
    real = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        real(descriptor)

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name the synced files")
    monkeypatch.setattr(os, "fsync", fsync)
    out = tmp_path / "out"
    run("build", "qwixx-big-points", "-n", "100", "-f", "both", "--out", str(out))

    def final(path: str) -> str:  # what a synced path is called once in place (temporary names undone)
        parts = Path(os.path.relpath(path, out)).parts
        return "/".join(match[1] if (match := TEMPORARY.fullmatch(part)) else part for part in parts)

    pad = "qwixx-big-points-100sheets"
    svgs = sorted(f"{pad}/{p.name}" for p in (out / pad).glob("*.svg"))
    expected = [f"{pad}.pdf", *svgs, pad, "index.html", f"preview/{pad}/info.json", f"preview/{pad}", ""]
    assert len(svgs) == 10 and sorted(map(final, synced)) == sorted(expected), sorted(map(final, synced))
    assert len(list((out / "preview" / pad).glob("*.png"))) == MAX_THUMBNAILS  # a cache: checked, not flushed


def test_no_index_leaves_the_preview_page_alone_and_printgen_toml_can_say_so(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": ""}
    out = tmp_path / "out"

    def build(*args: str) -> None:
        result = CliRunner().invoke(main, ["build", *args, "--out", str(out)], env=env)
        assert result.exit_code == 0, result.output

    build("qwixx-standard", "--no-index")
    assert (out / "qwixx-standard.pdf").is_file() and not (out / "index.html").exists()
    assert not (out / "preview").exists()
    (tmp_path / "printgen.toml").write_text("index = false\n")
    build("qwixx-cards-deck")
    assert (out / "qwixx-cards-deck.pdf").is_file() and not (out / "index.html").exists()
    build("qwixx-cards-deck", "--index")  # the command line wins
    named = CliRunner().invoke(main, ["build", "qwixx-standard", "-o", "club", "--index", "--out", str(out)], env=env)
    assert named.exit_code == 2 and not (out / "club.pdf").exists()  # a file named with -o has no preview page
    assert named.output == ("Error: --index: a file named with -o is just that file, with no preview page beside "
                            "it; leave out one of them\n")
    assert "qwixx-standard.pdf" in html_of(out) and "qwixx-cards-deck.pdf" in html_of(out)
    (tmp_path / "printgen.toml").write_text('index = "no"\n')
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "--out", str(out)], env=env)
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: {tmp_path / 'printgen.toml'}: index: must be true or false, not 'no'"


def test_a_batch_without_the_preview_page(tmp_path: Path) -> None:
    manifest = tmp_path / "club.toml"
    manifest.write_text('out = "club"\n[[jobs]]\nlayout = "qwixx-standard"\n[[jobs]]\nlayout = "qwixx-cards-deck"\n')
    result = CliRunner().invoke(main, ["batch", str(manifest), "--no-index", "-j", "1"])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "club").iterdir())
    assert written == ["qwixx-cards-deck.pdf", "qwixx-standard.pdf"] and "preview:" not in result.output


def test_names_are_escaped_on_the_page(tmp_path: Path) -> None:
    """What a file is called is shown as text, never read as markup (& < > " ' as entities, as jinja2 wrote them)."""
    from printgen.indexpage import escape

    assert escape("""<b>"Tom's" & co</b>""") == "&lt;b&gt;&#34;Tom&#39;s&#34; &amp; co&lt;/b&gt;"
    (tmp_path / "<i>x'y\".svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm"/>',
                                          encoding="utf-8")
    run("index", str(tmp_path))
    page = html_of(tmp_path)
    assert "<i>" not in page and "&lt;i&gt;x&#39;y&#34;.svg" in page
    assert 'href="./%3Ci%3Ex%27y%22.svg"' in page


def test_a_name_that_is_not_utf8_is_shown_escaped_and_linked_by_its_bytes(tmp_path: Path) -> None:
    """A file from an old zip or a USB stick named in Latin-1 (b"p\\xff.pdf") is listed, as p\\xff.pdf, with its
    thumbnail; it never stops the page (nor a later build into the folder)."""
    run("build", "qwixx-standard", "-n", "2", "--out", str(tmp_path), "-q")
    stray = os.fsdecode(os.fsencode(tmp_path) + b"/p\xff.pdf")
    Path(stray).write_bytes((tmp_path / "qwixx-standard-2sheets.pdf").read_bytes())
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "-n", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = html_of(tmp_path)
    assert "p\\xff.pdf" in page and 'href="./p%FF.pdf"' in page and 'src="./preview/p%FF/page-000001.png"' in page


def test_a_page_that_cannot_be_written_draws_no_thumbnail_first(tmp_path: Path) -> None:
    run("build", "qwixx-standard", "-n", "2", "--no-index", "--out", str(tmp_path))
    (tmp_path / "index.html").mkdir()
    result = CliRunner().invoke(main, ["index", str(tmp_path)])
    assert result.exit_code == 2 and result.output.startswith(f"Error: {tmp_path / 'index.html'}: is a folder")
    assert not (tmp_path / "preview").exists()


def test_thumbnails_too_many_pixels_together_are_not_drawn(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    out = tmp_path / "out"
    out.mkdir()
    strips = Canvas(str(out / "strips.pdf"), pagesize=(1, 400))  # each thumbnail 220 x 88,000 pixels: one could be
    strips.setCreator("printgen")                                  # drawn, three together are too many
    strips.setSubject("Qwixx score sheets | three strips")
    for number in range(3):
        strips.drawString(0, number, str(number))  # three pages that differ
        strips.showPage()
    strips.save()
    result = CliRunner().invoke(main, ["index", str(out)])
    assert result.exit_code == 0
    assert re.search(r"not shown: its 3 thumbnails would be 5\d,\d{3},\d{3} pixels, more than 40,000,000",
                     html_of(out))
    assert not list((out / "preview").glob("*/page-*.png"))


def test_a_decks_thumbnails_share_one_palette_that_holds_every_pages_colours(tmp_path: Path) -> None:
    from PIL import Image, ImageChops, ImageStat

    from printgen.index import PALETTE, THUMB_WIDTH
    from printgen.preview import opened_pdf, render_page

    out = tmp_path / "out"
    run("build", "qwixx-cards-deck", "--out", str(out), "-q")  # fronts and backs: pages of other colours
    pdf = next(out.glob("*.pdf"))
    pngs = sorted((out / "preview" / pdf.stem).glob("page-*.png"))
    assert len(pngs) >= 4
    palettes = set()
    with opened_pdf(pdf) as document:
        for png in pngs:
            with Image.open(png) as thumbnail:
                assert thumbnail.mode == "P" and len(thumbnail.getpalette() or []) <= 3 * PALETTE
                palettes.add(bytes(thumbnail.getpalette() or []))
                drawn = thumbnail.convert("RGB")
            page = render_page(document, int(png.stem.split("-")[1]) - 1, THUMB_WIDTH).convert("RGB")
            off = ImageStat.Stat(ImageChops.difference(drawn, page)).mean  # per channel, out of 255
            assert sum(off) / len(off) < 3  # the colours are kept
    assert len(palettes) == 1


def test_an_svg_with_no_size_in_mm_says_so(tmp_path: Path) -> None:
    """A broken or another program's SVG was listed as "0 x 0 mm"."""
    (tmp_path / "broken.svg").write_text("<svg")
    (tmp_path / "pixels.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"/>')
    result = CliRunner().invoke(main, ["index", str(tmp_path)])
    assert result.exit_code == 0
    page = html_of(tmp_path)
    assert page.count("SVG · no size in mm") == 2 and "0 x 0 mm" not in page
