"""Renderers: page descriptions in, SVG or PDF out (`svg`, `pdf`), plus a recording one for tests."""
