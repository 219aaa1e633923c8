"""Where a photo cannot be trusted: a finger, a pen, a hidden print or a shadow's edge gives doubt; ink does not."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.scan.conftest import NEEDS_SCAN

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.scan.doubt import COVERED, LINE, NONE, REASONS, SHADOW, VEILED, doubts
from printgen.scan.ink import UNCLEAR, State, read_field
from printgen.scan.template import Field
from printgen.scan.thresholds import LINE_HALF, SHADOW_SURE, VEILED_HALFWAY

PX = 6.0
SIZE = (60, 120)  # mm: rows, columns


def mm(value: float) -> int:
    return round(value * PX)


class Photo:
    """A blank sheet's expected luma (a dark band with white cells 9 mm wide, 1.5 mm apart) and a photo of it."""

    def __init__(self) -> None:
        self.expected = np.ones((mm(SIZE[0]), mm(SIZE[1])), np.float32)
        self.expected[mm(20):mm(32), :] = 0.35  # the band
        self.cells = [(2.0 + 10.5 * i, 21.5, 9.0, 9.0) for i in range(11)]
        for x, y, w, h in self.cells:
            self.expected[mm(y):mm(y + h), mm(x):mm(x + w)] = 1.0
        self.seen = self.expected.copy()
        self.gain = np.ones_like(self.expected)
        self.hue_off = np.zeros_like(self.expected)

    def ink(self, x: float, y: float, w: float, h: float, luma: float = 0.25) -> None:
        """A dark patch (a blob or, when wide, something lying on the sheet) at mm (x, y, w, h)."""
        self.seen[mm(y):mm(y + h), mm(x):mm(x + w)] = luma

    def stroke(self, start: tuple[float, float], end: tuple[float, float], width: float = 0.5,
               luma: float = 0.2) -> None:
        cv2.line(self.seen, (mm(start[0]), mm(start[1])), (mm(end[0]), mm(end[1])), luma, max(1, mm(width)))

    def shadow(self, x: float) -> None:
        """A phone's shadow from `x` mm rightwards, its edge soft over 1.5 mm."""
        columns = np.arange(self.gain.shape[1]) / PX
        self.gain[:] = np.interp(columns, [x - 0.75, x + 0.75], [1.0, 0.4]).astype(np.float32)

    def doubts(self) -> np.ndarray:
        darker = self.expected - self.seen
        return doubts(self.seen, self.expected, self.gain, darker, 0.02, self.hue_off, None, PX)


def test_crosses_and_blobs_in_their_fields_are_no_doubt() -> None:
    photo = Photo()
    for x, y, w, h in photo.cells[:4]:
        photo.stroke((x + 1, y + 1), (x + w - 1, y + h - 1))
        photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1))
    for x, y, w, h in photo.cells[5:8]:  # three filled fields side by side, 1.5 mm of band between them
        photo.ink(x + 0.5, y + 0.5, w - 1, h - 1)
    assert (photo.doubts() == NONE).all()


def test_a_finger_over_the_band_and_its_fields_is_covered() -> None:
    photo = Photo()
    photo.ink(30, 10, 40, 16, luma=0.6)  # a finger from above: over white paper, the band and three fields
    found = photo.doubts()
    assert (found[mm(22):mm(28), mm(32):mm(68)] == COVERED).all()
    assert (found[mm(40):, :] == NONE).all() and (found[:, mm(90):] == NONE).all()


def test_a_finger_seen_in_pieces_is_one_cover() -> None:
    photo = Photo()
    for left in (30.0, 38.0, 46.0):  # skin looks like the pale fields, off-colour only in places, lighter than the band
        rows, columns = slice(mm(21), mm(31)), slice(mm(left), mm(left + 5))
        photo.hue_off[rows, columns] = 1.0
        photo.seen[rows, columns] = np.where(photo.expected[rows, columns] < 0.5, 0.6, photo.seen[rows, columns])
    found = photo.doubts()
    assert (found[mm(23):mm(29), mm(31):mm(50)] == COVERED).all()  # the gaps between the pieces too
    assert (found[:, mm(62):] == NONE).all()


