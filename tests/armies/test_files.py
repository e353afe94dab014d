"""Army files are parsed once per process for the same contents, and read again when changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.armies.files import ArmyFileError, load_army, parse_army

SAMPLE = (
    Path(__file__).resolve().parents[2]
    / "examples"
    / "armies"
    / "openwar"
    / "hearthhold_lodge.yaml"
)


def test_the_same_contents_are_parsed_once(tmp_path: Path) -> None:
    path = tmp_path / "army.yaml"
    path.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    first = load_army(path)
    assert load_army(path) is first
    parse_army.cache_clear()
    assert load_army(path) == first  # parsed afresh: the same army


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "army.yaml"
    text = SAMPLE.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    before = load_army(path)
    path.write_text(text.replace(f"name: {before.name}", "name: Renamed", 1), encoding="utf-8")
    assert load_army(path).name == "Renamed"
    path.write_text("units: [", encoding="utf-8")
    with pytest.raises(ArmyFileError, match="not valid YAML"):
        load_army(path)


# nine lists of nine, each of the nine before: 9**9 (387 million) values from 72 aliases
BOMB = (
    "a0: &a0 ["
    + ", ".join("x" * 9)
    + "]\n"
    + "".join(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 9) + "]\n" for k in range(1, 9))
    + "name: *a8\n"
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ruleset: openwar\nname: A\nname: B\nunits: []\n", "line 3: 'name' is given twice"),
        ("units:\n  - {name: X, type: Scouts, name: Y}\n", "line 2: 'name' is given twice"),
        ("x: &a [1]\ny: [" + ", ".join(["*a"] * 101) + "]\n", "more than 100 YAML aliases"),
        (BOMB, "line 6: its YAML aliases (*name) stand for more than 500,000 values"),
        (
            "x: &a [1, *a]\nname: *a\n",
            "line 1: a YAML alias (*name) stands for a value that holds it",
        ),
        ("ruleset: " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply to read"),
        (
            'ruleset: openwar\nname: "A\x07"\nunits: []\n',
            "line 2, column 9: not valid YAML (character #x0007 is not allowed)",
        ),
    ],
)
def test_yaml_a_loader_would_take_silently_or_blow_up_on_is_one_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    with pytest.raises(ArmyFileError) as caught:
        load_army(path)
    assert str(caught.value) == f"{path}: {message}" or (
        str(caught.value).startswith(f"{path}: ") and message in str(caught.value)
    )
    assert "\n" not in str(caught.value)


def test_a_few_aliases_are_still_yaml(tmp_path: Path) -> None:
    text = SAMPLE.read_text().replace("units:", "x-shield: &shield {name: Large shield}\nunits:")
    path = tmp_path / "anchored.yaml"
    path.write_text(text)
    with pytest.raises(ArmyFileError, match="x-shield: is not a known field"):
        load_army(path)  # read as YAML (the anchor is fine), then refused as an army field


def test_an_endless_stream_is_read_no_further_than_the_limit() -> None:
    with pytest.raises(ArmyFileError, match="/dev/zero: over the 1,000,000-byte limit"):
        load_army(Path("/dev/zero"))


@pytest.mark.parametrize(
    ("unit", "message"),
    [
        ("{name: C, type: Command, size: true}", "units.0.size: must be a whole number"),
        ("{name: C, type: Command, size: 2.0}", "units.0.size: must be a whole number"),
        ("{name: C, type: Command, profile: {armor: 1e308}}", "profile.armor: must be a whole"),
    ],
)
def test_a_count_must_be_written_as_a_whole_number(tmp_path: Path, unit: str, message: str) -> None:
    """YAML's true and 2.0 were read as 1 and 2; 1e308 gave pydantic's own words."""
    refused(tmp_path, f"units:\n  - {unit}\n", message)


def refused(tmp_path: Path, rest: str, said: str) -> None:
    """An army file of ruleset, name and limit, then ``rest``, is refused in words ``said``."""
    path = tmp_path / "army.yaml"
    path.write_text(f"ruleset: openwar\nname: X\npoints_limit: 100\n{rest}")
    with pytest.raises(ArmyFileError, match=said):
        load_army(path)


@pytest.mark.parametrize(
    ("size", "read"),
    [("010", 10), ("+12", 12), ("0x10", None), ("1_0", None), ("1:30", None), ("0o10", None)],
)
def test_a_whole_number_is_read_in_decimal_digits_only(
    tmp_path: Path, size: str, read: int | None
) -> None:
    """YAML 1.1 read 010 as eight, 0x10 as sixteen, 1_0 as ten and 1:30 as ninety, silently:
    a size is decimal digits, anything else is refused as not a whole number."""
    path = tmp_path / "army.yaml"
    path.write_text(
        f"ruleset: openwar\nname: X\npoints_limit: 2000\nunits:\n"
        f"  - {{name: C, type: Command}}\n  - {{name: B, type: Breakers, size: {size}}}\n"
    )
    if read is None:
        with pytest.raises(ArmyFileError, match=r"line 6, units\.1\.size: must be a whole number"):
            load_army(path)
    else:
        assert load_army(path).units[1].size == read


@pytest.mark.parametrize(
    ("tagged", "message"),
    [("!!int 0x10", "'0x10' cannot be read as !!int"), ("!!int 1_0", "'1_0' cannot be read"),
     ("!!float abc", "'abc' cannot be read as !!float"), ("!!bool maybe", "'maybe' cannot be"),
     ("!!timestamp x", "'x' cannot be read as !!timestamp")],
)  # fmt: skip
def test_a_tagged_value_that_is_not_its_kind_is_one_line(
    tmp_path: Path, tagged: str, message: str
) -> None:
    """``!!int 0x10`` reached int(), ``!!float abc`` float(), ``!!bool maybe`` a dict: each
    ended in a traceback."""
    path = tmp_path / "army.yaml"
    path.write_text(f"ruleset: openwar\nname: X\npoints_limit: {tagged}\nunits: []\n")
    with pytest.raises(ArmyFileError, match=rf"line 3, column 15: not valid YAML \({message}"):
        load_army(path)


@pytest.mark.parametrize("name", ["Yes", "no", "On", "off", "2026-11-29"])
def test_a_name_yaml_1_1_read_as_a_boolean_or_date_is_a_name(tmp_path: Path, name: str) -> None:
    path = tmp_path / "army.yaml"
    path.write_text(f"ruleset: openwar\nname: {name}\npoints_limit: 100\nunits: []\n")
    assert load_army(path).name == name


@pytest.mark.parametrize(("name", "hint"), [("1066", True), ("true", True), ("[a, b]", False)])
def test_a_name_that_reads_as_a_number_says_to_quote_it(
    tmp_path: Path, name: str, hint: bool
) -> None:
    path = tmp_path / "army.yaml"
    path.write_text(f"ruleset: openwar\nname: {name}\npoints_limit: 100\nunits: []\n")
    with pytest.raises(ArmyFileError, match=r"line 2, name: must be text") as raised:
        load_army(path)
    assert ("(in quotes if it reads as a number, true or false)" in str(raised.value)) == hint


@pytest.mark.parametrize(
    ("written", "said"),
    [("allegiance: !!timestamp 2020-01-01", r"line 5, allegiance: a date \(a YAML tag\?\) is"),
     ("allegiance: !!set {a: null}", r"line 5, allegiance: a set \(a YAML tag\?\) is not"),
     ("allegiance: !!binary SXJvbg==", r"line 5, allegiance: binary data \(a YAML tag\?\)"),
     ("true: 2", r"line 5, true: a key must be text \(in quotes if it reads as a number"),
     ("null: 2", "line 5, null: a key must be text"), ("1: 2", "line 5, 1: is not a known field")],
)  # fmt: skip
def test_what_no_field_takes_is_one_line_at_its_place(
    tmp_path: Path, written: str, said: str
) -> None:
    """Read through JSON, a tagged date, set or binary value ended in a traceback (JSON cannot
    hold them), and a key null or true would have been read as the text "null" or "true" (a
    whole number keys a numbered table: the field it is given to judges it)."""
    refused(tmp_path, f"units: []\n{written}\n", said)


@pytest.mark.parametrize(
    ("units", "said"),
    [("{a: 1}", "units: must be a list"),
     ("[{name: C, type: Command, options: [Shield]}]", r"units\.0\.options\.0: must be a mapping")],
)  # fmt: skip
def test_a_list_or_mapping_of_the_wrong_shape_is_said_in_plain_words(
    tmp_path: Path, units: str, said: str
) -> None:
    """Strict validation speaks of JSON's arrays and objects; the user reads YAML's words."""
    refused(tmp_path, f"units: {units}\n", said)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a misspelt required key was two problems, "name: is missing" first
        ("ruleset: openwar\nnmae: X\nunits: []\n", "line 2, nmae: is not a known field (did "
         "you mean 'name'?)"),
        # an optional one had no hint
        ("ruleset: openwar\nname: X\nunits:\n  - {name: A, type: Scouts, sise: 5}\n",
         "line 4, units.0.sise: is not a known field (did you mean 'size'?)"),
        ("ruleset: openwar\nname: X\nunits:\n  - {name: A, type: Scouts, options: [{nme: B}]}\n",
         "line 4, units.0.options.0.nme: is not a known field (did you mean 'name'?)"),
    ],
)  # fmt: skip
def test_a_misspelt_key_is_one_problem_with_a_did_you_mean(
    tmp_path: Path, text: str, said: str
) -> None:
    path, error = _refusal(tmp_path, text)
    assert str(error) == f"{path}: {said}" and error.problems == (f"{path}: {said}",)


def test_an_unknown_key_far_from_every_field_gets_no_guess(tmp_path: Path) -> None:
    path, error = _refusal(tmp_path, "ruleset: openwar\nname: X\nunits: []\nzzz: 1\n")
    assert str(error) == f"{path}: line 4, zzz: is not a known field"


def test_a_field_already_written_is_not_guessed(tmp_path: Path) -> None:
    """`{name: A, nme: B}` was told "did you mean 'name'?", name being there already."""
    text = "ruleset: openwar\nname: X\nunits:\n  - {name: A, nme: B, type: Scouts}\n"
    path, error = _refusal(tmp_path, text)
    assert str(error) == f"{path}: line 4, units.0.nme: is not a known field"


def test_only_a_file_with_aliases_is_counted_written_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain file of more values than the limit is as big as it reads: it was refused,
    blamed on aliases it did not have."""
    from openwar.rulesets import sources

    monkeypatch.setattr(sources, "MAX_VALUES", 10)
    plain = sources.read_yaml_text("x: [" + ", ".join(["1"] * 20) + "]\n", "plain.yaml")
    assert plain.data == {"x": [1] * 20}
    with pytest.raises(sources.YamlReadError, match=r"aliases.*stand for more than 10 values"):
        sources.read_yaml_text("a: &a [1, 2, 3, 4, 5, 6]\nb: [*a, *a]\n", "aliased.yaml")


def _refusal(tmp_path: Path, text: str) -> tuple[Path, ArmyFileError]:
    """The army file of ``text`` and the error that refuses it."""
    path = tmp_path / "army.yaml"
    path.write_text(text)
    with pytest.raises(ArmyFileError) as caught:
        load_army(path)
    return path, caught.value
