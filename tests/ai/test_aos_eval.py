"""The Age of Sigmar evaluation: exact odds, charges, objectives, positions, whole battles."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from openwar.ai import HeuristicPlayer, SearchPlayer, evaluation_for
from openwar.ai.aos_eval import (
    EVALUATION,
    PLANS,
    TWO_D6,
    WEIGHTS,
    AosEvaluation,
    Weights,
    actual_uses,
    charge_odds,
    gathering,
    gathering_gain,
    holders,
    judge,
    material,
    objective_value,
    one_unit_menu,
    pooled_damage,
    potential,
    stake,
    wound_value,
)
from openwar.battles import fight_battle, load_setup, start
from openwar.bench.ai import RULESET_ARMIES, games, play_game
from openwar.dice.allocation import slain_pooled
from openwar.dice.notation import parse_dice
from openwar.dice.pmf import mean
from openwar.engine.actions import Action
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.players import RandomPlayer
from openwar.engine.state import GameState
from openwar.rulesets.aos.moves import enemy_gap
from openwar.rulesets.aos.odds import AosAttack, attack_odds
from rulesets.aos.kit import battle, in_phase, line, place, profile, unit, weapon

SPEAR = weapon("Spear", rng=2, attacks=2, hit=3, wound=4, rend=-1, damage="D3")


def duel(target_save: int | None = 4, target_size: int = 5, wounds: int = 2) -> GameState:
    """Five spearmen in base contact with a unit of ``target_size`` models."""
    ours = unit("a", 5, profile(melee=[SPEAR], bravery=10))
    theirs = unit("b", target_size, profile(save=target_save, wounds=wounds, bravery=10))
    state = battle([ours], [theirs])
    place(state, "a", line(10.0, 20.0, 5))
    place(state, "b", line(10.0, 21.0, target_size))
    return in_phase(state, "combat")


def test_expected_damage_is_the_odds_modules_distribution() -> None:
    state = duel()
    uses = actual_uses(state, "a", "b", missile=False)
    assert [(w["name"], str(count)) for w, count in uses] == [("Spear", "10")]
    pmf = pooled_damage(state, "a", "b", uses, missile=False)
    exact = attack_odds(AosAttack(attacks=parse_dice(10), hit=3, wound=4, rend=-1,
                                  damage=parse_dice("D3"), save=4))  # fmt: skip
    assert np.allclose(pmf, exact.distribution)
    # models slain: the pooled allocation of the odds module, 2 wounds a model, 5 models
    forecast = judge(state, "b", pmf)
    assert forecast.slain == pytest.approx(mean(slain_pooled(exact.distribution, 2, 5)))
    assert forecast.damage == pytest.approx(exact.mean)


def test_a_wounded_model_dies_first() -> None:
    fresh, hurt = duel(), duel()
    hurt.unit("b").tokens["damage"] = 1
    hurt.unit("b").flags["wounded"] = int(hurt.on_table("b")[0])
    one = np.array([0.0, 1.0])  # exactly one wound
    assert judge(fresh, "b", one).slain == 0.0
    assert judge(hurt, "b", one).slain == 1.0
    assert judge(hurt, "b", one).value > judge(fresh, "b", one).value


def test_fighting_a_weaker_target_is_worth_more() -> None:
    soft, hard = duel(target_save=None), duel(target_save=3)
    fight = Action("fight", 0, "a", target="b")
    assert EVALUATION.action_value(soft, fight) > EVALUATION.action_value(hard, fight) > 0.0


def charge_state() -> GameState:
    """Spearmen 6" from an unarmoured unit and 6" from an armoured one of the same points."""
    ours = unit("a", 10, profile(melee=[SPEAR], bravery=10))
    soft = unit("b", 5, profile(save=None, bravery=10))
    hard = unit("c", 5, profile(save=3, bravery=10))
    state = battle([ours], [soft, hard])
    place(state, "a", line(20.0, 20.0, 10))
    place(state, "b", line(20.0, 26.98, 5))
    place(state, "c", line(30.0, 14.02, 5))  # below: as far from a's models as b is
    return in_phase(state, "charge")


def test_a_charge_that_kills_more_is_worth_more_and_is_taken() -> None:
    state = charge_state()
    soft = EVALUATION.charge_value(state, "a", "b", 12.0)
    hard = EVALUATION.charge_value(state, "a", "c", 12.0)
    assert soft > hard
    state.extra["pending"] = {"kind": "charge", "unit": "a", "roll": 9, "rerolled": False}
    menu = legal_actions(state)
    assert {a.target for a in menu} >= {"b", "c"}
    assert HeuristicPlayer().choose(state, menu).target == "b"


def test_charge_odds_are_the_exact_2d6_odds() -> None:
    state = charge_state()
    assert charge_odds(state, 7.25) == pytest.approx(21 / 36)  # 2D6 >= 7
    assert charge_odds(state, 2.0) == pytest.approx(1.0)
    assert charge_odds(state, 13.0) == 0.0  # beyond 12": no charge
    assert float(TWO_D6.sum()) == pytest.approx(1.0)
    declare = Action("charge", 0, "a")
    assert (
        0.0
        < EVALUATION.action_value(state, declare)
        < EVALUATION.charge_value(state, "a", "b", 12.0)
    )


def objective_state() -> GameState:
    """A unit 9" from a Field of Glory objective, the enemy far off."""
    ours = unit("a", 5, profile(move=5))
    theirs = unit("b", 5, profile())
    state = battle([ours], [theirs])
    place(state, "a", line(10.0, 10.0, 5))
    place(state, "b", line(60.0, 40.0, 5))
    state.board.update(victory="Field of Glory", objectives=[[12.0, 19.0]])
    state.extra["objectives"], state.extra["control"] = [[12.0, 19.0]], [None]
    return in_phase(state, "movement")


