"""The search player: successive halving over the heuristic's best few actions.

Each candidate is tried on a clone of the state with freshly seeded dice (the search never
peeks at the game's own dice: every rollout draws its dice from the player's generator), then
both sides play on greedily by the evaluation until the round ends (its objectives are
scored) or ``horizon`` further actions have been taken: the opponent chooses from its whole
menu, as the heuristic player does (``whole_replies``, since 2026-11-26), so the rollouts
foresee a heuristic opponent's replies exactly but for the dice; our side from the part of
the menu the ruleset calls cheap enough (:meth:`Evaluation.rollout_menu`: in OpenWar the
whole menu since stop 44; Age of Sigmar's one unit's choices are no longer used, its search
looking through whole turns instead, below). The leaf is
scored by the evaluation's position value as a win chance (a finished battle by its result: a
win 1, a loss 0, a draw ``draw``, 0.1 since stop 43: the search plays to win, so it takes a
fair chance of winning over a sure draw, yet still prefers a draw to a loss).
The same rollout dice are used for every candidate (common random numbers), so candidates are
compared on the same luck: one stream per rollout, drawn from in turn, or with ``unit_dice``
(off by default: no gain measured, docs/ai.md) one stream per unit, so a unit's k-th action
meets the same dice whatever acted before it (:meth:`SearchPlayer.dice`). The candidates are
the best actions, in the order of their values, that the ruleset calls distinct from each other
(:meth:`SearchPlayer.shortlist`, :meth:`Evaluation.distinct`): in OpenWar, where units act in
alternation, the best action of each unit, so the rollouts judge which unit acts now; in Age of
Sigmar, where a side moves its whole army in its turn, a unit's different moves, targets and
options as well.
Where and how far the search looks is the ruleset's call (:meth:`Evaluation.search_mode`):
OpenWar weighs every decision as above; Age of Sigmar weighs only charges and fights, by
rollouts through the enemy's next turn (after a double turn too), and who goes first, to the
end of the round, each unit with its own dice (:meth:`SearchPlayer.weigh_turns`; with
``turn_confirm``, off by default since stop 47's measurement, overruling the heuristic only on
a gain confirmed on fresh dice), and takes the heuristic's pick elsewhere. An evaluation
that offers plans (``plans()``, Age of Sigmar's since stop 49: its judgement with other
weights) has the search pick one at the first decision of each of its side's turns, by
``plan_rollouts`` rollouts of each through the enemy's next turn, and play the turn by it
(:meth:`SearchPlayer.pick_plan`): its charges and fights are then not weighed one by one;
the choice of who goes first still is, as above.
Successive halving: every candidate gets ``rollouts`` rollouts, the
better half gets as many again, and so on until one is left, so most of the budget goes to the
close calls. The heuristic's own pick keeps a head start of ``prior`` (a win chance), so a
few noisy rollouts must show a real gain before the search overrules the exact odds. The
budget is counted in rollouts, not seconds, so the same seed gives the same choices on any
machine.
"""

from __future__ import annotations

import math
import zlib
from typing import Any

import numpy as np

from openwar.ai.evaluation import Evaluation, SearchMode, evaluation_for
from openwar.ai.heuristic import HeuristicPlayer
from openwar.engine.actions import Action
from openwar.engine.game import apply, legal_actions, outcome, seed_state
from openwar.engine.state import GameState


