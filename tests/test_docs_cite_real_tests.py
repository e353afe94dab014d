"""The rules documents name, for each clause, the tests that cover it: every name they cite
must be a test that exists (a renamed or deleted test would leave a clause uncovered in
silence)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]


def _defined_tests() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        found |= set(re.findall(r"^\s*def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_test_a_document_cites_exists(doc: Path) -> None:
    cited = set(re.findall(r"`(test_\w+)`", doc.read_text(encoding="utf-8")))
    assert not cited - _defined_tests()


def test_the_rules_documents_cite_tests() -> None:
    for ruleset in ("openwar", "aos", "opr", "oldworld"):
        text = (ROOT / "docs" / "rules" / f"{ruleset}.md").read_text(encoding="utf-8")
        assert len(re.findall(r"`(test_\w+)`", text)) >= 20, ruleset
