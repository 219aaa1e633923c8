"""The reader's tuning in one place: nothing in, every threshold, tolerance, window and resolution of reading a photo out.

Each number is a design decision of the reading pipeline, in the order a
photo meets them: finding the markers (`locate`), the sheets of a photo
(`reader`), reading the code (`decode`), recognising a sheet without it
(`identify`), flattening (`rectify`, `align`), measuring the ink (`ink`) and
settling doubtful fields (`settle`). Each has its unit: mm and mm² on the
sheet; px in the image the step works on (its resolution given beside it);
"marker sides" as seen in the photo; luma as 0..1 of the light falling on
the sheet (ink, identify) or 0..255 grey levels of the photo (decode);
shares (0..1) of what the line names; correlations -1..1; cosines of angles.

The values are the ones the tests and `benchmarks/scan.py` were tuned with:
change one and measure. Plain geometry (halves, pixel centres, QR's own
layout) stays where it is used, as do the bounds on opening a photo
(`picture`: bytes and pixels read, checked by tests that change them).
"""

from __future__ import annotations

# --- locate: the corner markers ------------------------------------------------------------------------------

DETECT_SIZE = 1800
"""px: markers are looked for in a copy of the photo at most this long on its longer side..."""
COARSER = (2, 3)
"""...and where those found make up no whole sheets, in copies this many times smaller again (in a blurred,
grainy photo they find markers the full copy misses: on the dev, fresh and held-out photos of the degraded
family, all four of a sheet where the full copy found one)."""
ARUCO_WINDOW_MIN = 5
"""px (at DETECT_SIZE): the smallest window of the ArUco detector's adaptive threshold."""
ARUCO_WINDOW_MAX = 35
"""px (at DETECT_SIZE): the largest window of the ArUco detector's adaptive threshold."""
ARUCO_WINDOW_STEP = 10
"""px: the step between the adaptive-threshold windows tried."""
ARUCO_MIN_PERIMETER = 0.02
"""Share of the picture's longer side: the smallest marker perimeter looked for."""
ARUCO_POLYGON_ACCURACY = 0.05
"""Share of a candidate's perimeter: how far its outline may stray from a quadrilateral."""
ARUCO_MIN_CORNER_DISTANCE = 0.03
"""Share of a candidate's perimeter: the shortest distance between two of its corners."""
ARUCO_MIN_BORDER_DISTANCE = 1
"""px: how close to the picture's edge a marker's corner may lie."""
ARUCO_PX_PER_CELL = 8
"""px per marker cell when a candidate is unwarped to read its bits."""
ARUCO_CELL_MARGIN = 0.2
"""Share of a cell's side left out at its edges when its bit is read."""
ARUCO_CORNER_WINDOW = 3
"""px: the window in which each corner is refined to a fraction of a pixel."""
CLAHE_CLIP = 3.0
"""Contrast limit of the local histogram equalisation tried when a first look finds too few markers."""
CLAHE_TILES = 8
"""That equalisation works in this many tiles across each side of the picture."""
MAX_MARKERS = 256
"""At most this many markers of a photo are grouped (the largest): 64 sheets' worth, far beyond MAX_SHEETS."""
NEIGHBOURS = 3
"""For each corner of a sheet, only this many of the nearest markers in the right direction are tried."""
MAX_TRIES = 6000
"""At most this many candidate groups are tested for one photo, so a picture full of markers ends quickly."""
MARKER_SIDE_RATIO = 5
"""Markers of one sheet differ in apparent side by at most this factor (perspective makes far ones small: a
sheet photographed 40 degrees from above at arm's length shows its near markers four times its far ones)."""
MARKER_SPAN = 3
"""Marker sides: two corner markers of one sheet are at least this far apart, centre to centre."""
FACING = 0.75
"""Cosine: a marker's own "right" (or "down") points along its sheet's edge within about 41 degrees."""
DIAGONAL_FACING = 0.15
"""Cosine: the opposite corner lies ahead of a marker along both its "right" and its "down" by at least this."""
SHEET_MIN = 20
"""mm: markers implying a sheet narrower or lower than this are no sheet."""
SHEET_MAX = 2000
"""mm: markers implying a sheet wider or higher than this are no sheet."""
GROUP_FIT = 0.1
"""Marker sides (RMS): markers are grouped as one sheet only if one flat sheet of the size they themselves
suggest explains all their corners within this (on the benchmark's photos: at most 0.02)."""
WHOLE_FIT = 0.16
"""Marker sides (RMS): GROUP_FIT, and SIZE_FIT, for all four of a sheet's markers, which pin down every corner:
a sheet curled 14 to 21 mm and lifted 11 mm in the middle fits one flat sheet within 0.12 to 0.15, and its
print is then laid on the blank sheet by the warp. Not where three of the four fit within GROUP_FIT and the
fourth is turned FOREIGN_TURN against them: it is then another sheet's, and the three are the sheet."""
LEFT_OUT_NEAR = 5.0
"""Marker sides: a sheet read from three markers while a marker of its fourth corner lies this near that corner's
place (left out as another sheet's, turned against the three)..."""
LEFT_OUT_REACH = 45.0
"""...has the fields within this many mm of that corner uncertain: a lifted corner turned more than FOREIGN_TURN
read an empty box 20-40 mm from it as a sure cross (an adversary's 3 silent cases of 794)."""
FOREIGN_TURN = 12.0
"""Degrees: a fourth marker turned more than this against where three well-fitting ones put it is another
sheet's (an adversary's foreign markers turned 14-26 degrees; in its 258 synthetic lifted corners, where three of
the four markers fit within GROUP_FIT, the fourth turned at most 9.3)."""

