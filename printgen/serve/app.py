"""The HTTP contract of `printgen serve`: requests in, pages (HTML) and JSON or files out.

Routes (issue 24): `GET /` the scoring page; `GET /games/{game}` a game's
standings page (empty for a game with no sheet yet); `GET /build` the build page; `POST /api/score`
(multipart: photo, game, player) -> `{"sheets": [...]}` (and `"unreadable"`, `"blank"`: sheets not read, and
sheets with nothing crossed, which are no round);
`GET /api/sheets/{id}` a sheet as the page draws it; `POST
/api/sheets/{id}/fields` a correction -> the sheet re-refereed; `POST
/api/sheets/{id}/confirm`; `POST /api/sheets/{id}/player` (`{"player": NAME}`) gives a sheet to
another player of its game; `POST /api/sheets/{id}/remove`; `GET /api/games`; `GET
/api/games/{game}/standings` (and `.csv`); `POST /api/build` -> the PDF
(or SVG); `POST /api/preview` -> its first page as PNG. Every error is
`{"error": "one line"}` with a 4xx status (5xx only for the server's own
faults). The app is wrapped in `guard.Guard`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from printgen.errors import UsageProblem
from printgen.scan.reader import Reader
from printgen.scan.report import where
from printgen.scan.review import FieldError, record
from printgen.scan.standings import Round, Standing, as_json, ranked, standings_csv, unplayed
from printgen.serve import making
from printgen.serve.guard import App, Guard, TooLarge, TooSlow
from printgen.serve.names import BadName, checked
from printgen.serve.sheetview import accepted, corrected, review_of, sheet_json, view
from printgen.serve.store import Duplicate, Store
from printgen.serve.uploads import Busy, Queue, figures, read_upload

MAX_UPLOAD = 25 * 2**20
"""Largest request body: a phone's photo or a scanner app's PDF (413 above)."""
MAX_JSON = 64 * 2**10
"""Largest JSON body of a correction or build request."""
HERE = Path(__file__).parent
STATIC = {"serve.css": "text/css", "score.js": "text/javascript", "standings.js": "text/javascript",
          "build.js": "text/javascript"}
"""The files under /static/, by name: nothing else is served from the package folder."""
SHEET_ID = re.compile(r"[0-9a-f]{16}")
LOG = logging.getLogger("uvicorn.error")
"""Where uvicorn's own messages go (warnings and worse are shown: `printgen serve` runs it at that level)."""


class Server:
    """One server's state: its store, warm reader, queues (uploads, builds) and templates."""

    def __init__(self, data: Path, reader: Reader | None = None, queue: Queue | None = None,
                 builds: Queue | None = None) -> None:
        self.store = Store(data)
        self.reader = reader or Reader()
        self.queue = queue or Queue()
        self.builds = builds or Queue(making.WORKERS, making.WAITING, "builds")
        self.corrections = asyncio.Lock()
        self.pages = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                                        undefined=jinja2.StrictUndefined)
        self.static = {name: ((HERE / "static" / name).read_bytes(), kind) for name, kind in STATIC.items()}

    def close(self) -> None:
        self.queue.close()
        self.builds.close()
        self.store.close()


