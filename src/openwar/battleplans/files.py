"""A battleplan JSON file (``openwar battleplan --json``) read back to play on.

``openwar battle``, ``simulate`` and ``sweep`` all read a ``--battleplan`` here: the file is
checked field by field against the armies' ruleset, so a plan for the other ruleset or with a
field missing is refused in one line naming the file and the field, before any battle starts.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import Point, Polygon, box

from openwar.errors import OpenWarError
from openwar.rulesets.sources import YamlReadError, json_problem, read_text_file
from openwar.words import counted

NAMES = {"openwar": "OpenWar"}  # how a message names a ruleset's battle (else by its name)


def plan_units() -> dict[str, str]:
    """The rulesets ``openwar battleplan`` makes plans for, and the unit of their lengths."""
    from openwar.rulesets import RULESETS, load_ruleset

    found = {name: load_ruleset(name) for name in RULESETS}
    return {name: r.length_unit for name, r in found.items() if "battleplans" in r.supports}


def read_battleplan(path: Path, ruleset: str) -> dict[str, Any]:
    """The plan in a battleplan JSON file, checked for a ``ruleset`` battle."""
    return _read(path, ruleset)[0]


def points_note(plan: dict[str, Any], limits: Sequence[int | None]) -> str | None:
    """A note when a battleplan file was made for other points than an army's limit (its
    table's size and its terrain follow the points): the battle is played on it all the same.

    >>> points_note({"points": 500}, [1000, None])
    "the battleplan was made for 500 points, army A's limit is 1000: played on it all the same"
    >>> points_note({"points": 1000}, [2000, 1500])
    "the battleplan was made for 1000 points, army A's limit is 2000 and B's 1500: played on \
it all the same"
    >>> points_note({"points": 1000}, [1000, 1000]) is None
    True
    """
    points = plan.get("points")
    if not isinstance(points, int) or isinstance(points, bool):
        return None  # a plan without its points (edited by hand) says nothing of its size
    other = [(side, limit) for side, limit in zip("AB", limits, strict=False)
             if limit is not None and limit != points]  # fmt: skip
    if not other:
        return None
    if len(other) == 2 and other[0][1] == other[1][1]:
        said = f"both armies' limit is {other[0][1]}"
    else:
        said = f"army {other[0][0]}'s limit is {other[0][1]}" + "".join(
            f" and {side}'s {limit}" for side, limit in other[1:]
        )
    return f"the battleplan was made for {points} points, {said}: played on it all the same"


def read_plan_and_board(path: Path, ruleset: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plan in a battleplan JSON file and the board of a ``ruleset`` battle on it."""
    return _read(path, ruleset)


def read_board(path: Path, ruleset: str) -> dict[str, Any]:
    """The board of a ``ruleset`` battle on the plan in a battleplan JSON file."""
    return _read(path, ruleset)[1]


def _read(path: Path, ruleset: str) -> tuple[dict[str, Any], dict[str, Any]]:
    made = f"a battleplan is the JSON that `openwar battleplan --ruleset {ruleset} --json` writes"
    try:
        data = json.loads(read_text_file(path))
    except json.JSONDecodeError as exc:  # where the text stops being JSON, in the file's terms
        raise OpenWarError(f"{path}, {json_problem(exc)}; {made}") from exc
    except YamlReadError as exc:  # it names the file: cannot be read, too large, not UTF-8
        raise OpenWarError(str(exc)) from exc
    except ValueError as exc:
        raise OpenWarError(f"{path}: not a readable battleplan JSON ({exc})") from exc
    except RecursionError:
        raise OpenWarError(f"{path}: not a readable battleplan JSON (nested too deeply)") from None
    try:
        return data, plan_board(data, ruleset)  # the board checks the plan first
    except OpenWarError as exc:
        raise OpenWarError(f"{path}: {exc}") from exc


def plan_board(plan: Any, ruleset: str) -> dict[str, Any]:
    """A plan as the board of a ``ruleset`` battle (each board builder checks the plan with
    :func:`check_battleplan` first); anything it still trips on is one line too."""
    if ruleset == "aos":
        from openwar.rulesets.aos.board import board_from_plan
    else:
        from openwar.rulesets.openwar.board import board_from_plan

    try:
        return board_from_plan(plan)
    except OpenWarError:
        raise
    except (
        KeyError, TypeError, IndexError, ValueError, AttributeError, OverflowError,
        shapely.errors.ShapelyError,
    ) as exc:  # fmt: skip
        raise OpenWarError(f"not a battleplan (missing or bad {exc})") from exc


