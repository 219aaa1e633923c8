"""Demo photos: a seed in, a phone-like photo of a played score sheet filled in by hand (JPEG bytes) out.

So that `printgen score` and `printgen serve` can be tried without printing
and filling a sheet: `printgen score --demo OUT.jpg` writes one, and the
server offers one for download. The rules engine plays a whole game, the
blank sheet is rendered from its page description (as printed, with its
corner markers and code), a player's crosses are drawn by hand
(`handwriting`) and the sheet is photographed by a simulated phone
(`camera`). The same two modules make the photos the scanner's tests and
benchmarks use (`tests/scan/simulator`). They need the scan extra (OpenCV
and NumPy): this package's own file imports neither.
"""
