"""The HTTP contract of `printgen serve` through Starlette's TestClient: scoring a photo, correcting a field,
standings (JSON, CSV, after a restart), building a pad, and every error as one line of JSON with a 4xx status."""

from __future__ import annotations

import csv
import io
import itertools
import re
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from starlette.testclient import TestClient

from printgen.options import BUILD_OPTIONS, FORMATS
from printgen.scan.report import JSON_KEYS
from printgen.serve import making
from tests.serve.conftest import another, upload

PHOTOS = itertools.count(1)


def scored(client: TestClient, demo: Any, player: str = "Anna", game: str = "Friday") -> dict[str, Any]:
    """A sheet read from another photo of the demo sheet (the same bytes twice in a game are refused)."""
    response = upload(client, another(demo.jpeg, next(PHOTOS)), game, player)
    assert response.status_code == 200, response.text
    (sheet,) = response.json()["sheets"]
    return dict(sheet)


def test_score_answers_every_sheet_with_the_keys_of_score_json_and_an_id(client: TestClient, demo: Any) -> None:
    sheet = scored(client, demo)
    assert list(sheet) == [*JSON_KEYS, "id"]
    assert (sheet["layout"], sheet["total"], sheet["legal"], sheet["uncertain"]) == (demo.layout, demo.total, True,
                                                                                     [])
    assert sheet["file"] == "photo"  # the client's file name is never used


def test_a_sheet_is_drawn_from_its_kept_picture_with_every_field(client: TestClient, demo: Any) -> None:
    sheet = scored(client, demo)
    shown = client.get(f"/api/sheets/{sheet['id']}").json()
    assert {key: shown[key] for key in sheet} == sheet
    assert (shown["game"], shown["player"], shown["confirmed"]) == ("Friday", "Anna", False)
    assert len(shown["fields"]) == 4 * 11 + 4 + 4  # numbers, locks, penalties
    crossed = sum(f["crossed"] for f in shown["fields"] if f["set"].keys() == {"row", "number"})
    assert crossed == sum(len(row["crossed"]) for row in sheet["rows"]) > 0
    picture = client.get(shown["picture"])
    assert picture.headers["content-type"] == "image/jpeg"
    width, height = Image.open(io.BytesIO(picture.content)).size
    frame = shown["frame"]
    assert abs(width / height - frame[2] / frame[3]) < 0.01  # the picture is exactly the frame the fields use


def test_a_correction_is_refereed_at_once_and_kept(make_client: Callable[..., TestClient], demo: Any) -> None:
    client = make_client()
    sheet = scored(client, demo)
    first_empty = next(n for n in (2, 3, 4) if n not in sheet["rows"][0]["crossed"])
    more = client.post(f"/api/sheets/{sheet['id']}/fields", json={"row": 0, "number": first_empty, "crossed": True})
    assert more.status_code == 200, more.text
    crossed = len(sheet["rows"][0]["crossed"])
    assert more.json()["points"][0] == (crossed + 1) * (crossed + 2) // 2
    assert more.json()["total"] == sheet["total"] + crossed + 1
    field = next(f for f in more.json()["fields"] if f["set"] == {"row": 0, "number": first_empty})
    assert field["crossed"] and field["corrected"]
    lock = client.post(f"/api/sheets/{sheet['id']}/fields", json={"field": "lock:3", "crossed": True}).json()
    assert lock["rows"][3]["lock"] and not lock["legal"] and lock["problems"]  # a lock without its crosses
    again = make_client().get(f"/api/sheets/{sheet['id']}").json()  # a restart keeps the correction
    assert again["total"] == lock["total"] and not again["legal"]


def test_a_sheet_uploaded_twice_is_removed_and_counts_no_more(make_client: Callable[..., TestClient],
                                                               demo: Any) -> None:
    client = make_client()
    kept, twice = scored(client, demo), scored(client, demo)
    rounds = client.get("/api/games/Friday/standings").json()["players"][0]["rounds"]
    assert len(rounds) == 2
    answer = client.post(f"/api/sheets/{twice['id']}/remove")
    assert answer.status_code == 200 and answer.json() == {"id": twice["id"], "removed": True}
    assert client.get(f"/api/sheets/{twice['id']}").status_code == 404
    again = make_client()  # kept across a restart
    assert len(again.get("/api/games/Friday/standings").json()["players"][0]["rounds"]) == 1
    assert again.get(f"/api/sheets/{kept['id']}").status_code == 200
    gone = again.post(f"/api/sheets/{twice['id']}/remove")
    assert gone.status_code == 404 and gone.json() == {"error": "no such sheet"}
    assert again.post("/api/sheets/..%2Fx/remove").status_code == 404


def test_a_misthrow_is_named_by_its_field(client: TestClient, demo: Any) -> None:
    sheet = scored(client, demo)
    answer = client.post(f"/api/sheets/{sheet['id']}/fields", json={"field": "penalty:0", "crossed": True}).json()
    assert (answer["penalties"], answer["total"]) == (sheet["penalties"] + 1, sheet["total"] - 5)


