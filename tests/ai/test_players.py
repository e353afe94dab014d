"""The AI players: menu actions only, seeded determinism, a winning charge, a small match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from openwar.ai import HeuristicPlayer, SearchPlayer, evaluation_for, search
from openwar.ai.openwar_eval import EVALUATION
from openwar.ai.stats import wilson
from openwar.battles import load_setup, make_players, read_players, start
from openwar.bench.ai import RULESET_ARMIES, SAMPLE_ARMIES, games, play_game
from openwar.engine.actions import Action
from openwar.engine.game import Outcome, apply, legal_actions, outcome
from openwar.engine.players import RandomPlayer
from openwar.engine.state import GameState
from openwar.errors import OpenWarError
from openwar.rulesets.openwar.board import default_board
from openwar.rulesets.openwar.setup import ForceUnit, new_battle

SWORD: dict[str, Any] = {
    "name": "Sword", "type": "melee", "range": None, "attacks": 3, "difficulty": 5, "pierce": 0,
    "special": [],
}  # fmt: skip


def profile(*, melee: int, armor: int, morale: int) -> dict[str, Any]:
    return {
        "move": 10, "melee": melee, "ranged": 0, "armor": armor, "morale": morale,
        "presence": 0, "skills": [], "command_skills": [],
        "loadouts": [{"weapons": [SWORD], "armour": 0, "shield": 0, "skills": []}],
    }  # fmt: skip


def block(state: GameState, uid: str, x: float, y: float) -> None:
    """Put a unit in ranks of 5 whose front rank is at height ``y``."""
    members = state.members(uid)
    xy = [(x + 2.5 * (k % 5), y + 2.5 * (k // 5)) for k in range(len(members))]
    state.pos[members] = np.asarray(xy, dtype=np.float64)
    state.deployed[members] = True
    state.unit(uid).flags["deployed"] = True


def charge_position() -> GameState:
    """Ten strong swordsmen 12.5 cm from five poor, shaky enemies: a charge to take."""
    ours = ForceUnit("a1", "Veterans", "Breakers", 100, profile(melee=2, armor=5, morale=9),
                     (0,) * 10)  # fmt: skip
    theirs = ForceUnit("b1", "Levy", "Breakers", 50, profile(melee=0, armor=3, morale=4),
                       (0,) * 5)  # fmt: skip
    state, _ = new_battle(([ours], [theirs]), default_board(), seed=0)
    block(state, "a1", 40.0, 40.0)  # back rank at 42.5
    block(state, "b1", 40.0, 60.0)  # 12.5 cm edge to edge: beyond a move, within a Run
    state.phase, state.round, state.active = "battle", 1, 0
    for u in state.units:
        u.flags["ordered"] = False
    # our unit's front rank faces +y: flip so its front (row 0) is nearest the enemy
    members = state.members("a1")
    state.pos[members, 1] = 45.0 - (state.pos[members, 1] - 40.0)
    return state


def test_heuristic_prefers_a_winning_charge_over_holding() -> None:
    state = charge_position()
    menu = legal_actions(state)
    charges = [a for a in menu if a.kind == "run" and a.choice == "charge"]
    assert charges, "the position must offer a charge"
    values = dict(zip(menu, HeuristicPlayer().values(state, menu), strict=True))
    hold = values[Action("hold", 0, "a1")]
    assert values[charges[0]] > hold
    chosen = HeuristicPlayer().choose(state, menu)
    assert chosen.kind == "run" and chosen.choice == "charge" and chosen.target == "b1"


def _first_state(seed: int = 3) -> GameState:
    army = SAMPLE_ARMIES[1]
    state, _ = start(load_setup((army, army), None, seed))
    return state


def _deployed(seed: int = 3) -> GameState:
    """The sample battle once both sides have set up (heuristic deployment)."""
    state = _first_state(seed)
    player = HeuristicPlayer()
    while state.phase == "setup":
        state = apply(state, player.choose(state, legal_actions(state)))[0]
    return state


@pytest.mark.parametrize("kind", ["heuristic", "search"])
def test_ai_only_ever_returns_menu_actions_or_its_evaluations_more_orders(kind: str) -> None:
    """An AI plays the menu's orders, or the legal ones its evaluation adds (OpenWar's Runs
    and Advances onto an objective that end in a fight): the engine takes every one."""
    state = _deployed() if kind == "search" else _first_state()
    ai = HeuristicPlayer(1) if kind == "heuristic" else SearchPlayer(1, candidates=2, rollouts=1,
                                                                      horizon=2)  # fmt: skip
    other = RandomPlayer(2)
    for step in range(40 if kind == "heuristic" else 6):
        if outcome(state) is not None:
            break
        menu = legal_actions(state)
        player = ai if step % 2 == 0 or state.active == 0 else other
        action = player.choose(state, menu)
        assert action in menu or action in EVALUATION.more_orders(state)
        state = apply(state, action)[0]


def test_search_same_seed_same_choices_and_state_untouched() -> None:
    state = _deployed()
    menu = legal_actions(state)
    before = state.state_hash()
    picks = [SearchPlayer(7, candidates=3, rollouts=2, horizon=3).choose(state, menu) for _ in "ab"]
    assert picks[0] == picks[1]
    assert state.state_hash() == before


def test_search_unit_dice_give_a_units_kth_action_the_same_dice_whatever_came_before() -> None:
    """With ``unit_dice`` a rollout's dice follow the unit that acts: its first action rolls
    the same dice whether or not other units acted before it, its second action other dice,
    and another rollout seed other dice again; the choices stay seeded and the state is
    untouched."""
    state = _deployed()
    menu = legal_actions(state)
    units = {action.unit: action for action in menu if action.unit is not None}
    assert len(units) >= 2
    mine, other = list(units.values())[:2]
    player = SearchPlayer(0, unit_dice=True)
    first = player.dice(state, mine, 5, {})
    dealt: dict[tuple[int, int], int] = {}
    player.dice(state, other, 5, dealt)
    player.dice(state, other, 5, dealt)
    assert player.dice(state, mine, 5, dealt) == first
    assert player.dice(state, mine, 5, dealt) != first
    assert player.dice(state, mine, 6, {}) != first
    assert player.dice(state, other, 5, {}) != first
    assert player.dice(state, Action("pass", mine.side), 5, {}) != player.dice(
        state, Action("pass", mine.side, state.units[0].id), 5, {}
    )  # no unit is not the first unit
    # in the rollouts of two candidates, every (side, unit, k) meets the same dice
    seen: dict[tuple[int, str | None, int], Any] = {}
    counts: dict[tuple[int, str | None], int] = {}
    real_apply = apply

    def recorded(state: GameState, action: Action) -> Any:
        key = (action.side, action.unit)
        k = counts.get(key, 0)
        counts[key] = k + 1
        assert seen.setdefault((*key, k), state.rng) == state.rng, (key, k)
        return real_apply(state, action)

    deep = SearchPlayer(0, horizon=6, unit_dice=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "apply", recorded)
        for action in (mine, other):
            counts.clear()
            deep.estimate(state, action, [5])
    assert len(seen) > 4
    before = state.state_hash()
    picks = [
        SearchPlayer(7, candidates=3, rollouts=2, horizon=3, unit_dice=True).choose(state, menu)
        for _ in "ab"
    ]
    assert picks[0] == picks[1]
    assert state.state_hash() == before


def test_heuristic_is_deterministic() -> None:
    state = _first_state()
    menu = legal_actions(state)
    assert HeuristicPlayer(1).choose(state, menu) == HeuristicPlayer(2).choose(state, menu)


def test_make_players_knows_the_ai() -> None:
    first, second = make_players(("heuristic", "search"), 0)
    assert (first.name, second.name) == ("heuristic", "search")


def test_search_budget_is_rollouts_per_try() -> None:
    """``search:N`` is the search with N rollouts per candidate and halving round: twice the
    budget plays twice the rollouts for the same decision."""
    assert read_players(" search:06 , search") == ("search:6", "search")  # one name each
    assert read_players("heuristic") == ("heuristic", "heuristic")  # one name plays both
    first, second = make_players(read_players("search:6,search"), 0)
    assert isinstance(first, SearchPlayer) and isinstance(second, SearchPlayer)
    assert (first.rollouts, second.rollouts) == (6, 3)
    state = _first_state()
    while state.phase != "battle":
        state = apply(state, HeuristicPlayer(0).choose(state, legal_actions(state)))[0]
    menu = legal_actions(state)
    played = []
    for player in (second, first):
        calls = 0
        real = player.rollout

        def counted(
            state: GameState, side: int, seed: int, dealt: dict[tuple[int, int], int],
            real: Any = real,
        ) -> float:  # fmt: skip
            nonlocal calls
            calls += 1
            return float(real(state, side, seed, dealt))

        player.rollout = counted  # type: ignore[method-assign]
        player.choose(state, menu)
        played.append(calls)
    assert played[1] == 2 * played[0] > 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chess", "unknown player 'chess'"),
        ("search:0", "from 1 to 100"),
        ("search:many", "from 1 to 100"),
        ("search:\u00b2", "from 1 to 100"),  # a digit to str.isdigit, not to int()
        ("search:", "from 1 to 100"),
        ("heuristic:3", "unknown player 'heuristic:3'"),
        ("random,simple,search", "expected two players .* or one for both"),
    ],
)
def test_bad_player_names_say_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(OpenWarError, match=message):
        read_players(text)


def test_player_names_are_read_case_aside() -> None:
    """--players SIMPLE was refused while --triumph a and option names were not."""
    assert read_players("SIMPLE, Heuristic") == ("simple", "heuristic")
    assert read_players("Search:06") == ("search:6", "search:6")


def test_small_mirror_match_finishes() -> None:
    work = games("heuristic", "random", 2, seed=1, armies=(Path(SAMPLE_ARMIES[1]),))
    assert [g.side for g in work] == [0, 1] and work[0].seed == work[1].seed
    results = [play_game(g) for g in work]
    assert all(r.result in ("win", "draw", "loss", "stuck") for r in results)
    assert all(r.decisions[0] > 0 for r in results)


def test_evaluation_is_per_ruleset() -> None:
    assert evaluation_for("openwar").margin_scale(_first_state()) > 0
    with pytest.raises(OpenWarError):
        evaluation_for("chess")


def test_wilson_interval() -> None:
    low, high = wilson(18, 20)
    assert 0.69 < low < 0.70 and 0.97 < high < 0.98
    assert wilson(20, 20)[1] == 1.0


def test_a_charge_is_valued_with_the_fight_move_that_follows_it() -> None:
    # a Run that stops 3 cm short of the enemy is a charge: the fight move (OW-F2) brings the
    # front rank into base contact before anyone strikes, and the value counts those attacks
    from openwar.ai.openwar_eval import WEIGHTS
    from openwar.engine.space import centroid, unit_gaps

    state = charge_position()
    ours, theirs = state.on_table("a1"), state.on_table("b1")
    assert float(unit_gaps(state, ours, theirs).min()) == pytest.approx(12.5)
    x, y = (float(v) for v in centroid(state, ours))
    charge = Action("run", 0, "a1", "b1", (x, y + 9.5), "charge")
    value = HeuristicPlayer().values(state, [charge])[0] + WEIGHTS.run_cost
    assert value > 5.0


def test_search_shortlists_one_action_per_unit_before_a_units_second() -> None:
    """OpenWar: the candidates are the best action of each unit in turn (which unit acts now
    is what the rollouts can judge), then the best of the rest; ``diverse=False`` the plain
    best."""
    judge = evaluation_for("openwar")
    menu = [Action("hold", 0, u, point=(float(k), 0.0)) for k, u in enumerate("aabbc")]
    values = [5.0, 4.9, 3.0, 2.9, 1.0]
    diverse = SearchPlayer(0, candidates=4)
    assert diverse.shortlist(menu, values, judge) == [0, 2, 4, 1]
    assert SearchPlayer(0, candidates=2).shortlist(menu, values, judge) == [0, 2]
    plain = SearchPlayer(0, candidates=4, diverse=False)
    assert plain.shortlist(menu, values, judge) == [0, 1, 2, 3]


def test_aos_search_shortlists_a_units_distinct_choices_not_its_points_a_hair_apart() -> None:
    """AoS: one unit's moves to points more than 3" apart, or with another target or kind, are
    each a candidate; a move within 3" of one already picked is not (until the list is short)."""
    judge = evaluation_for("aos")
    menu = [
        Action("move", 0, "a", point=(10.0, 10.0)),
        Action("move", 0, "a", point=(11.0, 10.0)),  # 1" from the first: the same choice
        Action("move", 0, "a", point=(10.0, 14.0)),  # 4" away: another choice
        Action("shoot", 0, "a", target="x"),
        Action("shoot", 0, "a", target="y"),
        Action("move", 0, "b", point=(10.0, 10.0)),
    ]
    values = [6.0, 5.9, 5.0, 4.0, 3.9, 1.0]
    assert SearchPlayer(0, candidates=4).shortlist(menu, values, judge) == [0, 2, 3, 4]
    assert SearchPlayer(0, candidates=6).shortlist(menu, values, judge) == [0, 2, 3, 4, 5, 1]
    assert judge.distinct(menu[0], menu[5]) and not judge.distinct(menu[0], menu[1])