def test_a_move_that_takes_an_objective_beats_one_that_does_not() -> None:
    state = objective_state()
    moves = [a for a in legal_actions(state) if a.kind == "move" and a.point is not None]
    mark = np.asarray([12.0, 19.0])
    to_objective = min(moves, key=lambda a: float(np.hypot(*(np.asarray(a.point) - mark))))
    elsewhere = max(moves, key=lambda a: float(np.hypot(*(np.asarray(a.point) - mark))))
    members = state.on_table("a")
    shifted = state.pos[members] + (np.asarray(to_objective.point) - state.pos[members].mean(0))
    assert holders(state, 0) == [0.0] and holders(state, 0, members, shifted) == [1.0]
    value = {a: EVALUATION.action_value(state, a) for a in (to_objective, elsewhere)}
    assert value[to_objective] > value[elsewhere]
    # nothing to shoot or charge: it moves there, or runs to make the objective safer
    chosen = HeuristicPlayer().choose(state, legal_actions(state))
    assert chosen in (to_objective, Action("run", 0, "a"))


def test_an_objective_is_worth_more_when_the_rival_cannot_retake_it() -> None:
    state = objective_state()
    state.extra["control"] = [0]
    safe = objective_value(state, 0)
    assert 0.0 < safe < stake(state)
    place(state, "b", line(12.0, 30.0, 5))  # the enemy could now run onto it
    assert objective_value(state, 0) < safe


def gathering_state() -> GameState:
    """The enemy's five stand on a Field of Glory objective; our ten stand 9" from it, out of
    its 6" but within a turn of moving and running (Move 5" and a mean run of 3.5")."""
    state = battle([unit("a", 10, profile(move=5))], [unit("b", 5, profile()), unit("c", 1)])
    place(state, "a", line(10.0, 10.0, 10))
    place(state, "b", line(10.0, 19.0, 5))
    place(state, "c", [(60.0, 40.0)])
    state.board.update(victory="Field of Glory", objectives=[[12.0, 19.0]])
    state.extra["objectives"], state.extra["control"] = [[12.0, 19.0]], [1]
    return in_phase(state, "movement")


def test_units_gather_on_an_objective_they_can_outnumber_the_holders_of() -> None:
    """Each model of the deficit (six: the holders' five and one) made good is a like share
    of w.gather x the objective's worth, and nothing beyond taking it."""
    state = gathering_state()
    goal = gathering(state, 0)
    assert goal is not None and (goal.index, goal.margin, goal.deficit) == (0, -5.0, 6.0)
    w = EVALUATION.w
    share = w.gather * w.objective * goal.worth / 6.0
    members = state.on_table("a")
    xy = state.pos[members].copy()
    xy[:3] = [(12.0, 18.0), (12.0, 20.0), (13.0, 19.0)]  # three of ours within 6"
    assert gathering_gain(state, 0, members, xy) == pytest.approx(3 * share)
    xy[:9] = [(11.0 + 0.1 * k, 17.0) for k in range(9)]  # nine: held by four
    assert gathering_gain(state, 0, members, xy) == pytest.approx(6 * share)
    # a move towards it is worth more for the gathering (w.gather = 0: none)
    moves = [a for a in legal_actions(state) if a.kind == "move" and a.point is not None]
    towards = min(moves, key=lambda a: float(np.hypot(*(np.asarray(a.point) - [12.0, 19.0]))))
    apart = AosEvaluation(Weights(gather=0.0))
    assert gathering(state, 0, apart.w) is None
    assert EVALUATION.action_value(state, towards) > apart.action_value(state, towards)


def test_slaying_the_holders_of_the_gathering_objective_counts_towards_it() -> None:
    """An attack's expected kills among the holders make good the deficit as models moving
    in do: two of the five slain is two shares (thinned: each unit's expected share left)."""
    state = gathering_state()
    goal = gathering(state, 0)
    assert goal is not None
    w = EVALUATION.w
    share = w.gather * w.objective * goal.worth / goal.deficit
    assert gathering_gain(state, 0, None, None, thinned={"b": 0.6}) == pytest.approx(2 * share)
    assert gathering_gain(state, 0, None, None, thinned={"c": 0.0}) == 0.0  # not a holder
    assert gathering_gain(state, 0, None, None, thinned={"b": 0.0}) == pytest.approx(5 * share)


