"""The chunking engine: text in, parent and leaf chunks out. No I/O, no HTTP, no Azure.

>>> from skills.chunking import chunk_document, ChunkOptions
>>> result = chunk_document("# Title\\n\\nSome text.", document_key="doc-1")
>>> [(c.level, c.text) for c in result.parents + result.leaves]
[(0, '# Title\\n\\nSome text.'), (1, '# Title\\n\\nSome text.')]
"""

from skills.chunking.chunker import ChunkingError, chunk_document
from skills.chunking.model import Chunk, Chunking
from skills.chunking.options import ChunkOptions, Format, Strategy
from skills.chunking.tokens import count_tokens, encoding

__all__ = [
    "Chunk",
    "ChunkOptions",
    "Chunking",
    "ChunkingError",
    "Format",
    "Strategy",
    "chunk_document",
    "count_tokens",
    "encoding",
]
