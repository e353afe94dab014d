"""AI strength: seeded mirror matches between player kinds, win rates with Wilson intervals.

A mirror match gives both sides the same army; each pair of battles shares one seed (so one
battleplan and one set of starting dice) with the players' sides swapped, so neither side's
luck nor the table favours either player. Pairs alternate between the sample armies. The
goals are issue 7's: heuristic beats random in at least 90% of battles, search beats
heuristic in at least 60%.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.ai.stats import wilson
from openwar.battles import load_setup, make_players, start
from openwar.engine.game import apply, legal_actions, outcome
from openwar.progress import progress_bar
from openwar.sim.executors import ProcessPool
from openwar.stopping import Terminated
from openwar.widths import print_whole
from openwar.words import counted

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "armies"
SAMPLES = EXAMPLES / "openwar"
SAMPLE_ARMIES = (SAMPLES / "iron_road_legion.yaml", SAMPLES / "hearthhold_lodge.yaml")
RULESET_ARMIES = {
    "openwar": SAMPLE_ARMIES,
    "aos": (EXAMPLES / "aos" / "gilded_vanguard.yaml", EXAMPLES / "aos" / "ember_court.yaml"),
}
MATCHUPS = (("heuristic", "random", 0.90), ("search", "heuristic", 0.60))


def goal_of(first: str, second: str) -> float | None:
    """Issue 7's goal for a matchup of these kinds (any search budget), None for others.

    >>> goal_of("search:6", "heuristic"), goal_of("simple", "random")
    (0.6, None)
    """
    kinds = (first.partition(":")[0], second.partition(":")[0])
    return next((goal for a, b, goal in MATCHUPS if (a, b) == kinds), None)


@dataclass(frozen=True)
class Game:
    """One battle of a matchup: which army, which seed, and the side the tested player has."""

    first: str
    second: str
    army: str
    seed: int
    side: int  # the side ``first`` plays


@dataclass(frozen=True)
class GameResult:
    game: Game
    result: str  # "win", "draw", "loss" (for ``first``) or "stuck" (unfinished, see ``error``)
    scores: tuple[int, int]
    decisions: tuple[int, int]  # decisions taken by first, second
    seconds: tuple[float, float]  # thinking time of first, second
    condition: str = ""  # the battleplan's victory condition
    error: str = ""  # why a stuck battle stopped: "" when the menu ran dry, else the failure


@dataclass
class MatchFigures:
    first: str
    second: str
    goal: float | None  # None: a matchup with no goal of issue 7
    results: list[GameResult] = field(default_factory=list)
    planned: int = 0  # battles asked for
    stopped: str = ""  # "interrupted" (Ctrl-C) or "terminated" (SIGTERM) before they all ended

    def count(self, result: str) -> int:
        return sum(1 for r in self.results if r.result == result)

    @property
    def finished(self) -> int:
        return len(self.results) - self.count("stuck")

    def per_decision_ms(self, who: int) -> float:
        decisions = sum(r.decisions[who] for r in self.results)
        return 1000.0 * sum(r.seconds[who] for r in self.results) / max(decisions, 1)


def games(first: str, second: str, battles: int, seed: int, armies: tuple[Path, ...]) -> list[Game]:
    """``battles`` games in seeded pairs, sides swapped within each pair."""
    pairs = -(-battles // 2)
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(pairs)]
    found = []
    for k, pair_seed in enumerate(seeds):
        army = str(armies[k % len(armies)])
        found += [Game(first, second, army, pair_seed, side) for side in (0, 1)]
    return found[:battles]


def play_game(game: Game) -> GameResult:
    """Play one battle; the players think on their own clocks."""
    army = Path(game.army)
    setup = load_setup((army, army), None, game.seed)
    state, _ = start(setup)
    names = (game.first, game.second) if game.side == 0 else (game.second, game.first)
    players = make_players(names, game.seed, setup.ruleset)
    condition = str(setup.board.get("victory") or "none")
    decisions, seconds = [0, 0], [0.0, 0.0]

    def unfinished(error: str = "") -> GameResult:
        return GameResult(game, "stuck", (0, 0), (decisions[0], decisions[1]),
                          (seconds[0], seconds[1]), condition, error)  # fmt: skip

    while outcome(state) is None:
        menu = legal_actions(state)
        if not menu:
            return unfinished()
        who = 0 if state.active == game.side else 1
        began = time.perf_counter()
        try:
            action = players[state.active].choose(state, menu)
            seconds[who] += time.perf_counter() - began
            decisions[who] += 1
            state = apply(state, action)[0]
        except Exception as exc:  # an engine bug in one battle must not lose the others
            return unfinished(f"{type(exc).__name__}: {exc}")
    result = outcome(state)
    assert result is not None
    verdict = "draw" if result.winner is None else "win" if result.winner == game.side else "loss"
    return GameResult(game, verdict, result.scores, (decisions[0], decisions[1]),
                      (seconds[0], seconds[1]), condition)  # fmt: skip


def play_all(work: list[Game], workers: int) -> Generator[GameResult]:
    """Results in the order of ``work``, whatever the number of worker processes. The pool is
    :mod:`openwar.sim`'s: its workers ignore Ctrl-C and are stopped with the bench (a plain
    pool's went on with their battles, and the bench waited for every battle queued)."""
    if workers <= 1:
        yield from map(play_game, work)
        return
    with ProcessPool(workers) as pool:
        yield from pool.ordered(play_game, work)