class SearchPlayer:
    name = "search"
    reads_points = True  # its rollouts and leaves are valued by the evaluation, in points

    def __init__(
        self,
        seed: int | np.random.SeedSequence = 0,
        *,
        candidates: int = 4,
        rollouts: int = 3,
        horizon: int = 14,
        prior: float = 0.10,
        diverse: bool = True,
        whole_replies: bool = True,
        unit_dice: bool = False,
        draw: float = 0.1,
        turn_prior: float = 0.03,
        turn_steps: int = 400,
        turn_confirm: int = 0,
        turn_z: float = 1.64,
        plan_rollouts: int = 16,
        plan_prior: float = 0.02,
        evaluation: Evaluation | None = None,
    ) -> None:
        sequence = (
            seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        )
        self.generator = np.random.Generator(np.random.PCG64(sequence))
        self.candidates = candidates
        self.rollouts = rollouts
        self.horizon = horizon
        self.prior = prior
        self.diverse = diverse
        self.whole_replies = whole_replies
        self.unit_dice = unit_dice
        self.draw = draw
        self.turn_prior = turn_prior
        self.turn_steps = turn_steps
        if turn_confirm == 1 or turn_confirm < 0:
            raise ValueError(
                f"turn_confirm must be 0 (no confirmation) or 2 or more, not {turn_confirm}"
            )
        self.turn_confirm = turn_confirm
        self.turn_z = turn_z
        if plan_rollouts < 0:
            raise ValueError(f"plan_rollouts must be 0 (no plans) or more, not {plan_rollouts}")
        self.plan_rollouts = plan_rollouts
        self.plan_prior = plan_prior
        self.evaluation = evaluation
        self.heuristic = HeuristicPlayer(0, evaluation)
        self.planners: dict[str, HeuristicPlayer] | None = None
        self.plan = "default"  # the plan of the turn ``plan_turn``: (battle seed, side, turns)
        self.plan_turn: tuple[int, int, int] | None = None

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        if len(menu) == 1:
            return menu[0]
        judge = self.evaluation or evaluation_for(state.ruleset)
        planners = self.plan_players(judge)
        if planners is not None and state.phase not in ("setup", "first_turn"):
            return self.by_plan(state, menu, planners)
        menu = menu + self.heuristic.more(state, menu)  # the orders the heuristic weighs too
        values = self.heuristic.values(state, menu)
        mode = "none" if state.phase == "setup" else judge.search_mode(state, menu)
        if mode == "none":
            return menu[int(np.argmax(values))]
        alive = self.shortlist(menu, values, judge)
        if mode in ("turns", "round"):
            return menu[self.weigh_turns(state, menu, alive, mode)]
        top = alive[0]
        totals = dict.fromkeys(alive, 0.0)
        played = 0
        while len(alive) > 1:
            seeds = [int(s) for s in self.generator.integers(0, 2**63, size=self.rollouts)]
            for i in alive:
                totals[i] += self.estimate(state, menu[i], seeds) * len(seeds)
            played += len(seeds)
            # the heuristic's own pick keeps a head start; ties keep the heuristic's order
            ranked = sorted(alive, key=lambda i: -self._score(totals[i] / played, i, top))
            alive = ranked[: max(1, len(ranked) // 2)]
        return menu[alive[0]]

    def plan_players(self, judge: Evaluation) -> dict[str, HeuristicPlayer] | None:
        """A heuristic player for each plan the evaluation offers (``plans()``, the default
        judgement first), or None: the evaluation offers none, or ``plan_rollouts`` is 0."""
        offered = getattr(judge, "plans", None)
        if offered is None or self.plan_rollouts == 0:
            return None
        if self.planners is None:
            self.planners = {
                name: self.heuristic if k == 0 else HeuristicPlayer(0, plan)
                for k, (name, plan) in enumerate(offered().items())
            }
        return self.planners

    def by_plan(
        self, state: GameState, menu: list[Action], planners: dict[str, HeuristicPlayer]
    ) -> Action:
        """A decision of a ruleset with plans: in the side's own turn, by the plan picked at
        the turn's first decision (:meth:`pick_plan`); in the enemy's turn (allocations,
        unbinding, fights), by the default judgement."""
        side = menu[0].side
        if state.extra.get("turn") != side:
            return planners["default"].choose(state, menu)
        turn = (int(state.seed), side, int(state.extra.get("turns", 0)))
        if turn != self.plan_turn:  # a player given another battle picks afresh too
            self.plan_turn = turn
            self.plan = self.pick_plan(state, side, planners)
        return planners[self.plan].choose(state, menu)

    def pick_plan(self, state: GameState, side: int, planners: dict[str, HeuristicPlayer]) -> str:
        """The plan to play this turn of ``side``'s by: each is tried with the same
        ``plan_rollouts`` rollout seeds, playing ``side``'s turn from here by that plan and
        the enemy's next turn by the default judgement (:meth:`play_turns`, each unit with its
        own dice), and valued as a win chance; the best mean is taken, the default ahead by
        ``plan_prior``, ties in the plans' order."""
        seeds = [int(s) for s in self.generator.integers(0, 2**63, size=self.plan_rollouts)]
        best, top = "default", -math.inf
        for name, planner in planners.items():
            total = 0.0
            for seed in seeds:
                reached = self.play_turns(state.clone(), side, state, "turns", seed, {}, planner)
                total += self.win_chance(reached, side)
            score = total / len(seeds) + (self.plan_prior if name == "default" else 0.0)
            if score > top:
                best, top = name, score
        return best

    def shortlist(self, menu: list[Action], values: list[float], judge: Evaluation) -> list[int]:
        """The candidates: the heuristic's best action, then the next best that are
        :meth:`Evaluation.distinct` from every one already picked, in the order of their
        values (the heuristic's next best are mostly the same order to a point a hair away,
        which the rollouts cannot tell apart); the best remaining actions fill the list when
        fewer distinct ones exist."""
        ranked = sorted(range(len(menu)), key=lambda i: (-values[i], i))
        if not self.diverse:
            return ranked[: self.candidates]
        picked: list[int] = []
        for i in ranked:
            if all(judge.distinct(menu[i], menu[j]) for j in picked):
                picked.append(i)
                if len(picked) == self.candidates:
                    return picked
        rest = [i for i in ranked if i not in picked]
        return picked + rest[: self.candidates - len(picked)]

    def weigh_turns(
        self, state: GameState, menu: list[Action], alive: list[int], mode: SearchMode
    ) -> int:
        """The candidate (an index of ``menu``) to take: each of ``alive`` (the heuristic's
        pick first) is tried with the same ``2 * rollouts`` rollout seeds, each played on by
        :meth:`play_turns` (``mode`` "turns" or "round") and valued as a win chance
        (:meth:`turn_value`). With ``turn_confirm`` 0 the best mean is taken, the pick ahead
        by ``turn_prior`` (:meth:`turn_pick`). Otherwise the challenger with the best mean
        is confirmed on ``turn_confirm`` fresh seeds against the pick (:meth:`confirmed`):
        it is taken only when its mean gain on them, seed by seed, is beyond ``turn_prior``
        and more than ``turn_z`` standard errors above nothing, so a challenger that only
        drew lucky first seeds (the best of several is flattered by its luck) does not
        overrule the exact odds. Every first seed is tried with every candidate, every fresh
        one with the pick and the challenger, each unit with its own dice
        (:meth:`turn_dice`): a unit's k-th action rolls the same dice whichever candidate
        was taken, so the candidates are compared on much the same luck."""
        if len(alive) == 1:
            return alive[0]
        side = menu[alive[0]].side
        seeds = [int(s) for s in self.generator.integers(0, 2**63, size=2 * self.rollouts)]
        values = [
            [self.turn_value(state, menu[i], side, mode, seed) for seed in seeds] for i in alive
        ]
        means = [sum(row) / len(row) for row in values]
        if self.turn_confirm == 0:
            return self.turn_pick(alive, means)
        best = max(range(1, len(alive)), key=lambda k: (means[k], -k))
        if means[best] <= means[0]:
            return alive[0]
        fresh = [int(s) for s in self.generator.integers(0, 2**63, size=self.turn_confirm)]
        gains = [
            self.turn_value(state, menu[alive[best]], side, mode, seed)
            - self.turn_value(state, menu[alive[0]], side, mode, seed)
            for seed in fresh
        ]
        return alive[best] if self.confirmed(gains) else alive[0]

    def confirmed(self, gains: list[float]) -> bool:
        """Whether a challenger's gains over the heuristic's pick, one a rollout seed, show
        a real gain: their mean beyond ``turn_prior``, and more than ``turn_z`` standard
        errors above nothing (a one-sided test: 1.64 is the normal's 95% point; with the 12
        fresh seeds stop 47 measured, Student's t would ask 1.80, so the test is about
        93.5%). Gains that are all equal have no error: their mean alone decides."""
        mean = float(np.mean(gains))
        error = float(np.std(gains, ddof=1)) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
        return mean > self.turn_prior and mean - self.turn_z * error > 0.0

    def turn_value(
        self, state: GameState, action: Action, side: int, mode: SearchMode, seed: int
    ) -> float:
        """The win chance for ``side`` of one turn rollout of ``seed`` after ``action``."""
        trial = state.clone()
        dealt: dict[tuple[int, int], int] = {}
        trial.rng = self.turn_dice(trial, action, seed, dealt)
        after = apply(trial, action)[0]
        return self.win_chance(self.play_turns(after, side, state, mode, seed, dealt), side)

    def turn_pick(self, alive: list[int], means: list[float]) -> int:
        """The candidate of ``alive`` (the heuristic's pick first) with the best mean win
        chance, the heuristic's pick ahead by ``turn_prior``; ties keep the heuristic's
        order."""
        scores = [mean + (self.turn_prior if k == 0 else 0.0) for k, mean in enumerate(means)]
        return alive[int(np.argmax(scores))]

    def play_turns(
        self,
        state: GameState,
        side: int,
        decided: GameState,
        mode: SearchMode,
        seed: int = 0,
        dealt: dict[tuple[int, int], int] | None = None,
        ours: HeuristicPlayer | None = None,
    ) -> GameState:
        """Play on greedily, both sides from their whole menus, from ``state`` (the rollout's
        own, after a decision of ``side`` taken in ``decided``) until the battle ends or, in
        ``mode`` "round", the battle round ends; in "turns", until the next turn of the side
        whose turn it was not at the decision has been played through (the ruleset keeps the
        turns begun in ``extra["turns"]`` and whose turn it is in ``extra["turn"]``): from a
        decision in ``side``'s own turn, the enemy's next turn, even after a double turn of
        ``side``'s; from one in the enemy's turn, the rest of it and ``side``'s own next turn.
        Each action's dice are placed by ``seed`` and ``dealt`` (:meth:`turn_dice`). The state
        reached is returned (``state`` itself may be changed). With ``ours``, ``side``'s own
        choices in the turn of the decision are that player's (a plan's, :meth:`pick_plan`)."""
        begun = int(decided.extra.get("turns", 0))
        owner = decided.extra.get("turn")  # None before the first turn
        other = 1 - (side if owner is None else int(owner))
        theirs: int | None = None  # the count at which the other side's next turn began
        dealt = {} if dealt is None else dealt
        for _ in range(self.turn_steps):
            if outcome(state) is not None:
                break
            if mode == "round" and state.round != decided.round:
                break
            turns = int(state.extra.get("turns", 0))
            if theirs is None and turns > begun and state.extra.get("turn") == other:
                theirs = turns
            # three turns begun cover any order of turns (a double turn in between)
            if mode == "turns" and ((theirs is not None and turns > theirs) or turns > begun + 3):
                break
            menu = legal_actions(state)
            if not menu:
                break
            mine = menu[0].side == side and state.extra.get("turn") == side and turns == begun
            chosen = (ours if ours is not None and mine else self.heuristic).choose(state, menu)
            state.rng = self.turn_dice(state, chosen, seed, dealt)
            state = apply(state, chosen)[0]
        return state

    def turn_dice(
        self, state: GameState, action: Action, seed: int, dealt: dict[tuple[int, int], int]
    ) -> dict[str, Any]:
        """The dice of ``action`` in a turn rollout of ``seed``: a unit's own stream
        (:meth:`dice`), and for an action of no unit (ending a phase, choosing who goes
        first) a stream of the turn and phase it is taken in, so that the rolls the turn's
        end makes (battleshock, the next round's roll-off) are the same whichever candidate
        came first."""
        if action.unit is not None:
            return self.dice(state, action, seed, dealt)
        phase = zlib.crc32(state.phase.encode())
        turns = int(state.extra.get("turns", 0))
        sequence = np.random.SeedSequence([seed, action.side, 0, state.round, turns, phase])
        return dict(np.random.PCG64(sequence).state)

    def win_chance(self, state: GameState, side: int) -> float:
        """A rollout's leaf for ``side``: a finished battle by its result (a draw ``draw``),
        else a logistic of the evaluation's expected margin over its margin scale."""
        result = outcome(state)
        if result is not None:
            return self.draw if result.winner is None else float(result.winner == side)
        judge = self.evaluation or evaluation_for(state.ruleset)
        margin = judge.position_value(state, side) / judge.margin_scale(state)
        try:
            return 1.0 / (1.0 + math.exp(-margin))
        except OverflowError:  # a margin below some -709 scales: the chance is nil to a float
            return 0.0

    def _score(self, mean: float, index: int, top: int) -> float:
        """A candidate's mean win chance, the heuristic's pick ahead by ``prior`` (a few noisy
        rollouts must show a real gain before the search overrules the exact odds)."""
        return mean + (self.prior if index == top else 0.0)

    def estimate(self, state: GameState, action: Action, seeds: list[int]) -> float:
        """Mean win chance for the mover after ``action``, over rollouts with these dice."""
        total = 0.0
        for seed in seeds:
            trial = state.clone()
            dealt: dict[tuple[int, int], int] = {}
            if self.unit_dice:
                trial.rng = self.dice(trial, action, seed, dealt)
            else:
                trial.rng = seed_state(seed)
            total += self.rollout(apply(trial, action)[0], action.side, seed, dealt)
        return total / len(seeds)

    def dice(
        self, state: GameState, action: Action, seed: int, dealt: dict[tuple[int, int], int]
    ) -> dict[str, Any]:
        """The dice of ``action`` in a rollout of ``seed`` with ``unit_dice``: each unit's own
        stream, so its k-th action of the rollout rolls the same dice whichever candidate came
        first and whatever else acted before it, and two candidates that only order the same
        attacks differently meet the same luck (``dealt`` counts each unit's actions so far).
        Without ``unit_dice`` a short rollout draws from one stream in turn; the rollouts of
        :meth:`weigh_turns` always use these."""
        unit = 0 if action.unit is None else state.unit_index(action.unit) + 1
        key = (action.side, unit)
        count = dealt.get(key, 0)
        dealt[key] = count + 1
        sequence = np.random.SeedSequence([seed, action.side, unit, count])
        return dict(np.random.PCG64(sequence).state)

    def rollout(
        self,
        state: GameState,
        side: int,
        seed: int,
        dealt: dict[tuple[int, int], int],
    ) -> float:
        """Play on greedily to the end of the round (or ``horizon`` actions), the opponent
        from its whole menu (``whole_replies``), ``side`` from its rollout menu; a win
        chance. With ``unit_dice`` each action's dice are set on the state it is applied to
        (``state`` must be the rollout's own, such as :func:`apply`'s result), placed by
        ``seed`` and ``dealt`` (:meth:`dice`); without it the state's own stream is drawn
        from and ``seed`` and ``dealt`` are not used."""
        judge = self.evaluation or evaluation_for(state.ruleset)
        start_round = state.round
        for _ in range(self.horizon):
            if outcome(state) is not None or state.round != start_round:
                break
            menu = (
                legal_actions(state)
                if self.whole_replies and state.active != side
                else judge.rollout_menu(state)
            )
            if not menu:
                break
            chosen = self.heuristic.choose(state, menu)
            if self.unit_dice:
                state.rng = self.dice(state, chosen, seed, dealt)
            state = apply(state, chosen)[0]
        return self.win_chance(state, side)
