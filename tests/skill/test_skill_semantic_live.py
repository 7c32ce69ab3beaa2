"""The semantic strategy against a real Azure OpenAI deployment. Skipped unless one is configured.

Needs ``AZURE_OPENAI_ENDPOINT`` and ``AZURE_OPENAI_EMBEDDING_DEPLOYMENT`` (optionally
``AZURE_OPENAI_EMBEDDING_DIMENSIONS``) and an identity with Cognitive Services OpenAI User
(``az login``). The settings are read when this module is imported: the skill tests' fixture
clears them from the environment of every test.
"""

from __future__ import annotations

import os
import time

import pytest

from skills.chunking import ChunkOptions, chunk_document
from skills.llm import boundaries
from skills.skill import SkillSettings
from skills.skill.settings import EMBEDDING_DEPLOYMENT_SETTING, OPENAI_ENDPOINT_SETTING

DEPLOYMENT = SkillSettings.from_env(os.environ).embeddings
MISSING = [
    name
    for name in (OPENAI_ENDPOINT_SETTING, EMBEDDING_DEPLOYMENT_SETTING)
    if not os.environ.get(name)
]
pytestmark = [
    pytest.mark.azure,
    pytest.mark.skipif(
        bool(MISSING), reason="live Azure OpenAI test: set " + ", ".join(MISSING) + " to run it"
    ),
]

PENGUINS = [
    "Emperor penguins breed during the Antarctic winter on sea ice.",
    "The male penguin keeps the egg warm on its feet for about two months.",
    "Penguin chicks huddle together against the wind to save heat.",
    "Adult penguins dive for fish, krill and squid in the cold ocean.",
]
INVOICES = [
    "An invoice lists the goods sold, their prices and the payment terms.",
    "Unpaid invoices are reminded after thirty days and escalated after sixty.",
    "The accounts payable team matches each invoice to its purchase order.",
    "Value added tax is shown as a separate line on every invoice.",
]


def test_the_deployment_finds_the_shift_between_two_topics() -> None:
    model = boundaries.boundary_model(DEPLOYMENT, deadline=time.monotonic() + 60)
    assert model is not None
    text = "\n\n".join(PENGUINS + INVOICES)
    candidates = [text.index(part) for part in (PENGUINS + INVOICES)[1:]]
    assert model.topic_shifts(text, candidates) == [text.index(INVOICES[0])]
    options = ChunkOptions(strategy="semantic", parent_max_tokens=100, child_max_tokens=48)
    result = chunk_document(text, format="text", options=options, boundary_model=model)
    assert not result.warnings
    assert text.index(INVOICES[0]) in {parent.start for parent in result.parents}