def test_no_gathering_where_our_free_units_cannot_outnumber_the_holders() -> None:
    state = gathering_state()
    place(state, "b", line(50.0, 40.0, 5))
    assert gathering(state, 0) is not None  # the enemy's, nobody near: one model takes it
    state.extra["control"] = [0]  # ours, and it stays ours until the enemy has more there
    assert gathering(state, 0) is None
    state = gathering_state()
    state.board["victory"] = "War of Attrition"  # objectives worth nothing
    assert gathering(state, 0) is None
    state = gathering_state()
    place(state, "a", line(10.0, 39.0, 10))  # 20" off: two turns of moving and running
    assert gathering(state, 0) is not None
    assert gathering(state, 0, Weights(gather_rounds=1)) is None
    place(state, "a", line(10.0, 50.0, 10))  # beyond two turns
    assert gathering(state, 0) is None
    state = gathering_state()
    place(state, "c", [(15.0, 12.0)])  # within 3" of our ten: they may only stay or retreat
    assert gathering(state, 0) is None


def test_more_enemy_points_destroyed_is_a_better_position() -> None:
    state = duel()
    before = EVALUATION.position_value(state, 0)
    assert before == pytest.approx(-EVALUATION.position_value(state, 1))
    after = state.clone()
    after.alive[after.members("b")[:2]] = False
    assert before < EVALUATION.position_value(after, 0)
    after.alive[after.members("b")] = False
    after.extra["destroyed"].append("b")
    gained = EVALUATION.position_value(after, 0) - before
    assert gained >= after.unit("b").points  # all of a destroyed unit's points


def test_first_blood_scores_slain_wounds() -> None:
    state = duel()
    assert state.board["victory"] == "First Blood"
    lead = state.clone()
    lead.extra["slain_wounds"] = [3, 0]
    gain = EVALUATION.position_value(lead, 0) - EVALUATION.position_value(state, 0)
    assert gain == pytest.approx(3 * wound_value(state))


def test_rollout_menu_is_part_of_the_legal_menu() -> None:
    state = objective_state()
    menu = legal_actions(state)
    part = EVALUATION.rollout_menu(state)
    assert part and set(part) <= set(menu) and Action("end_phase", 0) in part


def _one_unit_of_the_whole_menu(state: GameState) -> list[Action]:
    """The rollout menu as it was defined: the whole menu filtered to the picked unit."""
    menu = legal_actions(state)
    units = [a.unit for a in menu if a.unit is not None and a.kind != "end_phase"]
    if not units:
        return menu
    if state.phase == "movement":
        with state.reading():
            pick = min(dict.fromkeys(units), key=lambda u: enemy_gap(state, str(u)))
    else:
        pick = units[0]
    return [a for a in menu if a.unit == pick or a.kind == "end_phase" or a.unit is None]


@pytest.mark.parametrize("seed", [3, 4])
def test_rollout_menu_built_for_one_unit_is_the_whole_menu_filtered(seed: int) -> None:
    """In every movement and shooting phase of two battles (heuristic against random, the
    armies' every unit on the table), the one unit's menu built alone is exactly the whole
    menu's part for the unit the rollouts pick, in the same order."""
    army_a, army_b = RULESET_ARMIES["aos"]
    state, _ = start(load_setup((army_a, army_b), None, seed))
    players = (HeuristicPlayer(0), RandomPlayer(seed))
    checked = {"movement": 0, "shooting": 0}
    while outcome(state) is None:
        menu = legal_actions(state)
        if state.phase in ("movement", "shooting") and not state.extra.get("pending"):
            with state.reading():
                alone = one_unit_menu(state)
            if alone is not None:
                assert alone == _one_unit_of_the_whole_menu(state)
                checked[state.phase] += 1
        state = apply(state, players[state.active].choose(state, menu))[0]
    assert min(checked.values()) >= 5, checked


# -- whole battles ---------------------------------------------------------------------------
def _battle_hash(players: tuple[str, str], seed: int) -> tuple[str, int | None]:
    army = RULESET_ARMIES["aos"][1]
    record = fight_battle(load_setup((army, army), None, seed), players)
    result = outcome(record.final)
    assert result is not None
    return record.final.state_hash(), result.winner


def test_heuristic_plays_a_whole_aos_battle_deterministically() -> None:
    assert evaluation_for("aos") is EVALUATION
    first = _battle_hash(("heuristic", "random"), 5)
    assert first == _battle_hash(("heuristic", "random"), 5)


@pytest.mark.parametrize("plans", [0, 1])
def test_search_plays_a_whole_aos_battle_deterministically(plans: int) -> None:
    army = RULESET_ARMIES["aos"][0]
    hashes = []
    for _ in range(2):
        state, _ = start(load_setup((army, army), None, 2))
        search = SearchPlayer(3, candidates=2, rollouts=1, horizon=3, turn_steps=4,
                              plan_rollouts=plans)  # fmt: skip
        players = (search, HeuristicPlayer(4))
        while outcome(state) is None:
            menu = legal_actions(state)
            action = players[state.active].choose(state, menu)
            assert action in menu
            state = apply(state, action)[0]
        hashes.append(state.state_hash())
    assert hashes[0] == hashes[1]


