"""OpenWar battle numbers, loaded from data/battle.yaml."""

from __future__ import annotations

from functools import cache

from openwar.rulesets.data import RuleData, load_data


class Table(RuleData):
    width: float
    depth: float


class BattleRules(RuleData):
    table: Table
    coherency: float
    combat_range: float
    fight_move: float
    push_move: float
    follow_up_move: float
    charge_push_bonus: int
    hold_armor: int
    run_multiplier: float
    regroup_move: float
    contact: float
    base_radius: float
    rank_width: int
    wide_rank_width: int
    deployment_depth: float
    rounds: int
    exhaustion_accuracy: int
    shaken_morale: int
    rout_shaken: int
    glory_presence: int
    glory_max: int
    haste_bonus: float
    hold_the_line_armor: int
    command_skill_range: float
    objective_range: float
    command_type: str
    objective_points: int
    prize_pickup: float
    command_skills: list[str]
    eager_bonus: float
    night_sight: float
    night_growth: float
    night_roll: int
    lightning_dice: int
    lightning_hit: int
    lightning_loss_die: int
    healing_die: int
    healing_gaps: list[float]
    healing_enemy_gap: float
    ambush_enemy_gap: float
    ambush_grid: list[int]
    arrival_edge_band: float
    arrival_enemy_gap: float
    arrival_step: float
    outflank_last_round: int
    fire_range: float
    fire_reach: float
    revenge_damage: int
    revenge_rounds: int
    plague_reach: str
    plague_scale: float
    plague_loss: str
    trapped_loss: str
    prize_command_range: float
    key_fail: int
    ward_range: float
    soul_stone_range: float
    soul_stone_fail: int
    soul_stone_near: float
    soul_stone_near_fail: int
    scenery_range: float
    arcane_bonus: int
    inspiring_morale: int
    deadly_roll: int
    deadly_loss_die: int


@cache
def battle_rules() -> BattleRules:
    return load_data("openwar", "battle.yaml", BattleRules)