def _rollout_menus(player: SearchPlayer, state: GameState) -> tuple[list[bool], list[bool]]:
    """Whether each choice of a rollout from ``state`` (after the heuristic's pick) was made
    from the whole legal menu: the opponent's, then the mover's."""
    side = state.active
    seen: list[tuple[int, bool]] = []
    real = player.heuristic.choose

    def watched(state: GameState, menu: list[Action]) -> Action:
        seen.append((state.active, len(menu) == len(legal_actions(state))))
        return real(state, menu)

    player.heuristic.choose = watched  # type: ignore[method-assign]
    player.rollout(apply(state, HeuristicPlayer(0).choose(state, legal_actions(state)))[0],
                   side, 0, {})  # fmt: skip
    theirs = [full for active, full in seen if active != side]
    ours = [full for active, full in seen if active == side]
    assert theirs and ours
    return theirs, ours


def test_search_rollouts_give_the_opponent_the_whole_menu_as_the_heuristic_does() -> None:
    """In a rollout the opponent chooses as the heuristic player would (its best action of the
    whole legal menu), our side from the ruleset's rollout menu (Age of Sigmar's: one unit's
    choices); ``whole_replies=False`` gives the opponent the rollout menu too."""
    army_a, army_b = RULESET_ARMIES["aos"]
    state, _ = start(load_setup((army_a, army_b), None, 3))
    while state.phase != "movement" or state.extra.get("pending"):
        state = apply(state, HeuristicPlayer(0).choose(state, legal_actions(state)))[0]
    for whole in (True, False):
        theirs, ours = _rollout_menus(SearchPlayer(0, horizon=40, whole_replies=whole), state)
        assert all(theirs) if whole else not all(theirs)
        assert not all(ours)


