"""The programming languages the code markup reads, and what their syntax trees call things.

One entry per language: the file suffixes that name it, the tree-sitter grammar it is parsed with
(a wheel per language, imported on first use, so a Function that never sees code never loads
one), and the node kinds the code reader (``code.py``) needs: which nodes define something (a
class, a function, an ``impl`` block), which only wrap a definition (Python's decorators, an
``export``, a C++ ``template``), which are scopes to look through (``#ifdef``, ``extern "C"``),
which are imports and comments. Shell and SQL have no grammar here: they are read as
line-structured text (blank lines, then lines; SQL also after each statement's ``;``).

Adding a language: one :class:`CodeLanguage` in :data:`LANGUAGES`, its grammar package pinned in
``requirements.txt``; the suffix map, the format registry and the docs follow from this table.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

#: Comments in every grammar here are called one of these.
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})


@dataclass(frozen=True, slots=True)
class CodeLanguage:
    """How one language's files are recognised and what its syntax tree's nodes mean."""

    name: str
    suffixes: tuple[str, ...]  # lower case, without the dot
    #: ``(module, function)`` of the grammar wheel; None: read as line-structured text
    grammar: tuple[str, str] | None = None
    definitions: frozenset[str] = frozenset()
    #: nodes that carry one definition inside (decorators, ``export``): the definition's lead-in
    wrappers: frozenset[str] = frozenset()
    #: nodes whose children are read as if they stood in the enclosing scope
    scopes: frozenset[str] = frozenset()
    imports: frozenset[str] = frozenset()
    #: siblings directly above a definition that lead into it: comments, attributes
    leads: frozenset[str] = _COMMENTS
    #: declarations whose value may be a function or class (``const f = () => {}``)
    bindings: frozenset[str] = frozenset()
    #: a statement ending a line with this closes a block of line-structured text (SQL's ``;``)
    statement_end: str = ""
    #: the language to read with instead when the text shows ``fallback_signs`` or this one's
    #: grammar finds more syntax errors in it (a ``.h`` file written in C++)
    fallback: str | None = None
    fallback_signs: re.Pattern[str] | None = None


_JS_DEFINITIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "method_definition",
    }
)
_TS_DEFINITIONS = _JS_DEFINITIONS | {
    "abstract_class_declaration",
    "interface_declaration",
    "enum_declaration",
    "internal_module",
    "module",
}
_JS_WRAPPERS = frozenset({"export_statement", "expression_statement"})
_JS_BINDINGS = frozenset({"lexical_declaration", "variable_declaration", "assignment_expression"})
_C_SCOPES = frozenset(
    {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "linkage_specification"}
)
_C_DEFINITIONS = frozenset(
    {"function_definition", "struct_specifier", "union_specifier", "enum_specifier"}
)

LANGUAGES: Mapping[str, CodeLanguage] = {
    language.name: language
    for language in (
        CodeLanguage(
            "python",
            ("py", "pyi", "pyw"),
            ("tree_sitter_python", "language"),
            definitions=frozenset({"function_definition", "class_definition"}),
            wrappers=frozenset({"decorated_definition"}),
            imports=frozenset(
                {"import_statement", "import_from_statement", "future_import_statement"}
            ),
        ),
        CodeLanguage(
            "javascript",
            ("js", "mjs", "cjs", "jsx"),
            ("tree_sitter_javascript", "language"),
            definitions=_JS_DEFINITIONS,
            wrappers=_JS_WRAPPERS,
            imports=frozenset({"import_statement"}),
            bindings=_JS_BINDINGS,
        ),
        CodeLanguage(
            "typescript",
            ("ts", "mts", "cts"),
            ("tree_sitter_typescript", "language_typescript"),
            definitions=_TS_DEFINITIONS,
            wrappers=_JS_WRAPPERS,
            imports=frozenset({"import_statement"}),
            bindings=_JS_BINDINGS,
        ),
        CodeLanguage(
            "tsx",
            ("tsx",),
            ("tree_sitter_typescript", "language_tsx"),
            definitions=_TS_DEFINITIONS,
            wrappers=_JS_WRAPPERS,
            imports=frozenset({"import_statement"}),
            bindings=_JS_BINDINGS,
        ),
        CodeLanguage(
            "java",
            ("java",),
            ("tree_sitter_java", "language"),
            definitions=frozenset(
                {
                    "class_declaration",
                    "interface_declaration",
                    "enum_declaration",
                    "record_declaration",
                    "annotation_type_declaration",
                    "method_declaration",
                    "constructor_declaration",
                }
            ),
            imports=frozenset({"import_declaration", "package_declaration"}),
        ),
        CodeLanguage(
            "csharp",
            ("cs",),
            ("tree_sitter_c_sharp", "language"),
            definitions=frozenset(
                {
                    "class_declaration",
                    "struct_declaration",
                    "interface_declaration",
                    "enum_declaration",
                    "record_declaration",
                    "method_declaration",
                    "constructor_declaration",
                    "property_declaration",
                    "namespace_declaration",
                }
            ),
            imports=frozenset({"using_directive", "file_scoped_namespace_declaration"}),
        ),
        CodeLanguage(
            "go",
            ("go",),
            ("tree_sitter_go", "language"),
            definitions=frozenset(
                {"function_declaration", "method_declaration", "type_declaration"}
            ),
            imports=frozenset({"import_declaration", "package_clause"}),
        ),
        CodeLanguage(
            "rust",
            ("rs",),
            ("tree_sitter_rust", "language"),
            definitions=frozenset(
                {
                    "function_item",
                    "struct_item",
                    "enum_item",
                    "union_item",
                    "trait_item",
                    "impl_item",
                    "mod_item",
                    "macro_definition",
                }
            ),
            imports=frozenset({"use_declaration", "extern_crate_declaration"}),
            leads=_COMMENTS | {"attribute_item"},
        ),
        CodeLanguage(
            "c",
            ("c", "h"),
            ("tree_sitter_c", "language"),
            definitions=_C_DEFINITIONS,
            scopes=_C_SCOPES,
            imports=frozenset({"preproc_include"}),
            fallback="cpp",
            fallback_signs=re.compile(r"^[ \t]*(?:namespace|class|template)\b|\w::~?\w", re.M),
        ),
        CodeLanguage(
            "cpp",
            ("cc", "cpp", "cxx", "hh", "hpp", "hxx"),
            ("tree_sitter_cpp", "language"),
            definitions=_C_DEFINITIONS | {"class_specifier", "namespace_definition"},
            wrappers=frozenset({"template_declaration"}),
            scopes=_C_SCOPES,
            imports=frozenset({"preproc_include", "using_declaration"}),
        ),
        CodeLanguage("shell", ("sh", "bash", "zsh", "ksh")),
        CodeLanguage("sql", ("sql",), statement_end=";"),
    )
}

#: File suffix (lower case, no dot) -> language name.
SUFFIX_LANGUAGES: Mapping[str, str] = {
    suffix: language.name for language in LANGUAGES.values() for suffix in language.suffixes
}


def language_of(name: str) -> str | None:
    """The language a file name, path or URL says by its suffix, if it names one.

    >>> language_of("https://account.blob.core.windows.net/code/httpx/_client.py")
    'python'
    >>> language_of("README.md") is None
    True
    """
    _, dot, suffix = name.rpartition(".")
    return SUFFIX_LANGUAGES.get(suffix.lower()) if dot and "/" not in suffix else None


@cache
def grammar(name: str) -> Any:
    """The tree-sitter ``Language`` of ``name``, imported on first use and kept (a few ms each).

    Raises ``LookupError`` for a language without a grammar and ``ImportError`` when its wheel is
    not installed."""
    language = LANGUAGES[name]
    if language.grammar is None:
        raise LookupError(f"{name} has no grammar: it is read as line-structured text")
    import tree_sitter  # here, not at the top: only a document in code pays for it

    module, function = language.grammar
    return tree_sitter.Language(getattr(importlib.import_module(module), function)())
