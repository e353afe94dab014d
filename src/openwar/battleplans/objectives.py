"""Placing a victory condition's objectives so that its own gaps hold (all are "more than")."""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from openwar.battleplans.data import ObjectivePlan
from openwar.errors import OpenWarError
from openwar.geometry import Battlefield, Objective, Territory

LAYOUT_TRIES = 60  # whole layouts tried before giving up (design decision)
SPOT_TRIES = 200  # random spots tried per objective within one layout

Spot = tuple[float, float]


class BattlefieldTooSmallError(OpenWarError):
    """The battlefield has no room for what the battleplan asks."""


def regions(
    plan: ObjectivePlan, battlefield: Battlefield, lands: dict[str, Territory]
) -> list[BaseGeometry]:
    """The area each non-centre objective must lie in, in the order they are numbered."""
    inner = battlefield.inner(plan.edge_gap)
    wanted: list[BaseGeometry] = []
    for side in sorted(lands):
        wanted += [lands[side].area.intersection(inner)] * plan.per_territory
    if plan.anywhere:
        centre = shapely.Point(battlefield.centre).buffer(outside(plan.centre_gap), quad_segs=32)
        wanted += [inner.difference(centre)] * plan.anywhere
    return wanted


def outside(radius: float, quad_segs: int = 32) -> float:
    """The radius of a buffer of ``quad_segs`` segments a quarter whose polygon holds the whole
    circle of ``radius``: a buffer's polygon lies inside its circle, so "more than 12 inches
    from the centre" kept out of it allowed a point 11.997 inches away.

    >>> round(outside(12.0) - 12.0, 4)
    0.0036
    """
    return radius / math.cos(math.pi / (4 * quad_segs)) * (1 + 1e-9)  # and its rounding


def far_enough(spot: Spot, placed: list[Spot], spacing: float) -> bool:
    return all(math.hypot(spot[0] - x, spot[1] - y) > spacing for x, y in placed)


def random_spot(
    region: BaseGeometry, placed: list[Spot], spacing: float, rng: np.random.Generator
) -> Spot | None:
    """A random point strictly inside ``region`` more than ``spacing`` from every placed one."""
    if region.is_empty:
        return None
    minx, miny, maxx, maxy = region.bounds
    for _ in range(SPOT_TRIES):
        spot = (float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy)))
        if region.contains(shapely.Point(spot)) and far_enough(spot, placed, spacing):
            return spot
    return None


def try_layout(
    plan: ObjectivePlan, start: list[Spot], wanted: list[BaseGeometry], rng: np.random.Generator
) -> list[Spot] | None:
    placed = list(start)
    for region in wanted:
        spot = random_spot(region, placed, plan.spacing, rng)
        if spot is None:
            return None
        placed.append(spot)
    return placed


def place_objectives(
    plan: ObjectivePlan, battlefield: Battlefield, lands: dict[str, Territory],
    rng: np.random.Generator, what: str,
) -> tuple[Objective, ...]:  # fmt: skip
    """Number the objectives: the centre one first, then territory A's, B's, then the rest."""
    start = [battlefield.centre] if plan.centre else []
    wanted = regions(plan, battlefield, lands)
    for _ in range(LAYOUT_TRIES):
        layout = try_layout(plan, start, wanted, rng)
        if layout is not None:
            return tuple(Objective(n, x, y) for n, (x, y) in enumerate(layout, start=1))
    size = f"{battlefield.width:g}x{battlefield.depth:g} {battlefield.unit.value}"
    raise BattlefieldTooSmallError(
        f"the {size} battlefield is too small to place the objectives of {what}"
    )


def objective_side(objective: Objective, lands: dict[str, Territory]) -> str | None:
    """The territory an objective lies in, if any."""
    for side, land in sorted(lands.items()):
        if land.area.contains(shapely.Point(objective.centre)):
            return side
    return None
