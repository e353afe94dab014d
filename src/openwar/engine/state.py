"""Game state: plain data that any ruleset reads and its rules change.

Miniatures live in numpy arrays (one row each) so distance queries for a whole army are one
vectorised call; units are small records. The dice generator's state is part of the game
state, so a seed and the list of actions replay a battle exactly.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
T = TypeVar("T")  # what GameState.remembered keeps

SCALARS = (bool, int, float, str, type(None))  # flag values copied without deepcopy
POSITION_DECIMALS = 6  # positions are rounded after every move: same bytes on every machine


@dataclass
class UnitState:
    """One unit: who owns it, its profile (ruleset-specific, JSON-able), tokens and flags."""

    id: str
    side: int
    name: str
    kind: str
    profile: dict[str, Any]
    points: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    flags: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> UnitState:
        return UnitState(
            self.id,
            self.side,
            self.name,
            self.kind,
            self.profile,  # profiles never change during a battle: shared, not copied
            self.points,
            dict(self.tokens),
            {k: v if isinstance(v, SCALARS) else copy.deepcopy(v) for k, v in self.flags.items()},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "kind": self.kind,
            "profile": self.profile,
            "points": self.points,
            "tokens": dict(sorted(self.tokens.items())),
            "flags": self.flags,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UnitState:
        return cls(
            data["id"],
            int(data["side"]),
            data["name"],
            data["kind"],
            data["profile"],
            int(data["points"]),
            {k: int(v) for k, v in data["tokens"].items()},
            data["flags"],
        )


@dataclass(frozen=True)
class Lookups:
    """What never changes during a battle, derived from the unit list and ``unit_of``: unit
    indices by id, each unit's miniatures, each miniature's side. A ruleset may keep its own
    derived facts (parsed profiles) in ``memo``."""

    index: dict[str, int]
    members: list[IntArray]
    side_of: IntArray
    memo: dict[Any, Any]

    @classmethod
    def of(cls, state: GameState) -> Lookups:
        units = range(len(state.units))
        sides = np.asarray([u.side for u in state.units], dtype=np.int64)
        return cls(
            {u.id: i for i, u in enumerate(state.units)},
            [np.flatnonzero(state.unit_of == i) for i in units],
            sides[state.unit_of] if len(sides) else np.zeros(0, dtype=np.int64),
            {},
        )


def _copy_rng(rng: dict[str, Any]) -> dict[str, Any]:
    """A numpy bit generator's state: a dict of ints, strings and one nested dict."""
    return {k: dict(v) if isinstance(v, dict) else v for k, v in rng.items()}