def create_app(data: Path, token: str | None = None, reader: Reader | None = None,
               queue: Queue | None = None, builds: Queue | None = None) -> App:
    """The server keeping its data in `data`, asking for `token` when one is given (`--lan`)."""
    server = Server(data, reader, queue, builds)
    # a garbled form's parse details are the client's to hear (a 400), not lines on the host's terminal
    logging.getLogger("python_multipart").setLevel(logging.ERROR)

    def page(name: str, **values: Any) -> HTMLResponse:
        return HTMLResponse(server.pages.get_template(name).render(**values))

    async def index(request: Request) -> Response:
        games = await run_in_threadpool(server.store.games)
        return page("score.html.j2", games=[name for name, _ in games], page="score")

    async def standings_page(request: Request) -> Response:
        """A game's standings; a game with no sheet yet (a name no upload used so far) shows empty, and fills as
        its first sheets come in."""
        try:
            name = checked(request.path_params["game"], "game")
        except BadName:
            raise HTTPException(404, "no such game") from None
        game = await run_in_threadpool(server.store.game, name)
        if game is None:  # (a typo looks like a game not started: the games so far are named beside it)
            others = [known for known, _ in await run_in_threadpool(server.store.games)]
            return page("standings.html.j2", game=name, standings=[], page="standings", new=True, others=others)
        return page("standings.html.j2", game=game, standings=await _standings(server, game), page="standings",
                    new=False, others=[])

    async def build_page(request: Request) -> Response:
        names = making.layout_names()
        chosen = request.query_params.get("layout", "qwixx-standard")
        if chosen not in names:  # a mistyped or stale link: never another layout's form in its place
            raise HTTPException(404, "no such layout")
        layout = making.load_layout(chosen)
        options = [{"key": o.key, "switch": o.switch, "choices": making.choices(o, layout), "default": o.default,
                    "label": making.label(o), "help": making.page_help(o, layout),
                    "placeholder": making.placeholder(o)} for o in making.offered(layout)]
        return page("build.html.j2", names=names, layout=layout.name, options=options, page="build")

    async def static(request: Request) -> Response:
        found = server.static.get(request.path_params["name"])
        if found is None:
            raise HTTPException(404, "no such file")
        return Response(found[0], media_type=found[1], headers={"cache-control": "no-cache"})

    async def score(request: Request) -> Response:
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            raise HTTPException(415, "send multipart/form-data with photo, game and player")
        with server.queue.slot():
            try:
                form = await request.form(max_files=1, max_fields=8)
            except HTTPException as error:  # python-multipart's and Starlette's words, put in ours
                raise HTTPException(400, _form_problem(str(error.detail))) from None
            try:
                photo = form.get("photo")
                if not isinstance(photo, UploadFile):
                    what = ("none arrived (it was not sent, or the upload was cut off)" if photo is None
                            else "it came as text, not as a file (or the upload was cut off)")
                    raise HTTPException(400, f"photo: {what}: choose the picture (JPEG, PNG, WebP, HEIC...) or PDF "
                                             "and send it again")
                for name in ("game", "player"):
                    if len(form.getlist(name)) > 1:  # which one was meant?
                        raise HTTPException(400, f"{name}: given twice; send one")
                game, player = checked(form.get("game"), "game"), checked(form.get("player"), "player")
                data = await photo.read()
            finally:
                await form.close()
            digest = hashlib.sha256(data).hexdigest()
            await run_in_threadpool(server.store.check_new, game, digest)
            upload = await server.queue.run(read_upload, data, server.reader)
            del data
        played, blank = [], []
        for sheet in upload.sheets:  # (a 2-up page's unplayed sheet is no round)
            if unplayed(sheet.review.reading):
                blank.append(f"{where(sheet.review.reading)}: nothing crossed on it: not counted as a round")
            else:
                played.append(sheet)
        if not played:
            raise HTTPException(422, upload.unreadable[0] if upload.unreadable else blank[0] if blank
                                else "photo: no sheet found")
        kept = [(record(sheet.review), sheet.picture, figures(sheet.review)) for sheet in played]
        ids = await run_in_threadpool(server.store.add, game, player, kept, digest)
        answer: dict[str, Any] = {"sheets": [sheet_json(sheet_id, sheet.review)
                                             for sheet_id, sheet in zip(ids, played)]}
        if upload.unreadable:
            answer["unreadable"] = upload.unreadable
        if blank:
            answer["blank"] = blank
        return JSONResponse(answer)

    async def sheet(request: Request) -> Response:
        stored = await _sheet(server, request.path_params["id"])
        return JSONResponse(view(stored, review_of(stored, server.reader.layouts)))

    async def picture(request: Request) -> Response:
        sheet_id = request.path_params["id"]
        data = await run_in_threadpool(server.store.picture, sheet_id) if SHEET_ID.fullmatch(sheet_id) else None
        if data is None:
            raise HTTPException(404, "no such sheet")
        return Response(data, media_type="image/jpeg", headers={"cache-control": "private, max-age=86400"})

    async def fields(request: Request) -> Response:
        spec = await _json(request)
        async with server.corrections:
            stored = await _sheet(server, request.path_params["id"])
            review = corrected(review_of(stored, server.reader.layouts), spec)
            await run_in_threadpool(server.store.update, stored.id, record(review), figures(review))
            was_confirmed = stored.confirmed
            stored = await _sheet(server, stored.id)
        return JSONResponse({**view(stored, review), "reopened": was_confirmed})

    async def confirm(request: Request) -> Response:
        """A person has checked the sheet: its doubtful fields are accepted as shown, and it counts as confirmed
        until it is corrected again."""
        async with server.corrections:
            stored = await _sheet(server, request.path_params["id"])
            review = accepted(review_of(stored, server.reader.layouts))
            await run_in_threadpool(server.store.update, stored.id, record(review), figures(review), True)
        return JSONResponse({"id": stored.id, "confirmed": True})

    async def move(request: Request) -> Response:
        """The sheet given to another player of its game (`{"player": "Max"}`): a 2-up page's other sheet, or one
        sent under the wrong name; the sheet as the page draws it."""
        spec = await _json(request)
        if set(spec) != {"player"}:
            raise HTTPException(400, 'send {"player": "the name"}, naming who the sheet belongs to')
        player = checked(spec["player"], "player")
        async with server.corrections:
            stored = await _sheet(server, request.path_params["id"])
            if not await run_in_threadpool(server.store.move, stored.id, player):
                raise HTTPException(404, "no such sheet")
            stored = await _sheet(server, stored.id)
        return JSONResponse(view(stored, review_of(stored, server.reader.layouts)))

    async def remove(request: Request) -> Response:
        sheet_id = request.path_params["id"]
        if not SHEET_ID.fullmatch(sheet_id) or not await run_in_threadpool(server.store.remove, sheet_id):
            raise HTTPException(404, "no such sheet")
        return JSONResponse({"id": sheet_id, "removed": True})

    async def games(request: Request) -> Response:
        found = await run_in_threadpool(server.store.games)
        return JSONResponse({"games": [{"game": name, "sheets": count} for name, count in found]})

    async def players(request: Request) -> Response:
        """The players of a game so far (none for a game not started yet: the page asks while a name is typed),
        the game spelt as it was first (as the standings spell it)."""
        game = checked(request.path_params["game"], "game")
        known = await run_in_threadpool(server.store.game, game)
        return JSONResponse({"game": known or game, "players": await run_in_threadpool(server.store.players, game)})

    async def standings(request: Request) -> Response:
        game = await _game(server, request.path_params["game"])
        return JSONResponse({"game": game, "players": [as_json(s) for s in await _standings(server, game)]})

    async def standings_file(request: Request) -> Response:
        game = await _game(server, request.path_params["game"])
        text = standings_csv(await _standings(server, game))
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="standings.csv"'})

    async def build(request: Request) -> Response:
        layout, given = making.read_request(*await _build_request(request))
        with server.builds.slot():
            made = await server.builds.run(making.make, layout, given)
        return Response(made.data, media_type=made.media_type,
                        headers={"content-disposition": f'attachment; filename="{made.name}"'})

    async def preview(request: Request) -> Response:
        layout, given = making.read_request(*await _build_request(request))
        with server.builds.slot():
            png = await server.builds.run(making.preview, layout, given)
        return Response(png, media_type="image/png")

    routes = [
        Route("/", index),
        Route("/games/{game}", standings_page),
        Route("/build", build_page),
        Route("/static/{name}", static),
        Route("/api/score", score, methods=["POST"]),
        Route("/api/sheets/{id}", sheet),
        Route("/api/sheets/{id}/picture", picture),
        Route("/api/sheets/{id}/fields", fields, methods=["POST"]),
        Route("/api/sheets/{id}/confirm", confirm, methods=["POST"]),
        Route("/api/sheets/{id}/player", move, methods=["POST"]),
        Route("/api/sheets/{id}/remove", remove, methods=["POST"]),
        Route("/api/games", games),
        Route("/api/games/{game}/players", players),
        Route("/api/games/{game}/standings", standings),
        Route("/api/games/{game}/standings.csv", standings_file),
        Route("/api/build", build, methods=["POST"]),
        Route("/api/preview", preview, methods=["POST"]),
    ]
    handlers: dict[Any, Any] = {
        HTTPException: _http_error,
        UsageProblem: lambda request, error: _error(400, str(error).splitlines()[0]),
        FieldError: lambda request, error: _error(400, str(error)),
        BadName: lambda request, error: _error(400, str(error)),
        Duplicate: lambda request, error: _error(409, str(error)),
        TooLarge: lambda request, error: _error(413, f"too large: at most {MAX_UPLOAD // 2**20} MB"),
        TooSlow: lambda request, error: _error(408, str(error)),
        Busy: lambda request, error: _error(503, f"busy: too many {error} at once; try again in a moment"),
        ClientDisconnect: _gone,
        Exception: lambda request, error: _error(500, f"internal error ({type(error).__name__})"),
    }
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        server.close()

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.server = server
    return Guard(app, token, MAX_UPLOAD)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _http_error(request: Request, error: HTTPException) -> Response:
    """Our own refusals as they are; Starlette's routing refusals (404, 405) in our words; to a browser asking
    for a page (an address typed or followed by hand), a page saying so."""
    if error.status_code == 404 and "text/html" in request.headers.get("accept", "") \
            and not request.url.path.startswith(("/api/", "/static/")):
        message = "no such page or address" if error.detail == "Not Found" else str(error.detail)
        pages = request.app.state.server.pages
        return HTMLResponse(pages.get_template("error.html.j2").render(
            heading="Not found", message=f"{message[:1].upper()}{message[1:]}: the address may be mistyped, or "
                                         "what it named was removed.", page=""), status_code=404)
    if error.status_code == 405:
        allowed = ", ".join(sorted((error.headers or {}).get("Allow", "GET").split(", ")))  # (Starlette's order
        # is a set's: it changed from run to run)
        answer = _error(405, f"{request.method} is not taken here: this address takes {allowed}")
        answer.headers["Allow"] = allowed
        return answer
    if error.status_code == 404 and error.detail == "Not Found":
        return _error(404, "no such page or address")
    return _error(error.status_code, str(error.detail))


