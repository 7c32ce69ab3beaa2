"""A document without headings, given no title, may be titled by its key's file name
(``titleFromKey``): otherwise nothing in its chunks says which of several alike documents
(two years' speeches, two versions of a plan) they come from."""

from __future__ import annotations

from skills.chunking import ChunkOptions, chunk_document

SPEECH = " ".join(["Mr. Speaker, the state of our Union is strong and the deficit fell."] * 40)
KEY = "https://account.blob.core.windows.net/docs/sotu/1988_ronald_reagan.txt"
TITLED = ChunkOptions()  # titleFromKey is the default


def test_a_document_without_headings_is_titled_by_its_file_name() -> None:
    result = chunk_document(SPEECH, document_key=KEY, options=TITLED)
    assert result.leaves
    assert all(c.embed_text.startswith("1988 ronald reagan\n\n") for c in result.leaves)
    assert all(c.prefix == "1988 ronald reagan\n\n" for c in result.parents)


def test_without_the_option_it_has_no_prefix() -> None:
    result = chunk_document(SPEECH, document_key=KEY, options=ChunkOptions(title_from_key=False))
    assert all(c.prefix == "" for c in (*result.parents, *result.leaves))


def test_a_document_with_headings_or_a_title_keeps_them() -> None:
    headed = chunk_document("# Budget\n\n" + SPEECH, document_key=KEY, options=TITLED)
    assert all(c.embed_text.startswith("Budget\n\n") for c in headed.leaves)
    titled = chunk_document(SPEECH, title="Address", document_key=KEY, options=TITLED)
    assert all(c.embed_text.startswith("Address\n\n") for c in titled.leaves)


def test_a_key_that_is_no_file_name_gives_no_title() -> None:
    result = chunk_document(SPEECH, options=TITLED)  # the default key, "document"
    assert all(c.prefix == "" for c in result.leaves)
