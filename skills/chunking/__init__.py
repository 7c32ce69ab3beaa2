"""The chunking engine: text in, parent and leaf chunks out. No I/O, no HTTP, no Azure.

>>> from skills.chunking import chunk_document, ChunkOptions
>>> result = chunk_document("# Title\\n\\nSome text.", document_key="doc-1")
>>> [(c.level, c.text) for c in result.parents + result.leaves]
[(0, '# Title\\n\\nSome text.'), (1, '# Title\\n\\nSome text.')]
"""

from skills.chunking.chunker import (
    ChunkingError,
    chunk_document,
    detect_format,
    document_sections,
)
from skills.chunking.markup import SUFFIX_FORMATS
from skills.chunking.markup.languages import LANGUAGES, CodeLanguage, language_of
from skills.chunking.markup.plaintext import numbered_title
from skills.chunking.model import Chunk, Chunking
from skills.chunking.options import ChunkOptions, Format, Strategy
from skills.chunking.pages import PageMap, without_page_markers
from skills.chunking.prefix import PATH_SEPARATOR, with_note
from skills.chunking.semantic import EmbeddingBoundaries, TextEmbedder
from skills.chunking.sentences import sentence_starts
from skills.chunking.strategies import BoundaryModel
from skills.chunking.tokens import count_tokens, encode, encoding

__all__ = [
    "LANGUAGES",
    "PATH_SEPARATOR",
    "SUFFIX_FORMATS",
    "BoundaryModel",
    "Chunk",
    "ChunkOptions",
    "Chunking",
    "ChunkingError",
    "CodeLanguage",
    "EmbeddingBoundaries",
    "Format",
    "PageMap",
    "Strategy",
    "TextEmbedder",
    "chunk_document",
    "count_tokens",
    "detect_format",
    "document_sections",
    "encode",
    "encoding",
    "language_of",
    "numbered_title",
    "sentence_starts",
    "with_note",
    "without_page_markers",
]
