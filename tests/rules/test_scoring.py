from printgen.rules import scoring


def test_points_are_triangular_numbers() -> None:
    assert scoring.points_table(15) == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120]


def test_no_crosses_no_points() -> None:
    assert scoring.points(0) == 0
