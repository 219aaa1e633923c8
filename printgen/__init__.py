"""printgen: layout files in, print-ready Qwixx and One to 9 material (SVG, PDF) out."""

__version__ = "0.1.0"
