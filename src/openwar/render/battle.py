"""A picture of a battle: the board (territories, terrain, objectives) and every miniature."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Circle, Polygon

from openwar.engine.state import GameState
from openwar.outputs import PICTURES, check_output, picture_option, save_figure

SIDE_COLOURS = ("#3b6fb6", "#c0392b")


def draw_battle(state: GameState, path: Path, title: str) -> Path:
    """Write the table as it stands (PNG or SVG; the same state gives the same bytes)."""
    option = picture_option(path)
    check_output(path, option, PICTURES)
    board = state.board
    width, depth = float(board["width"]), float(board["depth"])
    fig, ax = plt.subplots(figsize=(8, 8 * depth / width + 0.6), dpi=100)
    ax.set_xlim(0, width)
    ax.set_ylim(0, depth)
    ax.set_aspect("equal")
    ax.set_facecolor("#eef0e6")
    for side, ring in enumerate(board["territories"]):
        ax.add_patch(Polygon(ring, closed=True, alpha=0.12, color=SIDE_COLOURS[side], lw=0))
    burning = set(state.extra.get("burning") or [])  # Firestarter (OW-R4, AOS-R4)
    for index, feature in enumerate(board.get("terrain", [])):
        shade = "#6d6d6d" if feature.get("blocks_sight", True) else "#9bbf7a"
        ax.add_patch(Polygon(feature["polygon"], closed=True, color=shade, alpha=0.6, lw=0))
        if index in burning:
            ax.add_patch(Polygon(feature["polygon"], closed=True, fill=False, hatch="xx",
                                 color="#d2461e", lw=1.5))  # fmt: skip
        middle = np.mean(np.asarray(feature["polygon"]), axis=0)
        ax.text(
            float(middle[0]),
            float(middle[1]),
            feature["name"] + (" (burning)" if index in burning else ""),
            ha="center",
            va="center",
            fontsize=6,
        )
    reach = float(board.get("control_range", 0))
    for number, (x, y) in enumerate(board.get("objectives", []), start=1):
        ax.add_patch(Circle((x, y), reach, fill=False, ls="--", lw=0.6, color="#555"))
        ax.text(x, y, str(number), ha="center", va="center", fontsize=9, weight="bold")
    _draw_units(ax, state)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(board.get("unit", "cm"))
    fig.tight_layout()
    return save_figure(fig, path, option)


def _draw_units(ax: Axes, state: GameState) -> None:
    for index, unit in enumerate(state.units):
        mask = (state.unit_of == index) & state.alive & state.deployed
        if not mask.any():
            continue
        colour = SIDE_COLOURS[unit.side]
        for (x, y), r in zip(state.pos[mask], state.radius[mask], strict=True):
            ax.add_patch(Circle((x, y), r, color=colour, alpha=0.85, lw=0.3, ec="black"))
        cx, cy = state.pos[mask].mean(axis=0)
        label = f"{unit.name} ({int(mask.sum())})"
        ax.text(cx, cy + 3.2, label, ha="center", fontsize=6, color=colour, weight="bold")