def test_print_paled_by_glare_is_doubtful_but_keeps_its_ink() -> None:
    photo = Photo()
    photo.seen[mm(18):mm(34), mm(60):mm(90)] = 1.0  # the band washed out to white over 30 mm
    x, y, w, h = photo.cells[6]
    photo.stroke((x + 1, y + 1), (x + w - 1, y + h - 1), luma=0.85)  # a cross, paled too
    photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1), luma=0.85)
    found = photo.doubts()
    assert (found[mm(24):mm(28), mm(65):mm(85)] == VEILED).all()
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    crossed = read_field(darkening, field(photo.cells[6]), PX, found)
    assert crossed.state is State.UNCERTAIN and crossed.reason == REASONS[VEILED] and crossed.crossed
    empty = read_field(darkening, field(photo.cells[7]), PX, found)
    assert empty.state is State.UNCERTAIN and not empty.crossed


def test_a_stroke_paled_by_glare_is_guessed_from_a_lower_halfway() -> None:
    """Glare's light adds to a stroke's as to the paper's, so a stroke under it shows at a fraction of its
    darkening: its guess takes VEILED_HALFWAY for halfway, where the same ink elsewhere would read empty."""
    photo = Photo()
    photo.seen[mm(18):mm(34), mm(60):mm(90)] = 1.0
    x, y, w, h = photo.cells[6]
    photo.stroke((x + 1, y + 1), (x + w - 1, y + h - 1), luma=0.985)  # nearly washed out
    photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1), luma=0.985)
    found = photo.doubts()
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    crossed = read_field(darkening, field(photo.cells[6]), PX, found)
    assert crossed.reason == REASONS[VEILED] and VEILED_HALFWAY <= crossed.evidence < 1
    assert crossed.crossed
    assert not replace(crossed, reason=UNCLEAR).crossed
    assert not read_field(darkening, field(photo.cells[7]), PX, found).crossed


def test_a_shadows_edge_is_doubtful_only_along_it() -> None:
    photo = Photo()
    photo.shadow(50)
    found = photo.doubts()
    assert (found[:, mm(49.5):mm(50.5)] == SHADOW).all()
    assert (found[:, :mm(48)] == NONE).all() and (found[:, mm(52):] == NONE).all()


def field(box: tuple[float, float, float, float]) -> Field:
    return Field("number", 0, 2, box)


def test_a_covered_field_is_uncertain_and_says_why() -> None:
    from printgen.scan.ink import LEVEL_STROKE

    photo = Photo()
    photo.ink(0, 10, 40, 16, luma=0.6)
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    reading = read_field(darkening, field(photo.cells[1]), PX, photo.doubts())
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[COVERED]
    alone = read_field(darkening, field(photo.cells[1]), PX)  # without the doubt: a level bar in from the side,
    assert alone.state is State.UNCERTAIN and alone.reason == LEVEL_STROKE  # no cross either


def test_a_filled_field_under_a_shadows_edge_is_still_crossed_a_faint_one_is_not() -> None:
    photo = Photo()
    x, y, w, h = photo.cells[4]
    photo.shadow(x + w / 2)
    photo.ink(x + 0.5, y + 0.5, w - 1, h - 1)
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    filled = read_field(darkening, field(photo.cells[4]), PX, photo.doubts())
    assert filled.state is State.CROSSED and filled.evidence >= SHADOW_SURE
    faint = Photo()
    faint.shadow(x + w / 2)
    faint.stroke((x + 2, y + h - 2), (x + w - 2, y + 2), luma=0.85)  # what a shadow's edge could make
    darkening = np.clip(faint.expected - faint.seen, 0, 1)
    reading = read_field(darkening, field(faint.cells[4]), PX, faint.doubts())
    assert reading.evidence < SHADOW_SURE
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[SHADOW]


def test_beside_a_shadows_edge_only_ink_away_from_it_makes_the_best_guess() -> None:
    x, y, w, h = Photo().cells[4]
    edge = Photo()
    edge.shadow(x + w / 2)
    edge.ink(x + w / 2 - 0.2, y, 1.0, h, luma=0.85)  # what the light's smoothed edge leaves beside it
    darkening = np.clip(edge.expected - edge.seen, 0, 1)
    assert read_field(darkening, field(edge.cells[4]), PX).crossed  # what it was without doubt
    reading = read_field(darkening, field(edge.cells[4]), PX, edge.doubts())
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[SHADOW] and not reading.crossed
    cross = Photo()
    cross.shadow(x + w / 2)
    cross.stroke((x + 1.5, y + 1.5), (x + w - 1.5, y + h - 1.5))
    cross.stroke((x + w - 1.5, y + 1.5), (x + 1.5, y + h - 1.5))
    darkening = np.clip(cross.expected - cross.seen, 0, 1)
    reading = read_field(darkening, field(cross.cells[4]), PX, cross.doubts())
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[SHADOW] and reading.crossed


