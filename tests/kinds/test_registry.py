"""The registry of layout kinds: every kind by its name, each kind's code loaded only when a kind is asked for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from printgen import kinds
from printgen.kinds import KINDS


def test_every_kind_is_registered_by_the_name_its_module_gives_it() -> None:
    assert list(KINDS) == ["score-sheet", "deck", "board", "tokens"]
    assert all(KINDS[name].name == name for name in KINDS)
    assert "score-sheet" in KINDS and "sheet" not in KINDS and KINDS.get("sheet") is None


def test_the_layout_and_options_classes_are_there_to_import() -> None:
    from printgen.kinds import BoardLayout, DeckOptions, ScoreSheetLayout, TokenLayout

    assert [c.__module__ for c in (ScoreSheetLayout, DeckOptions, BoardLayout, TokenLayout)] == [
        "printgen.kinds.score_sheets", "printgen.kinds.decks", "printgen.kinds.boards", "printgen.kinds.token_sheets"]
    try:
        kinds.NoSuchLayout  # noqa: B018
    except AttributeError as error:
        assert "NoSuchLayout" in str(error)
    else:
        raise AssertionError("an unknown name must be an AttributeError")


def test_a_build_of_score_sheets_loads_no_other_kind(tmp_path: Path) -> None:
    """A build of score sheets (options checked, plan, PDF) loads neither decks, boards nor tokens, nor the rules of
    whole games; saying which kinds take an option (`--help`) loads them all."""
    program = ("import sys\nfrom printgen.cli import main\nsys.argv = ['printgen', *sys.argv[1:]]\n"
               "try:\n    main()\nexcept SystemExit:\n    pass\n"
               "print(sorted(m for m in sys.modules if m.startswith('printgen.')), file=sys.stderr)\n")

    def loaded(*arguments: str) -> set[str]:
        done = subprocess.run([sys.executable, "-c", program, *arguments], capture_output=True, text=True,
                              check=True, cwd=tmp_path)
        return set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))

    built = loaded("build", "qwixx-standard", "-n", "1", "--out", str(tmp_path))
    assert {m for m in built if m.startswith("printgen.kinds.")} == {"printgen.kinds.common",
                                                                     "printgen.kinds.score_sheets"}
    assert not {"printgen.rules.game", "printgen.rules.card_game", "printgen.rules.strategies"} & built
    assert (tmp_path / "qwixx-standard-1sheet.pdf").is_file()
    assert "printgen.kinds.decks" in loaded("build", "--help")