# --- reader: the sheets of a photo ---------------------------------------------------------------------------

MAX_SHEETS = 8
"""At most this many sheets are read from one photo (a whole 4-up page is 4); the rest are reported."""
SIZES_TRIED = 4
"""The code is looked for on sheets of the known sizes nearest to the markers' estimate, at most this many."""
PAIR_SPAN = 0.08
"""Share: a sheet of which only two corner markers were found is looked for on every known size whose sides the
two span match their distance within this (on the held-out and fresh photos' pairs: within 0.035)."""
FOREIGN_MARKER = 30.0
"""mm: markers that fit no known sheet, among which a pair's code is read, are that sheet and a marker of another
only where the sheet puts the other further than this from its own corner (a bent sheet's lie closer)."""
SIZE_FIT = 0.12
"""Marker sides (RMS): a known sheet size is tried only if the markers fit a flat sheet of exactly that size
within this (all four markers: WHOLE_FIT); when no size fits, the sheet is reported as folded or curled.
Looser than GROUP_FIT, which judges the size fitted to the markers themselves: a flat sheet fits its layout's
true size a little worse (on the benchmark's photos at most 0.023, against 0.019 for the estimate; other sizes
up to 0.077)."""
MIN_PX_PER_MM = 2.2
"""px per mm of the sheet in the photo: below this a thin cross is lost in the blur (the sheet is too small)."""
STRAY_SIDE_RATIO = 2
"""Left-over markers of different corners whose sides differ by at most this factor are one sheet that is
only partly in the picture (more: markers of different sheets)."""
LOOK_ALIKE_PX_PER_MM = 0.5
"""A sheet whose markers were all missed is looked for beside each sheet read in the sheet's own plane,
flattened at this many px a mm (`printgen.scan.locate.look_alike_beside`)..."""
LOOK_ALIKE_AROUND = 40.0
"""...as far as a sheet's width and height and this many mm more on each side of it (a 2-up or 4-up page, sheets
cut apart and laid side by side)..."""
LOOK_ALIKE_INSET = 5.0
"""...by the print inside the sheet read, this many mm in from its edges (not its outline against the table: a
card or an envelope the sheet's size is no sheet)..."""
LOOK_ALIKE = 0.85
"""...a place found where it correlates with that print at least this well (TM_CCOEFF_NORMED, both blurred by
LOOK_ALIKE_BLUR px), overlapping a sheet read by at most LOOK_ALIKE_OVERLAP of its area and at least
LOOK_ALIKE_SHOWN of it in the photo. An adversary's lost sheets (2-up and 4-up pages, cut sheets; blurred, dark,
shadowed, under dice, turned, slanted, framed tightly) gave 0.854-1.0 where found at all (cut sheets turned 6-8
degrees apart, 150 mm apart or a quarter out of the picture 0.39-0.82); photos that lost no sheet up to 0.879 (a
parquet table under a hard shadow, the only one of the four evaluation sets' 576 photos above the bar) and 0.855-0.859
(a 2-up page's half in a shadow leaving a tenth or a fifth of the light): the two overlap, and a line too many is
better than a sheet lost without a word."""
LOOK_ALIKE_BLUR = 1.0
LOOK_ALIKE_OVERLAP = 0.2
LOOK_ALIKE_SHOWN = 0.9
LOOK_ALIKE_CONTRAST = 0.25
"""A place that varies less than this share of the sheet read's print is no sheet (a bare table or a deep shadow,
whose grain or smooth ramp correlates with anything: a 2-up page's half in a shadow leaving 5 % of the light
matched its other half's print at 0.85 without this)."""
LOOK_ALIKE_TURNS = (0.0, -3.0, 3.0, -6.0, 6.0)
"""Degrees the sheet read is turned by as it is looked for (sheets cut apart lie a little askew of each other)."""
READING_BANDS = 6
"""Sheets are reported top to bottom in this many horizontal bands of the photo, left to right in each."""

# --- decode: the sheet's code ------------------------------------------------------------------------------

