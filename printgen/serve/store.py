"""Keeping a game night: games, players and reviewed sheets in, the same back after any restart out (SQLite, WAL).

One file, `printgen.db`, in the data folder (made 0700; the file and its
WAL files 0600: photos and names are for the user running the server). Each sheet keeps its review
as plain JSON (`printgen.scan.review.record`), the picture of the sheet the
page draws over, and the figures the standings need (total, legality,
uncertain fields, problems), written again with every correction so the
standings never re-read a photo. Every write is one transaction with
`synchronous=FULL`: a sheet that was answered is on disk. Names from
clients are stored as text and looked up as text; nothing here builds a
path from them.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE_NAME = "printgen.db"
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sheets (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    game INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    created REAL NOT NULL,
    record TEXT NOT NULL,
    picture BLOB NOT NULL,
    total INTEGER NOT NULL,
    legal INTEGER NOT NULL,
    uncertain INTEGER NOT NULL,
    problems TEXT NOT NULL,
    confirmed INTEGER NOT NULL DEFAULT 0,
    digest TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sheets_by_game ON sheets(game, seq);
"""
DIGEST = "ALTER TABLE sheets ADD COLUMN digest TEXT NOT NULL DEFAULT ''"
"""The column a database made before uploads were told apart by their bytes is given."""


class Duplicate(Exception):
    """The same photo (its bytes) was read for this game already: its message says whose round it is."""


@dataclass(frozen=True, slots=True)
class Figures:
    """What the standings need of a sheet as it now stands."""

    total: int
    legal: bool
    uncertain: int
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredSheet:
    """A sheet as kept: its id, game, player, review record, whether a person confirmed it, and its figures."""

    id: str
    game: str
    player: str
    record: dict[str, Any]
    confirmed: bool
    figures: Figures
    created: float = 0.0
    """When it was uploaded (seconds since the epoch)."""