def test_bench_plays_aos_mirror_matches() -> None:
    work = games("heuristic", "random", 2, seed=1, armies=(Path(RULESET_ARMIES["aos"][0]),))
    results = [play_game(g) for g in work]
    assert all(r.result in ("win", "draw", "loss") for r in results)
    assert all(r.decisions[0] > 0 for r in results)


def test_units_set_up_towards_the_most_valuable_objective_they_lack() -> None:
    """Invasion: the objective nearer the centre is worth 0.8 of the stake, the other 0.3;
    a unit sets up towards the first, not onto the nearer second (the nearest of equals)."""
    state = battle([unit("a", 10)], [unit("b", 5)])
    points = [[36.0, 30.0], [10.0, 6.0]]  # the first nearer the centre (36, 24), the enemy's
    state.board.update(victory="Invasion", objectives=points)
    state.extra["objectives"], state.extra["control"] = points, [None, None]
    onto_ours = Action("deploy", 0, "a", point=(10.0, 8.0))
    towards_centre = Action("deploy", 0, "a", point=(36.0, 18.0))
    assert EVALUATION._deploy(state, towards_centre) > EVALUATION._deploy(state, onto_ours)
    state.board["victory"] = "Field of Glory"  # every objective worth the same: the nearest
    assert EVALUATION._deploy(state, onto_ours) > EVALUATION._deploy(state, towards_centre)


def test_a_charge_or_an_attack_on_the_holders_gets_its_part_of_the_gathering() -> None:
    """A charge is credited its part of the gathering as a move is (its models brought into
    the objective's range), and an attack's expected kills among the holders as the deficit
    they make good (w.gather = 0: neither)."""
    state = gathering_state()
    apart = AosEvaluation(Weights(gather=0.0))
    assert EVALUATION.charge_value(state, "a", "b", 12.0) > apart.charge_value(
        state, "a", "b", 12.0
    )
    goal = gathering(state, 0)
    assert goal is not None
    w = EVALUATION.w
    share = w.gather * w.objective * goal.worth / goal.deficit
    gain = EVALUATION._thinning(state, 0, {"b": 0.6}) - apart._thinning(state, 0, {"b": 0.6})
    assert gain == pytest.approx(2 * share)


def test_a_run_that_gains_nothing_is_worth_less_than_keeping_the_shot() -> None:
    """Archers in range of their target, no objectives: running forfeits the shot, so a run
    (or a run that ends where the unit stands) is worth less than ending the phase."""
    bow = weapon("Bow", rng=18, attacks=2, hit=4, wound=4, rend=0, damage=1)
    archers = unit("a", 10, profile(missile=[bow], bravery=10))
    theirs = unit("b", 10, profile(save=None, bravery=10))
    state = battle([archers], [theirs])
    place(state, "a", line(20.0, 10.0, 10))
    place(state, "b", line(20.0, 24.0, 10))  # 14" off: in range, out of reach of a charge
    state = in_phase(state, "movement")
    menu = legal_actions(state)
    run, end = Action("run", 0, "a"), next(a for a in menu if a.kind == "end_phase")
    assert run in menu
    assert EVALUATION.action_value(state, run) < EVALUATION.action_value(state, end) == 0.0
    assert HeuristicPlayer().choose(state, menu) != run
    state.extra["pending"] = {"kind": "run", "unit": "a", "roll": 1, "bonus": 0}
    stand = Action("run_move", 0, "a")
    assert stand in legal_actions(state)
    assert EVALUATION.action_value(state, stand) < 0.0


def test_war_of_attrition_counts_less_for_wounds_that_do_not_destroy_as_rounds_pass() -> None:
    """War of Attrition scores only destroyed units: a Wound that leaves its unit standing is
    worth ``material`` in the first round and nothing in the last; a destroyed unit is worth
    all its points in every round."""
    hits = np.zeros(11)
    hits[2] = 1.0  # exactly two wounds: one of five two-Wound models slain
    wipe = np.zeros(11)
    wipe[10] = 1.0  # all ten wounds: the unit destroyed
    values = {}
    for rnd in (1, 3, 5):
        state = duel()
        state.board["victory"] = "War of Attrition"
        state.round = rnd
        values[rnd] = judge(state, "b", hits, battleshock=False).value
        assert judge(state, "b", wipe, battleshock=False).value == state.unit("b").points
    first = duel()
    first.board["victory"] = "War of Attrition"
    assert material(first) == WEIGHTS.material
    assert values[1] == pytest.approx(WEIGHTS.material * first.unit("b").points / 5)
    assert values[1] > values[3] > values[5] == 0.0
    other = duel()  # First Blood: no fading
    other.round = 5
    assert material(other) == WEIGHTS.material