def check_battleplan(plan: Any, ruleset: str) -> dict[str, Any]:
    """``plan`` if a ``ruleset`` battle can use it; else an error naming its first bad field."""
    made = f"make one with `openwar battleplan --ruleset {ruleset} --json`"
    if not isinstance(plan, dict):
        raise OpenWarError(f"not a battleplan (expected a JSON object; {made})")
    if "final_state_hash" in plan and "actions" in plan:
        raise OpenWarError(f"a battle's replay, not a battleplan (`openwar replay FILE` plays "
                           f"it again; {made})")  # fmt: skip
    if "ruleset" not in plan:
        raise OpenWarError(f'not a battleplan: "ruleset" is missing ({made})')
    made_for = plan["ruleset"]
    units = plan_units()
    if made_for not in units:
        known = " or ".join(repr(name) for name in units)
        raise OpenWarError(f'not a battleplan: "ruleset" is {made_for!r}, expected {known}')
    if made_for != ruleset:
        raise OpenWarError(
            f"the battleplan is for {made_for!r}; an {NAMES.get(ruleset, ruleset)} battle needs "
            f"one made with `openwar battleplan --ruleset {ruleset}`"
        )
    if "units" not in plan:
        raise OpenWarError('not a battleplan: "units" (the unit of its lengths) is missing')
    _field(plan, "units", str)
    if plan["units"] != units[ruleset]:
        raise OpenWarError(
            f'not a battleplan: "units" is {plan["units"]!r}; an {ruleset} battleplan is '
            f"in {units[ruleset]!r}"
        )
    battlefield = _field(plan, "battlefield", dict)
    for edge in ("width", "depth"):
        size = _number(battlefield, edge, "battlefield")
        if size <= 0:
            raise OpenWarError(f'not a battleplan: "battlefield.{edge}" should be above 0')
        if size > MOST_TABLE:
            unit_name = "inches" if plan["units"] == "inch" else str(plan["units"])
            raise OpenWarError(
                f'not a battleplan: "battlefield.{edge}" should be at most {MOST_TABLE:,} '
                f"{unit_name}, not {_shown(size)}"
            )
    board_map = _field(plan, "map", dict, "")
    _field(board_map, "name", str, "map")
    territories = _field(board_map, "territories", dict, "map")
    table = box(0.0, 0.0, float(battlefield["width"]), float(battlefield["depth"]))
    lands = [_area(territories, side, "map.territories", table) for side in ("A", "B")]
    if lands[0].intersection(lands[1]).area > 0.5 * min(land.area for land in lands):
        raise OpenWarError('not a battleplan: "map.territories" A and B mostly overlap')
    victory = _field(plan, "victory", dict)
    _field(victory, "name", str, "victory")
    objectives = _field(victory, "objectives", list, "victory")
    if len(objectives) > MOST_OBJECTIVES:
        raise OpenWarError(f'not a battleplan: more than {MOST_OBJECTIVES} "victory.objectives"')
    for k, point in enumerate(objectives):
        _point(point, f"victory.objectives[{k}]")
        if table.distance(Point(point)) > 1.0:  # past the edge, beyond a rounding's slack
            raise OpenWarError(
                f'not a battleplan: "victory.objectives[{k}]" {_shown(point)} is off the '
                f"{_shown(battlefield['width'])} x {_shown(battlefield['depth'])} battlefield"
            )
    features = _field(plan, "terrain", list)
    for k, feature in enumerate(features):
        where = f"terrain[{k}]"
        if not isinstance(feature, dict):
            raise OpenWarError(f'not a battleplan: "{where}" should be an object')
        _field(feature, "name", str, where)
        _area(feature, "polygon", where, table)  # a shape with an area, on the table
        if feature.get("scenery") is not None:
            _field(feature, "scenery", dict, where)
    if plan.get("game_length") is not None:
        rounds = _number(plan, "game_length", "")
        if rounds != int(rounds) or not 1 <= rounds <= MOST_ROUNDS:
            shown = _shown(plan["game_length"])
            raise OpenWarError(f'not a battleplan: "game_length" should be a whole number of '
                               f"rounds from 1 to {MOST_ROUNDS}, not {shown}")  # fmt: skip
    if plan.get("objective_control_range") is not None:
        reach = _number(plan, "objective_control_range", "")
        if not 0 < reach <= max(battlefield["width"], battlefield["depth"]):
            raise OpenWarError('not a battleplan: "objective_control_range" should be above 0 '
                               "and within the battlefield")  # fmt: skip
    for key in ("twist", "ruses", "roll_offs"):
        if plan.get(key) is not None:
            for name, entry in _field(plan, key, dict).items():
                if key != "twist" and entry is not None and not isinstance(entry, dict):
                    raise OpenWarError(
                        f'not a battleplan: "{key}.{name}" should be an object, not {_shown(entry)}'
                    )
    _known_names(plan, ruleset)  # after the ruses are known to be objects
    if plan.get("twist") is not None:
        _known_twist(plan["twist"], ruleset)
    triumphs = plan.get("triumphs")
    if triumphs is not None and not (
        isinstance(triumphs, str)
        or (isinstance(triumphs, list) and all(isinstance(t, str) for t in triumphs))
    ):
        raise OpenWarError(
            f'not a battleplan: "triumphs" should be side names, not {_shown(triumphs)}'
        )
    return plan