def test_a_fingertips_shadow_the_light_leaves_over_a_field_is_no_cross() -> None:
    """The light is smooth over LIGHT_REACH, so a finger's shadow ends short of its tip, and the tip (here 4 mm
    wide, 4 mm into a field) is left over as darkening: it makes the field doubtful, its best guess empty."""
    photo = Photo()
    x, y, w, _ = photo.cells[4]
    finger = np.zeros_like(photo.gain)
    finger[: mm(y - 2), mm(x):mm(x + w)] = 1.0
    photo.gain = 1.0 - 0.6 * cv2.GaussianBlur(finger, (0, 0), 0.5 * PX)  # the light as measured: no tip
    tip = np.zeros_like(photo.gain)
    cv2.fillConvexPoly(tip, np.array([(mm(x + 2), mm(y - 2)), (mm(x + w - 2), mm(y - 2)), (mm(x + w / 2), mm(y + 4))]),
                       1.0)
    photo.seen *= 1.0 - 0.5 * tip
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[4]), PX).state is State.CROSSED  # what it was without doubt
    reading = read_field(darkening, field(photo.cells[4]), PX, photo.doubts())
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[SHADOW] and not reading.crossed
    beside = read_field(darkening, field(photo.cells[6]), PX, photo.doubts())
    assert beside.state is State.EMPTY


def test_a_faint_shadow_left_inside_a_fingers_soft_end_is_no_cross() -> None:
    """What the light leaves of a soft-edged finger's shadow can be faint (paler than a wide stroke) and lie a
    little way inside the shadow's soft end, not by it: it still makes the field doubtful, its best guess
    empty."""
    photo = Photo()
    x, y, w, _ = photo.cells[4]
    finger = np.zeros_like(photo.gain)
    finger[: mm(y - 3), mm(x - 1):mm(x + w + 1)] = 1.0
    photo.gain = 1.0 - 0.6 * cv2.GaussianBlur(finger, (0, 0), 0.5 * PX)  # the light as measured: no tip
    photo.seen[mm(y):mm(y + 4), mm(x + 1):mm(x + w - 1)] *= 0.9  # the rest of the shadow, 3 mm beyond its end
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[4]), PX).state is State.CROSSED  # what it was without doubt
    reading = read_field(darkening, field(photo.cells[4]), PX, photo.doubts())
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[SHADOW] and not reading.crossed


def test_a_shadows_edge_across_a_fields_corner_leaves_no_cross_beside_it() -> None:
    """An edge over too little of a field to make it doubtful by itself (a corner) still leaves the light's
    smoothed edge beside it as darkening inside the field: ink by the edge that alone would make the field
    crossed makes it doubtful, its best guess from the ink away from the edge."""
    photo = Photo()
    x, y, _, _ = photo.cells[4]
    rows, columns = np.mgrid[0:photo.gain.shape[0], 0:photo.gain.shape[1]] / PX
    across = ((columns - x) + (rows - y) - 4.0) / np.sqrt(2)  # mm from the edge, the shadow's side positive
    photo.gain = np.interp(across, [-0.75, 0.75], [1.0, 0.4]).astype(np.float32)
    inside = (columns >= x) & (columns < x + 9) & (rows >= y) & (rows < y + 9)  # (no stroke from outside)
    photo.seen = np.where((across > 0.3) & (across < 1.1) & inside, photo.seen * 0.4, photo.seen).astype(np.float32)
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[4]), PX).state is State.CROSSED  # what it was without doubt
    reading = read_field(darkening, field(photo.cells[4]), PX, photo.doubts())
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[SHADOW] and not reading.crossed


def test_a_felt_pen_line_ending_by_a_shadows_edge_is_no_shadow_far_from_it() -> None:
    """A wide stroke that reaches a shadow's edge may be taken for the shadow's tip near the edge, never along
    the whole row: the fields far from the edge are judged by their ink (a level line: uncertain, no cross),
    not doubted for the light."""
    from printgen.scan.ink import LEVEL_STROKE

    photo = Photo()
    photo.shadow(100.0)
    photo.stroke((4.0, 26.0), (99.0, 26.0), width=1.6)  # a felt pen's line closing the row up to the shadow
    found = photo.doubts()
    assert not (found[:, : mm(100 - 13.0)] == SHADOW).any()  # twice LIGHT_REACH from the light's slope, grown 1 mm
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    readings = [read_field(darkening, field(cell), PX, found) for cell in photo.cells[:7]]
    assert all(r.state is State.UNCERTAIN and r.reason == LEVEL_STROKE and not r.crossed for r in readings)