def _form_problem(detail: str) -> str:
    """What is wrong with an upload's form, in our words (python-multipart's own are for programmers)."""
    if detail.startswith("Too many files"):
        return "photo: send one photo at a time"
    if detail.startswith("Too many fields"):
        return "the form holds more than the photo, the game and the player"
    return "the upload is not a whole form (multipart/form-data): choose the photo and send it again"


def _gone(request: Request, error: Exception) -> JSONResponse:
    """A client that went away mid-request (a phone leaving the Wi-Fi, a stop cutting an upload): one quiet line
    in the log (not shown at `printgen serve`'s level), and an answer nobody reads."""
    LOG.info("%s %s: the client went away before the request was whole", request.method, request.url.path)
    return _error(400, "the client went away before the request was whole")


async def _game(server: Server, name: str) -> str:
    """The game an address names, tidied as every name is (BadName 400, or 404 when there is none)."""
    game = await run_in_threadpool(server.store.game, checked(name, "game"))
    if game is None:
        raise HTTPException(404, "no such game")
    return game


async def _sheet(server: Server, sheet_id: str) -> Any:
    stored = await run_in_threadpool(server.store.sheet, sheet_id) if SHEET_ID.fullmatch(sheet_id) else None
    if stored is None:
        raise HTTPException(404, "no such sheet")
    return stored