MOST_ROUNDS = 20
# a table's width or depth, in the plan's units: ten times the largest table the generator
# makes; a table of a billion took 16 GB of memory (the reserves' arrival points)
MOST_TABLE = 1000
MOST_OBJECTIVES = 50


def _known_names(plan: dict[str, Any], ruleset: str) -> None:
    """The victory condition, the scenery rules and the secret ruses are rows of the
    ruleset's tables (their names decide what the battle scores and allows), and the plan has
    as many objectives as its condition is played on."""
    from openwar.battleplans.data import load_battlepack

    pack = load_battlepack(ruleset)
    conditions = [row.name for row in pack.victory]
    if pack.default_scenario is not None:
        conditions.append(pack.default_scenario.victory.name)
    if plan["victory"]["name"] not in conditions:
        raise OpenWarError(
            f'not a battleplan: "victory.name" is {_shown(plan["victory"]["name"])}, not a victory '
            f"condition of {ruleset} (one of {', '.join(conditions)})"
        )
    row = next((row for row in pack.victory if row.name == plan["victory"]["name"]), None)
    count = len(plan["victory"]["objectives"])
    wanted = 0 if row is None or row.objectives is None else row.objectives.count
    if row is not None and count != wanted:
        raise OpenWarError(
            f'not a battleplan: "victory.objectives" lists {counted(count, "objective")}; '
            f"{row.name} is played on {wanted}"
        )
    sceneries = [row.name for row in pack.scenery]
    for k, feature in enumerate(plan["terrain"]):
        scenery = feature.get("scenery")
        if scenery is not None and scenery.get("name") not in sceneries:
            raise OpenWarError(
                f'not a battleplan: "terrain[{k}].scenery.name" is {_shown(scenery.get("name"))}, '
                f"not a scenery rule of {ruleset} (one of {', '.join(sceneries)})"
            )
    ruses = [row.name for row in pack.ruse]
    for side, ruse in (plan.get("ruses") or {}).items():
        if side not in ("A", "B"):
            raise OpenWarError(f'not a battleplan: "ruses.{side}": the sides are A and B')
        if ruse is not None and ruse.get("name") not in ruses:
            raise OpenWarError(
                f'not a battleplan: "ruses.{side}.name" is {_shown(ruse.get("name"))}, not a '
                f"ruse of {ruleset} (one of {', '.join(ruses)})"
            )


def _known_twist(twist: dict[str, Any], ruleset: str) -> None:
    """A twist the battles play: a row of the ruleset's Twist table, named exactly."""
    from openwar.battleplans.data import load_battlepack

    name = _field(twist, "name", str, "twist")
    known = [row.name for row in load_battlepack(ruleset).twist]
    if name not in known:
        raise OpenWarError(
            f'not a battleplan: "twist.name" is {_shown(name)}, not a twist of {ruleset} '
            f"(one of {', '.join(known)})"
        )


TYPE_NAMES: dict[type, str] = {str: "a string", dict: "an object", list: "a list"}


def _field(data: dict[str, Any], key: str, kind: type, within: str = "") -> Any:
    name = f"{within}.{key}" if within else key
    if key not in data:
        raise OpenWarError(f'not a battleplan: "{name}" is missing')
    value = data[key]
    if not isinstance(value, kind):
        raise OpenWarError(
            f'not a battleplan: "{name}" should be {TYPE_NAMES[kind]}, not {_shown(value)}'
        )
    return value


def _number(data: dict[str, Any], key: str, within: str) -> float:
    name = f"{within}.{key}" if within else key
    if key not in data:
        raise OpenWarError(f'not a battleplan: "{name}" is missing')
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise OpenWarError(f'not a battleplan: "{name}" should be a number, not {_shown(value)}')
    return float(value)


def _area(data: dict[str, Any], key: str, within: str, table: Polygon) -> Polygon:
    """The polygon of ``data[key]``, which must be a simple shape with an area on the table."""
    _outline(data, key, within)
    shape = Polygon(data[key])
    name = f"{within}.{key}"
    if not shape.is_valid or shape.area <= 0.0:
        raise OpenWarError(f'not a battleplan: "{name}" is not a simple shape with an area')
    if shape.intersection(table).area < 0.5 * shape.area:
        raise OpenWarError(f'not a battleplan: "{name}" lies mostly off the battlefield')
    return shape


def _outline(data: dict[str, Any], key: str, within: str) -> None:
    points = _field(data, key, list, within)
    name = f"{within}.{key}"
    if len(points) < 3:
        raise OpenWarError(f'not a battleplan: "{name}" should have at least 3 corners')
    for k, point in enumerate(points):
        _point(point, f"{name}[{k}]")


def _point(point: Any, name: str) -> None:
    if (
        not isinstance(point, list)
        or len(point) != 2
        or any(
            isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v)
            for v in point
        )
    ):
        raise OpenWarError(f'not a battleplan: "{name}" should be [x, y], not {_shown(point)}')


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
