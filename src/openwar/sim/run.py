"""Running a simulation: record its inputs, play the battles still missing, keep each one as it
finishes, and summarise. A run interrupted with Ctrl-C can be resumed with the same results."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openwar import __version__
from openwar.errors import OpenWarError
from openwar.sim.executors import Executor, WorkLost, chunked
from openwar.sim.locks import playing
from openwar.sim.plan import BattleResult, SimulationPlan
from openwar.sim.seeds import battle_seeds
from openwar.sim.store import RunStore
from openwar.sim.summary import SideInfo, summarise
from openwar.stopping import Terminated

OnResults = Callable[[list[BattleResult]], None]


class RunInterrupted(OpenWarError):
    """Ctrl-C or SIGTERM (``terminated``) stopped a run, or its workers were lost (``reason``:
    what was lost); the battles already finished are in the store."""

    def __init__(
        self,
        run_id: int,
        done: int,
        total: int,
        reason: str = "",
        *,
        terminated: bool = False,
        complete: bool = False,
    ) -> None:
        why = reason or ("terminated" if terminated else "interrupted")
        if complete:
            why += " after it was complete"
        super().__init__(f"run {run_id}: {why}, with {done} of {total} battles finished")
        self.complete = complete
        self.run_id = run_id
        self.done = done
        self.total = total
        self.reason = reason
        self.terminated = terminated


def stopped(store: RunStore, run_id: int, exc: KeyboardInterrupt | WorkLost) -> RunInterrupted:
    """Mark run ``run_id`` interrupted by ``exc`` (Ctrl-C, SIGTERM or lost workers) and say
    how far it got; a run already complete (a stop while its report was being made) stays
    so."""
    store.set_status(run_id, "interrupted")
    run = store.run(run_id)
    return RunInterrupted(
        run_id,
        run.done,
        run.plan.battles,
        str(exc) if isinstance(exc, WorkLost) else "",
        terminated=isinstance(exc, Terminated),
        complete=run.status == "complete",
    )


@dataclass(frozen=True)
class FinishedRun:
    """A complete run: its id, its battles by index and its summary."""

    run_id: int
    results: list[BattleResult]
    summary: dict[str, Any]


def code_version(ruleset: str) -> str:
    """The package's version and that of the ruleset's battle code (what replays record as
    ``ruleset_version``): a run resumed under others may not give identical battles."""
    from openwar.engine.game import rules_for

    return f"openwar {__version__}; {ruleset} battle code {rules_for(ruleset).version}"


def same_code(recorded: str, ruleset: str) -> bool:
    """Whether a run recorded under ``recorded`` (:func:`code_version`) plays as this code
    does. Runs stored before 2026-11-27 recorded "rules openwar" for every ruleset: for an
    openwar run that is the same version, for any other it says nothing."""
    from openwar.engine.game import rules_for

    older = f"openwar {__version__}; rules openwar {rules_for('openwar').version}"
    return recorded == code_version(ruleset) or (ruleset == "openwar" and recorded == older)


def new_run(store: RunStore, plan: SimulationPlan) -> int:
    """Check the armies and record a new run's inputs; returns its id."""
    armies = plan.army_lists()
    return store.create(plan, (armies[0].name, armies[1].name), code_version(plan.ruleset))


def missing(store: RunStore, run_id: int) -> list[tuple[int, int]]:
    """The ``(index, seed)`` of the battles of a run not yet in the store."""
    plan = store.run(run_id).plan
    done = {r.index for r in store.results(run_id)}
    seeds = battle_seeds(plan.seed, plan.battles)
    return [(i, seed) for i, seed in enumerate(seeds) if i not in done]


def play_run(
    store: RunStore, run_id: int, executor: Executor, on_results: OnResults | None = None
) -> FinishedRun:
    """Play the missing battles of run ``run_id`` on ``executor`` (already entered: started)
    and summarise the run.

    Each chunk of results is committed as it arrives and then passed to ``on_results`` (the
    progress bar). Ctrl-C, SIGTERM (:class:`~openwar.stopping.Terminated`, under
    :func:`~openwar.stopping.stops`) or workers lost on the way (:class:`WorkLost`)
    mark the run interrupted and raise :class:`RunInterrupted` (with the loss as its
    ``reason``). The run is held for this process meanwhile (:mod:`openwar.sim.locks`):
    :class:`~openwar.sim.locks.RunBusy` if another process is playing it.
    """
    with playing(store.path, run_id):  # RunBusy: another process plays it (not ours to mark)
        return _play_run(store, run_id, executor, on_results)


def _play_run(
    store: RunStore, run_id: int, executor: Executor, on_results: OnResults | None
) -> FinishedRun:
    plan = store.run(run_id).plan
    try:  # every step after the run is recorded: a stop anywhere leaves it resumable
        armies = plan.army_lists()
        store.set_status(run_id, "running")
        todo = missing(store, run_id)  # a million seeds take seconds: Ctrl-C may come here
        for results in executor.results(plan, chunked(todo, executor.workers)):
            store.add(run_id, results)
            if on_results is not None:
                on_results(results)
        results = store.results(run_id)
        summary = summarise(plan, (SideInfo.of(armies[0]), SideInfo.of(armies[1])), results)
        store.finish(run_id, summary)
    except (KeyboardInterrupt, WorkLost) as exc:
        raise stopped(store, run_id, exc) from None
    except BaseException:
        store.set_status(run_id, "interrupted")  # resumable all the same
        raise
    return FinishedRun(run_id, results, summary)
