"""The OpenWar evaluation values what the battleplan's victory condition scores (OW-V1..V7)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openwar.ai import openwar_eval
from openwar.ai.heuristic import HeuristicPlayer
from openwar.ai.openwar_eval import (
    EVALUATION,
    WEIGHTS,
    Forecast,
    Weights,
    _armed,
    _carried,
    attack_profile,
    caution,
    control_margins,
    control_spread,
    forecast,
    gathering,
    gathering_gain,
    hold_chance,
    holders,
    live_points,
    loss,
    nearest_enemy,
    nearest_objective,
    objective_value,
    objective_worths,
    pressure,
    rounds_to_score,
    stake,
    standing,
    unit_worth,
    value_of,
)
from openwar.battles import load_setup, start
from openwar.engine.actions import Action
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.state import FloatArray, GameState, IntArray
from openwar.rulesets.openwar import fight, orders, ruses, victory
from openwar.rulesets.openwar.odds import OpenWarAttack, slain_and_presence
from openwar.rulesets.openwar.rules import battle_rules

from .test_players import _deployed, block, charge_position

ARMIES = Path(__file__).resolve().parents[2] / "examples" / "armies" / "openwar"
SAMPLES = (ARMIES / "iron_road_legion.yaml", ARMIES / "hearthhold_lodge.yaml")


def test_each_condition_values_its_objectives() -> None:
    state = _deployed()
    count = len(state.board["objectives"])
    state.board["victory"] = victory.ATTRITION
    assert objective_worths(state, 0) == [0.0] * count  # only destroyed points score
    state.board["victory"] = victory.FIELD
    assert objective_worths(state, 0) == [stake(state) / 2.0] * count
    state.board["victory"] = victory.QUARTERED
    early = objective_worths(state, 0)[0]
    state.round = int(state.board["rounds"])
    assert rounds_to_score(state) == 1 and objective_worths(state, 0)[0] < early
    state.board["victory"] = ""
    assert objective_worths(state, 0)[0] > 0.0  # objective points at each end of round


def test_invasion_values_the_objective_nearer_the_centre_most_and_both_at_once() -> None:
    state = charge_position()
    centre = np.asarray([state.board["width"] / 2.0, state.board["depth"] / 2.0])
    inner = [30.0, 52.0]  # nearer the centre than b1's objective, out of everyone's range
    assert np.hypot(*(centre - inner)) < np.hypot(*(centre - [45.0, 62.0]))
    state.board.update(victory=victory.INVASION, objectives=[[45.0, 62.0], inner])
    near_centre, other = objective_worths(state, 1)[1], objective_worths(state, 1)[0]
    assert near_centre > other > 0.0
    assert holders(state, 1) == [1.0, 0.0]  # b1 stands on the first objective only
    members = state.on_table("b1")
    moved = state.pos[members] + (np.asarray(inner) - state.pos[members].mean(axis=0))
    assert objective_value(state, 1, members, moved) > objective_value(state, 1)
    state.board["objectives"] = [[45.0, 62.0], [45.0, 62.0]]  # b1 holds both: a win at once
    state.round = rounds_to_score(state)  # the last round: a margin of 5 is nearly safe
    assert objective_value(state, 1) >= near_centre + other + stake(state)


def test_invasion_values_the_other_objective_as_surely_as_it_holds_the_nearer_one() -> None:
    """The objective farther from the centre counts only with the nearer one (holding both wins
    at once; at the end the nearer one alone decides): it is worth its share of the stake as
    surely as the side holds the nearer one, from nothing (the enemy's for certain) to all."""
    state = charge_position()
    ours = [float(v) for v in state.pos[state.on_table("a1")].mean(axis=0)]  # a1 holds it
    state.board.update(victory=victory.INVASION, objectives=[ours, [85.0, 85.0]])
    centre = np.asarray([state.board["width"] / 2.0, state.board["depth"] / 2.0])
    assert np.hypot(*(centre - ours)) < np.hypot(*(centre - [85.0, 85.0]))
    margin = control_margins(state, 0)[0]
    assert margin == 10.0  # a1's ten miniatures, nobody else's
    sure = hold_chance(margin, control_spread(state))
    big, far = stake(state), WEIGHTS.invasion_far
    assert objective_worths(state, 0) == pytest.approx(
        [big * WEIGHTS.invasion_near, big * far * (1.0 + sure) / 2.0]
    )
    assert objective_worths(state, 1)[1] == pytest.approx(big * far * (1.0 - sure) / 2.0)
    assert objective_worths(state, 0)[1] > objective_worths(state, 1)[1] > 0.0
    state.round = rounds_to_score(state)  # the last round: ten miniatures are nearly sure
    assert objective_worths(state, 1)[1] < 0.01 * big


def test_late_a_side_not_winning_weighs_the_enemys_replies_less() -> None:
    """Until the last ``w.desperate_rounds`` ends of rounds a side weighs all of the enemy's
    replies; after that, unless it would win if the battle ended now, only ``w.desperate`` of
    them: a draw or a loss kept safely is worth nothing."""
    state = charge_position()
    state.board.update(victory=victory.ATTRITION)
    block(state, "b1", 40.0, 47.5)  # front ranks in base contact
    fight_order = Action("hold", 0, "a1", target="b1")
    bold, careful = EVALUATION, openwar_eval.OpenWarEvaluation(Weights(desperate=1.0))
    a1, here = state.unit("a1"), state.pos[state.on_table("a1")]
    assert standing(state, 0) == standing(state, 1) == 0  # nothing destroyed: a draw
    last = rounds_to_score(state)
    state.round = last - WEIGHTS.desperate_rounds  # the round before caution: too early
    assert caution(state, 0) == caution(state, 1) == 1.0
    assert bold.action_value(state, fight_order) == careful.action_value(state, fight_order)
    assert pressure(state, a1, here) == pressure(state, a1, here, w=careful.w)
    state.round += 1
    assert caution(state, 0) == caution(state, 1) == WEIGHTS.desperate < 1.0
    assert bold.action_value(state, fight_order) > careful.action_value(state, fight_order)
    assert pressure(state, a1, here) > pressure(state, a1, here, w=careful.w)  # b1 less feared
    won = state.clone()
    won.alive[won.members("b1")] = False  # b1 destroyed: side 0 wins if the battle ends now
    assert (standing(won, 0), standing(won, 1)) == (1, -1)
    assert (caution(won, 0), caution(won, 1)) == (1.0, WEIGHTS.desperate)


def test_casualties_on_an_objective_count_for_its_holder() -> None:
    state = charge_position()
    state.board.update(victory=victory.PRIZE, objectives=[[45.0, 62.0]])
    assert holders(state, 0) == [-1.0]
    assert holders(state, 0, thinned=("b1", 0.0)) == [0.0]
    assert objective_value(state, 0, thinned=("b1", 0.0)) == 0.0  # nobody holds it
    margin = control_margins(state, 0)[0]
    assert margin < 0.0
    spread = control_spread(state)
    assert objective_value(state, 0) == pytest.approx(hold_chance(margin, spread) * stake(state))
    assert -stake(state) < objective_value(state, 0) < 0.0
    assert EVALUATION.position_value(state, 0) < EVALUATION.position_value(state, 1)


def test_early_every_holder_worn_down_counts_in_the_last_round_only_the_last_few() -> None:
    state = charge_position()
    middle = state.pos[state.on_table("a1")].mean(axis=0)
    state.board.update(victory=victory.FIELD, objectives=[[float(v) for v in middle]])
    assert control_margins(state, 1) == [-10.0]  # a1's ten miniatures hold it

    def share_of_half() -> float:
        """What slaying half the holder is worth, as a share of slaying all of it."""
        now = objective_value(state, 1)
        half = objective_value(state, 1, thinned=("a1", 0.5)) - now
        return half / (objective_value(state, 1, thinned=("a1", 0.0)) - now)

    assert share_of_half() > 0.45  # round 1: the first five count nearly as much
    state.round = rounds_to_score(state)
    assert control_spread(state) == EVALUATION.w.control_spread  # the last round
    assert share_of_half() < 0.2  # only the last few swing it now


def test_drawn_and_quartered_judges_every_round_as_the_last() -> None:
    """Drawn and Quartered scores at every end of round, so its margin spread is the last
    round's from the first round on; Field of Glory's grows with the rounds to come."""
    state = charge_position()
    state.board.update(victory=victory.QUARTERED, objectives=[[45.0, 62.0]])
    assert state.round == 1 < rounds_to_score(state)
    assert control_spread(state) == EVALUATION.w.control_spread
    state.board.update(victory=victory.FIELD)
    assert control_spread(state) > EVALUATION.w.control_spread


def test_units_gather_on_an_objective_they_can_outnumber_the_holders_of() -> None:
    """b1's five hold the objective; a1's ten stand out of control range but within two Runs,
    so side 0 gathers there: each miniature of the deficit (six) made good is a like share
    of w.gather x its worth, and nothing beyond holding it."""
    state = charge_position()
    state.board.update(victory=victory.FIELD, objectives=[[45.0, 62.0], [85.0, 85.0]])
    assert control_margins(state, 0) == [-5.0, 0.0]
    goal = gathering(state, 0)
    assert goal is not None and (goal.index, goal.margin, goal.deficit) == (0, -5.0, 6.0)
    share = WEIGHTS.gather * objective_worths(state, 0)[0] / 6.0
    assert gathering_gain(state, 0, [-2.0, 0.0]) == pytest.approx(3 * share)
    assert gathering_gain(state, 0, [9.0, 0.0]) == pytest.approx(6 * share)
    assert gathering_gain(state, 0, [-5.0, 3.0]) == 0.0  # the other objective is not gathered on
    # an advance towards it is worth more for the gathering (w.gather = 0: none)
    menu = [a for a in legal_actions(state) if a.kind == "advance" and a.target is None]
    towards = min(menu, key=lambda a: float(np.hypot(*(np.asarray(a.point) - [45.0, 62.0]))))
    apart = Weights(gather=0.0)
    assert gathering(state, 0, apart) is not None  # found, but worth nothing
    valued = openwar_eval.OpenWarEvaluation(apart).action_value(state, towards)
    assert EVALUATION.action_value(state, towards) > valued


def test_no_gathering_where_our_free_units_cannot_outnumber_the_holders() -> None:
    state = charge_position()
    state.board.update(victory=victory.FIELD, objectives=[[85.0, 85.0]])  # beyond two Runs
    assert gathering(state, 0) is None
    state.board.update(objectives=[[45.0, 75.0]])  # nobody's: one miniature would take it
    assert control_margins(state, 0) == [0.0] and gathering(state, 0) is not None
    state.board["victory"] = victory.ATTRITION  # objectives worth nothing
    assert gathering(state, 0) is None
    state.board["victory"] = victory.FIELD
    block(state, "a1", 40.0, 55.0)  # in combat with b1: a1 can go nowhere else
    assert orders.in_combat(state, "a1")
    assert control_margins(state, 0) == [0.0] and gathering(state, 0) is None


def test_late_a_side_not_winning_gathers_where_it_can_make_good_half_the_deficit() -> None:
    """Four of a1's miniatures are left: they cannot outnumber b1's five, so early there is
    no gathering; in the last ``w.gather_rounds`` of a battle the side is not winning,
    making good ``w.desperate_need`` of the deficit is enough (the holders may still leave
    or fall), and not when it would win if the battle ended now."""
    state = charge_position()
    state.board.update(victory=victory.FIELD, objectives=[[45.0, 62.0], [85.0, 85.0]])
    state.alive[state.members("a1")[4:]] = False
    assert control_margins(state, 0) == [-5.0, 0.0]  # a deficit of 6, 4 could come
    assert WEIGHTS.desperate_need * 6.0 <= 4.0 < 6.0
    assert gathering(state, 0) is None
    state.round = rounds_to_score(state) - WEIGHTS.gather_rounds  # one round too early
    assert rounds_to_score(state) > WEIGHTS.gather_rounds and gathering(state, 0) is None
    state.round += 1  # a draw if it ended now
    assert standing(state, 0) == 0
    goal = gathering(state, 0)
    assert goal is not None and (goal.index, goal.deficit) == (0, 6.0)
    assert gathering(state, 0, Weights(desperate_need=1.0)) is None
    state.board["objectives"] = [[45.0, 62.0], [44.0, 42.0], [44.0, 40.0]]
    assert control_margins(state, 0) == [-5.0, 4.0, 4.0]  # two of three: it would win now
    assert standing(state, 0) == 1 and gathering(state, 0) is None


def test_the_enemys_reply_counts_against_a_fight_at_the_retaliation_share() -> None:
    """A fight is our attack less ``w.retaliation`` of the enemy's expected reply (scaled by
    how much of the enemy survives): the value falls linearly as the share grows."""
    state = charge_position()
    block(state, "b1", 40.0, 47.5)  # front ranks in base contact
    assert orders.in_combat(state, "a1")
    fight_order = Action("hold", 0, "a1", target="b1")
    assert fight_order in legal_actions(state)
    values = [
        openwar_eval.OpenWarEvaluation(Weights(retaliation=r)).action_value(state, fight_order)
        for r in (0.0, WEIGHTS.retaliation, 1.0)
    ]
    assert values[0] > values[1] > values[2]
    assert values[0] - values[1] == pytest.approx(WEIGHTS.retaliation * (values[0] - values[2]))


def test_a_unit_on_an_objective_is_worth_a_share_of_it() -> None:
    state = charge_position()
    b1 = state.unit("b1")
    state.board.update(victory=victory.PRIZE, objectives=[[5.0, 5.0]])  # nobody near it
    assert unit_worth(state, b1) == b1.points
    state = charge_position()
    state.board.update(victory=victory.PRIZE, objectives=[[45.0, 62.0]])  # b1 stands on it
    assert unit_worth(state, b1) == b1.points + EVALUATION.w.holding * stake(state)


def test_a_carried_prize_moves_with_the_unit_that_carries_it() -> None:
    state = charge_position()
    state.board.update(victory=victory.PRIZE, objectives=[[45.0, 62.0]])
    members = state.on_table("b1")
    carrier = int(members[0])
    state.extra["prize"] = [float(v) for v in state.pos[carrier]]
    state.extra["carrier"] = carrier
    away = state.pos[members] + np.asarray([30.0, 10.0])  # far from a1 and the old spot
    moved = state.clone()
    moved.pos[members] = away
    moved.extra["prize"] = [float(v) for v in away[0]]
    assert control_margins(state, 1, members, away) == control_margins(moved, 1) > [0.0]
    state.extra["carrier"] = None  # a prize on the ground stays: b1 walks away from it
    assert control_margins(state, 1, members, away) == [0.0]


@pytest.mark.parametrize("seed", [None, 0, 4])
def test_remembered_forecasts_are_the_forecasts_worked_out_afresh(seed: int | None) -> None:
    """A battle's menus valued while the state is read (forecasts, reaches, pressures and
    objective values remembered across the menu) are valued exactly as with nothing
    remembered, at every step: a small position, and battles of the sample armies."""
    if seed is None:
        state = _deployed()
    else:
        state, _ = start(load_setup(SAMPLES, None, seed))
    player = HeuristicPlayer()
    for _ in range(12 if seed is None else 60):
        if outcome(state) is not None:
            break
        menu = legal_actions(state)
        remembered = player.values(state, menu)
        assert state.scratch is None
        afresh = [EVALUATION.action_value(state, action) for action in menu]
        assert remembered == afresh
        state = apply(state, menu[int(np.argmax(remembered))])[0]


def test_a_forecast_is_remembered_only_while_the_state_is_read() -> None:
    state = charge_position()
    with state.reading():
        first = forecast(state, "a1", "b1", 5, ranged=False, charged=True)
        assert forecast(state, "a1", "b1", 5, ranged=False, charged=True) is first
        assert forecast(state, "a1", "b1", 4, ranged=False, charged=True) != first
    state.unit("b1").tokens["shaken"] = 1  # a changed state is worked out afresh
    assert forecast(state, "a1", "b1", 5, ranged=False, charged=True) != first


@pytest.mark.parametrize("seed", [0, 3])
def test_armed_miniatures_are_those_with_a_weapon_of_the_kind(seed: int) -> None:
    """The armed miniatures a forecast counts (gathered by loadout) are those whose weapons of
    the kind are not all gone: with none, some and every miniature having thrown."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    for step in range(40):
        if outcome(state) is not None:
            break
        for unit in state.units:
            members = state.on_table(unit.id).tolist()
            thrown: list[int]
            for thrown in ([], members[::2], members):
                unit.flags["thrown"] = thrown
                for ranged in (False, True):
                    expected = tuple(m for m in members if fight.weapons(state, m, ranged=ranged))
                    assert _armed(state, unit.id, ranged=ranged) == expected
            unit.flags.pop("thrown")
        menu = legal_actions(state)
        state = apply(state, menu[step % len(menu)])[0]


def control_margins_as_written(
    state: GameState,
    side: int,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: tuple[str, float] | None = None,
) -> list[float]:
    """:func:`control_margins` as it summed every objective's weights before it counted."""
    points = live_points(state)
    if not points:
        return []
    pos = state.pos
    if moved is not None and xy is not None:
        pos = pos.copy()
        pos[moved] = xy
        points = _carried(state, points, pos)
    live = state.alive & state.deployed
    sides = np.asarray([u.side for u in state.units], dtype=np.int64)[state.unit_of]
    control = float(state.board.get("control_range", battle_rules().objective_range))
    weight = live.astype(np.float64)
    if thinned is not None:
        weight[state.unit_of == state.unit_index(thinned[0])] *= thinned[1]
    offsets = pos[None, :, :] - np.asarray([point for _, point in points])[:, None, :]
    within = np.hypot(offsets[:, :, 0], offsets[:, :, 1]) - state.radius <= control
    ours = sides == side
    return [float(weight[near & ours].sum()) - float(weight[near & ~ours].sum()) for near in within]


@pytest.mark.parametrize("seed", [0, 5])
def test_control_margins_count_what_the_weights_summed(seed: int) -> None:
    """Margins counted (no unit thinned) are the sums of the weights, to the bit, with a unit
    moved and thinned or not, read (and remembered) or not, along a battle of the sample
    armies."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    for step in range(60):
        if outcome(state) is not None:
            break
        fresh = live_points(state)
        with state.reading():
            assert live_points(state) == live_points(state) == fresh  # remembered while read
        for unit in state.units:
            members = state.on_table(unit.id)
            xy = state.pos[members] + np.asarray([3.25, -7.5])
            for side in (0, 1):
                for moved in (None, members):
                    where = None if moved is None else xy
                    for thinned in (None, (unit.id, 0.37)):
                        expected = control_margins_as_written(state, side, moved, where, thinned)
                        assert control_margins(state, side, moved, where, thinned) == expected
                        with state.reading():  # remembered: the second ask is the first's
                            found = control_margins(state, side, moved, where, thinned)
                            found[:0] = [99.0]  # a caller's list is its own
                            again = control_margins(state, side, moved, where, thinned)
                            assert again == expected
        menu = legal_actions(state)
        state = apply(state, menu[step % len(menu)])[0]


def test_pressures_remembered_by_reach_are_the_pressures_worked_out_afresh() -> None:
    """Each unit's pressure at many places, asked while the state is read (enemies, threats
    and chances remembered by the reach a gap falls within), is the one worked out afresh."""
    state, _ = start(load_setup(SAMPLES, None, 2))
    for step in range(30):
        if outcome(state) is not None:
            break
        for unit in state.units:
            here = state.pos[state.on_table(unit.id)]
            if len(here) == 0:  # pressure is asked of units on the table
                continue
            places = [
                here + np.asarray([dx, dy]) for dx in (-20.0, 0.0, 9.5) for dy in (-30, 0, 25)
            ]
            afresh = [pressure(state, unit, xy, armor_bonus=b) for xy in places for b in (0, 1)]
            with state.reading():
                read = [pressure(state, unit, xy, armor_bonus=b) for xy in places for b in (0, 1)]
                again = [pressure(state, unit, xy, armor_bonus=b) for xy in places for b in (0, 1)]
            assert read == again == afresh
        menu = legal_actions(state)
        state = apply(state, menu[step % len(menu)])[0]


@pytest.mark.parametrize("seed", [0, 3])
def test_remembered_gaps_of_a_unit_are_the_gaps_worked_out_afresh(seed: int) -> None:
    """Each unit's gap to every objective and to the nearest enemy from where it stands,
    remembered while the state is read (every move of the unit asks them), is the gap worked
    out afresh, along a battle of the sample armies."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    asked = 0
    for step in range(60):
        if outcome(state) is not None:
            break
        points = [p for _, p in live_points(state)]
        for unit in state.units:
            members = state.on_table(unit.id)
            if len(members) == 0:
                continue
            here = state.pos[members]
            afresh = [nearest_objective(state, here, [p]) for p in points]
            afresh.append(nearest_enemy(state, unit, here))
            with state.reading():
                for _ in range(2):
                    read = [openwar_eval._objective_gap(state, members, p) for p in points]
                    read.append(openwar_eval._enemy_gap(state, unit, members))
                    assert read == afresh
            asked += len(afresh)
        menu = legal_actions(state)
        state = apply(state, menu[step % len(menu)])[0]
    assert asked > 0


