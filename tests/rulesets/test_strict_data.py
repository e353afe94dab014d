"""Rule data, catalogues and army files are validated strictly (``validate_strictly``): a whole
number must be written as one, while a YAML list still fills a pair and a value its enum."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from openwar.rulesets.data import ProfileBounds, RollRule
from openwar.rulesets.problems import UnreadableData, validate_strictly


def test_a_list_fills_a_pair_and_whole_numbers_stay_whole() -> None:
    bounds = validate_strictly(ProfileBounds, {"characteristics": {"move": [1, 30]}, "weapons": {}})
    assert bounds.characteristics["move"] == (1, 30)


@pytest.mark.parametrize("written", ["1", 1.0, True])
def test_a_number_written_otherwise_is_refused(written: object) -> None:
    """Pydantic's lax mode read "1", 1.0 and true as the whole number 1."""
    with pytest.raises(ValidationError):
        validate_strictly(
            ProfileBounds, {"characteristics": {"move": [written, 30]}, "weapons": {}}
        )


@pytest.mark.parametrize("written", [1, "true", None])
def test_a_flag_must_be_true_or_false(written: object) -> None:
    with pytest.raises(ValidationError):
        validate_strictly(RollRule, {"one_fails": written, "six_succeeds": False})


def test_what_json_cannot_hold_is_named_by_its_place() -> None:
    with pytest.raises(UnreadableData, match=r"^characteristics\.null: a key must be text"):
        validate_strictly(ProfileBounds, {"characteristics": {None: [1, 2]}, "weapons": set()})
