"""A streamed body's blocks freed once read, in time linear in their size.

The Word readers (``word_outline``, ``word_stream``) parse ``word/document.xml`` with
``lxml.etree.iterparse`` and free each top-level paragraph or table once it is read, and the
body's earlier children with it, so that memory follows the largest block, not the document.

lxml frees a removed subtree at once only when no Python object refers to an element in it.
Otherwise it keeps the subtree and rewrites its namespace references, and that rewrite grows
with the square of the subtree's elements: its cache of namespaces gains an entry per element
and is searched whole for each (lxml 6.0). ``iterparse`` itself keeps its latest events'
elements alive until it reads on, so whether a block still had such an element when it was
freed depended on where the parser's read buffer ended. A table cell of 64,000 paragraphs
then took 14.7 s to free, 40,000 or 70,000 0.02 s; tables nested 600 deep, 20 paragraphs
each, 0.61 s, growing with the square of the depth. Freed from the leaves up, each element is
removed when it has no children left, so a rewrite, where one happens, touches one element:
linear, whatever the parser still holds.
"""

from __future__ import annotations

from typing import Any


def free_block(block: Any) -> None:
    """Empty ``block`` (kept: the parser is still positioned on it) and remove the children of
    its parent before it, each emptied first.

    >>> from lxml import etree
    >>> body = etree.fromstring("<body><p>a</p><t><r><c><p>b</p></c></r></t><p>c</p></body>")
    >>> kept = body[1][0][0][0]  # a paragraph in the table, still referenced
    >>> free_block(body[1])
    >>> etree.tostring(body), kept.tag, kept.getparent()  # emptied and let go, still valid
    (b'<body><t/><p>c</p></body>', 'p', None)
    """
    parent = block.getparent()
    _empty(block)
    while block.getprevious() is not None:
        _empty(parent[0])
        del parent[0]


def _empty(element: Any) -> None:
    """Clear ``element`` from its deepest elements up (each released once cleared, so that
    lxml can free it directly): no element is removed while it still has children."""
    from lxml import etree

    elements = list(element.iter(etree.Element))
    while elements:
        elements.pop().clear()