def test_a_cross_over_which_a_shadows_edge_runs_by_a_corner_stays_crossed() -> None:
    photo = Photo()
    x, y, w, h = photo.cells[4]
    rows, columns = np.mgrid[0:photo.gain.shape[0], 0:photo.gain.shape[1]] / PX
    photo.gain = np.interp(((columns - x) + (rows - y) - 4.0) / np.sqrt(2), [-0.75, 0.75], [1.0, 0.4]).astype(
        np.float32)
    photo.stroke((x + 1.5, y + 1.5), (x + w - 1.5, y + h - 1.5), luma=0.6)
    photo.stroke((x + w - 1.5, y + 1.5), (x + 1.5, y + h - 1.5), luma=0.6)
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[4]), PX, photo.doubts()).state is State.CROSSED


def test_in_a_photo_too_grainy_to_tell_no_field_is_surely_empty() -> None:
    from printgen.scan.ink import GRAINY, Measured, read_fields
    from printgen.scan.thresholds import NOISE

    photo = Photo()
    x, y, w, h = photo.cells[0]
    photo.ink(x + 0.5, y + 0.5, w - 1, h - 1)  # a filled field: crossed whatever the grain
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    cells = [field(cell) for cell in photo.cells[:3]]
    for noise, states in ((0.035, [State.CROSSED, State.EMPTY, State.EMPTY]),
                          (NOISE, [State.CROSSED, State.UNCERTAIN, State.UNCERTAIN])):
        measured = Measured(photo.seen, photo.expected, photo.gain, darkening, darkening, noise, photo.doubts())
        readings = read_fields(measured, cells, PX)
        assert [r.state for r in readings] == states
        assert all(r.reason == GRAINY for r in readings[1:]) == (noise == NOISE)


def test_clear_crosses_do_not_make_a_grainy_photos_empty_fields_sure() -> None:
    """Three dark crosses, and in the next field a faint pencil stroke that the grain brings down to the
    evidence of an empty field: a grainy photo's empty fields stay uncertain however plainly its other crosses
    stand out (a rule that let them off where the faintest cross had four times the inkiest empty field's
    evidence read such strokes surely empty, with nothing flagged, in an adversary's grainy photos)."""
    from printgen.scan.ink import GRAINY, Measured, read_fields
    from printgen.scan.thresholds import NOISE, SURE_EMPTY

    photo = Photo()
    for x, y, w, h in photo.cells[:3]:
        photo.stroke((x + 1.5, y + 1.5), (x + w - 1.5, y + h - 1.5), width=0.6)
        photo.stroke((x + w - 1.5, y + 1.5), (x + 1.5, y + h - 1.5), width=0.6)
    x, y, w, h = photo.cells[3]
    photo.stroke((x + 2.5, y + 2.5), (x + w - 2.5, y + h - 2.5), width=0.2, luma=0.93)
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    measured = Measured(photo.seen, photo.expected, photo.gain, darkening, darkening, NOISE, photo.doubts())
    readings = read_fields(measured, [field(cell) for cell in photo.cells], PX)
    assert [r.state for r in readings[:3]] == [State.CROSSED] * 3
    assert 0.0 < readings[3].evidence <= SURE_EMPTY  # the stroke, as faint as an empty field
    assert all(r.state is State.UNCERTAIN and r.reason == GRAINY for r in readings[3:])


