"""The marks printgen prints so that a photo of a sheet can be read back: a sheet's identity in, its corner markers and QR code out.

`codes` says what a sheet's code holds (layout, version, language, the
sheet's own data) and turns it into QR text and a module grid and back;
`markers` draws the four corner markers and the code as page primitives.
The score-sheet builder prints them and `printgen.scan` reads them; neither
module imports the one or the other, and neither needs OpenCV.
"""