def value_of_as_written(
    state: GameState, attacker_id: str, target_id: str, profile: OpenWarAttack
) -> Forecast:
    """:func:`value_of` as it summed the joint odds for every forecast (nothing kept)."""
    slain_pmf, by_slain, _ = slain_and_presence(profile)
    beats = [0.0 if p is None else float(p) for p in by_slain]
    enemy = state.unit(target_id)
    size, shaken = state.size(target_id), enemy.tokens.get("shaken", 0)
    worth = unit_worth(state, enemy)
    before = loss(state, enemy, size, shaken, WEIGHTS, worth)
    token = 0 if ruses.no_shaken(state, enemy.side) else 1  # OW-R6 Inspiring Speech
    expected = slain = beaten = 0.0
    for k, p in enumerate(float(p) for p in slain_pmf):
        if p <= 0.0:
            continue
        b = beats[k] if k < size else 0.0
        after = b * loss(state, enemy, size - k, shaken + token, WEIGHTS, worth)
        after += (1.0 - b) * loss(state, enemy, size - k, shaken, WEIGHTS, worth)
        expected += p * after
        slain += p * k
        beaten += p * b
    glory = WEIGHTS.glory * beaten if state.unit(attacker_id).tokens.get("glory", 0) < 2 else 0.0
    return Forecast(slain, beaten, expected - before + glory)