@pytest.mark.parametrize("tip, unseen", [((3.5, 7.5), True), ((4.0, 6.5), False), ((4.0, 6.5), True)])
def test_a_cross_overrunning_into_its_neighbour_is_never_the_neighbours_silently(
        tip: tuple[float, float], unseen: bool) -> None:
    photo = Photo()
    (x, y, w, h), (nx, ny, nw, nh) = photo.cells[2], photo.cells[3]
    photo.stroke((x + 1, y + 0.5), (nx + tip[0], ny + tip[1]), width=0.6)  # runs on deep into the next field
    photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1), width=0.6)
    if unseen:  # ink the colour of the band between them does not show there
        photo.seen[:, mm(nx - 1.5):mm(nx)] = photo.expected[:, mm(nx - 1.5):mm(nx)]
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[2]), PX, photo.doubts()).state is State.CROSSED
    neighbour = read_field(darkening, field(photo.cells[3]), PX, photo.doubts())
    assert neighbour.state is State.EMPTY  # the stroke, followed across the band, is centred on its own field
    alone = Photo()  # the same strokes inside the next field alone are its own cross
    alone.stroke((nx + 1, ny + 0.5), (nx + tip[0], ny + tip[1]), width=0.6)
    alone.stroke((nx + nw - 1, ny + 1), (nx + 1, ny + nh - 1), width=0.6)
    darkening = np.clip(alone.expected - alone.seen, 0, 1)
    assert read_field(darkening, field(alone.cells[3]), PX, alone.doubts()).state is State.CROSSED


def test_a_hooked_stroke_running_into_the_neighbour_leaves_it_uncertain() -> None:
    from printgen.scan.ink import OVERRUN

    photo = Photo()
    (x, y, w, h), (nx, ny, _, _) = photo.cells[2], photo.cells[3]
    photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1), width=0.6)
    photo.stroke((x + 1, y + 0.5), (nx + 2.5, ny + 6.0), width=0.6)  # runs on into the next field...
    photo.stroke((nx + 2.5, ny + 6.0), (nx + 0.8, ny + 8.0), width=0.6)  # ...and turns back: no straight line
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[2]), PX, photo.doubts()).state is State.CROSSED
    neighbour = read_field(darkening, field(photo.cells[3]), PX, photo.doubts())
    assert neighbour.state is State.UNCERTAIN and neighbour.reason == OVERRUN
    assert neighbour.evidence >= 1  # without the rule it would have been read as a cross


def _under_glare(share: float, stroke: float) -> list[object]:
    """The readings of the photo's fields where glare over cells 5 to 9 leaves `share` of the print's contrast
    (and of everything's darkening), a cross of luma `stroke` in cell 6 (paled as the print) and cell 7 empty."""
    from printgen.scan.ink import Measured, read_fields

    photo = Photo()
    x, y, w, h = photo.cells[6]
    photo.stroke((x + 1, y + 1), (x + w - 1, y + h - 1), luma=stroke)
    photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1), luma=stroke)
    glare = np.s_[mm(12):mm(40), mm(52):mm(102)]
    photo.seen[glare] = 1.0 - share * (1.0 - photo.seen[glare])
    found = photo.doubts()
    residual = photo.expected - photo.seen
    measured = Measured(photo.seen, photo.expected, photo.gain, np.clip(residual - 0.02, 0, 1).astype(np.float32),
                        residual, 0.02, found)
    return read_fields(measured, [Field("number", 0, 2 + k, box) for k, box in enumerate(photo.cells)], PX)


def test_under_strong_glare_a_stroke_is_guessed_from_the_share_of_the_print_it_leaves() -> None:
    """Glare that leaves a fifth of the print's contrast leaves a fifth of a faint stroke's darkening: the cross's
    evidence lies below VEILED_HALFWAY but above that share's halfway (VEIL_SHARE times it), so it is guessed
    crossed, the empty field beside it is not, and both stay for a person to check. Where the share could not
    be measured, VEILED_HALFWAY is halfway; where the print is not paled at all, the pen's halfway is."""
    from printgen.scan.thresholds import VEIL_SHARE

    readings = _under_glare(0.2, 0.94)
    crossed, empty = readings[6], readings[7]
    assert crossed.reason == empty.reason == REASONS[VEILED]
    assert crossed.state is State.UNCERTAIN and empty.state is State.UNCERTAIN
    assert crossed.veil == pytest.approx(0.2, abs=0.03) and empty.veil == pytest.approx(0.2, abs=0.03)
    assert crossed.halfway == pytest.approx(VEIL_SHARE * crossed.veil)
    assert crossed.halfway < crossed.evidence < VEILED_HALFWAY
    assert crossed.crossed and not empty.crossed
    assert not replace(crossed, veil=None).crossed  # the fixed halfway would have missed it
    assert replace(crossed, veil=1.0).halfway == crossed.pen == 1.0
    assert all(r.veil is None and r.reason != REASONS[VEILED] for r in readings[:4])  # away from the glare


