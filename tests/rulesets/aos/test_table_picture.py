"""The picture of the table (`openwar battle --png/--svg`): unit names placed where they
cover no other name and stay on the table; a legend names the sides."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

from openwar.engine.state import GameState
from openwar.render.battle import _draw_units, _place_labels, draw_battle
from openwar.rulesets.aos.forces import ForceUnit

from .kit import R, battle, line, place, profile


def named(uid: str, size: int) -> ForceUnit:
    return ForceUnit(uid, f"Company of the Long Name {uid}", "Test", 100, profile(), (0,) * size, R)


def crowded() -> GameState:
    """Three units side by side, their names wider than the units are apart; a fourth by the
    table's top edge; a fifth just above a sixth."""
    ours = [named("a", 3), named("c", 3)]
    state = battle(ours, [named("b", 3), named("d", 1), named("e", 1), named("f", 1)])
    place(state, "a", line(20.0, 20.0, 3))
    place(state, "c", line(22.0, 20.0, 3))
    place(state, "b", line(24.0, 20.0, 3))
    place(state, "d", [(1.0, 43.5)])  # by the top edge: its name cannot go above it
    place(state, "e", [(10.0, 10.0 + 2 * R + 0.3)])  # just above f: f's name goes below f
    place(state, "f", [(10.0, 10.0)])
    return state


def test_unit_names_cover_no_other_name_and_stay_on_the_table() -> None:
    state = crowded()
    fig, ax = plt.subplots(figsize=(8, 6))
    ax.set_xlim(0, 60)
    ax.set_ylim(0, 44)
    names = _draw_units(ax, state)
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    before = [name.text.get_window_extent(renderer) for name in names]
    assert any(before[i].overlaps(before[j]) for i in range(3) for j in range(i + 1, 3))
    assert before[5].overlaps(names[4].models[0].get_window_extent(renderer))  # f's over e
    _place_labels(fig, ax, names)
    boxes = [name.text.get_window_extent(renderer) for name in names]
    frame = ax.get_window_extent(renderer)
    n = len(boxes)
    assert not any(boxes[i].overlaps(boxes[j]) for i in range(n) for j in range(i + 1, n))
    assert all(frame.x0 <= b.x0 and b.x1 <= frame.x1 and b.y1 <= frame.y1 for b in boxes)
    for i, box in enumerate(boxes):  # no name covers another unit's models: there is room
        others = [m for j, name in enumerate(names) if j != i for m in name.models]
        assert not any(box.overlaps(m.get_window_extent(renderer)) for m in others), i
    plt.close(fig)


def test_the_picture_names_each_sides_colour_and_is_the_same_bytes_each_time(
    tmp_path: Path,
) -> None:
    state = crowded()
    sides = ("A: First Host", "B: Second Host")
    paths = [draw_battle(state, tmp_path / f"{k}.svg", "t", sides) for k in (1, 2)]
    text = paths[0].read_text()
    assert "A: First Host" in text and "B: Second Host" in text
    assert paths[0].read_bytes() == paths[1].read_bytes()


def test_a_dollar_sign_in_a_name_is_drawn_as_written_not_read_as_a_formula(
    tmp_path: Path,
) -> None:
    """Matplotlib read text between two "$" as a formula: a unit named "Bolt $\\foo$" stopped
    the picture with a traceback, and "Pay $5 or $10" came out in italics."""
    state = battle([named(r"Bolt $\foo$", 1)], [named("Pay $5 or $10", 1)])
    place(state, r"Bolt $\foo$", [(10.0, 10.0)])
    place(state, "Pay $5 or $10", [(30.0, 30.0)])
    for suffix in ("png", "svg"):
        path = tmp_path / f"t.{suffix}"
        assert draw_battle(state, path, "$x$", (r"A: $\bar$", "B: $1")).stat().st_size > 0
    assert matplotlib.rcParams["text.parse_math"]  # matplotlib left as it was for others