def run(
    battles: int,
    seed: int,
    workers: int,
    matchups: Iterable[tuple[str, str, float | None]] = MATCHUPS,
    armies: tuple[Path, ...] = SAMPLE_ARMIES,
    console: Console | None = None,
    ruleset: str = "openwar",
    tables: bool = True,
) -> list[MatchFigures]:
    """Play every matchup; each battle's line as it ends, then (with ``tables``) the win rates
    and each matchup's :func:`breakdown`."""
    console = console or Console()
    figures = [MatchFigures(first, second, goal, planned=battles)
               for first, second, goal in matchups]  # fmt: skip
    try:
        with progress_bar(console) as progress:
            for match in figures:
                began = time.perf_counter()
                work = games(match.first, match.second, battles, seed, armies)
                name = f"{match.first} vs {match.second}"
                task = progress.add_task(escape(name), total=len(work))
                with contextlib.closing(play_all(work, workers)) as results:
                    for result in results:
                        match.results.append(result)
                        console.print(_line(result), highlight=False, markup=False)
                        progress.advance(task)
                progress.remove_task(task)
                took = time.perf_counter() - began
                console.print(f"  {name}: {took:.0f} s", style="dim", markup=False)
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the whole pairs played so far count
        # the matchup being played, or the next one when the stop came between two
        match = next((m for m in figures if len(m.results) < m.planned), figures[-1])
        match.stopped = "terminated" if isinstance(exc, Terminated) else "interrupted"
        ended = len(match.results)
        del match.results[ended - ended % 2 :]
        console.print(stopped_line(match, ended, figures[figures.index(match) + 1 :]),
                      markup=False)  # fmt: skip
    if tables:
        print_whole(console, table(figures, ruleset))
        for match in figures:
            if match.results:
                print_whole(console, breakdown(match))
    return figures


