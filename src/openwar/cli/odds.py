"""``openwar odds RULESET``: the exact distribution of what an attack does."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from openwar.armies.suggest import did_you_mean
from openwar.cli import options
from openwar.cli.clickcompat import Command, Context, UsageError
from openwar.cli.report import odds_json, print_odds, write_plot
from openwar.dice.d6 import Reroll
from openwar.dice.notation import DiceExpr, parse_dice
from openwar.rulesets import RULESETS
from openwar.rulesets.aos.odds import Allocation
from openwar.rulesets.odds import OddsResult, SimulatedOdds
from openwar.rulesets.opr.odds import Piercing
from openwar.sim.seeds import MAX_SEED


class RulesetGroup(TyperGroup):
    """Sub-commands are rulesets: an unknown one gets a one-line answer listing the known."""

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            raise UsageError(f"unknown ruleset {args[0]!r}{did_you_mean(args[0], RULESETS)}", ctx)
        return super().resolve_command(ctx, args)


odds_app = typer.Typer(
    cls=RulesetGroup,
    no_args_is_help=True,
    help=(
        "Exact odds of an attack: P(exactly k) and P(at least k) for every k, and the mean.\n\n"
        "Pick a ruleset; `openwar odds RULESET --help` lists its options. Examples:\n\n"
        "openwar odds aos --attacks 20 --hit 4+ --wound 3+ --rend -1 --save 4+\n\n"
        "openwar odds openwar --models 10 --attacks 3 --melee 1 --armor 4\n\n"
        "openwar odds opr --models 10 --attacks 2 --quality 4 --poison\n\n"
        "openwar odds oldworld --models 10 --ws 4 --strength 4 --armour 5+"
    ),
)

ONE = parse_dice(1)
Json = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
Plot = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        help="Draw the distribution to FILE.png or FILE.svg.",
        callback=options.picture_file,
    ),
]
MAX_ROLLS = 1_000_000  # Monte Carlo attacks in one run (about a second for 20 dice)
MAX_TARGET = 1000  # miniatures in a target unit
MAX_PER_MODEL = 100  # wounds per model, Tough, mortal wounds per hit
# OpenWar attackers: the joint table of wounds and miniatures that hit grows fast with them
# (400 take about 3 s, 700 took 17 s and 1,000 over a minute); an army has about 100
MAX_MINIATURES = 400
MAX_NUMBER = 100  # OpenWar characteristics and bonuses, either way (far past any roll)


def _characteristic(text: str) -> Any:
    """An OpenWar characteristic or bonus: a whole number within ±:data:`MAX_NUMBER`."""
    return typer.Option(min=-MAX_NUMBER, max=MAX_NUMBER, help=text)


Simulate = Annotated[
    int,
    typer.Option(
        "--simulate", min=0, max=MAX_ROLLS, help="Also roll N seeded attacks (Monte Carlo)."
    ),
]
Seed = Annotated[
    int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the Monte Carlo rolls.")
]
RerollOption = Annotated[
    Reroll, typer.Option(case_sensitive=False, help="Re-roll: none, ones, failed, ...")
]


def _seeded(ctx: typer.Context, simulate: int) -> None:
    """--seed seeds the Monte Carlo rolls only: without --simulate it is refused, before any
    work (the exact odds of a large profile take seconds)."""
    if not simulate and options.given(ctx, "seed"):
        raise typer.BadParameter(
            "has no effect here: it seeds the --simulate rolls (the odds are exact)",
            param_hint="'--seed'",
        )


def _finish(
    result: OddsResult,
    simulator: Callable[[int, int], SimulatedOdds],
    as_json: bool,
    plot: Path | None,
    simulate: int,
    seed: int,
    extra: Callable[[Console], Any] | None = None,
) -> None:
    simulated = simulator(simulate, seed) if simulate else None
    if plot is not None:
        write_plot(result, plot, simulated)
    if as_json:
        typer.echo(odds_json(result, simulated))
        return
    console = Console()
    print_odds(result, simulated, console)
    if extra is not None:
        extra(console)
    if plot is not None:
        console.print(f"plot written to {plot}", markup=False)


def _on_six(effect: str) -> Any:
    """An option counting what an unmodified 6 does (mortal wounds, extra hits): 0 or more."""
    return typer.Option(min=0, max=MAX_PER_MODEL, help=f"Unmodified 6s {effect}")


@odds_app.command("aos")
def aos_odds(
    ctx: typer.Context,
    attacks: Annotated[
        DiceExpr, typer.Option(parser=options.dice, help="Attacks: 3, D6, 2D6")
    ] = ONE,
    hit: Annotated[int, typer.Option(parser=options.roll, help="To Hit, e.g. 4+")] = 4,
    wound: Annotated[int, typer.Option(parser=options.roll, help="To Wound, e.g. 3+")] = 4,
    rend: Annotated[int, typer.Option(max=0, help="Rend, e.g. -1")] = 0,
    damage: Annotated[DiceExpr, typer.Option(parser=options.dice, help="Damage: 1, D3, D6")] = ONE,
    save: Annotated[
        int, typer.Option(parser=options.save, help="Target's Save, e.g. 4+; 7+ or - for none")
    ] = 7,
    cover: Annotated[bool, typer.Option(help="Target is in cover: +1 to save rolls.")] = False,
    hit_mod: Annotated[int, typer.Option(help="Modifier to hit rolls.")] = 0,
    wound_mod: Annotated[int, typer.Option(help="Modifier to wound rolls.")] = 0,
    save_mod: Annotated[int, typer.Option(help="Modifier to save rolls (besides rend).")] = 0,
    reroll_hits: RerollOption = Reroll.NONE,
    reroll_wounds: RerollOption = Reroll.NONE,
    reroll_saves: RerollOption = Reroll.NONE,
    ward: Annotated[
        int | None, typer.Option(parser=options.optional_roll, help="Negate each wound on, e.g. 5+")
    ] = None,
    mortal_on_6_hit: Annotated[int, _on_six("to hit also inflict N mortal wounds.")] = 0,
    mortal_ends_sequence: Annotated[
        bool, typer.Option(help="A 6 to hit inflicts only the mortal wounds (no wound roll).")
    ] = False,
    extra_hits_on_6: Annotated[int, _on_six("to hit score N more hits (each wounds).")] = 0,
    mortal_on_6_wound: Annotated[int, _on_six("to wound also inflict N mortal wounds.")] = 0,
    mortal_wound_ends_sequence: Annotated[
        bool, typer.Option(help="A 6 to wound inflicts only the mortal wounds (no save roll).")
    ] = False,
    cap_modifiers: Annotated[
        bool, typer.Option(help="Cap hit/wound modifiers at +1/-1 (3rd-edition excerpt).")
    ] = False,
    models_wounds: Annotated[
        int, typer.Option(min=1, max=MAX_PER_MODEL, help="Wounds per target model.")
    ] = 1,
    models: Annotated[
        int | None, typer.Option(min=1, max=MAX_TARGET, help="Models in the target unit.")
    ] = None,
    allocation: Annotated[
        Allocation, typer.Option(help="Damage pooled (2nd-ed. text) or per attack, excess lost.")
    ] = Allocation.POOLED,
    as_json: Json = False,
    plot: Plot = None,
    simulate: Simulate = 0,
    seed: Seed = 1,
) -> None:
    """Age of Sigmar: attacks, hit, wound, rend, save, damage.

    Example:

      openwar odds aos --attacks 20 --hit 4+ --wound 3+ --rend -1 --damage D3 \\
        --save 4+ --reroll-hits ones --models-wounds 2
    """
    _seeded(ctx, simulate)
    from openwar.rulesets.aos.montecarlo import simulate as roll
    from openwar.rulesets.aos.odds import AosAttack, attack_odds

    options.check_dice(attacks.maximum, "'--attacks'")
    options.check_damage(damage.maximum, "'--damage'")
    # the most one attack can do: its hits' damage and mortal wounds, and a 6 to hit's mortal
    per_hit = damage.maximum + mortal_on_6_wound
    most = (1 + extra_hits_on_6) * per_hit + mortal_on_6_hit
    options.check_total(
        attacks.maximum * most,
        "'--attacks' x what one attack can do (damage, mortal wounds, extra hits)"
        if most != damage.maximum
        else "'--attacks' x '--damage'",
    )
    warded = most if ward is not None else 0
    options.check_rolled(attacks.maximum * (1 + extra_hits_on_6), simulate, "'--attacks'", warded)
    profile = AosAttack(
        attacks=attacks, hit=hit, wound=wound, rend=rend, damage=damage, save=save, cover=cover,
        hit_modifier=hit_mod, wound_modifier=wound_mod, save_modifier=save_mod,
        reroll_hits=reroll_hits, reroll_wounds=reroll_wounds, reroll_saves=reroll_saves,
        ward=ward, mortal_on_6_hit=mortal_on_6_hit, mortal_ends_sequence=mortal_ends_sequence,
        extra_hits_on_6=extra_hits_on_6, mortal_on_6_wound=mortal_on_6_wound,
        mortal_wound_ends_sequence=mortal_wound_ends_sequence, cap_modifiers=cap_modifiers,
        models_wounds=models_wounds, models=models, allocation=allocation,
    )  # fmt: skip
    _finish(attack_odds(profile), lambda n, s: roll(profile, n, s), as_json, plot, simulate, seed)


@odds_app.command("openwar")
def openwar_odds(
    ctx: typer.Context,
    models: Annotated[
        int, typer.Option(min=1, max=MAX_MINIATURES, help="Attacking miniatures.")
    ] = 10,
    attacks: Annotated[int, typer.Option(min=1, help="Weapon's Attacks (dice each).")] = 1,
    melee: Annotated[int, _characteristic("Attacker's Melee (or Ranged when shooting).")] = 0,
    accuracy: Annotated[int, _characteristic("Accuracy bonus (Hold order: +1).")] = 0,
    difficulty: Annotated[int, _characteristic("Weapon's Difficulty.")] = 5,
    pierce: Annotated[int, _characteristic("Weapon's Pierce.")] = 0,
    armor: Annotated[int, _characteristic("Target's Armor.")] = 4,
    target_size: Annotated[
        int, typer.Option(min=1, max=MAX_TARGET, help="Miniatures in the target unit.")
    ] = 10,
    shock: Annotated[bool, typer.Option(help="Weapon has Shock: +1 Presence per hitter.")] = False,
    presence: Annotated[int, _characteristic("Attacking unit's Presence.")] = 0,
    morale: Annotated[int, _characteristic("Target unit's Morale.")] = 8,
    grudge_match: Annotated[
        bool, typer.Option(help="Grudge Match twist: a failed Presence roll is rolled again.")
    ] = False,
    talisman: Annotated[
        bool, typer.Option(help="Arcane Prize Talisman: hit dice showing 1 are rolled again.")
    ] = False,
    ward: Annotated[
        bool, typer.Option(help="Arcane Prize Ward: each Wound is negated on a 6.")
    ] = False,
    as_json: Json = False,
    plot: Plot = None,
    simulate: Simulate = 0,
    seed: Seed = 1,
) -> None:
    """OpenWar: d6 + Melee vs Difficulty to hit, d6 + Pierce vs Armor to wound, then Presence.

    Example:

      openwar odds openwar --models 10 --attacks 3 --melee 1 --difficulty 5 \\
        --armor 4 --target-size 10 --presence 1 --morale 9
    """
    _seeded(ctx, simulate)
    from openwar.rulesets.openwar.montecarlo import simulate as roll
    from openwar.rulesets.openwar.odds import OpenWarAttack, attack_odds

    options.check_dice(models * attacks, "'--models' x '--attacks'")
    options.check_rolled(models * attacks, simulate, "'--models' x '--attacks'")
    profile = OpenWarAttack(
        models, attacks, melee, accuracy, difficulty, pierce, armor, target_size, shock,
        presence, morale, grudge_match, talisman, ward,
    )  # fmt: skip
    result = attack_odds(profile)
    rolled: dict[str, float] = {}

    def simulator(n: int, s: int) -> SimulatedOdds:
        sim, rolled["presence"] = roll(profile, n, s)
        share = rolled["presence"]  # a share of n rolls: its 95% half-width
        rolled["error"] = 1.96 * math.sqrt(share * (1.0 - share) / n) if n else math.inf
        return sim

    def presence_table(console: Console) -> None:
        presence = result.extras["presence"]
        line = f"Presence roll beats Morale {morale}: [bold]{presence['probability']:.4f}[/bold]"
        if "presence" in rolled:
            line += f" (Monte Carlo: {rolled['presence']:.4f} ± {rolled['error']:.4f} at 95%)"
        console.print(line)
        shown = [
            f"{k}: {p:.3f}" for k, p in enumerate(presence["by_slain"])
            if p is not None and result.slain[k] > 5e-7
        ]  # fmt: skip
        console.print("  given slain k -> " + ", ".join(shown))

    _finish(result, simulator, as_json, plot, simulate, seed, presence_table)


@odds_app.command("opr")
def opr_odds(
    ctx: typer.Context,
    models: Annotated[int, typer.Option(min=1, help="Attacking models.")] = 5,
    attacks: Annotated[int, typer.Option(min=0, help="Attacks per model.")] = 1,
    weapon: Annotated[
        str | None,
        typer.Option(
            help="A weapon from the table: sets attacks (unless --attacks is given), Piercing "
            "auto for its p and x marks (unless --piercing is given), and for x all of each "
            "model's wounds on one model."
        ),
    ] = None,
    impact: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_PER_MODEL,
            help="Impact(X) on a charge (a Lance: 1): X automatic hits per model, which "
            "Armored and blocks stop as they stop other hits.",
        ),
    ] = 0,
    quality: Annotated[int, typer.Option(parser=options.roll, help="Attacker's Quality.")] = 4,
    target_quality: Annotated[
        int, typer.Option(parser=options.roll, help="Target's Quality (blocks).")
    ] = 4,
    target_models: Annotated[
        int, typer.Option(min=1, max=MAX_TARGET, help="Models in the target.")
    ] = 10,
    tough: Annotated[int, typer.Option(min=1, max=MAX_PER_MODEL, help="Target's Tough(X).")] = 1,
    armored: Annotated[bool, typer.Option(help="Target is Armored (hits ignored on 4+).")] = False,
    cover: Annotated[
        bool, typer.Option(help="Target in cover (shooting hits ignored 5+).")
    ] = False,
    piercing: Annotated[
        Piercing, typer.Option(help="Piercing and how it is used (auto: the better of the two).")
    ] = Piercing.NONE,
    deadly: Annotated[bool, typer.Option(help="Deadly: hits on 6 deal D3+1 wounds.")] = False,
    poison: Annotated[bool, typer.Option(help="Poison: hits on 6 wound automatically.")] = False,
    rapid: Annotated[bool, typer.Option(help="Rapid: re-roll failed hits.")] = False,
    unwieldy: Annotated[bool, typer.Option(help="Unwieldy: must re-roll hits.")] = False,
    regeneration: Annotated[bool, typer.Option(help="Target ignores wounds on 5+.")] = False,
    as_json: Json = False,
    plot: Plot = None,
    simulate: Simulate = 0,
    seed: Seed = 1,
) -> None:
    """One Page Fantasy: Quality tests to hit, the target's Quality tests to block.

    Example:

      openwar odds opr --models 10 --attacks 2 --quality 4 --target-quality 5 \\
        --poison
    """
    _seeded(ctx, simulate)
    from openwar.rulesets.opr.montecarlo import simulate as roll
    from openwar.rulesets.opr.odds import OprAttack, attack_odds, weapons

    if weapon is not None:
        table = weapons()
        if weapon.lower() not in table:
            known = ", ".join(w.name for w in table.values())
            raise typer.BadParameter(
                f"{weapon!r} is not in the weapons table ({known})",
                param_hint="'--weapon'",
            )
        chosen = table[weapon.lower()]
        if cover and chosen.range is None:  # OPR-A3: cover ignores shooting hits only
            raise typer.BadParameter(
                f"has no effect here: cover counts against shooting, and {chosen.name} is a "
                "melee weapon",
                param_hint="'--cover'",
            )
        if impact and chosen.range is not None:  # OPR-A15: Impact comes with a charge
            raise typer.BadParameter(
                f"Impact hits come with a charge, and {chosen.name} is a shooting weapon",
                param_hint="'--impact'",
            )
        if not options.given(ctx, "attacks"):  # given, it replaces the table's (a Spear's +1)
            attacks = chosen.attacks
        if chosen.piercing and not options.given(ctx, "piercing"):
            piercing = Piercing.AUTO
        single_model = chosen.single_model
    else:
        single_model = False
    if impact and cover:  # OPR-A3, OPR-A15: cover counts against shooting only
        raise typer.BadParameter(
            "has no effect here: cover counts against shooting, and Impact hits come with a charge",
            param_hint="'--cover'",
        )
    options.check_dice(models * (attacks + impact), "'--models' x ('--attacks' + '--impact')")
    options.check_rolled(
        models * (attacks + impact), simulate, "'--models' x ('--attacks' + '--impact')"
    )
    profile = OprAttack(
        models, attacks, quality, target_quality, target_models, tough, armored, cover,
        piercing, deadly, poison, rapid, unwieldy, regeneration, single_model, impact,
    )  # fmt: skip
    _finish(attack_odds(profile), lambda n, s: roll(profile, n, s), as_json, plot, simulate, seed)


@odds_app.command("oldworld")
def oldworld_odds(
    ctx: typer.Context,
    models: Annotated[int, typer.Option(min=1, help="Attacking models.")] = 10,
    attacks: Annotated[int, typer.Option(min=0, help="Attacks per model.")] = 1,
    shooting: Annotated[bool, typer.Option(help="Shooting (BS chart) instead of combat.")] = False,
    ws: Annotated[int, typer.Option(min=1, max=10, help="Attacker's Weapon Skill (combat).")] = 3,
    target_ws: Annotated[
        int, typer.Option(min=1, max=10, help="Target's Weapon Skill (combat).")
    ] = 3,
    bs: Annotated[
        int, typer.Option(min=1, max=5, help="Attacker's Ballistic Skill (shooting).")
    ] = 3,
    hit_mod: Annotated[int, typer.Option(help="Modifier to hit, e.g. -1 for long range.")] = 0,
    strength: Annotated[int, typer.Option(min=1, max=10, help="Strength of the attack.")] = 3,
    toughness: Annotated[int, typer.Option(min=1, max=10, help="Target's Toughness.")] = 3,
    armour: Annotated[
        int | None, typer.Option(parser=options.optional_roll, help="Armour save, e.g. 5+")
    ] = None,
    ap: Annotated[int, typer.Option(max=0, help="Armour Piercing, e.g. -1")] = 0,
    ward: Annotated[
        int | None, typer.Option(parser=options.optional_roll, help="Ward save, e.g. 5+")
    ] = None,
    damage: Annotated[
        DiceExpr, typer.Option(parser=options.dice, help="Wounds per unsaved wound (1, D3).")
    ] = ONE,
    wounds: Annotated[
        int, typer.Option(min=1, max=MAX_PER_MODEL, help="Wounds per target model.")
    ] = 1,
    target_models: Annotated[
        int | None,
        typer.Option(
            min=1, max=MAX_TARGET, help="Models in the target (not given: as many as it takes)."
        ),
    ] = None,
    reroll_hits: RerollOption = Reroll.NONE,
    reroll_wounds: RerollOption = Reroll.NONE,
    poisoned: Annotated[bool, typer.Option(help="Poisoned Attacks: 6s to hit auto-wound.")] = False,
    as_json: Json = False,
    plot: Plot = None,
    simulate: Simulate = 0,
    seed: Seed = 1,
) -> None:
    """The Old World: WS-vs-WS (or BS) to hit, S-vs-T to wound, armour with AP, ward.

    Example:

      openwar odds oldworld --models 10 --ws 4 --target-ws 3 --strength 4 \\
        --toughness 3 --armour 5+
    """
    _seeded(ctx, simulate)
    from openwar.rulesets.oldworld.montecarlo import simulate as roll
    from openwar.rulesets.oldworld.odds import Mode, OldWorldAttack, attack_odds

    options.check_dice(models * attacks, "'--models' x '--attacks'")
    options.check_damage(damage.maximum, "'--damage'")
    options.check_total(models * attacks * damage.maximum, "'--models' x '--attacks' x '--damage'")
    warded = damage.maximum if ward is not None else 0
    options.check_rolled(models * attacks, simulate, "'--models' x '--attacks'", warded)
    _unused_skills(ctx, shooting)
    mode = Mode.SHOOTING if shooting else Mode.COMBAT
    profile = OldWorldAttack(
        models, attacks, mode, ws, target_ws, bs, hit_mod, strength, toughness, armour, ap, ward,
        damage, wounds, target_models, reroll_hits, reroll_wounds, poisoned,
    )  # fmt: skip
    _finish(attack_odds(profile), lambda n, s: roll(profile, n, s), as_json, plot, simulate, seed)


def _unused_skills(ctx: typer.Context, shooting: bool) -> None:
    """Shooting hits on BS, combat on WS against WS: the other skill, given, would be ignored."""
    unused = ("ws", "target_ws") if shooting else ("bs",)
    for name in unused:
        if options.given(ctx, name):
            option = "--" + name.replace("_", "-")
            why = "shooting hits on --bs" if shooting else "combat hits on --ws (add --shooting)"
            raise typer.BadParameter(f"has no effect here: {why}", param_hint=f"'{option}'")
