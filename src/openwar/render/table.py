"""A picture of a battleplan's table: territories, deployment limits, terrain with scenery names
and numbered objectives (PNG or SVG; the same battleplan gives the same bytes)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Circle
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from openwar.battleplans.generator import Battleplan
from openwar.geometry import Battlefield, LengthUnit, Territory
from openwar.outputs import PICTURES, check_output, picture_option, save_figure
from openwar.render.backend import plain_text  # and Agg

SIDE_COLOURS = {"A": "#3b6fb6", "B": "#c0392b"}
GRID_STEP = {LengthUnit.INCH: 6.0, LengthUnit.CM: 10.0}  # a ruler line every 6" or 10 cm
FIGURE_WIDTH = 11.0  # inches of paper


def _outlines(shape: BaseGeometry) -> list[Polygon]:
    if isinstance(shape, Polygon):
        return [shape]
    return [part for part in getattr(shape, "geoms", []) if isinstance(part, Polygon)]


def _fill(ax: Axes, shape: BaseGeometry, **style: object) -> None:
    for part in _outlines(shape):
        xs, ys = part.exterior.xy
        ax.fill(list(xs), list(ys), **style)  # type: ignore[arg-type]


def draw_territories(ax: Axes, lands: dict[str, Territory], zones: dict[str, BaseGeometry]) -> None:
    """Fill each territory and dash the limit of its deployment zone."""
    for side, land in lands.items():
        colour = SIDE_COLOURS[side]
        _fill(ax, land.area, color=colour, alpha=0.18, lw=0)
        for part in _outlines(zones[side]):
            xs, ys = part.exterior.xy
            ax.plot(list(xs), list(ys), color=colour, lw=1.2, ls="--")
        x, y = land.area.representative_point().coords[0]
        ax.text(x, y, f"Territory {side}", color=colour, ha="center", va="center",
                fontsize=13, fontweight="bold", alpha=0.8)  # fmt: skip


def draw_terrain(ax: Axes, plan: Battleplan) -> None:
    for n, feature in enumerate(plan.terrain.features, start=1):
        colour = "#5d4e3a" if feature.blocks_sight else "#b59f6b"
        _fill(ax, feature.outline, color=colour, alpha=0.85, ec="#2b2218", lw=1)
        x, y = feature.outline.centroid.coords[0]
        label = f"T{n} {feature.name}"
        if feature.scenery is not None:
            label += f"\n({feature.scenery.name})"
        ax.text(x, y, label, ha="center", va="center", fontsize=7, color="white",
                bbox={"boxstyle": "round,pad=0.2", "fc": "#00000088", "lw": 0})  # fmt: skip


def draw_objectives(ax: Axes, plan: Battleplan) -> None:
    for objective in plan.objectives:
        ring = Circle(objective.centre, plan.control_range, fill=False, ls=":", color="#7a5c00")
        ax.add_patch(ring)
        ax.plot(*objective.centre, "o", ms=17, mfc="#f2c14e", mec="black")
        ax.text(*objective.centre, str(objective.number), ha="center", va="center",
                fontsize=10, fontweight="bold")  # fmt: skip


def _grid(ax: Axes, field: Battlefield) -> None:
    unit = field.unit
    step = GRID_STEP[unit]
    ax.set_xlim(0, field.width)
    ax.set_ylim(0, field.depth)
    ax.set_aspect("equal")
    ax.set_facecolor("#e8eedc")
    ax.set_xticks([i * step for i in range(int(field.width // step) + 1)])
    ax.set_yticks([i * step for i in range(int(field.depth // step) + 1)])
    ax.grid(True, color="white", lw=0.6)
    ax.set_axisbelow(True)
    ax.set_ylabel(f"y ({unit.value})")
    ax.text(field.width / 2, field.depth, "NORTH", ha="center", va="bottom", fontsize=9)


def _frame(ax: Axes, plan: Battleplan) -> None:
    field, unit = plan.battlefield, plan.unit
    _grid(ax, field)
    ax.set_xlabel(
        f"x ({unit.value}), west to east.   Dashed: deployment limit.   Dark terrain blocks sight."
        f"   Dotted: objective control range ({plan.control_range:g} {unit.value})."
    )
    title = f"Map {plan.map.roll}: {plan.map.name} - {plan.victory.name}"
    if plan.twist is not None:
        title += f" - twist: {plan.twist.name}"
    ax.set_title(title + f"\n{field.width:g} x {field.depth:g} {unit.value}", fontsize=11, pad=14)


def _save(path: Path, field: Battlefield, width: float, draw: Callable[[Axes], None]) -> Path:
    option = picture_option(path)
    check_output(path, option, PICTURES)
    height = width * field.depth / field.width + 1.3
    with plt.rc_context():
        plt.rcParams["svg.fonttype"] = "path"
        fig, ax = plt.subplots(figsize=(width, height), dpi=100)
        draw(ax)
        fig.tight_layout()
        return save_figure(fig, path, option)  # in the context: the SVG's fonts are paths


@plain_text
def draw_battleplan(plan: Battleplan, path: Path) -> Path:
    """Write the table picture to ``path`` (.png or .svg)."""

    def draw(ax: Axes) -> None:
        _frame(ax, plan)
        draw_territories(ax, plan.territories, plan.deployment_zones)
        draw_terrain(ax, plan)
        draw_objectives(ax, plan)

    return _save(path, plan.battlefield, FIGURE_WIDTH, draw)


@plain_text
def draw_map(
    title: str, field: Battlefield, lands: dict[str, Territory], zones: dict[str, BaseGeometry],
    path: Path, width: float = 5.0,
) -> Path:  # fmt: skip
    """A small picture of one map: territories and deployment limits only."""

    def draw(ax: Axes) -> None:
        _grid(ax, field)
        ax.set_title(title, fontsize=10)
        draw_territories(ax, lands, zones)

    return _save(path, field, width, draw)