def test_openwar_search_rollouts_play_both_sides_as_the_heuristic_does() -> None:
    """OpenWar's rollout menu is the whole legal menu (stop 44): in a rollout both sides
    choose as the heuristic player would, so the rollouts after "unit A acts now" order the
    other units as the player itself would."""
    state = _first_state()
    while state.phase != "battle":
        state = apply(state, HeuristicPlayer(0).choose(state, legal_actions(state)))[0]
    assert EVALUATION.rollout_menu(state) == legal_actions(state)
    theirs, ours = _rollout_menus(SearchPlayer(0, horizon=6), state)
    assert all(theirs) and all(ours)


def test_search_values_a_drawn_rollout_below_an_even_chance(monkeypatch: Any) -> None:
    """A rollout that ends the battle is worth 1 won, 0 lost and ``draw`` (0.1 by default)
    drawn: the search plays to win, taking a fair chance of winning over a sure draw."""
    state = _deployed()
    side = state.active
    for winner, default, even in ((None, 0.1, 0.5), (side, 1.0, 1.0), (1 - side, 0.0, 0.0)):
        ended = Outcome(winner, "draw" if winner is None else "major", (0, 0), 1, "test")
        monkeypatch.setattr(search, "outcome", lambda state, ended=ended: ended)
        assert SearchPlayer(0).rollout(state.clone(), side, 0, {}) == default
        assert SearchPlayer(0, draw=0.5).rollout(state.clone(), side, 0, {}) == even


@pytest.mark.parametrize("ruleset", ["openwar", "aos"])
def test_each_player_says_whether_its_choices_weigh_points(ruleset: str) -> None:
    """A cost sweep with players that never read points plays the same battles at every
    cost (docs/simulate.md): random and simple choose by the rules alone, the heuristic and
    the search value losses and objectives in points."""
    from openwar.battles import make_players

    for names, reads in ((("random", "simple"), False), (("heuristic", "search:2"), True)):
        assert [p.reads_points for p in make_players(names, 0, ruleset)] == [reads, reads]
