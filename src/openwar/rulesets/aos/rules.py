"""Age of Sigmar battle numbers, loaded from data/battle.yaml and validated."""

from __future__ import annotations

from functools import cache

from pydantic import Field

from openwar.rulesets.data import RuleData, load_data


class BaseSize(RuleData):
    keyword: str
    radius: float


class Spell(RuleData):
    """A core spell: casting value, whom it targets and (for damage spells) mortal wounds."""

    name: str
    casting_value: int
    target: str
    mortal_wounds: int = 0
    big_roll: int | None = None
    big_mortal_wounds: str | None = None


class Triumph(RuleData):
    """A row of the Triumphs table: the result for rolls up to ``up_to``."""

    up_to: int = Field(ge=1, le=6)
    name: str


class SoulStone(RuleData):
    range: float
    modifier: int


class BattleRules(RuleData):
    rounds: int
    coherency: float
    enemy_gap: float
    run_dice: int
    charge_range: float
    charge_dice: int
    charge_contact: float
    pile_in: float
    shooting_close: float
    look_out_sir_range: float
    look_out_sir_models: int
    look_out_sir_hit: int
    bravery_per_models: int
    command_range: float
    general_command_range: float
    command_points_per_hero_phase: int
    command_points_per_battalion: int
    first_blood_command_points: int
    objective_range: float
    spell_range: float
    unbind_range: float
    cover_save: int
    cover_big_wounds: int
    obstacles: list[str]
    obstacle_range: float
    scenery_range: float
    garrisons: list[str]
    garrison_range: float
    garrison_hit: int
    rank_width: int
    base_spacing: float
    cavalry_rank_width: int
    base_radius: list[BaseSize]
    default_base_radius: float
    spells: list[Spell]
    triumphs: list[Triumph]
    reserve_edge: float
    reserve_enemy_gap: float
    ambush_enemy_gap: float
    reserves_destroyed_round: int
    outflank_last_turn: int
    firestarter_range: float
    burning_range: float
    dead_of_night_sight: float
    dead_of_night_step: float
    dead_of_night_roll: int
    lightning_dice: int
    eager_bonus: int
    healing_winds: str
    prize_take_range: float
    prize_home_gap: float
    prize_hero_range: float
    prize_ward: int
    prize_ward_range: float
    soul_stone: list[SoulStone]
    mystical_ward: int
    deadly_roll: int

    def triumph(self, face: int) -> str:
        return next(t.name for t in self.triumphs if face <= t.up_to)

    def spell(self, name: str) -> Spell:
        return next(s for s in self.spells if s.name == name)


@cache
def battle_rules() -> BattleRules:
    return load_data("aos", "battle.yaml", BattleRules)