@pytest.mark.parametrize("body, error", [
    ({"row": 0, "number": 13, "crossed": True}, ("qwixx-standard has no such field: row 0, number 13 (\"row\" counts "
                                                 "from 0: 0 is row 1 on the sheet)")),
    ({"row": 9, "number": 2, "crossed": True}, ("qwixx-standard has no such field: row 9, number 2 (\"row\" counts "
                                                "from 0: 9 is row 10 on the sheet)")),
    ({"row": 0, "number": 2, "crossed": "yes"}, '"crossed": give true or false'),
    ({"row": 0, "number": "x", "crossed": True}, '"number": give a whole number from 0 to 999, not "x"'),
    ({"row": {"a": 1}, "number": 2, "crossed": True}, '"row": give a whole number from 0 to 999, not an object'),
    ({"field": "lock:7", "crossed": True}, 'qwixx-standard has no such field: field "lock:7"'),
    ({"field": "../etc", "crossed": True}, ('"field": "../etc" names no field (e.g. "lock:0", "penalty:1", '
                                           '"bonus_row:3", "bonus_box:A")')),
    ({"field": "bonus_box:A", "crossed": True}, 'qwixx-standard has no such field: field "bonus_box:A"'),
    ({"colour": "red", "crossed": True}, ('"colour" names no field: give "row" and "number", or "field" (the name '
                                         "of a lock, penalty or bonus field)")),
    ({"field": "lock:\u0663", "crossed": True}, '"field": "lock:\u0663": write its number with the digits 0 to 9'),
    ({"field": "row:\u0660:\u0665", "crossed": True}, "digits 0 to 9"),
    ({"field": "penalty:\uff11", "crossed": True}, "digits 0 to 9"),
])
def test_a_correction_naming_no_field_is_one_line_of_plain_words(client: TestClient, demo: Any, body: Any,
                                                                  error: str) -> None:
    sheet = scored(client, demo)
    answer = client.post(f"/api/sheets/{sheet['id']}/fields", json=body)
    assert answer.status_code == 400
    assert list(answer.json()) == ["error"] and error in answer.json()["error"]
    assert "\n" not in answer.json()["error"] and "'" not in answer.json()["error"]  # no Python repr


def test_standings_rank_players_best_first_and_export(make_client: Callable[..., TestClient], demo: Any) -> None:
    client = make_client()
    anna = scored(client, demo, "Anna")
    scored(client, demo, "Bruno")
    scored(client, demo, "Bruno")
    assert client.post(f"/api/sheets/{anna['id']}/confirm").json() == {"id": anna["id"], "confirmed": True}
    standings = client.get("/api/games/friday/standings").json()  # games are found in any letter case
    players = standings["players"]
    assert [p["player"] for p in players] == ["Bruno", "Anna"]
    assert [p["total"] for p in players] == [2 * demo.total, demo.total]
    assert [len(p["rounds"]) for p in players] == [2, 1] and players[1]["rounds"][0]["checked"]
    assert {"player", "rounds", "total"} <= set(players[0])
    rows = list(csv.reader(io.StringIO(client.get("/api/games/Friday/standings.csv").text)))
    assert [row[:3] for row in rows[1:]] == [["1", "Bruno", str(2 * demo.total)], ["2", "Anna", str(demo.total)]]
    restarted = make_client()  # a restart keeps every game
    assert restarted.get("/api/games/Friday/standings").json() == standings
    assert restarted.get("/api/games").json()["games"] == [{"game": "Friday", "sheets": 3}]
    assert restarted.get("/api/games/Friday/players").json()["players"] == ["Anna", "Bruno"]


def test_a_player_is_one_player_whatever_the_letter_case(client: TestClient, demo: Any) -> None:
    for player in ("Anna", "Bruno", "ANNA", "anna"):
        scored(client, demo, player)
    standings = client.get("/api/games/Friday/standings").json()["players"]
    assert sorted(p["player"] for p in standings) == ["Anna", "Bruno"]
    assert client.get("/api/games/friday/players").json() == {"game": "Friday", "players": ["Anna", "Bruno"]}


def test_a_scanner_apps_pdf_is_read_page_by_page(client: TestClient, demo: Any) -> None:
    pdf = io.BytesIO()
    page = Image.open(io.BytesIO(demo.jpeg))
    page.save(pdf, "PDF", resolution=200, save_all=True, append_images=[page.copy()])
    answer = upload(client, pdf.getvalue(), kind="application/pdf")
    assert answer.status_code == 200, answer.text
    assert [s["total"] for s in answer.json()["sheets"]] == [demo.total, demo.total]