class Store:
    """The database of one data folder; safe to share between threads (one connection behind a lock)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))  # SQLite gives its -wal and -shm files
        os.chmod(self.path, 0o600)  # the database's mode: photos and names are for this user only
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        if "digest" not in {row[1] for row in self._db.execute("PRAGMA table_info(sheets)")}:
            self._db.execute(DIGEST)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def game(self, name: str) -> str | None:
        """The game called `name` (any letter case) as it was first spelt, or None."""
        with self._lock:
            row = self._db.execute("SELECT name FROM games WHERE folded = ?", (name.casefold(),)).fetchone()
        return None if row is None else str(row[0])

    def games(self) -> list[tuple[str, int]]:
        """Every game that has a sheet, newest first, with its number of sheets (a game whose every sheet was
        removed is not listed; its name starts it again)."""
        with self._lock:
            rows = self._db.execute("SELECT g.name, COUNT(s.seq) FROM games g JOIN sheets s ON s.game = g.id "
                                    "GROUP BY g.id ORDER BY g.created DESC").fetchall()
        return [(str(name), int(count)) for name, count in rows]

    def players(self, game: str) -> list[str]:
        """The players of `game` in the order they first handed in a sheet, each once whatever its letter case,
        spelt as first handed in (as the standings fold and spell them: `printgen.scan.standings.ranked`)."""
        with self._lock:
            rows = self._db.execute("SELECT s.player FROM sheets s JOIN games g ON s.game = g.id WHERE g.folded = ? "
                                    "ORDER BY s.seq", (game.casefold(),)).fetchall()
        first: dict[str, str] = {}
        for (player,) in rows:
            first.setdefault(str(player).casefold(), str(player))
        return list(first.values())

    def add(self, game: str, player: str, sheets: list[tuple[dict[str, Any], bytes, Figures]],
            digest: str = "") -> list[str]:
        """Keep the sheets read from one upload (record, picture, figures) under `game` (made if new) and
        `player`, all or none; their new ids, in order. Duplicate when an upload of the same `digest` (its
        bytes' hash) is kept in `game` already."""
        ids = [secrets.token_hex(8) for _ in sheets]
        now = time.time()
        with self._transaction() as db:
            if digest:
                self._refuse_duplicate(db, game, digest)
            db.execute("INSERT OR IGNORE INTO games (name, folded, created) VALUES (?, ?, ?)",
                       (game, game.casefold(), now))
            (game_id,) = db.execute("SELECT id FROM games WHERE folded = ?", (game.casefold(),)).fetchone()
            player = _spelt(db, game_id, player)
            for sheet_id, (record, picture, figures) in zip(ids, sheets):
                db.execute("INSERT INTO sheets (id, game, player, created, record, picture, total, legal, uncertain, "
                           "problems, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (sheet_id, game_id, player, now, json.dumps(record), picture, *_columns(figures), digest))
        return ids

    def check_new(self, game: str, digest: str) -> None:
        """Duplicate when an upload of `digest` is kept in `game` already (asked before a photo is read)."""
        with self._lock:
            self._refuse_duplicate(self._db, game, digest)

    @staticmethod
    def _refuse_duplicate(db: sqlite3.Connection, game: str, digest: str) -> None:
        rows = db.execute("SELECT s.player, s.digest, g.name FROM sheets s JOIN games g ON s.game = g.id WHERE g.folded = ? "
                          "ORDER BY s.seq", (game.casefold(),)).fetchall()
        rounds: dict[str, int] = {}
        for player, kept, name in rows:
            rounds[str(player).casefold()] = rounds.get(str(player).casefold(), 0) + 1
            if kept == digest:
                raise Duplicate(f"this photo was read already: {player}'s round {rounds[str(player).casefold()]} "
                                f"in {name}; remove that round first to read it again")

    def sheet(self, sheet_id: str) -> StoredSheet | None:
        """The sheet kept under `sheet_id`, or None."""
        with self._lock:
            row = self._db.execute(f"{SELECT} WHERE s.id = ?", (sheet_id,)).fetchone()
        return None if row is None else _stored(row)

    def picture(self, sheet_id: str) -> bytes | None:
        """The picture the page draws sheet `sheet_id` over (JPEG), or None."""
        with self._lock:
            row = self._db.execute("SELECT picture FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        return None if row is None else bytes(row[0])

    def update(self, sheet_id: str, record: dict[str, Any], figures: Figures, confirmed: bool = False) -> None:
        """Keep a reviewed sheet `sheet_id` as it now stands: corrected (which re-opens a confirmed sheet until
        it is confirmed again), or `confirmed` by a person (its doubtful fields accepted as shown)."""
        with self._transaction() as db:
            db.execute("UPDATE sheets SET record = ?, total = ?, legal = ?, uncertain = ?, problems = ?, "
                       "confirmed = ? WHERE id = ?",
                       (json.dumps(record), *_columns(figures), int(confirmed), sheet_id))

    def move(self, sheet_id: str, player: str) -> bool:
        """Give sheet `sheet_id` to `player` of its game (spelt as that player first handed in a sheet): a 2-up
        page's other sheet, or a sheet sent under the wrong name. False when there is no such sheet."""
        with self._transaction() as db:
            row = db.execute("SELECT game FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
            if row is None:
                return False
            db.execute("UPDATE sheets SET player = ? WHERE id = ?", (_spelt(db, row[0], player, sheet_id), sheet_id))
            return True

    def remove(self, sheet_id: str) -> bool:
        """Forget sheet `sheet_id` (a photo uploaded twice, or under the wrong player); False when there is none."""
        with self._transaction() as db:
            return bool(db.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,)).rowcount)

    def sheets(self, game: str) -> list[StoredSheet]:
        """Every sheet of `game`, in the order they came in."""
        with self._lock:
            rows = self._db.execute(f"{SELECT} WHERE g.folded = ? ORDER BY s.seq", (game.casefold(),)).fetchall()
        return [_stored(row) for row in rows]


def _spelt(db: sqlite3.Connection, game_id: int, player: str, besides: str = "") -> str:
    """`player` as the first sheet of game `game_id` by that player (any letter case) spells the name, other than
    sheet `besides`; as given for a new player."""
    for (known,) in db.execute("SELECT player FROM sheets WHERE game = ? AND id != ? ORDER BY seq",
                               (game_id, besides)):
        if str(known).casefold() == player.casefold():
            return str(known)
    return player


SELECT = ("SELECT s.id, g.name, s.player, s.record, s.confirmed, s.total, s.legal, s.uncertain, s.problems, s.created "
          "FROM sheets s JOIN games g ON s.game = g.id")


def _columns(figures: Figures) -> tuple[int, int, int, str]:
    return figures.total, int(figures.legal), figures.uncertain, json.dumps(list(figures.problems))


def _stored(row: tuple[Any, ...]) -> StoredSheet:
    sheet_id, game, player, record, confirmed, total, legal, uncertain, problems, created = row
    return StoredSheet(str(sheet_id), str(game), str(player), json.loads(record), bool(confirmed),
                       Figures(int(total), bool(legal), int(uncertain), tuple(json.loads(problems))), float(created))