# -- where the search spends its rollouts ----------------------------------------------------
def _decision(kind: str, seed: int = 2, *, second: bool = False) -> GameState:
    """The first decision of a heuristic AoS battle whose menu offers an action of ``kind``
    (after set-up; with ``second``, in the turn of the side that went second that round)."""
    army = RULESET_ARMIES["aos"][0]
    state, _ = start(load_setup((army, army), None, seed))
    player = HeuristicPlayer()
    while outcome(state) is None:
        menu = legal_actions(state)
        later = not second or state.extra.get("first") != state.active
        if state.phase != "setup" and later and any(action.kind == kind for action in menu):
            return state
        state = apply(state, player.choose(state, menu))[0]
    raise AssertionError(f"no {kind} in the battle of seed {seed}")


def test_the_search_weighs_charges_fights_and_the_turn_order_and_nothing_else() -> None:
    """Age of Sigmar: the search's rollouts go to who goes first (to the round's end), the
    charges declared and the fights (to the end of the enemy's next turn); a move, a shot or
    a spell is the heuristic's pick. OpenWar weighs every decision with short rollouts."""
    assert EVALUATION.search_mode(*_menu_of(_decision("first_turn"))) == "round"
    assert EVALUATION.search_mode(*_menu_of(_decision("charge"))) == "turns"
    assert EVALUATION.search_mode(*_menu_of(_decision("fight"))) == "turns"
    assert EVALUATION.search_mode(*_menu_of(_decision("move"))) == "none"
    assert EVALUATION.search_mode(*_menu_of(_decision("shoot"))) == "none"
    openwar = evaluation_for("openwar")
    assert openwar.search_mode(GameState.__new__(GameState), []) == "short"


def _menu_of(state: GameState) -> tuple[GameState, list[Action]]:
    return state, legal_actions(state)