def stopped_line(match: MatchFigures, ended: int, later: list[MatchFigures]) -> str:
    """What a stopped matchup's figures are of, and the matchups not played after it."""
    pairs = counted(len(match.results) // 2, "whole pair")
    skipped = ", ".join(f"{m.first} vs {m.second}" for m in later)
    return (
        f"{match.stopped.capitalize()} after {ended} of {match.planned} battles of "
        f"{match.first} vs {match.second}: its figures are of the first {pairs}"
        + (f"; not played: {skipped}" if skipped else "")
    )


def _line(r: GameResult) -> str:
    g = r.game
    failed = f" ({r.error})" if r.error else ""
    return (f"  {g.first} vs {g.second}  {Path(g.army).stem}  seed {g.seed}  side {g.side}  "
            f"{r.condition}: {r.result} {r.scores[0]}-{r.scores[1]}{failed}")  # fmt: skip


def table(figures: list[MatchFigures], ruleset: str = "openwar") -> Table:
    where = "" if ruleset == "openwar" else f" of {ruleset}"
    out = Table(title=f"AI mirror matches{where} (win rate of the first player, Wilson 95%)",
                title_justify="left")  # fmt: skip
    for column in ("matchup", "battles", "won", "drawn", "lost", "stuck", "win rate", "95% CI",
                   "goal", "ms/decision"):  # fmt: skip
        out.add_column(column, justify="left" if column == "matchup" else "right")
    for m in figures:
        n, won = m.finished, m.count("win")
        low, high = wilson(won, n)
        rate = f"{won / n:.0%}" if n else "-"
        if m.goal is None:
            goal = "-"
        else:
            met = (
                "not played" if not n
                else "met" if low >= m.goal else "not shown" if high >= m.goal else "missed"
            )  # fmt: skip
            goal = f">= {m.goal:.0%} ({met})"
        out.add_row(
            f"{m.first} vs {m.second}", str(n), str(won), str(m.count("draw")),
            str(m.count("loss")), str(m.count("stuck")), rate,
            f"{low:.0%}-{high:.0%}" if n else "-",
            goal,
            f"{m.per_decision_ms(0):.0f} / {m.per_decision_ms(1):.0f}",
        )  # fmt: skip
    return out


def groups(match: MatchFigures) -> dict[str, dict[str, list[GameResult]]]:
    """A matchup's finished battles by victory condition and by army (sorted by name)."""
    played = [r for r in match.results if r.result != "stuck"]
    by: dict[str, dict[str, list[GameResult]]] = {"condition": {}, "army": {}}
    for r in sorted(played, key=lambda r: (r.condition, Path(r.game.army).stem)):
        by["condition"].setdefault(r.condition, []).append(r)
    for r in sorted(played, key=lambda r: Path(r.game.army).stem):
        by["army"].setdefault(Path(r.game.army).stem, []).append(r)
    return by


def tally(results: list[GameResult]) -> dict[str, Any]:
    """Won, drawn and lost (for the tested player), the win rate and its Wilson interval."""
    won = sum(r.result == "win" for r in results)
    low, high = wilson(won, len(results))
    return {
        "battles": len(results),
        "won": won,
        "drawn": sum(r.result == "draw" for r in results),
        "lost": sum(r.result == "loss" for r in results),
        "win_rate": round(won / len(results), 4) if results else None,
        "interval": [round(low, 4), round(high, 4)],
    }


def breakdown(match: MatchFigures) -> Table:
    """A matchup's results by victory condition and by army: where a player wins and where it
    does not (a draw counts as not won, as in the main table)."""
    out = Table(title=f"{match.first} vs {match.second} by victory condition and by army",
                title_justify="left")  # fmt: skip
    for column in ("condition / army", "battles", "won", "drawn", "lost", "win rate", "95% CI"):
        out.add_column(column, justify="left" if column == "condition / army" else "right")
    by = groups(match)
    for kind in ("condition", "army"):
        for k, (name, results) in enumerate(by[kind].items()):
            t = tally(results)
            low, high = t["interval"]
            out.add_row(
                name, str(t["battles"]), str(t["won"]), str(t["drawn"]), str(t["lost"]),
                f"{t['win_rate']:.0%}", f"{low:.0%}-{high:.0%}",
                end_section=kind == "condition" and k == len(by[kind]) - 1,
            )  # fmt: skip
    return out


def summary(figures: list[MatchFigures], ruleset: str, seed: int) -> dict[str, Any]:
    """Everything the tables show, as data (``openwar bench ai --json``), and every battle."""
    matchups = []
    for m in figures:
        by = groups(m)
        matchups.append({
            "first": m.first,
            "second": m.second,
            "goal": m.goal,
            "planned": m.planned,
            **tally([r for r in m.results if r.result != "stuck"]),
            "stuck": m.count("stuck"),
            "ms_per_decision": [round(m.per_decision_ms(0), 1), round(m.per_decision_ms(1), 1)],
            "by_condition": {name: tally(rs) for name, rs in by["condition"].items()},
            "by_army": {name: tally(rs) for name, rs in by["army"].items()},
            "games": [played(r) for r in m.results],
        })  # fmt: skip
    stopped = next((m.stopped for m in figures if m.stopped), None)
    return {"ruleset": ruleset, "seed": seed, "stopped": stopped, "matchups": matchups}


def played(r: GameResult) -> dict[str, Any]:
    """One battle as data, in the order played: enough to play it again (army, seed, the
    tested player's side) or to pair it with the same battle under other code or weights.
    A stuck battle is listed too (result "stuck", with its error when there was one), though
    the figures leave it out."""
    g = r.game
    found: dict[str, Any] = {"army": Path(g.army).stem, "seed": g.seed, "side": g.side,
                             "condition": r.condition, "result": r.result,
                             "scores": list(r.scores)}  # fmt: skip
    if r.error:
        found["error"] = r.error
    return found