@pytest.mark.parametrize("seed", [1, 6])
def test_attacks_valued_from_kept_expected_losses_are_valued_as_written(seed: int) -> None:
    """Every unit's melee and shooting attacks on every enemy (the whole front, a few
    miniatures, charged or not), valued once and again (the expected loss then kept across
    the battle), are the values summed afresh, along a battle of the sample armies."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    player = HeuristicPlayer()
    valued = 0
    for _ in range(60):
        if outcome(state) is not None:
            break
        for unit in state.units:
            mine = state.on_table(unit.id)
            for enemy in state.side_units(1 - unit.side):
                theirs = state.on_table(enemy.id)
                if len(mine) == 0 or len(theirs) == 0:
                    continue
                for models, ranged, charged in ((len(mine), False, True), (2, True, False)):
                    profile = attack_profile(state, unit.id, enemy.id, int(mine[0]),
                                             int(theirs[0]), models, ranged=ranged,
                                             holding=False, charged=charged,
                                             armor_bonus=0)  # fmt: skip
                    if profile is None:
                        continue
                    expected = value_of_as_written(state, unit.id, enemy.id, profile)
                    for _ in range(2):
                        assert value_of(state, unit.id, enemy.id, profile, WEIGHTS) == expected
                    valued += 1
        with state.reading():
            menu = legal_actions(state)
            action = player.choose(state, menu)
        state = apply(state, action)[0]
    assert valued > 0


@pytest.mark.parametrize("seed", [0, 2, 7])
def test_remembered_objective_worths_are_the_worths_worked_out_afresh(seed: int) -> None:
    """Each side's objective worths, remembered while the state is read (every unit's worth
    asks them), are the worths worked out afresh under every victory condition, along a
    battle of the sample armies."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    conditions = [None, victory.ATTRITION, victory.QUARTERED, victory.FIELD, victory.PRIZE,
                  victory.INVASION, victory.LOOT]  # fmt: skip
    board = dict(state.board)
    asked = 0
    try:
        for step in range(40):
            if outcome(state) is not None:
                break
            for condition in conditions:
                state.board["victory"] = condition if condition else board.get("victory")
                asks = [(side, w) for side in (0, 1) for w in (WEIGHTS, Weights(objective=0.45))]
                afresh = [objective_worths(state, side, w) for side, w in asks]
                with state.reading():
                    for _ in range(2):
                        read = [objective_worths(state, side, w) for side, w in asks]
                        assert read == afresh
                        read[0][:0] = [1.0]  # a caller's list is its own
                asked += len(afresh)
            state.board["victory"] = board.get("victory")
            menu = legal_actions(state)
            state = apply(state, menu[step % len(menu)])[0]
    finally:
        state.board.clear()
        state.board.update(board)
    assert asked > 0