def test_a_decision_the_search_does_not_weigh_is_the_heuristics_pick_without_rollouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With plans off (``plan_rollouts`` 0, the search of stop 46)."""
    state, menu = _menu_of(_decision("move"))
    player = SearchPlayer(0, plan_rollouts=0)

    def no_rollouts(*args: object) -> float:
        raise AssertionError("a rollout was played")

    monkeypatch.setattr(player, "estimate", no_rollouts)
    monkeypatch.setattr(player, "play_turns", no_rollouts)
    assert player.choose(state, menu) == HeuristicPlayer().choose(state, menu)


def test_a_charge_is_weighed_to_the_end_of_the_enemys_next_turn() -> None:
    """From a charge declared in our turn the rollout plays the enemy's turn through and
    stops as the turn after it begins; the state decided on is untouched."""
    decided = _decision("charge")
    before = decided.state_hash()
    side = decided.active
    turns = decided.extra["turns"]
    menu = legal_actions(decided)
    charge = next(action for action in menu if action.kind == "charge")
    after = apply(decided.clone(), charge)[0]
    seen: list[int] = []
    player = SearchPlayer(0)
    choose = player.heuristic.choose

    def watching(state: GameState, menu: list[Action]) -> Action:
        seen.append(int(state.extra["turn"]))
        return choose(state, menu)

    player.heuristic.choose = watching  # type: ignore[method-assign]
    reached = player.play_turns(after, side, decided, "turns")
    assert outcome(reached) is not None or reached.extra["turns"] == turns + 2
    assert 1 - side in seen  # the enemy's turn was played
    assert decided.state_hash() == before


def test_after_a_double_turn_the_rollout_still_plays_the_enemys_turn_through() -> None:
    """A charge declared in the second turn of a round: in the first rollout where its side
    wins the next roll-off and takes the first turn too (a double turn), the rollout plays on
    through the enemy's turn after it and stops as the turn after that begins (counting two
    turns from the decision stopped it before the enemy acted)."""
    decided = _decision("charge", second=True)
    side = decided.active
    begun = decided.extra["turns"]
    charge = next(action for action in legal_actions(decided) if action.kind == "charge")
    player = SearchPlayer(0)
    owners: set[tuple[int, int]] = set()
    choose = player.heuristic.choose

    def watching(state: GameState, menu: list[Action]) -> Action:
        owners.add((int(state.extra["turns"]), int(state.extra["turn"])))
        return choose(state, menu)

    player.heuristic.choose = watching  # type: ignore[method-assign]
    for k in range(12):
        owners.clear()
        dealt: dict[tuple[int, int], int] = {}
        trial = decided.clone()
        trial.rng = player.turn_dice(trial, charge, k, dealt)
        reached = player.play_turns(apply(trial, charge)[0], side, decided, "turns", k, dealt)
        if (begun + 1, side) in owners:
            break  # the double turn
    assert (begun + 1, side) in owners, "no rollout of 12 gave the charging side a double turn"
    assert (begun + 2, 1 - side) in owners  # the enemy's turn, played
    assert outcome(reached) is None and reached.extra["turns"] == begun + 3


def test_who_goes_first_is_weighed_to_the_end_of_the_round() -> None:
    decided = _decision("first_turn")
    player = SearchPlayer(0)
    for action in legal_actions(decided):
        reached = player.play_turns(apply(decided.clone(), action)[0], action.side, decided,
                                    "round")  # fmt: skip
        assert outcome(reached) is not None or reached.round == decided.round + 1
        assert reached.extra["turns"] >= decided.extra["turns"] + 2  # both turns played


def test_the_searchs_turn_rollouts_must_beat_the_heuristics_pick_by_its_head_start() -> None:
    player = SearchPlayer(0, turn_prior=0.03, turn_confirm=0)
    assert player.turn_pick([5, 2, 9], [0.50, 0.52, 0.45]) == 5  # within the head start
    assert player.turn_pick([5, 2, 9], [0.50, 0.54, 0.45]) == 2  # beyond it
    assert player.turn_pick([5, 2, 9], [0.40, 0.45, 0.45]) == 2  # ties keep the order


def test_a_challengers_gain_is_confirmed_beyond_the_head_start_and_its_error() -> None:
    player = SearchPlayer(0, turn_prior=0.03, turn_z=1.64)
    assert player.confirmed([0.10] * 12)  # a steady gain
    assert not player.confirmed([0.02] * 12)  # steady, but within the head start
    assert not player.confirmed([0.0] * 11 + [0.6])  # mean 0.05, one lucky seed
    assert player.confirmed([0.04, 0.06] * 6)  # mean 0.05, small spread
    # mean 0.05, error 0.015: 1.64 errors (0.025) leave it above nothing, which is the test,
    # though not above the head start; 3.5 errors (0.053) do not
    assert player.confirmed([0.0, 0.10] * 6)
    assert not SearchPlayer(0, turn_z=3.5).confirmed([0.0, 0.10] * 6)
    with pytest.raises(ValueError, match="turn_confirm"):
        SearchPlayer(0, turn_confirm=1)  # one fresh seed has no error to weigh


def _weighed(
    monkeypatch: pytest.MonkeyPatch, first: list[float], fresh: list[float], confirm: int = 4
) -> tuple[int, list[tuple[int, int]]]:
    """What :meth:`SearchPlayer.weigh_turns` picks among three candidates (menu indexes 7,
    3, 5, the heuristic's pick first) when the challengers' rollouts are worth ``first`` on
    the first seeds and the one confirmed ``fresh`` on the fresh ones, in turn (the pick 0.5
    on every seed), and the (candidate, seed) of every rollout played."""
    player = SearchPlayer(0, rollouts=2, turn_confirm=confirm, turn_prior=0.03)
    calls: list[tuple[int, int]] = []

    def value(state: GameState, action: Action, side: int, mode: str, seed: int) -> float:
        index = int(str(action.unit))
        calls.append((index, seed))
        if index == 7:
            return 0.5
        if len(calls) > 12:  # 3 candidates x 4 seeds come first
            return fresh[(len(calls) - 13) // 2 % len(fresh)]
        return first[0 if index == 3 else 1]

    monkeypatch.setattr(player, "turn_value", value)
    menu = [Action("fight", 0, unit=str(i)) for i in range(8)]
    return player.weigh_turns(GameState.__new__(GameState), menu, [7, 3, 5], "turns"), calls


def test_the_turn_search_overrules_only_with_a_gain_confirmed_on_fresh_seeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    picked, calls = _weighed(monkeypatch, [0.45, 0.48], [0.9])
    assert (picked, len(calls)) == (7, 12)  # no challenger ahead: nothing to confirm
    assert sorted(calls[:12]) == sorted((i, seed) for i in (7, 3, 5) for _, seed in calls[:4])
    picked, calls = _weighed(monkeypatch, [0.45, 0.70], [0.5])
    assert picked == 7 and len(calls) == 20  # ahead at first, level on fresh seeds
    first, fresh = {seed for _, seed in calls[:12]}, calls[12:]
    assert [i for i, _ in fresh] == [5, 7] * 4  # the challenger and the pick, seed by seed
    assert all(fresh[k][1] == fresh[k + 1][1] not in first for k in range(0, 8, 2))
    assert len({seed for _, seed in fresh}) == 4  # four fresh seeds
    assert _weighed(monkeypatch, [0.45, 0.70], [0.6])[0] == 5  # the gain stands on them
    assert _weighed(monkeypatch, [0.45, 0.70], [0.54, 0.58])[0] == 5  # 0.06 +- 0.01
    assert _weighed(monkeypatch, [0.45, 0.70], [0.3, 0.9])[0] == 7  # 0.1 +- 0.17: luck
    picked, calls = _weighed(monkeypatch, [0.45, 0.70], [0.6], confirm=0)
    assert (picked, len(calls)) == (5, 12)  # without confirmation: the best mean


def test_the_plans_are_the_evaluation_with_a_few_other_weights() -> None:
    plans = EVALUATION.plans()
    assert list(plans) == list(PLANS) and plans["default"] is EVALUATION
    assert EVALUATION.plans() is plans  # built once
    assert all(plan.w == PLANS[name] for name, plan in plans.items())
    assert len({plan.w for plan in plans.values()}) == len(PLANS)
    tuned = AosEvaluation(replace(WEIGHTS, margin=0.5))  # the plans' changes on its own weights
    assert tuned.plans()["wary"].w == replace(PLANS["wary"], margin=0.5)


def test_evaluations_with_other_weights_read_one_state_without_mixing_what_they_remember() -> None:
    """The facts an evaluation remembers while a state is read that depend on its weights
    are kept apart for each set of weights, so a plan values a state as it would alone: an
    attack's worth, and the moves of a movement phase (what staying put offers and risks, the
    objectives, the gathering)."""
    state = _decision("shoot")
    shot = next(action for action in legal_actions(state) if action.kind == "shoot")
    unit = state.unit(str(shot.unit))
    other = replace(WEIGHTS, battleshock=0.0, material=0.3)
    alone = potential(state, unit, str(shot.target), True, False, other)
    with state.reading():
        default = potential(state, unit, str(shot.target), True, False, WEIGHTS)
        together = potential(state, unit, str(shot.target), True, False, other)
    assert together == alone
    assert default != alone  # the weights change what the attack is worth
    state, menu = _menu_of(_decision("move"))
    moves = [action for action in menu if action.kind == "move"][:12]
    differ = 0
    for plan in list(EVALUATION.plans().values())[1:]:
        apart = [plan.action_value(state, action) for action in moves]
        with state.reading():
            first = [EVALUATION.action_value(state, action) for action in moves]
            after = [plan.action_value(state, action) for action in moves]
        assert after == apart
        differ += first != apart
    assert differ >= 2  # the plans' weights change these values


def _planners() -> dict[str, HeuristicPlayer]:
    return {name: HeuristicPlayer(0, plan) for name, plan in EVALUATION.plans().items()}


def test_a_plan_is_taken_on_its_mean_win_chance_the_default_ahead_by_its_head_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    player = SearchPlayer(0, plan_rollouts=3, plan_prior=0.02)
    planners = _planners()
    played: list[tuple[str, int]] = []
    worth: dict[str, float] = {}
    names = {id(planner): name for name, planner in planners.items()}

    def play(state: GameState, side: int, decided: GameState, mode: str, seed: int,
             dealt: object, ours: HeuristicPlayer) -> str:  # fmt: skip
        assert mode == "turns" and state is not decided  # a clone is played
        played.append((names[id(ours)], seed))
        return names[id(ours)]

    monkeypatch.setattr(player, "play_turns", play)
    monkeypatch.setattr(player, "win_chance", lambda reached, side: worth[reached])
    state = _decision("move")
    worth.update(default=0.50, bold=0.51, wary=0.40, objectives=0.45)
    assert player.pick_plan(state, 0, planners) == "default"  # within the head start
    worth.update(bold=0.53)
    assert player.pick_plan(state, 0, planners) == "bold"  # beyond it
    worth.update(objectives=0.53)
    assert player.pick_plan(state, 0, planners) == "bold"  # ties go to the plans' order
    seeds = {name: [seed for plan, seed in played[-12:] if plan == name] for name in PLANS}
    assert all(len(set(s)) == 3 and s == seeds["default"] for s in seeds.values())


def _reply_decision() -> GameState:
    """A decision with a choice taken in the enemy's turn (a fight, an allocation)."""
    army = RULESET_ARMIES["aos"][0]
    state, _ = start(load_setup((army, army), None, 2))
    player = HeuristicPlayer()
    while outcome(state) is None:
        menu = legal_actions(state)
        turn = state.extra.get("turn")
        if state.phase != "setup" and len(menu) > 1 and turn is not None and menu[0].side != turn:
            return state
        state = apply(state, player.choose(state, menu))[0]
    raise AssertionError("no choice in the enemy's turn")


