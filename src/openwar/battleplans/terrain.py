"""Setting up terrain: random features more than the edge gap from every edge and more than the
feature gap from each other. A feature that its random tries cannot place is looked for on a
grid of centres and turns (``search_step``, ``search_turns``), one of the legal places found
taken at random; only a feature with none is not used."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Polygon, box

from openwar.battleplans.data import TableRow, TerrainKind, TerrainRules
from openwar.battleplans.tables import roll_on
from openwar.dice import Roller
from openwar.geometry import Battlefield, SceneryRule, TerrainFeature

ELLIPSE_SEGMENTS = 8  # quarter-ellipse segments of a drawn ellipse


@dataclass(frozen=True, slots=True)
class TerrainSetUp:
    """The features set up, and the names of those that found no legal place."""

    features: tuple[TerrainFeature, ...]
    unused: tuple[str, ...]


def footprint(kind: TerrainKind) -> Polygon:
    """The feature's outline centred on the origin, before turning."""
    if kind.shape == "rectangle":
        return box(-kind.width / 2, -kind.depth / 2, kind.width / 2, kind.depth / 2)
    circle = shapely.Point(0.0, 0.0).buffer(1.0, quad_segs=ELLIPSE_SEGMENTS)
    scaled = affinity.scale(circle, kind.width / 2, kind.depth / 2, origin=(0, 0))
    assert isinstance(scaled, Polygon)
    return scaled


def choose_features(
    catalogue: list[TerrainKind], count: int, rng: np.random.Generator
) -> list[TerrainKind]:
    """``count`` features: the catalogue shuffled, dealt again if more are needed."""
    chosen: list[TerrainKind] = []
    while len(chosen) < count:
        chosen += [catalogue[i] for i in rng.permutation(len(catalogue))]
    return chosen[:count]


def legal_spot(
    shape: Polygon, placed: list[Polygon], battlefield: Battlefield, rules: TerrainRules
) -> bool:
    """More than the edge gap from every edge and the feature gap from every placed feature."""
    if battlefield.shape_edge_distance(shape) <= rules.edge_gap:
        return False
    if not placed:
        return True
    gaps = shapely.distance(shape, np.asarray(placed, dtype=object))
    return bool(np.all(gaps > rules.feature_gap))


def try_to_place(
    kind: TerrainKind, placed: list[Polygon], battlefield: Battlefield, rules: TerrainRules,
    rng: np.random.Generator,
) -> Polygon | None:  # fmt: skip
    """A legal outline for the feature: a random one, else one of the grid's (:func:`search`);
    None when neither finds any."""
    outline = footprint(kind)
    for _ in range(rules.placement_tries):
        turned = affinity.rotate(outline, float(rng.uniform(0.0, 180.0)), origin=(0, 0))
        minx, miny, maxx, maxy = turned.bounds
        low_x, high_x = rules.edge_gap - minx, battlefield.width - rules.edge_gap - maxx
        low_y, high_y = rules.edge_gap - miny, battlefield.depth - rules.edge_gap - maxy
        if low_x >= high_x or low_y >= high_y:
            continue
        x, y = float(rng.uniform(low_x, high_x)), float(rng.uniform(low_y, high_y))
        shape = affinity.translate(turned, x, y)
        if legal_spot(shape, placed, battlefield, rules):
            return shape
    found = search(outline, placed, battlefield, rules)
    return found[int(rng.integers(len(found)))] if found else None


def search(
    outline: Polygon, placed: list[Polygon], battlefield: Battlefield, rules: TerrainRules
) -> list[Polygon]:
    """Every legal place of ``outline`` with its centre on a grid of ``search_step`` and turned
    by each of ``search_turns`` angles in [0, 180): after the random tries, so a feature is
    left out only when no place is legal to the grid's resolution (seed 000: a feature is
    left out when it cannot be set up)."""
    found: list[Polygon] = []
    for feature in placed:
        shapely.prepare(feature)  # each is measured against thousands of places
    for turn in range(rules.search_turns):
        turned = affinity.rotate(outline, 180.0 * turn / rules.search_turns, origin=(0, 0))
        minx, miny, maxx, maxy = turned.bounds
        xs = np.arange(rules.edge_gap - minx, battlefield.width - rules.edge_gap - maxx,
                       rules.search_step)  # fmt: skip
        ys = np.arange(rules.edge_gap - miny, battlefield.depth - rules.edge_gap - maxy,
                       rules.search_step)  # fmt: skip
        if not len(xs) or not len(ys):
            continue
        corners = np.asarray(turned.exterior.coords)
        centres = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
        points = shapely.points(centres)
        near = np.zeros(len(centres), dtype=bool)  # a centre that near a feature: the whole
        for feature in placed:  # shape is nearer still, so it is not drawn at all
            near |= shapely.dwithin(points, feature, rules.feature_gap)
        centres = centres[~near][:, None, :]
        if not len(centres):
            continue
        shapes = shapely.polygons(corners[None, :, :] + centres)
        low_x, low_y, high_x, high_y = shapely.bounds(shapes).T  # as legal_spot measures
        legal = (np.minimum(low_x, low_y) > rules.edge_gap) & (
            np.minimum(battlefield.width - high_x, battlefield.depth - high_y) > rules.edge_gap
        )
        for feature in placed:  # only the places still legal are measured again
            still = np.flatnonzero(legal)
            if not len(still):
                break
            legal[still] = ~shapely.dwithin(shapes[still], feature, rules.feature_gap)
        found += list(shapes[legal])
    return found


def set_up_terrain(
    rules: TerrainRules, scenery: list[TableRow], battlefield: Battlefield, count: int,
    rng: np.random.Generator, roller: Roller,
) -> TerrainSetUp:  # fmt: skip
    """Place ``count`` features one by one; roll a scenery rule for each one placed."""
    features: list[TerrainFeature] = []
    unused: list[str] = []
    for kind in choose_features(rules.catalogue, count, rng):
        shape = try_to_place(kind, [f.outline for f in features], battlefield, rules, rng)
        if shape is None:
            unused.append(kind.name)
            continue
        rule = None
        if rules.roll_scenery:
            row = roll_on(scenery, roller)
            rule = SceneryRule(row.roll, row.name)
        features.append(TerrainFeature(kind.name, shape, kind.blocks_sight, rule))
    return TerrainSetUp(tuple(features), tuple(unused))