async def _standings(server: Server, game: str) -> list[Standing]:
    """Every player's rounds and total in `game`, best first (as `printgen score --csv` ranks them); a round's
    `file` is when it was uploaded (`uploaded 20:14`), which players can tell apart, not its id."""
    sheets = await run_in_threadpool(server.store.sheets, game)
    return ranked([(s.player, Round(f"uploaded {time.strftime('%H:%M', time.localtime(s.created))}", s.figures.total,
                                    s.figures.legal, s.figures.uncertain, s.figures.problems, sheet=s.id,
                                    checked=s.confirmed)) for s in sheets])


class _Twice(Exception):
    """A JSON object names a key twice (which value was meant?)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; _Twice when a key comes twice (json.loads would keep the last)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Twice(key)
        seen.add(key)
    return dict(pairs)


async def _json(request: Request) -> Any:
    """The JSON object a request carries (HTTPException 415 or 400 for anything else)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "send application/json")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_JSON:
            raise HTTPException(413, f"too large: at most {MAX_JSON // 2**10} KB of JSON")
    try:
        value = json.loads(body, object_pairs_hook=_once)
    except _Twice as twice:
        raise HTTPException(400, f"{twice.key}: given twice; send one") from None
    except (ValueError, RecursionError):
        raise HTTPException(400, "the body is not JSON") from None
    if not isinstance(value, dict):
        raise HTTPException(400, "send a JSON object")
    return value


async def _build_request(request: Request) -> tuple[dict[str, Any], bool]:
    """A build request's values (JSON, or a form without JavaScript) and whether they came from a form."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind == "application/x-www-form-urlencoded":
        try:
            async with request.form(max_files=0, max_fields=64) as form:  # a switch sends "off", then "on" if ticked
                for key in form:
                    if len(values := form.getlist(key)) > 1 and not (len(values) == 2 and values[0] == "off"):
                        named = key[:40].replace("_", " ")  # (as the build page names it)
                        raise HTTPException(400, f"{named}: given {len(values)} times; send one")
                return {key: values[-1] for key in form if isinstance((values := form.getlist(key))[-1], str)}, True
        except HTTPException as error:  # python-multipart's own words are for programmers
            if str(error.detail).startswith("Too many fields"):
                raise HTTPException(400, "the form holds more fields than the build page has") from None
            if str(error.detail).startswith("Field exceeded"):
                raise HTTPException(400, "a field of the form is longer than any option's value") from None
            raise
    return await _json(request), False