def test_the_search_picks_a_plan_at_its_turns_first_decision_and_plays_the_turn_by_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, menu = _menu_of(_decision("move"))
    player = SearchPlayer(0, plan_rollouts=2)
    picked: list[int] = []

    def pick(decided: GameState, side: int, planners: dict[str, HeuristicPlayer]) -> str:
        picked.append(int(decided.extra["turns"]))
        return "wary"

    monkeypatch.setattr(player, "pick_plan", pick)
    wary, default = _planners()["wary"], HeuristicPlayer()
    assert wary.choose(state, menu) != default.choose(state, menu)  # the plans differ here
    assert player.choose(state, menu) == wary.choose(state, menu)
    assert player.choose(state, menu) == wary.choose(state, menu)
    assert picked == [state.extra["turns"]]  # once a turn
    double = state.clone()  # the same side's next turn (a double turn): a new pick
    double.extra["turns"] += 1
    player.choose(double, legal_actions(double))
    assert picked == [state.extra["turns"], state.extra["turns"] + 1]


def test_in_the_enemys_turn_the_search_with_plans_decides_by_the_default_judgement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reply, options = _menu_of(_reply_decision())
    player = SearchPlayer(0, plan_rollouts=16)

    def no_pick(*args: object) -> str:
        raise AssertionError("a plan was picked in the enemy's turn")

    monkeypatch.setattr(player, "pick_plan", no_pick)
    assert player.choose(reply, options) == HeuristicPlayer().choose(reply, options)
    assert player.plan_turn is None
    assert SearchPlayer(0, plan_rollouts=0).plan_players(EVALUATION) is None
    assert (
        SearchPlayer(0, plan_rollouts=16).plan_players(evaluation_for("openwar")) is None
    )  # it offers none


