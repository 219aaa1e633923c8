"""The print layer: finished items in, pages out (paper sizes, n-up grids, cut lines, pads)."""