def test_a_pdf_of_too_many_pages_is_refused_before_any_page_is_read(client: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A 500-page pad sent as a photo kept a reading worker busy for 80 s, to be refused in the end."""
    from printgen.scan import documents
    from printgen.serve import uploads

    def read_nothing(*args: object) -> None:
        raise AssertionError("no page may be read")

    monkeypatch.setattr(uploads, "read_file", read_nothing)
    for kind, save in (("application/pdf", "PDF"), ("image/tiff", "TIFF")):
        data = io.BytesIO()
        page = Image.new("RGB", (200, 150), "white")
        page.save(data, save, save_all=True, append_images=[page.copy()] * documents.MAX_PAGES)
        answer = upload(client, data.getvalue(), kind=kind)
        assert answer.status_code == 422, answer.text
        words = "21 pages" if save == "PDF" else f"over {documents.MAX_PAGES} pages"
        assert answer.json()["error"] == f"photo: {words}: at most {documents.MAX_PAGES} pages of one file are read " \
                                         "(split it)"


@pytest.mark.parametrize("photo, status, words", [
    (b"<html>not a picture</html>", 422, "not a picture"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 200, 422, "photo"),
    (b"%PDF-1.4\n%broken", 422, "photo"),
])
def test_what_is_not_a_picture_is_refused_in_one_line(client: TestClient, photo: bytes, status: int,
                                                      words: str) -> None:
    answer = upload(client, photo)
    assert answer.status_code == status, answer.text
    assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    assert client.get("/api/games").json()["games"] == []  # nothing was kept


def test_names_are_checked_and_never_paths(client: TestClient, demo: Any) -> None:
    for game, player in (("", "Anna"), ("Friday", ""), ("../../etc", "Anna"), ("Friday", "x" * 41),
                         ("Friday", "<script>")):
        answer = upload(client, demo.jpeg, game, player)
        assert answer.status_code == 400 and "name" in answer.json()["error"], (game, player)
    missing = client.post("/api/score", data={"game": "Friday", "player": "Anna"},
                          files={"other": ("a.txt", b"x", "text/plain")})
    assert missing.status_code == 400 and missing.json()["error"].startswith("photo")
    form = client.post("/api/score", json={"game": "Friday"})
    assert form.status_code == 415


def test_an_upload_above_the_limit_is_refused_with_413(client: TestClient) -> None:
    from printgen.serve.app import MAX_UPLOAD

    answer = upload(client, b"\xff\xd8\xff" + b"\x00" * (MAX_UPLOAD + 10))
    assert answer.status_code == 413 and answer.json()["error"].startswith("too large")

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        for _ in range(MAX_UPLOAD // 2**20 + 2):
            yield b"\x00" * 2**20

    streamed = client.post("/api/score", content=chunks(), headers={"content-type": "multipart/form-data; boundary=x"})
    assert streamed.status_code == 413


def test_a_full_queue_answers_503_at_once(make_client: Callable[..., TestClient], demo: Any) -> None:
    from printgen.serve.uploads import Queue

    busy = make_client(queue=Queue(workers=1, waiting=0))
    answer = upload(busy, demo.jpeg)
    assert answer.status_code == 503 and answer.json()["error"].startswith("busy: too many uploads")


def test_builds_have_their_own_queue_apart_from_the_uploads(make_client: Callable[..., TestClient]) -> None:
    from printgen.serve.uploads import Queue

    uploads_full = make_client(queue=Queue(workers=1, waiting=0))  # every reading slot taken
    built = uploads_full.post("/api/build", json={"layout": "qwixx-standard", "sheets": 2})
    assert built.status_code == 200 and built.content.startswith(b"%PDF")
    assert uploads_full.post("/api/preview", json={"layout": "qwixx-standard"}).status_code == 200
    builds_full = make_client(builds=Queue(workers=1, waiting=0, what="builds"))
    refused = builds_full.post("/api/build", json={"layout": "qwixx-standard"})
    assert refused.status_code == 503 and refused.json()["error"].startswith("busy: too many builds")


def test_unknown_things_are_404_in_json(client: TestClient) -> None:
    for address in ("/api/sheets/0123456789abcdef", "/api/sheets/../../etc/passwd", "/api/games/nobody/standings",
                    "/games/%3Cscript%3E", "/games/..%2Fx", "/static/../app.py", "/static/", "/nothing", "/api/sheets/x/picture",
                    "/build?layout=nosuch", "/build?layout=../layouts/qwixx-standard"):
        answer = client.get(address)
        assert answer.status_code == 404, address
        assert list(answer.json()) == ["error"], address
    assert client.post("/api/sheets/0123456789abcdef/confirm").status_code == 404


def test_the_standings_page_of_a_game_with_no_sheet_yet_shows_it_empty(client: TestClient, demo: Any) -> None:
    empty = client.get("/games/Saturday")
    assert empty.status_code == 200 and empty.headers["content-type"].startswith("text/html")
    assert "<h1>Saturday</h1>" in empty.text and "No sheets in this game yet" in empty.text
    assert '<p id="empty" class="hint">' in empty.text  # shown
    scored(client, demo, game="Saturday")
    filled = client.get("/games/saturday").text
    assert "Anna" in filled and '<p id="empty" class="hint" hidden>' in filled


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for address in ("/", "/build", "/static/score.js", "/api/games", "/nothing"):
        headers = client.get(address).headers
        assert "script-src 'self'" in headers["content-security-policy"], address
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer"


def test_a_post_from_another_site_is_refused(client: TestClient, demo: Any) -> None:
    for headers in ({"origin": "http://evil.example"}, {"sec-fetch-site": "cross-site"}, {"origin": "null"}):
        answer = client.post("/api/score", files={"photo": ("a.jpg", demo.jpeg, "image/jpeg")},
                             data={"game": "Friday", "player": "Anna"}, headers=headers)
        assert answer.status_code == 403 and "another site" in answer.json()["error"], headers
    same = client.post("/api/games", headers={"origin": "http://127.0.0.1:8420", "sec-fetch-site": "same-origin"})
    assert same.status_code == 405  # passes the guard; only GET lists games
    # a form posted without JavaScript: under `Referrer-Policy: no-referrer` a browser says its origin is null,
    # and that the request is its own site's (the build page's download refused every time)
    form = client.post("/api/games", headers={"origin": "null", "sec-fetch-site": "same-origin"})
    assert form.status_code == 405
    framed = client.post("/api/games", headers={"origin": "null", "sec-fetch-site": "cross-site"})
    assert framed.status_code == 403


def test_with_a_token_nothing_is_answered_without_it(make_client: Callable[..., TestClient]) -> None:
    guarded = make_client(token="s3cret-token")
    for address in ("/", "/api/games", "/static/serve.css", "/build"):
        assert guarded.get(address).status_code == 401, address
    assert guarded.get("/", params={"token": "wrong"}).status_code == 403
    assert guarded.get("/api/games", headers={"authorization": "Bearer wrong"}).status_code == 403
    assert guarded.get("/api/games", headers={"authorization": "Bearer s3cret-token"}).status_code == 200
    first = guarded.get("/", params={"game": "Friday night", "token": "s3cret-token"}, follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/?game=Friday+night"  # (a page's address
    # keeps no token: not in the address bar, the history nor a bookmark)
    assert "HttpOnly" in first.headers["set-cookie"]
    assert f"Max-Age={30 * 24 * 3600};" in first.headers["set-cookie"]  # (past the browser's session)
    assert guarded.get(first.headers["location"]).status_code == 200
    assert guarded.get("/api/games").status_code == 200  # the phone's browser keeps the cookie
    guarded.cookies.clear()
    assert guarded.get("/api/games").status_code == 401
    page = guarded.get("/", headers={"accept": "text/html,application/xhtml+xml"})  # (a bookmark, the cookie gone)
    assert page.status_code == 401 and page.headers["content-type"].startswith("text/html")
    assert "Scan the QR code" in page.text and "s3cret" not in page.text
    wrong = guarded.get("/", params={"token": "wrong"}, headers={"accept": "text/html"})
    assert wrong.status_code == 403 and "Wrong access token." in wrong.text


def test_build_returns_the_pdf_of_the_options_given(client: TestClient) -> None:
    answer = client.post("/api/build", json={"layout": "qwixx-standard", "sheets": 4, "lang": "de",
                                             "paper": "letter", "per_page": "2"})
    assert answer.status_code == 200, answer.text
    assert answer.content.startswith(b"%PDF") and answer.headers["content-type"] == "application/pdf"
    assert "qwixx-standard" in answer.headers["content-disposition"]
    svg = client.post("/api/build", json={"layout": "qwixx-standard", "format": "svg"})
    assert svg.status_code == 200 and b"<svg" in svg.content[:500]
    preview = client.post("/api/preview", json={"layout": "qwixx-cards-deck", "card_size": "bridge"})
    assert preview.status_code == 200 and preview.content.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(preview.content)).width == making.PREVIEW_WIDTH


def test_a_build_value_given_twice_is_refused_not_the_last_taken(client: TestClient) -> None:
    """A form or JSON object naming a key twice built with whichever came last."""
    form = client.post("/api/build", content=b"layout=qwixx-standard&layout=qwixx-big-points",
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert (form.status_code, form.json()) == (400, {"error": "layout: given 2 times; send one"})
    ticked = client.post("/api/build", content=b"layout=qwixx-standard&sheets=2&symbols=off&symbols=on",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert ticked.status_code == 200, ticked.text  # (a ticked switch sends its hidden "off" first)
    twice = client.post("/api/build", content=b'{"layout": "qwixx-standard", "sheets": 5, "sheets": 6}',
                        headers={"content-type": "application/json"})
    assert (twice.status_code, twice.json()) == (400, {"error": "sheets: given twice; send one"})
    marks = client.post("/api/build", content=b"layout=qwixx-standard&crop_marks=off&crop_marks=on&crop_marks=on",
                        headers={"content-type": "application/x-www-form-urlencoded"})
    assert (marks.status_code, marks.json()) == (400, {"error": "crop marks: given 3 times; send one"})  # (as the
    # page names it)
    many = client.post("/api/build", content="&".join(f"f{i}=1" for i in range(70)).encode(),
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert (many.status_code, many.json()) == (400, {"error": "the form holds more fields than the build page has"})
    unnamed = client.post("/api/build", json={"layout": "qwixx-standard", "": 1})
    assert (unnamed.status_code, unnamed.json()) == (400, {"error": '"": is not a build option'})


def test_build_writes_both_formats_as_the_command_line_does_in_one_zip(client: TestClient) -> None:
    answer = client.post("/api/build", json={"layout": "qwixx-standard", "sheets": 2, "format": "both"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/zip" and 'filename="qwixx-standard-2sheets.zip"' in \
        answer.headers["content-disposition"]  # named as the PDF in it is
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        names = archive.namelist()
        assert sorted(name.rsplit(".", 1)[1] for name in names) == ["pdf", "svg"] and "/" not in "".join(names)
        pdf = next(name for name in names if name.endswith(".pdf"))
        assert archive.read(pdf).startswith(b"%PDF")


@pytest.mark.parametrize("body, words", [
    ({"layout": "../layouts/qwixx-standard.toml"}, "not a built-in layout"),
    ({"layout": "/etc/passwd"}, "not a built-in layout"),
    ({"sheets": 2}, "layout: choose one of the built-in layouts"),
    ({"layout": "qwixx-standard", "tile": True}, "does not apply"),
    ({"layout": "qwixx-standard", "out": "/tmp"}, "is not offered here"),
    ({"layout": "qwixx-standard", "icc": "/etc/passwd"}, "is not offered here"),
    ({"layout": "qwixx-standard", "colour": "red"}, "not a build option"),
    ({"layout": "qwixx-standard", "sheets": 0}, "sheets"),
    ({"layout": "qwixx-standard", "sheets": 5000}, "at most"),
    ({"layout": "qwixx-standard", "format": "png"}, "format"),
    ({"layout": "qwixx-standard", "lang": "xx"}, "lang"),
    ({"layout": "qwixx-standard", "sheets": "\u0663"}, "sheets: \u0663: write numbers with the digits 0 to 9"),
    ({"layout": "qwixx-standard", "per_page": "\uff12"}, "per page: \uff12: write numbers with the digits 0 to 9"),
])
def test_a_build_request_that_cannot_be_built_is_one_line(client: TestClient, body: Any, words: str) -> None:
    answer = client.post("/api/build", json=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]


def test_build_takes_a_form_without_javascript(client: TestClient) -> None:
    page = client.get("/build").text
    assert '<input type="hidden" name="scan_marks" value="off">' in page  # an unticked box still says so
    ticked = client.post("/api/build", data={"layout": "qwixx-standard", "sheets": "2", "symbols": ["off", "on"],
                                             "scan_marks": ["off", "on"]})
    unticked = client.post("/api/build", data={"layout": "qwixx-standard", "sheets": "2", "symbols": "off",
                                               "scan_marks": "off"})
    assert ticked.status_code == unticked.status_code == 200
    assert ticked.content.startswith(b"%PDF") and unticked.content.startswith(b"%PDF")
    assert ticked.content != unticked.content


def test_the_build_page_offers_exactly_the_declared_options() -> None:
    from printgen import layouts

    for name in making.layout_names():
        offered = {o.key for o in making.offered(layouts.load(name))}
        assert offered and not offered & making.HIDDEN
        assert offered <= {o.key for o in BUILD_OPTIONS}


def test_the_build_page_shows_the_options_of_the_chosen_layout(client: TestClient) -> None:
    sheet = client.get("/build").text
    deck = client.get("/build", params={"layout": "qwixx-cards-deck"}).text
    assert 'name="sheets"' in sheet and 'name="card_size"' not in sheet
    assert 'name="card_size"' in deck and 'name="sheets"' not in deck
    assert 'name="out"' not in sheet + deck and 'name="icc"' not in sheet + deck
    formats = re.search(r'<select name="format">(.*?)</select>', sheet, re.DOTALL)
    assert formats and re.findall(r'<option value="([^"]*)"', formats.group(1)) == list(FORMATS)
    assert "What to write: pdf, svg or both." in sheet  # the help the command line gives, and what is accepted
    board = client.get("/build", params={"layout": "one-to-9-board"}).text

    def papers(page: str) -> list[str]:
        found = re.search(r'<select name="paper">(.*?)</select>', page, re.DOTALL)
        assert found, page[:200]
        return re.findall(r'<option value="([^"]*)"', found.group(1))

    assert "a0" in papers(board) and not {"a2", "a1", "a0"} & {*papers(sheet), *papers(deck)}  # (a sheet on a0
    # was refused when chosen: only the board prints there)
    assert client.get("/build", params={"layout": "../../etc"}).status_code == 404  # never another layout's form


def test_the_pages_ask_for_the_phones_camera_and_load_nothing_from_elsewhere(client: TestClient, demo: Any) -> None:
    scored(client, demo)
    pages = {address: client.get(address) for address in ("/", "/games/Friday", "/build")}
    for address, page in pages.items():
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), address
        addresses = re.findall(r'(?:src|href|action)="([^"]*)"', page.text)
        assert addresses and [a for a in addresses if not a.startswith("/") or a.startswith("//")] == ["data:,"]
        assert 'name="viewport" content="width=device-width' in page.text
    assert 'capture="environment"' in pages["/"].text and 'accept="image/*' in pages["/"].text
    assert "Anna" in pages["/games/Friday"].text and str(demo.total) in pages["/games/Friday"].text


def test_an_uncertain_field_is_marked_and_settled_by_a_person(client: TestClient, doubtful: bytes) -> None:
    from printgen.scan.ink import UNCLEAR
    from tests.serve.doubtful import DOUBTFUL

    answer = upload(client, doubtful)
    assert answer.status_code == 200, answer.text
    (sheet,) = answer.json()["sheets"]
    assert sheet["uncertain"] == [{"row": 3, "number": 10, "reason": UNCLEAR}]
    shown = client.get(f"/api/sheets/{sheet['id']}").json()
    (field,) = [f for f in shown["fields"] if f["uncertain"]]
    assert field["name"] == DOUBTFUL and field["set"] == {"row": 3, "number": 10}
    assert client.get("/api/games/Friday/standings").json()["players"][0]["rounds"][0]["uncertain"] == 1
    settled = client.post(f"/api/sheets/{sheet['id']}/fields", json={**field["set"], "crossed": False}).json()
    assert settled["uncertain"] == [] and settled["rows"][3]["crossed"] == []
    assert client.get("/api/games/Friday/standings").json()["players"][0]["rounds"][0]["uncertain"] == 0


def test_without_a_token_only_this_computers_names_are_answered(client: TestClient) -> None:
    for host in ("localhost:8420", "127.0.0.1", "[::1]:8420"):
        assert client.get("/api/games", headers={"host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8420", "192.168.1.5:8420", "", "localhost:8420@evil.example",
                 "localhost@evil", "127.0.0.1 evil"):
        answer = client.get("/api/games", headers={"host": host})
        assert answer.status_code == 403 and "127.0.0.1" in answer.json()["error"], host


@pytest.mark.parametrize("typed, kept", [
    ("O\u2019Brien", "O'Brien"), ("\u092a\u094d\u0930\u093f\u092f\u093e", "\u092a\u094d\u0930\u093f\u092f\u093e"),
    ("\u0e2a\u0e21\u0e28\u0e31\u0e01\u0e14\u0e34\u0e4c", "\u0e2a\u0e21\u0e28\u0e31\u0e01\u0e14\u0e34\u0e4c"),
    ("\u0645\u062d\u0645\u0651\u062f", "\u0645\u062d\u0645\u0651\u062f"), ("Chloe\u0301", "Chlo\u00e9"),
    ("  Anna   Lena ", "Anna Lena"),
])
def test_names_of_every_script_are_taken_and_kept_tidied(client: TestClient, demo: Any, typed: str,
                                                         kept: str) -> None:
    answer = upload(client, demo.jpeg, "Friday", typed)
    assert answer.status_code == 200, answer.text
    (standing,) = client.get("/api/games/Friday/standings").json()["players"]
    assert standing["player"] == kept
    assert client.get("/api/games/Friday/players").json()["players"] == [kept]


@pytest.mark.parametrize("typed, words", [
    ("a/b", "“/” cannot be in a name"), ("a\u0000b", "U+0000 cannot be in a name"),
    ("a\\b", "“\\” cannot be in a name"), ("x" * 41, "at most 40 characters (this one has 41)"),
    ("\u0301x", "starts with a letter or digit"), ("..", "starts with a letter or digit, not “.”"),
    ("\u3164", "U+3164 shows as nothing"), ("Anna\u2800", "U+2800 cannot be in a name"),  # (a player nobody sees)
])
def test_a_name_that_is_not_one_says_what_is_wrong(client: TestClient, demo: Any, typed: str, words: str) -> None:
    answer = upload(client, demo.jpeg, "Friday", typed)
    assert answer.status_code == 400 and answer.json()["error"].startswith("player: "), answer.text
    assert words in answer.json()["error"]


def test_every_route_tidies_and_checks_names_the_same_way(client: TestClient, demo: Any) -> None:
    assert upload(client, demo.jpeg, "Friday  night", "Anna").status_code == 200
    assert client.get("/api/games").json()["games"][0]["game"] == "Friday night"
    for address in ("/api/games/Friday%20%20night/standings", "/api/games/friday%20night%20/standings",
                    "/api/games/Friday%20%20night/standings.csv"):
        assert client.get(address).status_code == 200, address
    assert client.get("/api/games/Friday%20%20night/players").json() == {"game": "Friday night", "players": ["Anna"]}
    page = client.get("/games/Friday%20%20night").text
    assert "<h1>Friday night</h1>" in page and "Anna" in page
    long = client.get("/api/games/" + "x" * 5000 + "/players")
    assert long.status_code == 400 and len(long.text) < 200
    assert client.get("/api/games/a%2Fb/standings").status_code in (400, 404)
    assert client.get("/games/" + "x" * 5000).status_code == 404


def test_the_data_folder_and_database_are_for_this_user_only(client: TestClient, tmp_path: Any) -> None:
    data = tmp_path / "data"
    assert data.stat().st_mode & 0o777 == 0o700
    for path in data.glob("printgen.db*"):
        assert path.stat().st_mode & 0o777 == 0o600, path


def test_the_same_photo_twice_in_a_game_is_refused_with_409(client: TestClient, demo: Any) -> None:
    assert upload(client, demo.jpeg, "Friday", "Anna").status_code == 200
    for player in ("Anna", "Bruno"):
        again = upload(client, demo.jpeg, "friday", player)
        assert again.status_code == 409
        assert again.json() == {"error": "this photo was read already: Anna's round 1 in Friday; remove that round "
                                         "first to read it again"}
    assert [g["sheets"] for g in client.get("/api/games").json()["games"]] == [1]
    assert upload(client, demo.jpeg, "Saturday", "Anna").status_code == 200  # another game is another night
    (sheet,) = client.get("/api/games/Friday/standings").json()["players"][0]["rounds"]
    assert client.post(f"/api/sheets/{sheet['sheet']}/remove").status_code == 200
    assert upload(client, demo.jpeg, "Friday", "Anna").status_code == 200  # removed: it may be read again


def test_confirming_accepts_the_doubtful_fields_as_shown_and_a_correction_reopens_it(
        client: TestClient, doubtful: bytes) -> None:
    sheet = upload(client, doubtful, "Friday", "Cleo").json()["sheets"][0]
    shown = client.get(f"/api/sheets/{sheet['id']}").json()
    assert [f for f in shown["fields"] if f["uncertain"]]
    (before,) = client.get("/api/games/Friday/standings").json()["players"][0]["rounds"]
    assert before["uncertain"] == 1 and not before["checked"]
    assert client.post(f"/api/sheets/{sheet['id']}/confirm").json() == {"id": sheet["id"], "confirmed": True}
    confirmed = client.get(f"/api/sheets/{sheet['id']}").json()
    assert confirmed["confirmed"] and not [f for f in confirmed["fields"] if f["uncertain"]]
    assert confirmed["total"] == shown["total"] and confirmed["uncertain"] == []
    assert [f["crossed"] for f in confirmed["fields"]] == [f["crossed"] for f in shown["fields"]]
    (after,) = client.get("/api/games/Friday/standings").json()["players"][0]["rounds"]
    assert after["uncertain"] == 0 and after["checked"]
    fix = client.post(f"/api/sheets/{sheet['id']}/fields", json={"field": "lock:3", "crossed": True}).json()
    assert fix["reopened"] is True and fix["confirmed"] is False
    again = client.post(f"/api/sheets/{sheet['id']}/fields", json={"field": "lock:3", "crossed": False}).json()
    assert again["reopened"] is False


def test_the_standings_name_rounds_by_their_upload_not_by_an_id(client: TestClient, demo: Any) -> None:
    sheet = scored(client, demo)
    (one,) = client.get("/api/games/Friday/standings").json()["players"][0]["rounds"]
    assert one["sheet"] == sheet["id"] and re.fullmatch(r"uploaded \d\d:\d\d", one["file"])
    text = client.get("/api/games/Friday/standings.csv").text
    assert sheet["id"] not in text and "uploaded " in text


@pytest.mark.parametrize("body, error", [
    ({}, "layout: choose one of the built-in layouts (see the build page's list)"),
    ({"layout": "qwixx-standard", "sheets": True}, "sheets: true: give a whole number from 1 to 1,000"),
    ({"layout": "qwixx-standard", "sheets": "0"}, "sheets: 0: give a whole number from 1 to 1,000"),
    ({"layout": "qwixx-standard", "card_size": "poker"}, "card size: does not apply to qwixx-standard"),
    ({"layout": "qwixx-cards-deck", "backs_file": True},
     "backs file: is not offered here: it names a file or folder on the server (printgen build takes it)"),
    ({"layout": "qwixx-standard", "lang": "xx"}, "lang: xx is not one of en, de, fr, it, pl"),
    ({"layout": "qwixx-standard", "per-page": "0"}, "per page: 0 is out of range (score sheets 1, 2 or 4 a page, decks 1 to 64)"),
    ({"layout": "qwixx-standard", "cmyk": "maybe"}, "cmyk: maybe is not on or off (give true or false)"),
    ({"layout": "qwixx-standard", "lang": ["en"]}, "lang: give one value, not a list or an object"),
    ({"layout": "qwixx-standard", "per-pages": 2}, "per-pages: is not a build option"),
    ({"layout": "qwixx-standard", "per_page": 1, "per-page": 2}, "per-page: given twice, also as per_page; give it once"),
    ({"layout": "qwixx-big-points", "lucky_pool": "zz"}, "lucky pool: zz is not balanced, all or a list of pairs like 5-10,6-11"),
])
def test_build_errors_are_plain_words_and_values_as_typed(client: TestClient, body: Any, error: str) -> None:
    answer = client.post("/api/build", json=body)
    assert answer.status_code == 400 and answer.json() == {"error": error}


def test_build_takes_options_by_either_spelling_and_refuses_a_switch_that_is_neither_on_nor_off(
        client: TestClient) -> None:
    dashes = client.post("/api/build", json={"layout": "qwixx-standard", "sheets": 4, "per-page": 1, "scan-marks": False})
    underscores = client.post("/api/build", json={"layout": "qwixx-standard", "sheets": 4, "per_page": 1,
                                                  "scan_marks": False})
    assert dashes.status_code == underscores.status_code == 200 and dashes.content == underscores.content
    pdf_only = client.post("/api/build", json={"layout": "qwixx-standard", "svg-text": "font"})
    assert pdf_only.json() == {"error": "svg text: changes only SVGs, and format pdf writes none (use format both "
                                        "or format svg)"}
    small = client.post("/api/build", json={"layout": "qwixx-standard", "per-page": 4}).json()["error"]
    assert "use per page 2, or per page 4 with paper a3" in small and "--" not in small
    form = client.post("/api/build", data={"layout": "qwixx-standard", "sheets": "2", "cmyk": ["off", "maybe"]})
    assert form.status_code == 400 and form.json() == {"error": "cmyk: maybe is not on or off (give true or false)"}


def test_the_build_page_help_fits_the_server_and_the_layout_kind(client: TestClient) -> None:
    sheet = client.get("/build").text
    deck = client.get("/build", params={"layout": "qwixx-cards-deck"}).text
    assert "1 to 1,000" in sheet and "100,000" not in sheet
    assert "Sheets in the pad, 1 to 1,000 (default 50;" in sheet  # what an empty field builds
    for page in (sheet, deck):
        assert "--" not in re.sub(r"<!--.*?-->", "", page) and "((" not in page
    assert "Decks" not in sheet and "cards a page" not in sheet and "Score sheets" not in deck
    assert "scan marks" in sheet and "per page" in sheet and "svg text" in sheet
    assert 'placeholder="X,Y (default 0,0)"' in deck and 'placeholder="LENGTH (default 5 mm)"' in deck


def test_upload_and_routing_errors_are_our_own_plain_words(client: TestClient, demo: Any) -> None:
    for photo, kind in ((demo.jpeg[:-22], "JPEG"), (b"%PDF-1.4 not a document", "PDF")):
        answer = upload(client, photo)
        assert answer.status_code == 422 and answer.json()["error"].endswith(": take or choose it again")
        assert kind in answer.json()["error"] and "(" not in answer.json()["error"], answer.text
    two = client.post("/api/score", data={"game": "Friday", "player": "Anna"},
                      files=[("photo", ("a.jpg", b"1", "image/jpeg")), ("photo", ("b.jpg", b"2", "image/jpeg"))])
    assert two.status_code == 400 and two.json() == {"error": "photo: send one photo at a time"}
    none = client.post("/api/score", data={"game": "Friday", "player": "Anna"},
                       files=[("other", ("a.txt", b"1", "text/plain"))])
    assert none.status_code == 400 and none.json()["error"].startswith("photo: none arrived (it was not sent, or the upload was cut off): choose")
    text = client.post("/api/score", data={"game": "Friday", "player": "Anna", "photo": "IMG_1.jpg"},
                       files=[("other", ("a.txt", b"1", "text/plain"))])
    assert text.status_code == 400 and text.json()["error"].startswith("photo: it came as text, not as a file")
    unbounded = client.post("/api/score", content=b"abc", headers={"content-type": "multipart/form-data"})
    assert unbounded.status_code == 400 and "not a whole form" in unbounded.json()["error"]
    cut = client.post("/api/score", headers={"content-type": "multipart/form-data; boundary=x"},
                      content=b'--x\r\nContent-Disposition: form-data; name="game"\r\n\r\nFriday\r\n--x\r\n'
                              b'Content-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n\xff\xd8\xff')
    assert cut.status_code == 400 and "cut off" in cut.json()["error"]
    wrong = client.get("/api/score")
    assert wrong.status_code == 405 and wrong.json() == {"error": "GET is not taken here: this address takes POST"}
    assert wrong.headers["allow"] == "POST"
    assert client.get("/nothing").json() == {"error": "no such page or address"}


def _two_sheet_pdf(demo: Any) -> bytes:
    """A scanner app's PDF of two pages: two sheets in one upload, as a photo of a 2-up page is."""
    pdf = io.BytesIO()
    page = Image.open(io.BytesIO(demo.jpeg))
    page.save(pdf, "PDF", resolution=200, save_all=True, append_images=[page.copy()])
    return pdf.getvalue()


def test_a_sheet_is_given_to_another_player_as_a_photo_of_two_sheets_needs(client: TestClient, demo: Any) -> None:
    answer = upload(client, _two_sheet_pdf(demo), game="Page", player="Lea", kind="application/pdf")
    assert answer.status_code == 200, answer.text
    first, second = answer.json()["sheets"]
    moved = client.post(f"/api/sheets/{second['id']}/player", json={"player": " max "})
    assert moved.status_code == 200 and moved.json()["player"] == "max" and moved.json()["id"] == second["id"]
    players = client.get("/api/games/Page/standings").json()["players"]
    assert sorted((p["player"], len(p["rounds"])) for p in players) == [("Lea", 1), ("max", 1)]
    again = client.post(f"/api/sheets/{first['id']}/player", json={"player": "MAX"})  # spelt as first handed in
    assert again.json()["player"] == "max"
    assert [p["player"] for p in client.get("/api/games/Page/standings").json()["players"]] == ["max"]
    for body, status, words in (({"player": ""}, 400, "player: give a name"), ({"name": "Max"}, 400, '{"player"'),
                                ({"player": "Max", "x": 1}, 400, '{"player"')):
        refused = client.post(f"/api/sheets/{first['id']}/player", json=body)
        assert refused.status_code == status and words in refused.json()["error"], refused.text
    assert client.post("/api/sheets/0123456789abcdef/player", json={"player": "Max"}).status_code == 404


def test_a_player_is_spelt_as_first_handed_in_on_every_sheet(client: TestClient, demo: Any) -> None:
    scored(client, demo, "Anna")
    assert scored(client, demo, "ANNA")["id"]
    sheets = client.get("/api/games/Friday/standings").json()["players"][0]["rounds"]
    assert {client.get(f"/api/sheets/{r['sheet']}").json()["player"] for r in sheets} == {"Anna"}


def test_a_game_whose_every_sheet_was_removed_is_no_longer_listed(client: TestClient, demo: Any) -> None:
    sheet = scored(client, demo, "Anna", "Duel")
    assert client.get("/api/games").json() == {"games": [{"game": "Duel", "sheets": 1}]}
    assert client.post(f"/api/sheets/{sheet['id']}/remove").status_code == 200
    assert client.get("/api/games").json() == {"games": []}


def test_a_page_address_not_found_is_a_page_to_a_browser(client: TestClient, demo: Any) -> None:
    for address in ("/games/%3Cscript%3E", "/build?layout=nope", "/nothing"):
        answer = client.get(address, headers={"accept": "text/html,application/xhtml+xml"})
        assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html"), address
        assert "<h1>Not found</h1>" in answer.text and "<script>" not in answer.text
    assert "No such layout: the address may be mistyped" in client.get(
        "/build?layout=nope", headers={"accept": "text/html"}).text
    api = client.get("/api/sheets/0123456789abcdef", headers={"accept": "text/html"})
    assert api.status_code == 404 and api.json() == {"error": "no such sheet"}  # an API answers in JSON
    scored(client, demo, "Anna", "Friday")
    typo = client.get("/games/Fridya")
    assert typo.status_code == 200 and 'Games so far:\n  <a href="/games/Friday">Friday</a>' in typo.text


def test_a_heic_photo_the_server_cannot_read_says_what_the_phone_can_do(client: TestClient,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.scan import picture

    monkeypatch.setattr(picture, "_heif_opener", lambda: False)
    answer = upload(client, b"\x00\x00\x00\x18ftypheic" + bytes(100), kind="image/heic")
    assert answer.status_code == 422 and "set the camera to Most Compatible (JPEG)" in answer.json()["error"]
    assert "pip install" not in answer.json()["error"]


def test_a_form_naming_the_player_twice_is_refused(client: TestClient, demo: Any) -> None:
    answer = client.post("/api/score", files={"photo": ("IMG_0001.jpg", demo.jpeg, "image/jpeg")},
                         data={"game": "Friday", "player": ["Anna", "Bruno"]})
    assert answer.status_code == 400 and answer.json() == {"error": "player: given twice; send one"}
    assert client.get("/api/games").json() == {"games": []}


def test_a_sheet_with_nothing_crossed_is_shown_as_no_round(client: TestClient, demo: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.serve import app

    seen: list[object] = []

    def second_blank(reading: object) -> bool:  # the upload's second sheet as if nothing were crossed on it
        if not any(known is reading for known in seen):
            seen.append(reading)
        return next(k for k, known in enumerate(seen) if known is reading) == 1

    monkeypatch.setattr(app, "unplayed", second_blank)
    answer = upload(client, _two_sheet_pdf(demo), game="Blank", player="Bo", kind="application/pdf")
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["sheets"]) == 1
    assert answer.json()["blank"] == ["photo [page 2 of 2]: nothing crossed on it: not counted as a round"]
    (bo,) = client.get("/api/games/Blank/standings").json()["players"]
    assert len(bo["rounds"]) == 1
    monkeypatch.setattr(app, "unplayed", lambda reading: True)
    nothing = upload(client, another(demo.jpeg, 7), game="Blank", player="Bo")
    assert nothing.status_code == 422 and nothing.json()["error"].endswith("nothing crossed on it: not counted as a "
                                                                           "round")