CODE_SEARCH = 2.5
"""mm: how far around its expected place the code is looked for."""
CODE_WIDE_SEARCH = (4.0, 8.0)
"""mm: how far around its expected place OpenCV's QR reader looks for a code printgen's own did not read (it
needs the code's quiet zone, and finds it in one crop where another fails)."""
CODE_PX_PER_MM = 14.0
"""px per mm at which the code's surroundings are resampled to find its finder patterns."""
CODE_VERSIONS = (1, 2, 3)
"""The QR versions looked for (printgen prints versions 1 and 2)."""
FINDER_BLUR = 0.6
"""px (at CODE_PX_PER_MM): the blur given to the finder patterns' template."""
FINDER_MATCH = 0.25
"""Correlation: places where the finder patterns match worse than this are not read."""
MODULE_SHIFTS = ((0.0, 0.0), (0.2, 0.0), (-0.2, 0.0), (0.0, 0.2), (0.0, -0.2))
"""Modules (x, y): the offsets of the module grid tried, in this order, until the code reads."""
MODULE_SPREAD = 0.15
"""Modules: each module is sampled at 3 x 3 points this far apart around its middle."""
CODE_CONTRAST = 6
"""Grey levels (0..255): a code whose dark and light modules differ by less than this is not read."""
DEBLUR_ROUNDS = 6
"""Rounds of taking each module's neighbours' blur away before the code is decoded."""
DEBLUR_SAMPLES = 3
"""The blur model is fitted only with at least this many known modules per unknown."""
DEBLUR_MIN_DARK = 1
"""Grey levels: a blur model in which a dark module darkens by less than this is not used."""
CUT_OFFSETS = (0.0, 0.1, -0.1, 0.2, -0.2)
"""Shares of the dark-to-light contrast: the thresholds tried, from halfway, until the code reads."""
REDRAW_PX = 8
"""px per module of the crisp picture handed to the QR decoder."""

# --- identify: a sheet whose code cannot be read -----------------------------------------------------------

LOOK_PX_PER_MM = 4.0
"""px per mm at which whole sheets are compared."""
GLYPH_PX_PER_MM = 8.0
"""px per mm at which single numbers are compared."""
CLEAR = 0.02
"""Correlation: a choice is clear when it beats the next best by this much (a swap of two numbers: twice)."""
SIZE_MATCH = 0.06
"""Share: a layout is a candidate when its width and height are both within this of the markers' estimate."""
NORMALISE_SIGMA = 2.0
"""mm: light and contrast are evened out against the surroundings within about this (a Gaussian's sigma)."""
NORMALISE_FLOOR = 0.03
"""Luma (0..1): the least local contrast divided by, so that plain paper's grain is not blown up."""
TEMPLATE_BLUR = 0.6
"""px (at LOOK_PX_PER_MM): the blur given to a rendered blank sheet before it is compared."""
LOOK_TILE = 24.0
"""mm: the side of the squares in which a photo and a blank sheet are compared, each square at its own best shift."""
LOOK_REACH = 3.0
"""mm: how far each square may be shifted (a bent sheet or a lens moves the print this far from where the
markers' homography puts it)."""
LOOK_TEXTURE = 0.05
"""Normalised contrast: a square whose blank sheet varies less than this (plain paper) is compared unshifted."""
DIFFER = 0.5
"""Normalised contrast: candidates differ where their blank sheets differ by more than this."""
DIFFER_GROW = 5
"""px (at LOOK_PX_PER_MM): those places are widened to this square."""
GLYPH_BLUR = 1.0
"""px (at GLYPH_PX_PER_MM): the blur given to a rendered number before it is compared."""
GLYPH_SIGMA = 1.5
"""mm: numbers are compared with light and contrast evened out within about this."""
GLYPH_SLACK = 1.0
"""mm: a number is first looked for this far around its box, to check a code read against the print."""
GLYPH_REACH = 3.0
"""mm: how far around its box a number is looked for when the code cannot be read, or the print disagrees with
it at GLYPH_SLACK (a bent sheet moves the print about this far from where the markers put it)."""

# --- rectify: the photo flattened -----------------------------------------------------------------------------

SHRINK_ABOVE = 1.6
"""Photo pixels per flattened pixel above which the photo is first shrunk (no aliasing)."""
SHRINK_TO = 1.25
"""Photo pixels per flattened pixel after that shrinking."""

# --- align: curled paper nudged onto the sheet ------------------------------------------------------------

WARP_PX_PER_MM = 3.0
"""px per mm at which the photo's print is matched to the blank sheet to find how the paper bends."""
WARP_STRUCTURE_SIGMA = 2.0
"""mm: edges are taken relative to the edges within about this (so faint and strong print count alike)."""
WARP_LEVELS = (48.0, 20.0, 10.0, 10.0, 10.0)
"""mm: the side of the patches matched, coarse to fine; the finest three times, each from where the one before
put the print (paper in waves moves it by more than one level's reach)."""
WARP_RANGE = (14.0, 4.0, 3.0, 2.0, 1.5)
"""mm: how far each level looks for a patch from where the level before put it (a curled sheet or a
wide-angle lens moves the print up to about the first), in whole pixels at WARP_PX_PER_MM (1.5 mm: 4 px)."""
WARP_SMOOTH = (0.0, 14.0, 8.0, 6.0, 6.0)
"""mm: each level's shifts are spread with a Gaussian of this sigma (the first is fitted by a polynomial)."""
WARP_STRIDE = (0.5, 0.5, 0.5, 0.5, 1.0)
"""Each level's patches lie this share of a patch apart (the last repeat of the finest only refines: fewer do)."""
WARP_DEGREE = 2
"""The polynomial's degree that fits the first, coarsest shifts (a bend and a lens's barrel)."""
WARP_MATCH = 0.35
"""Correlation of edge structure: a patch matched worse than this says nothing of where it lies."""
ALIGN_PATCH = 16.0
"""mm: the side of a patch matched on its own (patches overlap by half)."""
ALIGN_LIMIT = 1.6
"""mm: larger shifts are not believed (a mark, not the print, moved)."""
ALIGN_TRUST = 0.12
"""Phase-correlation response below which a patch's shift is not trusted."""
STRUCTURE_SIGMA = 8
"""px (of the flattened sheet): edge strength is taken relative to its surroundings within about this."""
STRUCTURE_FLOOR = 0.05
"""Luma per px: the least surrounding edge strength divided by (plain paper stays plain)."""
ALIGN_FLAT = 1e-3
"""A patch of the blank sheet whose structure varies less than this (standard deviation) is not matched."""
ALIGN_SMOOTH = 1.0
"""Patches: the trusted shifts are spread and smoothed over about this many neighbours (a Gaussian's sigma)."""
ALIGN_NEIGHBOURS = 3
"""A shift is checked against its neighbours' median only when it has at least this many trusted ones."""
ALIGN_OUTLIER = 1.0
"""px: a shift further than this from its neighbours' median is not trusted."""

