"""What crowds what on a page: texts, discs, stars and pills nearer than CLEAR_MM, unless one lies on the other."""

from __future__ import annotations

from printgen.measure import clashes
from printgen.page import Circle, Page, Paint, Rect, Text

WHITE = Paint(fill="#ffffff")


def page(*elements: object) -> Page:
    return Page(100, 100, tuple(elements))  # type: ignore[arg-type]


def test_a_number_on_its_disc_and_a_word_in_its_pill_do_not_crowd_them() -> None:
    assert clashes(page(Rect(0, 0, 100, 100, Paint(fill="#202020")),  # a ground: never a clash
                        Circle(50, 40, 20, WHITE), Text(50, 47, "8", 20, "#000000", "bold", "middle"),
                        Rect(30, 70, 40, 8, WHITE, radius=4), Text(50, 76, "ANY", 4, "#000000", "bold", "middle"))) == []


def test_a_word_across_a_discs_edge_or_beside_another_word_crowds_it() -> None:
    assert clashes(page(Circle(50, 40, 20, WHITE), Text(50, 62, "JOKER", 4, "#ffffff", "bold", "middle"))) == [
        ("a disc", "'JOKER'")]
    assert clashes(page(Text(10, 20, "ONE", 4, "#000000", "bold", "start"),
                        Text(10, 20.3 + 0.75 * 4, "TWO", 4, "#000000", "bold", "start"))) == [("'ONE'", "'TWO'")]
    assert clashes(page(Text(10, 20, "ONE", 4, "#000000", "bold", "start"),
                        Text(10, 21 + 0.75 * 4, "TWO", 4, "#000000", "bold", "start"))) == []  # 1 mm apart


def test_two_discs_crowd_each_other_unless_one_rings_the_other() -> None:
    assert clashes(page(Circle(20, 20, 10, WHITE), Circle(40.3, 20, 10, WHITE))) == [("a disc", "a disc")]
    assert clashes(page(Circle(20, 20, 10, WHITE), Circle(41, 20, 10, WHITE))) == []
    assert clashes(page(Circle(20, 20, 10, WHITE), Circle(21, 20, 5, WHITE))) == []
