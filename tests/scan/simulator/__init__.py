"""A simulator of photographed filled sheets: a seed in, a photo-like picture of a played sheet and its truth out.

For the tests and the benchmark of `printgen score`, never installed:
`synthetic` plays a game, prints its sheet and has it filled in by hand
(`printgen.demo.handwriting`) and photographed (`printgen.demo.camera`: the
pieces shared with the demo photos of `printgen score --demo`); `tally`
counts how many of the truths a reader got right. Its modules import OpenCV and NumPy, so this
package's own file imports neither: tests import a module only after
skipping when the scan extra is missing.
"""