# --- ink: what the photo shows in every field ---------------------------------------------------------------

PX_PER_MM = 6.0
"""px per mm at which photos are compared with the blank sheet."""
CLIPPED = 0.985
"""Luma (0..1 of the photo): a pixel this bright is overexposed and only says the light is at least that."""
LIGHT_COLOURS = 0.6
"""Luma (0..1): only print expected at least this bright (paper, the fields' tints) tells the light: dark
colours render too differently from printer to printer and camera to camera."""
OVEREXPOSED = 0.45
"""Share of the plain, bright print (paper, pale tints) that is CLIPPED: from this share on, the picture is
overexposed everywhere (a scan, a render, a phone's bright exposure), and where its pixels are mostly clipped the
light is at least what clips them (else white paper's light would be told only by the few pixels ink darkens);
below it, clipped pixels are glare, which must not count as light. printgen's own renders clip 60 %; on the four
held-out sets it changed one flag (one false flag fewer) and no reading."""
LIGHT_GRID = 2.0
"""Points per mm of the grid on which the light is measured (each the median of its pixels)."""
LIGHT_REACH = 5.0
"""mm: anything dark narrower than twice this (a stroke, a filled field) is ink, not light; a shadow is wider."""
MIN_GAIN = 0.05
"""Share of full light: the light is never taken as dimmer than this."""
LIGHT_PASSES = 2
"""Times the light is measured again from every colour the sheet prints, where there is no plain paper."""
COLOUR_STEPS = 15
"""Each channel of the blank sheet is rounded to 0..this to tell its printed colours apart."""
COLOUR_INNER = 3
"""px: a colour is learnt only from pixels whose square of this side holds that colour alone (no edges)."""
COLOUR_MIN_AREA = 2.5
"""mm²: a colour is learnt only where it covers at least this much of the sheet..."""
COLOUR_MIN_PIXELS = 60
"""...and at least this many pixels."""
MODE_BINS = 60
"""A colour's look in the photo is its most common value, in a histogram of this many bins..."""
MODE_RANGE = 1.5
"""...over luma 0..this (relative to the light: a print may look brighter than the paper's light)..."""
MODE_SMOOTHING = (1, 2, 3, 2, 1)
"""...smoothed with these weights."""
CURVE_ROUNDS = 3
"""Rounds of fitting the tone curve with the colours that disagree with it weighed down."""
CURVE_MIN_SPREAD = 0.02
"""Luma (0..1): the least spread of the colours around the tone curve."""
CURVE_OUTLIER = 2.5
"""Spreads: a colour further than this from the tone curve is weighed down (ink covers it, or it went astray)..."""
CURVE_OUTLIER_WEIGHT = 0.02
"""...to this share of its weight."""
DARK_PRINT_STROKE = 1.2
"""mm: on dark print (the bands) only darkening narrower than twice this counts as ink."""
CAST_GRID = 10.0
"""mm: the light's colour is taken as even over squares this size (a cast changes slowly; a finger or a pen
lying on the sheet is off-colour against it)."""
CAST_COVER = 0.2
"""Share of such a square that must be print of a learnt colour for its cast to count."""
COLOUR_SHIFT = 0.35
"""Luma (0..1): how far a printed colour may differ from what the blank sheet predicts."""
BLURS = (0.0, 0.08, 0.15, 0.25, 0.35, 0.5, 0.7)
"""mm: the photo blurs to try on the blank sheet."""
PRINT_WEIGHTS = (0.15, 0.3, 0.45)
"""mm: how much heavier than the blank sheet the photo's print may be set (a printer's type spreading), tried at
the photo's blur..."""
WEIGHT_GAIN = 0.1
"""...each taken only when it matches the print's edges at least this share better than the lighter one."""
BLUR_EDGE = 0.5
"""Luma per px: the blank sheet's edges, where the photo's blur is judged, are at least this sharp..."""
BLUR_MIN_EDGE_PIXELS = 100
"""...and the blur is judged only on at least this many of their pixels."""
SEEN_BLUR = 0.12
"""mm: the photo is softened by this (a Gaussian's sigma) before it is compared (JPEG, noise)."""
TOLERANCE = 0.3
"""mm: how far a printed edge may still be off (after alignment) before its shadow is taken for ink."""
EDGE_DROP = 0.02
"""Luma (0..1): where the darkest print within TOLERANCE is darker than the print by more than this, a pixel lies
by a printed edge; lighter than expected there counts as nothing, not as less ink, in a slanted line (TRACE_FLOOR
elsewhere)."""
PLAIN = 0.05
"""Luma per px: where the expected sheet changes less than this, it is plain, and shows the photo's noise."""
NOISE_MIN_PIXELS = 1000
"""px: fewer plain pixels than this say nothing about the noise (then NOISE is taken)."""
NOISE_SPREADS = 4
"""Darkening below this many spreads (above the middle) of a photo's plain areas is noise, JPEG or a print's
unevenness, not ink..."""
NOISE = 0.08
"""...but at most this much darkening (luma 0..1)..."""
NOISE_FLOOR = 0.035
"""...and at least this much."""
INKED = 0.02
"""Luma (0..1): a pixel darkened more than this is part of a stroke."""
FOREIGN_REACH = 8.0
"""mm around a field in which a stroke's length is measured to tell a neighbour's stroke from its own."""
OWN_SHARE = 0.34
"""A stroke counts for a field when at least this share of its ink lies inside it..."""
OWN_REACH = 0.28
"""...or when it comes this near the field's middle (share of the field's shorter side), unless it is one
straight line centred at least STROKE_AWAY of the field's size from its middle (a neighbour's arm is centred on
the neighbour)..."""
STROKE_AWAY = 0.75
ONE_LINE = 0.4
"""...which spreads across its direction at most this share of as much as along it (crossing strokes spread
more)..."""
STROKE_REACH = 2.0
"""...followed at most this many times the field's size either way, its ink looked for up to STROKE_SWAY mm
beside the line of its piece in the field and STROKE_BEND degrees off it (a hand's line bends, and where it
crosses print that hides it, it need not go on straight)."""
STROKE_SWAY = 0.8
STROKE_BEND = 4
OVERRUN_GAP = 1.0
"""mm: a stroke is followed across a gap up to twice this wide when it is asked whether it runs on outside its
field (red ink over a red band does not show)..."""
OVERRUN_REACH = 0.15
"""...and a field's cross that leans on such a stroke is uncertain unless the stroke comes this near the
field's middle (share of the field's shorter side)."""
WEIGHT_START = 0.9
"""mm: a field's ink counts from this far inside its edge..."""
WEIGHT_RAMP = 0.5
"""...rising to full weight at least this much further in..."""
WEIGHT_FULL = 0.22
"""...and at least this share of the field's shorter side in."""
WEIGHT_FULL_ROUND = 0.1
"""...or, in a round field (a lock), of its width: its symbol hides the middle, so a cross shows in the ring round
the symbol, out to near the edge."""
COVER_HALF = 0.005
"""Ink cover (share of a field's weighted middle, in full-black equivalents) halfway between an empty field
and a crossed one."""
LINE_HALF = 0.025
"""Mean darkening along the darkest slanted line through a field's middle halfway between empty and crossed
(a faint single slash shows here, where its cover is small)."""
MISPLACED_MARGIN = 1.0
"""mm: a field's own print is looked at this far beyond its box (a box's border, the band round a number)."""
MISPLACED_PRINT = 0.6
"""Expected luma below which a pixel of the blank sheet counts as print for MISPLACED_SHARE."""
MISPLACED_BACK = 0.5
"""Share of the way from the print's expected luma back to paper that the photo must be lighter by for that
print to count as missing."""
MISPLACED_SHARE = 0.5
"""A field whose print (MISPLACED_PRINT, within MISPLACED_MARGIN) is this much missing in the photo is uncertain:
its print is not where the alignment put it (a misthrow box beside a lifted corner 2-3 mm off: 0.57). On the
tuned-on photo sets 0.5 flags 3 more right sheets of 131 and changes no sheet's fields; 0.3 flagged 48 more."""
MISPLACED_SHARE_BENT = 0.3
"""MISPLACED_SHARE on a sheet whose four markers fit one flat sheet only loosely (beyond GROUP_FIT: a corner
lifted or curled), where a corner's print may be magnified as well as moved, so no shift matches it
(`ink._shifted`) and only part of it is missing (a misthrow box read as a sure cross beside a lifted corner: 0.41;
on the tuned-on photo sets one more right sheet is flagged)."""
SHIFTED_WINDOW = 2.0
"""mm: a field's print is matched with this much of the print around it (the edges of its box and its
neighbours', its band)..."""
SHIFTED_SEARCH = 2.5
"""...within this far of where the alignment put it..."""
SHIFTED_DISTANCE = 0.5
"""...and a field whose print the photo shows best at least this far away (mm)..."""
SHIFTED_GAIN = 0.25
"""...matching better there by this much (edge correlation) than where it was put is uncertain: the print is not
where it should be. Beside a lifted corner whose print the warp could not follow, number fields 0.7-1.1 mm off
gained 0.42-0.64 and read their neighbours' edges as crosses, unflagged (the adversarial helper's last two silent
cases); on the tuned-on photo sets no field of a right sheet reaches it (at 0.5 mm or more the most was 0.24, under
a finger)."""
SURE_EMPTY = 0.5
"""Evidence (the ink against halfway, by cover or by line: 1 is halfway) at or below which a field is empty."""
UNCLEAR_GUESS = 0.85
"""A field uncertain only for its ink (between SURE_EMPTY and SURE_CROSSED) is guessed crossed from this share of
halfway: such fields are more often faint crosses than smudges (on the heldout and fresh sets 527 crossed, 319
empty; their best guesses went from 163 wrong at 1.0 to 148, the fewest of 0.6 to 1.1)."""
SURE_CROSSED = 1.9
"""Evidence at or above which a field is crossed; between SURE_EMPTY and this it is uncertain, for a person
to check. Both set from the spread of empty and crossed fields over the benchmark's photos so that a field
read wrong is nearly always uncertain. On a sheet crossed with a faint pen (PEN_LOWEST) a field is empty only
at the pen's share of SURE_EMPTY, and crossed at its share of this where PEN_CLEAR allows."""
RING_INNER = 0.3
"""Share of a field's size: a circle round its number is looked for from this far from its middle..."""
RING_OUTER = 0.64
"""...to this far (a little beyond the field's edge: circles are drawn round the printed square)."""
RING_BINS = 24
"""Directions round a field's middle in which a circle's ink is looked for."""
RING_INK = 0.08
"""Luma (0..1): a pixel darkened more than this counts as a circle's ink."""
RING_HALF = 0.5
"""Share of those directions with ink halfway between an empty field and a circled one."""
EVEN_FAINT = 0.1
"""Luma (0..1): a field's paper darkened by less than this over a third of it at a time is the light misjudged
there, not ink (ink is strokes, which cover little of a third, or a blob, darker)..."""
EVEN_SHARE = 40
"""...by this percentile of its darkening..."""
EVEN_PAPER = 0.9
"""...on its paper: where the print lets through at least this share of a stroke's darkening."""
TRACE_FLOOR = 0.03
"""Lighter than expected by more than this counts as only this much in a slanted line (the edges of printed
numbers, a little out of place, must not cancel a stroke)."""
SLASH_ANGLES = (*range(25, 66, 5), *range(-65, -24, 5))
"""Degrees from level: the slants at which a line through a field's middle is looked for."""
LINE_WIDTH = 3
"""px: the width of that line (about half a mm at PX_PER_MM)."""
LINE_FLANK = 7
"""px (about 1.2 mm at PX_PER_MM): a slanted line counts only as much as it is darker than the lines this far
either side of it (a stroke is a ridge; the edge of a shadow, a fold or glare is a step, darker on one side)."""
NEAR_MIDDLE = 0.3
"""That line passes this share of the field's size or less from its middle."""
STREAK_TILT = 12
"""Degrees: a strike-through's band is tried at tilts up to this either way of level..."""
STREAK_TILT_STEP = 4
"""...in steps of this."""
STREAK_BAND = 1.2
"""mm: the width of the band a strike-through line must lie in (blurred lines spread)."""
STREAK_SPILL = 0.3
"""A strike-through's band grows by half-band steps holding at least this share of its fuller half (a felt
pen's line is wider than STREAK_BAND)..."""
STREAK_WIDEST = 2.4
"""...up to this many mm in all."""
STREAK_MARGIN = 0.6
"""mm: a struck-through field's ink this close to the strike-through's line is its (a felt pen's edges, a line
drawn in two pieces not quite level); only ink further away may be a cross."""
STROKE_PIECE = 1.2
"""mm: a piece of ink at least this long that leans more than STROKE_LEAN is a stroke of its own (a tick's arm,
a slash, the end of a small X's arm showing beside the number it crosses), even where a strike-through's band
cuts across it..."""
STROKE_LEAN = 26
"""...degrees from level (a felt pen's strike-through bends up to about 20 degrees at one end)."""
STREAK_SHARE = 0.7
"""A strike-through holds at least this share of the field's ink in its band..."""
STREAK_LENGTH = 0.25
"""...runs across at least this share of the field's width..."""
STREAK_MIDDLE = 0.25
"""...passes this share of the field's height or less from its middle (a skipped number is struck through)..."""
STREAK_SLENDER = 4.5
"""...and runs at least this many times as far across as the pieces of ink it lies in are thick (their inked
area over its length): a line. A filled blob on a printed number, whose ink the number hides, shows a short
thick patch beside it, which passed for a strike-through and was read as surely empty (a helper's unseen set:
blue blobs on the blue row, silent errors). Measured: the strike-throughs of skipped numbers on 30 of the tuned
sets' photos run 4.6 times or more (five fields under 6, the felt pens'; a 1.2 mm felt line 10 mm long runs
about 6 times); that set's blobs 1.5 to 4.4 times..."""
STREAK_SURE = 5.0
"""...and a field it leaves empty is surely so only where it runs at least this many times as far: between the
two, a short thick stroke may be a blob's edge, and the field is uncertain (STUBBY), its best guess empty."""
LEVEL = 18
"""...and the ink in it runs within this many degrees of level (a slash leans more). Not STREAK_TILT: that
says which bands are tried, this how the ink found in a band (STREAK_BAND wide) may itself lean."""
LEVEL_PIECE = 0.6
"""Ink that only level lines running in from a field's side would make crossed is no cross (`ink._level_pieces`):
a line, together, spreads across at most this share of as much as along it (its pieces, which a printed
number cuts short, may be stubs)..."""
LEVEL_WIDEST = 5.0
"""...mm: and is at most this wide (a cable, a pencil; wider, something lies there: `printgen.scan.doubt`'s
cover)..."""
LEVEL_FILL = 0.75
"""...each piece fills at least this share of the span between its top and bottom down each column (one line or
bar: a flat X's arms, under LEVEL degrees, leave the span between them empty)..."""
LEVEL_BEND = 1.5
"""...mm: and strays at most this far from straight down its columns (the foot of a circle round a number
bends more)..."""
LEVEL_EDGE = 0.75
"""...mm: and one of them comes this near the field's left or right side (the rim of a box is print, where ink
over it hardly shows)."""