def test_where_the_print_is_all_but_gone_its_fields_are_hidden_not_paled() -> None:
    """A coin or a phone's shiny back lying on the sheet can look like glare (lighter than the print, nowhere
    darker or more colourful) but leaves almost nothing of the print: what ink its fields show is its own
    texture, not a stroke the glare paled, so they are uncertain as hidden fields are (said so, and guessed
    against the pen's halfway), not guessed against a halfway of almost nothing."""
    hidden = _under_glare(0.03, 0.94)[6]
    assert hidden.state is State.UNCERTAIN and hidden.reason == REASONS[COVERED] and hidden.veil is None
    assert hidden.halfway == hidden.pen == 1.0
    assert _under_glare(0.03, 0.94)[8].reason == REASONS[COVERED]  # an empty one beside it: hidden too
    assert not replace(hidden, cover=0.0, line=0.8 * LINE_HALF).crossed  # 0.8: above what glare's halfway was
    paled = _under_glare(0.2, 0.94)[6]
    assert paled.reason == REASONS[VEILED] and paled.veil is not None


def test_under_mild_glare_the_same_darkening_is_no_cross() -> None:
    """A darkening as faint as that paled cross where glare leaves most of the print's contrast is a speck:
    the halfway is the higher for it, and the field is guessed empty."""
    faint = _under_glare(0.2, 0.94)[6].evidence
    mild = _under_glare(0.6, 1.0 - 0.2 * 0.06 / 0.6)  # the same darkening (0.2 x 0.06) under lighter glare
    assert mild[6].reason == REASONS[VEILED] and mild[6].veil == pytest.approx(0.6, abs=0.05)
    assert mild[6].evidence == pytest.approx(faint, rel=0.15)
    assert not mild[6].crossed


def test_a_long_line_across_the_row_is_doubtful_along_it_and_no_cross() -> None:
    """A cable's or pen's shadow 2 mm wide across the sheet read as crosses where it ran through empty fields (a
    helper's photo: 65 for 59, sure)."""
    photo = Photo()
    x, y, w, h = photo.cells[3]
    photo.stroke((x + 1, y + 1), (x + w - 1, y + h - 1))  # a cross that the line also runs through
    photo.stroke((x + w - 1, y + 1), (x + 1, y + h - 1))
    photo.stroke((5.0, 0.0), (65.0, 60.0), width=2.0, luma=0.3)  # across the band, through cells 2 and 3
    found = photo.doubts()
    assert (found == LINE).sum() > 0 and (found[:, mm(75):] == NONE).all()
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    empty = read_field(darkening, field(photo.cells[2]), PX, found)
    assert empty.state is State.UNCERTAIN and empty.reason == REASONS[LINE] and not empty.crossed
    assert read_field(darkening, field(photo.cells[2]), PX).crossed  # its ink alone says crossed
    assert read_field(darkening, field(photo.cells[3]), PX, found).crossed  # the cross still shows beside it


def test_a_line_along_the_row_striking_out_skipped_numbers_is_no_doubt() -> None:
    photo = Photo()
    photo.stroke((2.0, 26.0), (70.0, 26.5), width=0.5)
    assert (photo.doubts() != LINE).all()


def test_a_level_line_longer_than_a_rows_numbers_is_doubtful_a_shorter_one_is_a_strike() -> None:
    """A line across a whole row (a cable's shadow) made four of its fields sure crosses; a strike through
    skipped numbers is never that long."""
    from printgen.scan.doubt import _long_lines

    for length, doubtful in ((180.0, True), (100.0, False)):
        darker = np.zeros((mm(60), mm(200)), np.float32)
        cv2.line(darker, (mm(5), mm(30)), (mm(5 + length), mm(30) + 1), 0.4, max(1, mm(0.5)))
        for x in range(20, int(length), 25):  # broken where it crosses dark print
            darker[:, mm(5 + x):mm(5 + x + 2)] = 0.0
        assert bool(_long_lines(darker, 0.02, PX).any()) is doubtful


def test_a_cross_under_a_long_line_stays_crossed() -> None:
    photo = Photo()
    x, y, w, h = photo.cells[3]
    photo.stroke((x + 1.5, y + 1.5), (x + w - 1.5, y + h - 1.5))
    photo.stroke((x + w - 1.5, y + 1.5), (x + 1.5, y + h - 1.5))
    photo.stroke((0.0, y + 2.0), (110.0, y + 2.5), width=0.6)  # a cable along the row, off the fields' middles
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    assert read_field(darkening, field(photo.cells[3]), PX, photo.doubts()).state is State.CROSSED