def test_threat_ranges_count_the_twist_eager_runs_and_the_dead_of_nights_sight() -> None:
    """OW-X4: a Run is 3 cm longer, so is every charge reach; OW-X2: nothing beyond the
    night's sight can be shot, so a shooting reach is a move plus at most that."""
    state = _deployed()
    shooter = next(u for u in state.units if openwar_eval.reach(state, u)[1] > 0)
    runner = next(u for u in state.units if not u.tokens.get("exhaustion"))
    charge, shoot = openwar_eval._reach(state, runner)[0], openwar_eval._reach(state, shooter)[1]
    state.board["twist"] = "Eager for Battle"
    assert openwar_eval._reach(state, runner)[0] == pytest.approx(charge + 3.0)
    state.board["twist"] = "Dead of Night"
    state.extra["sight_limit"] = 1.0
    move = orders.move_allowance(state, shooter.id)
    assert shoot > move + 1.0
    assert openwar_eval._reach(state, shooter)[1] == pytest.approx(move + 1.0)


def test_more_orders_run_and_advance_onto_a_held_objective_as_a_fight() -> None:
    """The menu offers a Run to an objective only where it ends out of combat, and a Charge
    only into base contact; the evaluation adds the Run onto an objective that ends as a
    Charge on the nearest enemy there (OW-M2) and the Advance that ends fighting it (OW-O1),
    as the rules allow: the engine takes every one, and they fight."""
    state = charge_position()
    state.board.update(victory=victory.FIELD, objectives=[[45.0, 66.0], [85.0, 85.0]])
    menu = legal_actions(state)
    judge = openwar_eval.OpenWarEvaluation(Weights(objective_charges=True, objective_fights=True))
    extra = judge.more_orders(state)
    assert [a for a in extra if a not in menu], "orders the menu does not offer"
    assert {(a.kind, a.choice) for a in extra} == {("run", "charge"), ("advance", "move-fight")}
    for action in extra:
        assert action.unit == "a1" and action.target == "b1"
        kinds = [e.kind for e in apply(state, action)[1]]
        assert "attack" in kinds and ("charge" in kinds) == (action.kind == "run"), kinds
    off = openwar_eval.OpenWarEvaluation(Weights(objective_charges=False, objective_fights=False))
    assert off.more_orders(state) == []
    state.unit("a1").tokens["exhaustion"] = 1  # no Run: the Advance only
    assert {a.kind for a in judge.more_orders(state)} == {"advance"}
