"""The field contract: what the skill sends, and where each mode's skillset puts every field.

One table answers "where does this field end up?" for all four modes. The skill's side is read
from the wire models (:class:`skills.skill.contract.ParentOut` and ``ChildOut``), so a field
added to the answer shows up here without anyone listing it; the search side is written out
below. ``tests/search/test_search_fields.py`` renders every mode and fails on a field the skill
sends that no mapping, skill input or stated reason accounts for, and on a mapping that reads a
field the skill does not send (the failure the ``files`` and ``layout`` skillsets had: ``context``,
``prefix``, ``language`` and ``parentPrefix`` were sent, paid for and dropped).

>>> expected_mappings("files")["/document/parents/*/children/*"]["language"]
'/document/parents/*/children/*/language'
>>> sorted(unused_parent_fields("embedded"))
['headings', 'ordinal', 'pages']
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from skills.search.settings import MODES, Mode, parents_in_children
from skills.skill import ChildOut, ParentOut

PARENTS: Final = "/document/parents/*"
CHILDREN: Final = f"{PARENTS}/children/*"
#: what the blob indexer adds to every document (not sent by the skill)
METADATA: Final = MappingProxyType(
    {"title": "/document/metadata_storage_name", "sourcePath": "/document/metadata_storage_path"}
)

#: the fields of one parent and one child on the wire (``children`` is nesting, not a field)
SENT_PARENT: Final = tuple(name for name in ParentOut.model_fields if name != "children")
SENT_CHILD: Final = tuple(ChildOut.model_fields)

#: child field -> children index field, in every mode
CHILD_FIELDS: Final = MappingProxyType(
    {
        "id": "chunkId",
        "ordinal": "ordinal",
        "start": "start",
        "end": "end",
        "text": "text",
        "context": "context",
        "prefix": "prefix",
        "headings": "headings",
        "language": "language",
        "pages": "pages",
    }
)
#: parent field -> children index field, in every mode (a child names its parent)
PARENT_ID_IN_CHILDREN: Final = MappingProxyType({"id": "parentChunkId"})
#: parent field -> children index field where each child carries its parent (not ``reference``)
PARENT_IN_CHILDREN: Final = MappingProxyType(
    {"text": "parentText", "prefix": "parentPrefix", "start": "parentStart", "end": "parentEnd"}
)
#: parent field -> parents index field (``reference``: one document per parent)
PARENTS_INDEX_FIELDS: Final = MappingProxyType(
    {
        "id": "parentChunkId",
        "ordinal": "ordinal",
        "start": "start",
        "end": "end",
        "text": "text",
        "prefix": "prefix",
        "headings": "headings",
        "pages": "pages",
    }
)
#: child fields another skill reads instead of an index: field -> the skill's ``@odata.type``
CONSUMED_BY_SKILLS: Final = MappingProxyType(
    {"embedText": "#Microsoft.Skills.Text.AzureOpenAIEmbeddingSkill"}
)
#: the embedding skill's output, stored as the vector (not sent by the skill)
VECTOR: Final = MappingProxyType({"vector": f"{CHILDREN}/vector"})
#: parent fields a mode that copies the parent into each child does not project: a child's own
#: ``ordinal``, ``headings`` and ``pages`` are what its citation shows; only the ``reference``
#: mode's parents index keeps the parent's
LEFT_OUT_WITH_PARENTS_IN_CHILDREN: Final = frozenset({"ordinal", "headings", "pages"})


def expected_mappings(mode: Mode) -> dict[str, dict[str, str]]:
    """Selector ``sourceContext`` -> index field -> source path, as the skillset must map it."""
    children = {index: f"{CHILDREN}/{field}" for field, index in CHILD_FIELDS.items()}
    children |= {index: f"{PARENTS}/{field}" for field, index in PARENT_ID_IN_CHILDREN.items()}
    children |= dict(VECTOR) | dict(METADATA)
    if parents_in_children(mode):
        children |= {index: f"{PARENTS}/{field}" for field, index in PARENT_IN_CHILDREN.items()}
        return {CHILDREN: children}
    parents = {index: f"{PARENTS}/{field}" for field, index in PARENTS_INDEX_FIELDS.items()}
    return {CHILDREN: children, PARENTS: parents | dict(METADATA)}


def unused_parent_fields(mode: Mode) -> frozenset[str]:
    """Parent fields the skill sends that ``mode`` deliberately projects nowhere; every other
    field sent must be mapped or read by a skill (:data:`CONSUMED_BY_SKILLS`)."""
    return LEFT_OUT_WITH_PARENTS_IN_CHILDREN if parents_in_children(mode) else frozenset()


def all_modes() -> dict[Mode, dict[str, dict[str, str]]]:
    """Every mode's expected mappings (what the contract test walks)."""
    return {mode: expected_mappings(mode) for mode in MODES}
