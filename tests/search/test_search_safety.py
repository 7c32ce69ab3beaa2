"""The silent-loss rules of skills/search/safety.py, at their edges (the numbers docs/deploy.md
states)."""

from __future__ import annotations

import pytest

from skills.search.safety import (
    MAX_KEY_LENGTH,
    TIER_LIMITS,
    blob_problems,
    projected_key_length,
    soft_delete_problems,
)

CHILDREN = "/document/parents/*/children/*"
ACCOUNT = "https://stdocabcdefghijklm.blob.core.windows.net/documents/"


@pytest.mark.parametrize(("url_length", "fits"), [(690, True), (760, False)])
def test_a_blob_url_of_about_700_characters_is_the_longest_whose_keys_fit(
    url_length: int, fits: bool
) -> None:
    url = ACCOUNT + "a" * (url_length - len(ACCOUNT))
    assert (projected_key_length(url, CHILDREN) <= MAX_KEY_LENGTH) is fits


def test_the_key_grows_with_the_base64_of_the_url() -> None:
    short, long = (projected_key_length(ACCOUNT + "a" * n, CHILDREN) for n in (300, 600))
    assert long - short == 400  # 300 more URL characters, 4/3 of them in base64


@pytest.mark.parametrize(
    ("days", "schedule", "ok"),
    [
        (7, "PT1H", True),
        (6, "PT1H", False),
        (7, "P1D", True),
        (14, "P2D", True),
        (14, "P3D", False),
    ],
)
def test_retention_must_cover_a_week_and_a_week_of_intervals(
    days: int, schedule: str, ok: bool
) -> None:
    problems = soft_delete_problems(enabled=True, days=days, versioning=False, schedule=schedule)
    assert (problems == []) is ok


def test_soft_delete_off_and_versioning_on_are_both_reported() -> None:
    problems = soft_delete_problems(enabled=False, days=None, versioning=True, schedule="PT1H")
    assert len(problems) == 2


def test_basic_cuts_text_past_512000_characters_and_skips_blobs_past_16_mb() -> None:
    basic = TIER_LIMITS["basic"]
    assert blob_problems("a.md", ACCOUNT + "a.md", 512_000, basic, [CHILDREN]) == []
    (cut,) = blob_problems("a.md", ACCOUNT + "a.md", 512_001, basic, [CHILDREN])
    assert "at most 512,000 characters" in cut
    (skipped,) = blob_problems("a.md", ACCOUNT + "a.md", 16 * 1024 * 1024 + 1, basic, [CHILDREN])
    assert "the indexer skips it" in skipped