# --- settle: doubtful fields decided by the rules ---------------------------------------------------------

MOST_UNCERTAIN = 8
"""More uncertain fields than this are left to their ink (2**8 verdicts at most)."""

# --- doubt: where the photo cannot be trusted -----------------------------------------------------------------

HIDDEN = 0.12
"""Luma (0..1 of the light): a photo lighter than any print near it by more than this (and the noise) hides the
print: ink never lightens."""
HIDDEN_AREA = 1.0
"""mm²: smaller lighter specks than this say nothing (a print edge off by a pixel, JPEG)."""
WIDE = 2.5
"""mm: darkening that is wider than this everywhere is no stroke (a felt pen's is 1.5 mm, two crossing
strokes about 2 mm; at 3 mm a helper's cables of 2.4 to 3.5 mm, blurred narrower, read as crosses where they
ended in a field: 21 of its cable sheets had a wrong field unflagged, 15 at 2.5 mm, on the four sets right
sheets 507 -> 509 and false flags 228 -> 230)..."""
WIDE_DARK = 0.1
"""...counted where it darkens the paper by more than this (luma 0..1)."""
HUE_OFF = 0.12
"""...or where its colour differs from the print's by more than this (shares of the light, summed over two
opponent channels)."""
HUE_RANGE = 1.0
"""Shares of the light: the opponent colour channels are histogrammed within plus and minus this."""
COVER_GROW = 1.0
"""mm: what hides the print is taken to reach this much further than seen (its soft edge)."""
JOIN = 3.5
"""mm: pieces of what hides the print this close together are one thing (a finger over cells and band looks
different over each)."""
COVER_EXTENT = 14.0
"""mm: a hidden or wide dark patch reaching this far (more than a field) is something on the sheet, not ink."""
COVER_SHADOW = 3.0
"""mm: around something lying on the sheet its shadow and its tip (a pen's) reach this far, where ink is doubtful."""
COVERED_SHARE = 0.1
"""A field is covered when at least this share of its weighted middle is."""
LINE_DARK = 0.08
"""Luma (0..1 of the light): darkening beyond the noise by more than this is looked at for a long line..."""
LINE_LENGTH = 40.0
"""...mm: a straight dark line this long without a break (more than three fields: no cross is), running across
the rows (LINE_SLANT), is something on the sheet or its shadow (a cable, a pen, a ruler's edge), not ink..."""
LINE_NEAR = 1.0
"""...mm: its pixels lie this close to the straight line fitted through them..."""
LINE_BREAK = 3.0
"""...mm: with gaps no longer than this along it..."""
LINE_END = 10.0
"""...mm: what is dark within LINE_NEAR of it this far beyond its found ends is its too (Hough leaves out a
cable's rounded tip, which may lie in a field)..."""
LINE_SLANT = 20.0
"""...degrees: and it is turned at least this far from the rows (a line along a row strikes out skipped
numbers; see `printgen.scan.ink`)..."""
EDGE_LINE_LENGTH = 15.0
"""...mm: or it runs in from the sheet's edge (an end within EDGE_LINE_NEAR of it, at least LINE_SLANT from that
edge) and is this long: nobody's cross starts at the sheet's edge, but a cable or a pen lying across it does,
and may end in a field after a short way (the helper's cables entering over the top edge: 3 sheets read
wrong with nothing flagged)..."""
EDGE_LINE_NEAR = 1.5
"""...mm: how near the sheet's edge such a line's end lies..."""
LEVEL_LINE_LENGTH = 160.0
"""...mm: or, along the rows, it is this long: longer than a row's numbers (eleven fields, about 150 mm), so
no strike through skipped numbers (a helper's line across a whole row made four of its fields sure crosses)."""
SHADOW_EDGE = 0.12
"""Change of the light's logarithm per mm above which a shadow's (or glare's) edge makes ink unsure."""
SHADOW_NEAR = 1.5
"""mm: a field under a shadow's edge has its best guess from the ink further than this from the edge."""
SHADOW_SOFT = 0.04
"""Change of the light's logarithm per mm: where it changes more than this next to a shadow's edge, the light
is still that shadow's end, smoothed (a fingertip's shadow is narrower than LIGHT_REACH)."""
SHADOW_TIP = 1.2
"""mm: darkening wider than this everywhere that runs on from a shadow's edge's soft end is the shadow's own
(a fingertip's, narrower than the light's LIGHT_REACH): a ballpoint's or gel pen's stroke is narrower. A felt
pen's (1.5 mm) or a filled field there is taken for it too: its field is left for a person all the same (and a
field filled all over stays crossed, SHADOW_FILLED); 2 mm missed the fingertips that reach 2 mm into a field on
the heldout set."""
TIP_DARK = 0.07
"""A shadow's tip is darkening beyond the noise by more than this (fainter than WIDE_DARK: what is left of a
soft-edged shadow the light does not follow is faint)..."""
TIP_NEAR = 2.5
"""...that comes within this many mm of its soft end (inside a finger's shadow narrower than the light's
LIGHT_REACH, the darkening lies between its two soft sides, up to 2.5 mm from them on the fresh set)."""
VEILED_HALFWAY = 0.5
"""Evidence taken as halfway between empty and crossed where glare pales the print and how much could not be
measured (`printgen.scan.ink._veil`): the glare's light adds to a stroke's as to the paper's, so a stroke shows
at a fraction of its darkening (on the dev and fresh sets many crossed fields under glare read 0.7 to 1, their
empty ones below 0.4 but one)..."""
VEIL_SHARE = 1.2
"""...where it could, this many times the share of the print's contrast that the glare leaves around the field
(the same share of a stroke's darkening shows). On the tuned heldout and fresh sets' 88 fields under glare,
evidence over that share sorts crossed from empty alike anywhere from 0.97 to 1.55 (1.2: the middle); against
VEILED_HALFWAY everywhere, 3 crossed fields under strong glare (0.16 to 0.33, share 0.10 to 0.18) are guessed
right and 1 strike-through's line (0.25, share 0.14) wrong: 2 sheets won, 1 lost, no flag changed..."""
VEIL_HIDDEN = 0.06
"""...but where the print keeps less than this share of its contrast, something hides it rather than glare
pales it (a coin or a phone's shiny back, whose look the doubt takes for glare's): a stroke would show no more
than the print, so what ink the field shows is not taken for one; the field is uncertain as a hidden one
(its reason and its halfway, the pen's). The held-out fifth set showed this (fields under coins guessed
crossed at 0.01 to 0.04 of the print's contrast, two more by the rules after them; the crossed fields under
glare on the tuned sets keep 0.069 or more), so the fifth set is no held-out proof of this bar..."""
VEIL_LOWEST = 0.15
"""...never below this (where glare leaves almost nothing of the print, a speck must not read as a cross), nor
above the sheet's pen's halfway."""
VEIL_AROUND = 1.5
"""mm round a field under glare over which the print's contrast left is measured..."""
VEIL_CONTRAST = 0.2
"""...where its print spans at least this much luma..."""
VEIL_PIXELS = 10
"""...with at least this many pixels of its darkest and of its lightest print."""
PEN_EMPTY = 90
"""Percentile of a sheet's clearly empty fields' evidence taken as its inkiest empty field (high, so that a
photo whose empty fields are murky, as under a hard shadow, keeps its halfway high)..."""
PEN_CROSSED = 25
"""...and of its clearly crossed fields' as its faint cross: halfway between empty and crossed on that sheet is
their geometric mean (one pen crosses a whole sheet: where its clear crosses are faint, so are its doubtful
ones; with STROKE_PIECE's change, 412 -> 428 of the dev, fresh and held-out photos' 520 sheets right)..."""
PEN_LOWEST = 0.6
"""...but never below this, nor above 1 (a strong pen does not make a faint stroke less of a cross)..."""
PEN_SAMPLE = (5, 3)
"""...and only on a sheet with at least this many clearly empty and clearly crossed fields."""
PEN_CLEAR = 0.7
"""Share of a faint pen's empty bar (SURE_EMPTY times its halfway): only where none of a sheet's empty fields has
more ink than this are its fields crossed at the pen's share of SURE_CROSSED, for a cross missed near that bar
would leave the sheet without a flag once its doubtful crosses are sure. Set on the tuned sets (fresh's one
wrong faint-pen sheet whose flags were all such crosses missed a cross at 0.8 of the bar; it is also flagged
by the referee). Without this guard a fifth-set sheet lost its only flag over a missed cross; with it, an
empty field of that sheet lies above this share and the sheet stays flagged: the fifth set was seen for this,
so it is no held-out proof of the guard. A missed cross far below the bar (a flat X taken for a
strike-through, ink that the print hides) it does not catch. On the tuned heldout and fresh sets' 288 photos: right sheets flagged all the
same 151 -> 120, uncertain fields 3126 -> 2990, sheets right and fields wrong in a sure state unchanged."""
SHADOW_SURE = 10.0
"""Evidence at or above which a field under a shadow's edge is crossed all the same: the edge darkens at most
a line's worth, never a whole field."""
SHADOW_FILLED = 0.5
"""Ink cover (full-black equivalents) at or above which a field is filled all over, crossed whatever shadow's
edge or tip lies over it (on the heldout and fresh sets' photos no field a shadow's edge or tip makes uncertain
has more than 0.1; a cross has 0.2 or less)."""
