"""Distances and containment: scalar against shapely, vectorised against scalar (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from openwar.geometry import (
    Battlefield,
    PlacedBase,
    RectangularBase,
    RoundBase,
    base_distance,
    base_to_point_distance,
    base_to_polygon_distance,
    point_to_polygon_distance,
    wholly_within_polygon,
    wholly_within_range,
    within,
)
from openwar.geometry import vectorised as vec

coord = st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 3))
size = st.floats(0.5, 6, allow_nan=False)
angle = st.floats(0, 360, allow_nan=False)
round_bases = st.builds(lambda d, x, y: PlacedBase(RoundBase(d), x, y), size, coord, coord)
rect_bases = st.builds(
    lambda w, d, x, y, f: PlacedBase(RectangularBase(w, d), x, y, f),
    size,
    size,
    coord,
    coord,
    angle,
)
any_base = st.one_of(round_bases, rect_bases)
areas = st.builds(lambda x, y, w, d: box(x, y, x + w, y + d), coord, coord, size, size)
DRAWN = 0.02  # a round base drawn as a 64-gon sits this close (relative) inside the circle


@given(any_base, any_base)
def test_base_distance_is_symmetric_and_never_negative(a: PlacedBase, b: PlacedBase) -> None:
    assert base_distance(a, b) >= 0
    assert base_distance(a, b) == pytest.approx(base_distance(b, a), abs=1e-9)


@given(round_bases, round_bases)
def test_round_base_distance_matches_the_drawn_circles(a: PlacedBase, b: PlacedBase) -> None:
    drawn = float(shapely.distance(a.footprint, b.footprint))
    tolerance = DRAWN * (a.radius + b.radius) + 1e-9
    assert base_distance(a, b) == pytest.approx(drawn, abs=tolerance)


@given(any_base, any_base, st.floats(0, 20))
def test_within_agrees_with_distance(a: PlacedBase, b: PlacedBase, limit: float) -> None:
    assert within(a, b, limit) == (base_distance(a, b) <= limit)


@given(any_base, coord, coord, st.floats(0, 40))
def test_wholly_within_range_implies_within(a: PlacedBase, x: float, y: float, r: float) -> None:
    if wholly_within_range(a, (x, y), r):
        assert base_to_point_distance(a, (x, y)) <= r
        assert math.hypot(a.x - x, a.y - y) <= r


@given(coord, coord, areas)
def test_point_distance_is_zero_exactly_inside(x: float, y: float, area: shapely.Polygon) -> None:
    inside = area.covers(shapely.Point(x, y))
    assert (point_to_polygon_distance((x, y), area) == 0) == inside


@given(any_base, areas)
def test_wholly_within_polygon_means_no_part_outside(a: PlacedBase, area: shapely.Polygon) -> None:
    if wholly_within_polygon(a, area):
        outside = a.footprint.difference(area).area
        assert outside <= 1e-9 * max(1.0, a.footprint.area)
        assert base_to_polygon_distance(a, area) == 0


def test_round_base_just_inside_and_just_outside_a_square() -> None:
    area = box(0, 0, 10, 10)
    assert wholly_within_polygon(PlacedBase(RoundBase(2), 1, 5), area)
    assert not wholly_within_polygon(PlacedBase(RoundBase(2), 0.99, 5), area)
    assert base_to_polygon_distance(PlacedBase(RoundBase(2), 13, 5), area) == pytest.approx(2)


arrays = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.lists(st.tuples(coord, coord), min_size=n, max_size=n),
        st.lists(st.floats(0.25, 3), min_size=n, max_size=n),
    )
)


@settings(max_examples=50)
@given(arrays, arrays)
def test_vectorised_round_distances_match_scalar(
    a: tuple[list[tuple[float, float]], list[float]],
    b: tuple[list[tuple[float, float]], list[float]],
) -> None:
    got = vec.round_base_distances(np.array(a[0]), np.array(a[1]), np.array(b[0]), np.array(b[1]))
    for i, (pa, ra) in enumerate(zip(*a, strict=True)):
        for j, (pb, rb) in enumerate(zip(*b, strict=True)):
            want = base_distance(
                PlacedBase(RoundBase(2 * ra), *pa), PlacedBase(RoundBase(2 * rb), *pb)
            )
            assert got[i, j] == pytest.approx(want, abs=1e-9)


@settings(max_examples=50)
@given(arrays, areas)
def test_vectorised_polygon_queries_match_scalar(
    a: tuple[list[tuple[float, float]], list[float]], area: shapely.Polygon
) -> None:
    xy, r = np.array(a[0]), np.array(a[1])
    gaps = vec.bases_to_polygon_distances(xy, r, area)
    inside = vec.wholly_within_polygon_mask(xy, r, area)
    for k, (p, radius) in enumerate(zip(*a, strict=True)):
        base = PlacedBase(RoundBase(2 * radius), *p)
        assert gaps[k] == pytest.approx(base_to_polygon_distance(base, area), abs=1e-9)
        assert bool(inside[k]) == wholly_within_polygon(base, area)


@settings(max_examples=30)
@given(st.lists(st.tuples(coord, coord, size, size, angle), min_size=1, max_size=6))
def test_vectorised_rectangles_match_scalar(
    rows: list[tuple[float, float, float, float, float]],
) -> None:
    data = np.array(rows)
    shapes = vec.rectangular_footprints(data[:, :2], data[:, 2], data[:, 3], data[:, 4])
    got = vec.footprint_distances(shapes, shapes)
    bases = [PlacedBase(RectangularBase(w, d), x, y, f) for x, y, w, d, f in rows]
    for i, a in enumerate(bases):
        assert shapes[i].area == pytest.approx(a.footprint.area)
        for j, b in enumerate(bases):
            assert got[i, j] == pytest.approx(base_distance(a, b), abs=1e-7)


def test_battlefield_edges_and_inner_area() -> None:
    field = Battlefield(44, 30)
    assert field.edge_distance(np.array([[22.0, 15.0], [1.0, 29.0]])).tolist() == [15.0, 1.0]
    assert field.inner(3).bounds == (3, 3, 41, 27)
    assert field.inner(15).is_empty


def test_a_round_base_touching_a_rectangle_is_0_apart() -> None:
    """Measured from the circle's centre, not its 64-gon: touching read 0.0015 apart."""
    from openwar.geometry.measure import base_distance, within

    round_base = PlacedBase(RoundBase(2.5), 0, 0)  # 25 mm across: radius 1.25
    rectangle = PlacedBase(RectangularBase(4, 1), 0, 1.75)  # its near edge at y = 1.25
    assert base_distance(round_base, rectangle) == 0.0 and within(round_base, rectangle, 0)
    turn = math.radians(2.8125)  # touching midway between two corners of the drawn 64-gon
    turned = PlacedBase(RectangularBase(4, 1), 1.75 * math.sin(turn), 1.75 * math.cos(turn),
                        -2.8125)  # fmt: skip
    assert base_distance(round_base, turned) == pytest.approx(0.0, abs=1e-12)
    assert base_distance(rectangle, PlacedBase(RoundBase(2.5), 0, 4.25)) == pytest.approx(0.75)