def test_a_plan_rollout_plays_its_sides_turn_by_the_plan_and_the_enemys_next_turn_by_default() -> (
    None
):
    decided = _decision("move")
    before = decided.state_hash()
    side, begun = decided.active, int(decided.extra["turns"])
    player = SearchPlayer(0)
    plan = _planners()["bold"]
    by: list[tuple[str, int, int, int]] = []

    def watched(name: str, chooser: HeuristicPlayer) -> None:
        choose = chooser.choose

        def watching(state: GameState, menu: list[Action]) -> Action:
            by.append((name, menu[0].side, int(state.extra["turn"]), int(state.extra["turns"])))
            return choose(state, menu)

        chooser.choose = watching  # type: ignore[method-assign]

    watched("plan", plan)
    watched("default", player.heuristic)

    def reached(seed: int) -> str:
        by.clear()
        end = player.play_turns(decided.clone(), side, decided, "turns", seed, {}, plan)
        assert outcome(end) is not None or int(end.extra["turns"]) in (begun + 2, begun + 3)
        return end.state_hash()

    first = reached(5)
    assert by[0][0] == "plan"
    assert all((who, turns) == (side, begun) for name, who, _, turns in by if name == "plan")
    assert all(who != side or turns != begun for name, who, _, turns in by if name == "default")
    assert any(name == "default" and turn == 1 - side for name, _, turn, _ in by)
    assert reached(5) == first and reached(6) != first
    assert decided.state_hash() == before


def test_a_leaf_far_beyond_the_margin_scale_is_a_nil_chance_not_an_overflow() -> None:
    class Lopsided:
        def position_value(self, state: GameState, side: int) -> float:
            return -1e6 if side == 0 else 1e6

        def margin_scale(self, state: GameState) -> float:
            return 1.0

    player = SearchPlayer(0, evaluation=Lopsided())  # type: ignore[arg-type]
    assert player.win_chance(duel(), 0) == 0.0
    assert player.win_chance(duel(), 1) == 1.0


def test_the_searchs_turn_rollouts_give_each_unit_its_own_dice_and_are_seeded() -> None:
    """A turn rollout places every action's dice by its seed and the unit acting (its k-th
    action; an action of no unit by its turn and phase), so the same seed reaches the same
    state and another seed another, and the enemy's units roll their own dice in their turn;
    the search's pick is the same for the same player seed and the state decided on is
    untouched."""
    decided = _decision("charge")
    before = decided.state_hash()
    charge = next(action for action in legal_actions(decided) if action.kind == "charge")
    player = SearchPlayer(0)

    def reached(seed: int) -> tuple[str, dict[tuple[int, int], int]]:
        dealt: dict[tuple[int, int], int] = {}
        trial = decided.clone()
        trial.rng = player.turn_dice(trial, charge, seed, dealt)
        after = apply(trial, charge)[0]
        end = player.play_turns(after, charge.side, decided, "turns", seed, dealt)
        return end.state_hash(), dealt

    first, dealt = reached(5)
    assert reached(5)[0] == first
    assert reached(6)[0] != first
    charger = (charge.side, decided.unit_index(str(charge.unit)) + 1)
    assert dealt[charger] >= 2  # the charger acted again in the rollout, on its own dice
    assert any(side != charge.side and unit > 0 for side, unit in dealt)  # the enemy's units
    # an action of no unit rolls by its turn and phase, not by how many came before it
    end_phase = Action("end_phase", charge.side)
    counted = {(charge.side, 0): 3}
    assert player.turn_dice(decided, end_phase, 5, {}) == player.turn_dice(decided, end_phase,
                                                                          5, counted)  # fmt: skip
    assert player.dice(decided, end_phase, 5, {}) != player.dice(decided, end_phase, 5, counted)
    menu = legal_actions(decided)
    picks = {
        SearchPlayer(7, rollouts=1, turn_steps=12, plan_rollouts=0).choose(decided, menu)
        for _ in "ab"
    }
    assert len(picks) == 1
    assert decided.state_hash() == before


def test_the_front_that_can_fight_reads_a_damage_tables_melee_range() -> None:
    """Two ranks fight with 2" weapons: a row that lengthens a 1" weapon to 2" counts as such
    (the warscroll's Range was read)."""
    from openwar.ai.aos_eval import front
    from openwar.engine.game import ScriptedDice
    from openwar.rulesets.aos.wounds import allocate

    beast = profile(wounds=12, melee=[weapon("Claws", rng=1)])
    beast["damage_table"] = [
        {"suffered": 0, "move": 8, "bravery": None, "save": None, "weapons": {"Claws": {}}},
        {"suffered": 4, "move": 8, "bravery": None, "save": None,
         "weapons": {"Claws": {"range": "2"}}},
    ]  # fmt: skip
    state = in_phase(battle([unit("d", 1, beast)], [unit("b", 5)]), "combat")
    place(state, "d", [(30.0, 10.0)])
    place(state, "b", line(30.0, 40.0, 5))
    fresh = front(state, state.unit("d"))
    allocate(state, "d", 5, ScriptedDice([]), 1, "test")
    assert front(state, state.unit("d")) == 2 * fresh
