"""A picture of a battle: the board (territories, terrain, objectives) and every miniature."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Polygon
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from openwar.engine.state import GameState
from openwar.outputs import PICTURES, check_output, picture_option, save_figure
from openwar.render.backend import plain_text  # and Agg

SIDE_COLOURS = ("#3b6fb6", "#c0392b")
HALO = [patheffects.withStroke(linewidth=2.2, foreground="white")]  # text readable on models
EDGE = 2.0  # pixels a name keeps from the table's edges
LEGEND_STRIP = 0.35  # inches at the figure's foot for the sides' legend
LABELS_ON_TOP = 5  # z-order: unit names above models (2), objectives above the names


@plain_text
def draw_battle(
    state: GameState, path: Path, title: str, sides: tuple[str, str] | None = None
) -> Path:
    """Write the table as it stands (PNG or SVG; the same state gives the same bytes); with
    ``sides``, a legend names each side's colour."""
    option = picture_option(path)
    check_output(path, option, PICTURES)
    board = state.board
    width, depth = float(board["width"]), float(board["depth"])
    strip = LEGEND_STRIP if sides is not None else 0.0
    fig, ax = plt.subplots(figsize=(8, 8 * depth / width + 0.6 + strip), dpi=100)
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
        ax.text(x, y, str(number), ha="center", va="center", fontsize=9, weight="bold",
                zorder=LABELS_ON_TOP + 1, path_effects=HALO)  # fmt: skip
    names = _draw_units(ax, state)
    if sides is not None:  # below the table, in a strip of the figure kept for it
        handles = [
            Line2D([], [], ls="", marker="o", ms=8, mfc=colour, mec="black", mew=0.3,
                   alpha=0.85, label=name)
            for colour, name in zip(SIDE_COLOURS, sides, strict=True)
        ]  # fmt: skip
        fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.01, 0.0), ncol=2,
                   fontsize=8, frameon=False)  # fmt: skip
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(board.get("unit", "cm"))
    fig.tight_layout(rect=(0, strip / fig.get_figheight(), 1, 1))
    _place_labels(fig, ax, names)
    return save_figure(fig, path, option)


Anchor = Literal["bottom", "top"]  # a name above its models (its bottom), or below (its top)


@dataclass(frozen=True)
class _Name:
    """A unit's name on the picture, the height just below its models (where the name may go
    instead of above them), and its models."""

    text: Text
    below: float
    models: list[Patch]


def _draw_units(ax: Axes, state: GameState) -> list[_Name]:
    """Each unit's models, and its name and model count above them (moved later, by
    :func:`_place_labels`, where it would cover another name or models)."""
    gap = 0.012 * float(state.board["depth"])
    names: list[_Name] = []
    for index, unit in enumerate(state.units):
        mask = (state.unit_of == index) & state.alive & state.deployed
        if not mask.any():
            continue
        colour = SIDE_COLOURS[unit.side]
        models = [
            ax.add_patch(Circle((x, y), r, color=colour, alpha=0.85, lw=0.3, ec="black"))
            for (x, y), r in zip(state.pos[mask], state.radius[mask], strict=True)
        ]
        xs, ys, rs = state.pos[mask, 0], state.pos[mask, 1], state.radius[mask]
        text = ax.text(float(xs.mean()), float((ys + rs).max() + gap),
                       f"{unit.name} ({int(mask.sum())})", ha="center", va="bottom",
                       fontsize=6.5, color=colour, weight="bold", zorder=LABELS_ON_TOP,
                       path_effects=HALO)  # fmt: skip
        text.set_in_layout(False)  # placed after the layout: a long name moves no margin
        names.append(_Name(text, float((ys - rs).min() - gap), models))
    return names


def _place_labels(fig: Figure, ax: Axes, names: list[_Name]) -> None:
    """Place each unit's name, in the units' order (so the same state gives the same
    picture), at the first of: above its models, below them, then further above and below,
    a line at a time, that covers no name already placed, no other text and no other unit's
    models; failing that, the first that covers no name or text; failing that, above its
    models. The table's edges keep every name in."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg (render.backend)
    ours = {id(name.text) for name in names}
    placed = [t.get_window_extent(renderer) for t in ax.texts if id(t) not in ours]
    models = [[m.get_window_extent(renderer) for m in name.models] for name in names]
    frame = ax.get_window_extent(renderer)
    to_data = ax.transData.inverted()
    for i, name in enumerate(names):
        x, above = name.text.get_position()
        height = name.text.get_window_extent(renderer).height
        line = abs(to_data.transform((0, height))[1] - to_data.transform((0, 0))[1])
        tries: list[tuple[float, Anchor]] = []
        for k in range(6):
            tries += [(above + k * line, "bottom"), (name.below - k * line, "top")]
        others = [box for j, boxes in enumerate(models) if j != i for box in boxes]
        boxes = [_put(name.text, (x, y), anchor, renderer, frame) for y, anchor in tries]
        fits = [b for b in boxes if _inside(b, frame) and not _covers(b, placed)]
        best = next((b for b in fits if not _covers(b, others)), fits[0] if fits else None)
        y, anchor = tries[boxes.index(best)] if best is not None else tries[0]
        placed.append(_put(name.text, (x, y), anchor, renderer, frame))


def _put(text: Text, at: tuple[float, float], anchor: Anchor, renderer: Any, frame: Bbox) -> Bbox:
    """Put a name at ``at``, moved sideways onto the table if it would stick out; its box."""
    text.set_position(at)
    text.set_verticalalignment(anchor)
    box = text.get_window_extent(renderer)
    shift = _into(box, frame)
    if shift:  # pixels to the text's own (data) units
        back = text.get_transform().inverted()
        moved = back.transform((box.x0 + shift, box.y0)) - back.transform((box.x0, box.y0))
        text.set_x(at[0] + float(moved[0]))
        box = text.get_window_extent(renderer)
    return box


def _covers(box: Bbox, others: list[Bbox]) -> bool:
    return any(box.overlaps(other) for other in others)


def _inside(box: Bbox, frame: Bbox) -> bool:
    return bool(frame.y0 <= box.y0 and box.y1 <= frame.y1)


def _into(box: Bbox, frame: Bbox) -> float:
    """How far (in pixels) a name must move sideways to stay on the table."""
    if box.x0 < frame.x0 + EDGE:
        return float(frame.x0 + EDGE - box.x0)
    if box.x1 > frame.x1 - EDGE:
        return float(frame.x1 - EDGE - box.x1)
    return 0.0
