"""Line of sight through sight-blocking terrain (design decision BP.13 in docs/rules/aos.md)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from openwar.geometry import (
    PlacedBase,
    RoundBase,
    has_line_of_sight,
    ruleset_unit,
    visibility_matrix,
)
from openwar.geometry.units import LengthUnit, inches_to_cm

WALL = box(4, -2, 6, 2)


def at(x: float, y: float) -> PlacedBase:
    return PlacedBase(RoundBase(1), x, y)


def test_aos_bp_13_wide_feature_between_blocks_sight() -> None:
    assert not has_line_of_sight(at(0, 0), at(10, 0), [WALL])


def test_aos_bp_13_one_clear_sight_line_is_enough() -> None:
    assert has_line_of_sight(at(0, 0), at(10, 0), [box(4, -0.2, 6, 0.2)])
    assert has_line_of_sight(at(0, 2.3), at(10, 2.3), [WALL])


def test_aos_bp_13_model_inside_a_feature_sees_out() -> None:
    assert has_line_of_sight(at(5, 0), at(10, 0), [WALL])
    assert has_line_of_sight(at(0, 0), at(5, 0), [WALL])


coord = st.floats(-20, 20, allow_nan=False).map(lambda v: round(v, 3))


@settings(max_examples=40)
@given(
    st.lists(st.tuples(coord, coord), min_size=1, max_size=5),
    st.lists(st.tuples(coord, coord), min_size=1, max_size=5),
)
def test_visibility_matrix_matches_pairwise(
    a: list[tuple[float, float]], b: list[tuple[float, float]]
) -> None:
    walls = [WALL, box(-10, 8, -4, 9)]
    matrix = visibility_matrix(
        np.array(a), np.full(len(a), 0.5), np.array(b), np.full(len(b), 0.5), walls
    )
    for i, pa in enumerate(a):
        for j, pb in enumerate(b):
            assert matrix[i, j] == has_line_of_sight(at(*pa), at(*pb), walls)


def test_each_ruleset_states_its_unit() -> None:
    assert ruleset_unit("openwar") is LengthUnit.CM
    assert {ruleset_unit(r) for r in ("aos", "opr", "oldworld")} == {LengthUnit.INCH}
    assert inches_to_cm(6) == 15


def test_aos_bp_13_a_rectangular_base_sees_from_its_own_edges() -> None:
    """Half the diagonal put a 4 x 1 base's side points 2" off its long axis, past a wall
    that hides the whole base."""
    from openwar.geometry.bases import RectangularBase

    long = PlacedBase(RectangularBase(4, 1), 0, 0)  # x -2..2, y -0.5..0.5
    assert not has_line_of_sight(long, at(30, 0), [box(2.5, -0.8, 3, 0.8)])
    assert has_line_of_sight(long, at(30, 0), [box(2.5, -0.3, 3, 0.3)])