@dataclass
class GameState:
    """Everything that decides what happens next.

    ``pos`` (n, 2), ``radius`` (n,), ``facing`` (n,), ``alive`` (n,), ``deployed`` (n,) and
    ``unit_of`` (n,: index into ``units``) describe the miniatures; ``loadout`` (n,) picks each
    miniature's equipment from its unit's profile. ``board`` is the battleplan (table, terrain,
    territories, objectives) and never changes; ``extra`` holds a ruleset's own JSON-able data.
    """

    ruleset: str
    seed: int
    rng: dict[str, Any]
    board: dict[str, Any]
    units: list[UnitState]
    pos: FloatArray
    radius: FloatArray
    facing: FloatArray
    alive: BoolArray
    deployed: BoolArray
    unit_of: IntArray
    loadout: IntArray
    round: int = 0
    phase: str = "setup"
    active: int = 0
    scores: list[int] = field(default_factory=lambda: [0, 0])
    extra: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    lookups: Lookups | None = field(default=None, init=False, repr=False, compare=False)
    scratch: dict[Any, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def clone(self) -> GameState:
        """An independent copy (arrays copied, unit records copied, board and lookups shared)."""
        twin = GameState(
            self.ruleset,
            self.seed,
            _copy_rng(self.rng),
            self.board,
            [u.copy() for u in self.units],
            self.pos.copy(),
            self.radius.copy(),
            self.facing.copy(),
            self.alive.copy(),
            self.deployed.copy(),
            self.unit_of.copy(),
            self.loadout.copy(),
            self.round,
            self.phase,
            self.active,
            list(self.scores),
            copy.deepcopy(self.extra) if self.extra else {},
            self.steps,
        )
        twin.lookups = self.lookups
        return twin

    # -- queries ---------------------------------------------------------------------------
    def lookup(self) -> Lookups:
        """Facts that never change during a battle (built on first use, shared by clones)."""
        if self.lookups is None:
            self.lookups = Lookups.of(self)
        return self.lookups

    def unit_index(self, unit_id: str) -> int:
        return self.lookup().index[unit_id]

    def unit(self, unit_id: str) -> UnitState:
        return self.units[self.unit_index(unit_id)]

    def members(self, unit_id: str, *, alive: bool = True) -> IntArray:
        """Indices of a unit's miniatures (by default only those still alive)."""
        everyone = self.lookup().members[self.unit_index(unit_id)]
        return everyone[self.alive[everyone]] if alive else everyone.copy()

    def on_table(self, unit_id: str) -> IntArray:
        """A unit's miniatures that are alive and deployed."""
        if self.scratch is not None:
            key = ("on_table", unit_id)
            found: IntArray | None = self.scratch.get(key)
            if found is None:
                found = self.scratch[key] = self._on_table(unit_id)
                found.flags.writeable = False
            return found
        return self._on_table(unit_id)

    def _on_table(self, unit_id: str) -> IntArray:
        everyone = self.lookup().members[self.unit_index(unit_id)]
        return everyone[self.alive[everyone] & self.deployed[everyone]]

    def where(self, unit_id: str) -> tuple[str, bytes, bytes]:
        """A unit's miniatures on the table and their positions, as a key for what depends
        only on where the unit stands (kept while the state is read)."""
        key = ("where", unit_id)
        found: tuple[str, bytes, bytes] | None = None
        if self.scratch is not None:
            found = self.scratch.get(key)
        if found is None:
            members = self.on_table(unit_id)
            found = (unit_id, members.tobytes(), self.pos.take(members, 0).tobytes())
            if self.scratch is not None:
                self.scratch[key] = found
        return found

    def side_miniatures(self, side: int, *, same: bool = True) -> IntArray:
        """Miniatures on the table (alive and deployed) of ``side`` (or, not ``same``, of the
        other sides)."""
        if self.scratch is not None:
            key = ("side_miniatures", side, same)
            found: IntArray | None = self.scratch.get(key)
            if found is None:
                found = self.scratch[key] = self._side_miniatures(side, same)
                found.flags.writeable = False
            return found
        return self._side_miniatures(side, same)

    def _side_miniatures(self, side: int, same: bool) -> IntArray:
        mine = self.lookup().side_of == side
        return np.flatnonzero((mine if same else ~mine) & self.alive & self.deployed)

    def size(self, unit_id: str) -> int:
        everyone = self.lookup().members[self.unit_index(unit_id)]
        return int(np.count_nonzero(self.alive[everyone]))

    def is_destroyed(self, unit_id: str) -> bool:
        return self.size(unit_id) == 0

    def side_units(self, side: int, *, alive: bool = True) -> list[UnitState]:
        if self.scratch is not None:
            key = ("side_units", side, alive)
            found: list[UnitState] | None = self.scratch.get(key)
            if found is None:
                found = self.scratch[key] = self._side_units(side, alive)
            return list(found)
        return self._side_units(side, alive)

    def _side_units(self, side: int, alive: bool) -> list[UnitState]:
        if not alive:
            return [u for u in self.units if u.side == side]
        sizes = np.bincount(self.unit_of[self.alive], minlength=len(self.units)).tolist()
        return [u for u, size in zip(self.units, sizes, strict=True) if u.side == side and size]

    def remembered(self, key: Hashable, work: Callable[[], T]) -> T:
        """``work()``, kept under ``key`` in ``scratch`` while the state is only read (see
        :meth:`reading`) and worked out afresh otherwise."""
        if self.scratch is None:
            return work()
        if key in self.scratch:
            found: T = self.scratch[key]
            return found
        found = self.scratch[key] = work()
        return found

    @contextmanager
    def reading(self) -> Iterator[GameState]:
        """While nothing changes the state (a menu being built, a player choosing), remember
        what is asked of it more than once (``scratch``); forgotten on leaving."""
        if self.scratch is not None:
            yield self
            return
        self.scratch = {}
        try:
            yield self
        finally:
            self.scratch = None

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "rng": self.rng,
            "board": self.board,
            "units": [u.to_json() for u in self.units],
            "miniatures": {
                "pos": np.round(self.pos, POSITION_DECIMALS).tolist(),
                "radius": self.radius.tolist(),
                "facing": np.round(self.facing, POSITION_DECIMALS).tolist(),
                "alive": self.alive.tolist(),
                "deployed": self.deployed.tolist(),
                "unit_of": self.unit_of.tolist(),
                "loadout": self.loadout.tolist(),
            },
            "round": self.round,
            "phase": self.phase,
            "active": self.active,
            "scores": list(self.scores),
            "extra": self.extra,
            "steps": self.steps,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        minis = data["miniatures"]
        return cls(
            ruleset=data["ruleset"],
            seed=int(data["seed"]),
            rng=data["rng"],
            board=data["board"],
            units=[UnitState.from_json(u) for u in data["units"]],
            pos=np.asarray(minis["pos"], dtype=np.float64).reshape(-1, 2),
            radius=np.asarray(minis["radius"], dtype=np.float64),
            facing=np.asarray(minis["facing"], dtype=np.float64),
            alive=np.asarray(minis["alive"], dtype=np.bool_),
            deployed=np.asarray(minis["deployed"], dtype=np.bool_),
            unit_of=np.asarray(minis["unit_of"], dtype=np.int64),
            loadout=np.asarray(minis["loadout"], dtype=np.int64),
            round=int(data["round"]),
            phase=data["phase"],
            active=int(data["active"]),
            scores=[int(s) for s in data["scores"]],
            extra=data["extra"],
            steps=int(data["steps"]),
        )

    def canonical_json(self) -> str:
        """The state as JSON with sorted keys: the same state gives the same text."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    def state_hash(self) -> str:
        """SHA-256 of :meth:`canonical_json`: identical states, identical hashes."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()


class ForceEntry(Protocol):
    """One unit of an army as a ruleset's set-up hands it to the engine."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def profile(self) -> dict[str, Any]: ...
    @property
    def loadouts(self) -> tuple[int, ...]: ...
    @property
    def base_radius(self) -> float: ...


def initial_state(
    ruleset: str,
    seed: int,
    rng: dict[str, Any],
    board: dict[str, Any],
    forces: Sequence[Sequence[ForceEntry]],
    active: int,
) -> GameState:
    """The state before set-up: every miniature off the table, one loadout each."""
    units: list[UnitState] = []
    unit_of: list[int] = []
    loadout: list[int] = []
    radius: list[float] = []
    for side, force in enumerate(forces):
        for entry in force:
            units.append(
                UnitState(entry.id, side, entry.name, entry.kind, entry.profile, entry.points)
            )
            unit_of += [len(units) - 1] * len(entry.loadouts)
            loadout += list(entry.loadouts)
            radius += [entry.base_radius] * len(entry.loadouts)
    n = len(unit_of)
    return GameState(
        ruleset=ruleset,
        seed=seed,
        rng=rng,
        board=board,
        units=units,
        pos=np.zeros((n, 2)),
        radius=np.asarray(radius, dtype=np.float64),
        facing=np.zeros(n),
        alive=np.ones(n, dtype=np.bool_),
        deployed=np.zeros(n, dtype=np.bool_),
        unit_of=np.asarray(unit_of, dtype=np.int64),
        loadout=np.asarray(loadout, dtype=np.int64),
        phase="setup",
        active=active,
    )
