"""Matplotlib as every OpenWar picture uses it: the Agg backend (files, no window), and text
drawn as written (matplotlib reads text between two "$" signs as a formula, so a unit named
"Bolt $\\foo$" stopped a picture with a traceback). Imported by each module that draws."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["text.parse_math"] = False