def test_a_short_line_running_in_from_the_sheets_edge_is_doubtful_where_it_ends_in_a_field() -> None:
    """A cable lying over the sheet's top edge ended in a field after less than LINE_LENGTH on the sheet: its
    tip read as a sure cross (a helper's photos: 3 sheets wrong, nothing flagged). Nobody's cross starts at the
    sheet's edge; the same stroke starting inside the sheet is ink."""
    x, y, w, h = Photo().cells[2]
    for start, doubtful in (((x - 6.0, 0.0), True), ((x - 5.0, 3.0), False)):
        photo = Photo()
        photo.stroke(start, (x + w / 2, y + h / 2), width=2.5, luma=0.3)
        found = photo.doubts()
        assert bool((found == LINE).any()) is doubtful
        darkening = np.clip(photo.expected - photo.seen, 0, 1)
        reading = read_field(darkening, field(photo.cells[2]), PX, found)
        if doubtful:
            assert reading.state is State.UNCERTAIN and reading.reason == REASONS[LINE]
        else:
            assert reading.state is State.CROSSED


def test_a_dark_rim_along_the_sheets_edge_is_no_line() -> None:
    """Where the sheet's outline and the alignment differ by a pixel, a dark rim runs along an edge: it reaches
    an edge at its end, but lies along one (30 mm: shorter than any line that is doubtful wherever it lies)."""
    from printgen.scan.doubt import _long_lines

    right, bottom = mm(SIZE[1]) - 1, mm(SIZE[0]) - 1
    for start, end in (((0, 0), (mm(30), 1)), ((0, 0), (1, mm(30))), ((right, bottom), (right - 1, bottom - mm(30))),
                       ((mm(40), bottom), (mm(70), bottom))):
        darker = np.zeros((mm(SIZE[0]), mm(SIZE[1])), np.float32)
        cv2.line(darker, start, end, 0.4, 2)
        assert not _long_lines(darker, 0.02, PX).any()
        cv2.line(darker, (mm(60), 0), (mm(70), mm(20)), 0.4, 2)  # one running in from the top edge is
        assert _long_lines(darker, 0.02, PX).any()


def test_a_cables_tip_beyond_a_gap_where_it_crosses_a_bands_rim_is_the_cables() -> None:
    """A cable's found line stopped where it crossed a band's rim (the print breaks its darkening up for some
    millimetres); its rounded tip beyond, in a field, read as a sure cross."""
    photo = Photo()
    x, y, w, h = photo.cells[5]
    tip = (x + w / 2, y + h / 2)
    photo.stroke((tip[0] + 52.0, tip[1] + 26.0), (tip[0] + 10.0, tip[1] + 5.0), width=3.0, luma=0.3)
    photo.stroke((tip[0] + 2.0, tip[1] + 1.0), tip, width=3.0, luma=0.3)  # beyond a gap of 7 mm
    found = photo.doubts()
    darkening = np.clip(photo.expected - photo.seen, 0, 1)
    reading = read_field(darkening, field(photo.cells[5]), PX, found)
    assert reading.state is State.UNCERTAIN and reading.reason == REASONS[LINE]


def test_a_thin_cable_is_something_lying_on_the_sheet_a_felt_pens_stroke_is_not() -> None:
    """Darkening 2.5 mm wide or more all along, reaching past a field, is no stroke: a helper's cables of 2.4 to 3.5
    mm read as crosses where their rounded ends lay in a field (with the bar at 3 mm, a 2.4 mm one was ink)."""
    from printgen.scan.doubt import _covered

    for width, lying in ((2.4, True), (1.5, False)):
        darker = np.zeros((mm(40), mm(80)), np.float32)
        cv2.line(darker, (mm(10), mm(25)), (mm(60), mm(15)), 1.0, mm(width))
        darker = cv2.GaussianBlur(darker, (0, 0), 0.4 * PX) * 0.3  # (a camera's blur)
        paper = np.ones_like(darker)
        covered, _ = _covered(paper - darker, paper, darker, 0.02, np.zeros_like(darker), None, PX)
        assert bool(covered[mm(20), mm(35)]) is lying, width
