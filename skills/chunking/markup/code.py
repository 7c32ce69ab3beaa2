"""Source code -> ``Outline``: definitions as sections, statements as blocks, lines last.

A tree-sitter syntax tree (``languages.py`` says which grammar, and what its nodes are called)
becomes the same levelled cut points the Markdown reader emits, so the one packer cuts code as it
cuts documents:

- **Definitions** (classes, functions, methods, interfaces, ``impl`` blocks, namespaces) open
  sections named by what they define, nested as they nest: the heading path of a method is
  ``file > Client > send``. A definition at the top of its scope cuts at ``Level.heading(depth)``,
  so a file is cut between top-level definitions first, a class between its members next.
- **Lead-ins**: the comments, decorators and attributes directly above a definition (no blank
  line between) belong to it, and with its signature they are its heading line: no piece ends
  right after them. A piece of a definition cut in several starts with the signature again, in
  its prefix (the definition's body is a container whose ``reopen`` is the signature, as a
  fenced code block reopens its fence line).
- **Statements** of the file cut at ``Level.BLOCK``, one level lower per definition and compound
  statement around them; a comment directly above a statement leads into it. Inside a statement
  the packer cuts between lines (every stretch of code is a container), never between sentences.
- **The preamble** (module docstring, license comment, imports, package clause) is one unit, and
  so is each later run of imports.
- Lines holding only closing brackets (``}``, ``});``) are bare: they stay with what they close.

A file that does not parse (more than a quarter of it in error nodes), a language without a
grammar (shell, SQL) or with its wheel missing is read as *line-structured text* instead:
blank-line blocks (SQL also after each ``;`` that ends a line), then lines; with a warning when it
was meant to parse. Offsets are characters of ``text`` (the tree's byte offsets are mapped back).

Example: ``"import os\\n\\nclass A:\\n    def f(self):\\n        return 1\\n"`` gives the section
``A`` (depth 1) and ``f`` (depth 2, inside ``A``), cut points before ``class A`` (99) and before
``def f`` (98), and ``class A:`` and ``def f(self):`` as heading lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from skills.chunking.levels import MAX_BLOCK_NESTING, Level
from skills.chunking.markup.languages import LANGUAGES, CodeLanguage, grammar
from skills.chunking.outline import NO_SECTION, Container, Outline, OutlineBuilder

#: Node kinds (in any of the grammars) whose named children are statements or members.
_BLOCKS = frozenset(
    {
        "block",
        "statement_block",
        "compound_statement",
        "declaration_list",
        "field_declaration_list",
        "class_body",
        "interface_body",
        "enum_body",
        "constructor_body",
        "statement_list",
        "switch_body",
        "switch_block",
        "switch_block_statement_group",
        "switch_case",
        "switch_default",
        "switch_section",
        "case_statement",
        "expression_case",
        "default_case",
        "type_case",
        "communication_case",
    }
)
#: The values a binding (``const f = ...``) gives a name to that make it a definition.
_BOUND_DEFINITIONS = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "class"}
)
_PARAGRAPH_GAP = re.compile(r"\n(?:[ \t]*\n)+(?=[ \t]*\S)")
_AFTER_STATEMENT_END = r"[ \t]*(?:--[^\n]*)?\n(?=[ \t]*\S)"
#: A line that only closes what is open: brackets, or a shell block's keyword.
_CLOSING_LINE = re.compile(
    r"^[ \t]*(?:[)\]}][)\]};,]*|fi|done|esac|end)[ \t]*;?[ \t]*$", re.MULTILINE
)
_SPACES = re.compile(r"\s+")
_CONTENT = re.compile(r"\S")
_OPEN_PAREN = re.compile(r"([(\[<]) ")
_CLOSE_PAREN = re.compile(r",? ([)\]>])")
_MAX_TITLE = 80
_MAX_CLOSING_RUN = 8
_SNIFF_CHARS = 65536  # how far a C header is looked at for signs of C++
#: A parse with more of the text than this in error nodes is not used.
_MAX_ERROR_SHARE = 0.25


class _Where(NamedTuple):
    """Where a scope lies: ``depth`` of the definitions it opens (1: the file's own), ``rank``
    (definitions and compound statements around it), ``nested`` in a compound statement."""

    depth: int
    rank: int
    nested: bool


class _Definition(NamedTuple):
    node: Any  # the node that defines (its start begins the signature)
    name: str
    body: Any | None  # the node holding its members or statements


def parse_code(text: str, language: str | None) -> Outline:
    """The outline of ``text`` written in ``language`` (a name of ``LANGUAGES``)."""
    spec = LANGUAGES.get(language or "")
    if spec is None:
        shown = repr(language) if language else "an unnamed language"
        return parse_lines(text, None, f"code in {shown}: no reader, read by blank lines and lines")
    if spec.grammar is None:
        return parse_lines(text, spec)
    try:
        tree_language = grammar(spec.name)
    except ImportError as exc:
        return parse_lines(
            text, spec, f"{spec.name} grammar unavailable ({exc}): read by blank lines and lines"
        )
    data = text.encode("utf-8", "surrogatepass")
    chars = _CharOffsets(text, data)
    signs = spec.fallback_signs
    if spec.fallback is not None and signs is not None and signs.search(text, 0, _SNIFF_CHARS):
        spec = LANGUAGES[spec.fallback]
        tree_language = grammar(spec.name)
    root, warning = _parse(tree_language, data, text, chars)
    if warning is not None and spec.fallback is not None:
        other = LANGUAGES[spec.fallback]
        other_root, other_warning = _parse(grammar(other.name), data, text, chars)
        if other_warning is None or other_warning[1] < warning[1]:
            spec, root, warning = other, other_root, other_warning
    if warning is not None and warning[1] > _MAX_ERROR_SHARE * len(text):
        return parse_lines(
            text, spec, f"{spec.name}: {warning[0]}; read by blank lines and lines instead"
        )
    reader = _TreeReader(text, spec, chars)
    if warning is not None:
        reader.builder.warn(f"{spec.name}: {warning[0]}; the code around it is cut by lines")
    return reader.read(root)


def parse_lines(text: str, spec: CodeLanguage | None, warning: str | None = None) -> Outline:
    """Line-structured text: a block at every blank-line gap (and, for SQL, after every line
    that ends a statement), lines inside a block; closing lines stay with what they close."""
    builder = OutlineBuilder(len(text))
    for gap in _PARAGRAPH_GAP.finditer(text):
        builder.cut(gap.end(), Level.BLOCK)
    if spec is not None and spec.statement_end:  # the end, maybe a ``--`` comment, a newline
        statement_end = re.escape(spec.statement_end) + _AFTER_STATEMENT_END
        for end in re.finditer(statement_end, text):
            builder.cut(end.end(), Level.BLOCK)
    first = _next_line(text, 0, len(text))
    if first < len(text):
        builder.container(Container(first, first, len(text), ""))
    _closing_lines(text, builder)
    if warning:
        builder.warn(warning)
    return builder.build()


class _CharOffsets:
    """Character offsets of the tree's UTF-8 byte offsets (the same numbers for ASCII text)."""

    def __init__(self, text: str, data: bytes) -> None:
        self.length = len(text)
        self.identity = len(data) == len(text)
        if not self.identity:
            raw = np.frombuffer(data, dtype=np.uint8)
            self.index = np.cumsum((raw & 0xC0) != 0x80) - 1  # each byte's character

    def __call__(self, byte: int) -> int:
        if self.identity:
            return byte
        return self.length if byte >= len(self.index) else int(self.index[byte])


def _parse(
    tree_language: Any, data: bytes, text: str, chars: _CharOffsets
) -> tuple[Any, tuple[str, int] | None]:
    """The syntax tree's root, and where its first error is and how much of the text errors
    cover (None when it has none)."""
    import tree_sitter  # here, not at the top: only a document in code pays for it

    root = tree_sitter.Parser(tree_language).parse(data).root_node
    return root, _syntax_errors(root, text, chars)


def _syntax_errors(root: Any, text: str, chars: _CharOffsets) -> tuple[str, int] | None:
    """Where the first syntax error is, and how many characters error nodes cover; None when the
    tree has none. Only subtrees that hold an error are visited."""
    if not root.has_error:
        return None
    first, covered, pending = len(text), 0, [root]
    while pending:
        node = pending.pop()
        if node.is_error or node.is_missing:
            start, end = chars(node.start_byte), chars(node.end_byte)
            first, covered = min(first, start), covered + (end - start)
        else:
            pending.extend(child for child in node.children if child.has_error)
    line = text.count("\n", 0, first) + 1
    return f"syntax error at line {line}", covered


class _TreeReader:
    """One walk over the tree's scopes, statements and definitions."""

    def __init__(self, text: str, spec: CodeLanguage, chars: _CharOffsets) -> None:
        self.text = text
        self.spec = spec
        self.chars = chars
        self.builder = OutlineBuilder(len(text))
        self.builder.keep_sections_whole()  # a definition that fits a child is one
        self.open: list[int] = []  # the sections being read, outermost first
        self.owned: list[list[tuple[int, int]]] = [[]]  # definitions read in each open one

    def read(self, root: Any) -> Outline:
        self._scope(root.named_children, _Where(depth=1, rank=0, nested=False), preamble=True)
        first = _next_line(self.text, 0, len(self.text))
        self._stretches(first, len(self.text), self.owned[0], "")
        _closing_lines(self.text, self.builder)
        return self.builder.build()

    # -- scopes and statements -----------------------------------------------------------------
    def _scope(self, children: Sequence[Any], where: _Where, preamble: bool = False) -> None:
        """Read the statements (or members) of one scope; comments directly above one lead
        into it. ``preamble``: the file's opening docstring, comments and imports are one unit."""
        statement = Level.block(where.rank)
        #: The first cut after a definition ends it: as strong as the cut that began it, so a
        #: definition that fits is not cut between its members to keep a statement after it.
        ending = statement if where.nested else Level.heading(where.depth)
        level = statement
        lead: tuple[int, int] | None = None  # the comments directly above, waiting
        imports = False
        for child in children:
            start, end = self._span(child)
            if child.type in self.spec.leads:
                if lead is not None and self._blank_between(lead[1], start):
                    if not preamble:
                        self._cut(lead[0], level)
                        level = statement
                    lead = None
                lead = (start if lead is None else lead[0], end)
                continue
            if lead is not None:
                if self._blank_between(lead[1], start):
                    if not preamble:
                        self._cut(lead[0], level)
                        level = statement
                else:
                    start = lead[0]
                lead = None
            definition = self._definition(child)
            if definition is not None:
                preamble = imports = False
                self._define(definition, start, end, where)
                level = ending
                continue
            is_import = child.type in self.spec.imports or (preamble and _is_docstring(child))
            if preamble and is_import:
                continue
            preamble = False
            if not (is_import and imports):
                self._cut(start, level)
                level = statement
            imports = is_import
            if child.type in self.spec.scopes:
                self._scope(child.named_children, where)
            elif where.rank < MAX_BLOCK_NESTING:
                inner = _Where(where.depth, where.rank + 1, nested=True)
                for block in _blocks(child):
                    self._scope(_statements(block), inner)
        if lead is not None and not preamble:
            self._cut(lead[0], level)

    def _define(self, definition: _Definition, start: int, end: int, where: _Where) -> None:
        """A section for the definition, its cut, heading line and containers; then its body."""
        text = self.text
        end = self._end_of(end)
        clean = _at_line_start(text, start)
        if clean:
            start = text.rfind("\n", 0, start) + 1
        parent = self.open[-1] if self.open else NO_SECTION
        self.open.append(self.builder.section(start, end, where.depth, definition.name, parent))
        signature_start, signature_end = self._signature(definition, start)
        if clean:
            if where.nested:  # inside a statement (``if TYPE_CHECKING:``): cut as statements
                self._cut(start, Level.block(where.rank))
            else:
                self._cut(start, Level.heading(where.depth))
            if _next_line(text, signature_end, end) < end:
                self.builder.heading_line(start, signature_end)
            self.owned[-1].append((start, end))
        self.owned.append([])
        if definition.body is not None and where.rank < MAX_BLOCK_NESTING:
            body = _Where(where.depth + 1, where.rank + 1, nested=where.nested)
            self._scope(_statements(definition.body), body)
        owned = self.owned.pop()
        if clean:
            interior = _next_line(text, signature_end, end)
            reopen = one_line(text[signature_start:signature_end]) + "\n"
            self._stretches(interior, end, owned, reopen)
        self.open.pop()

    def _end_of(self, end: int) -> int:
        """Where the section of a definition ending at ``end`` ends: past the blank lines after
        it, and past the closing lines of its scope right after it (``}`` of a class after its
        last method: the piece that holds both is still the method's), within that scope."""
        text = self.text
        limit = self.builder.sections[self.open[-1]].end if self.open else len(text)
        end = _next_line(text, _line_end_after(text, end), limit)
        while end < limit and (closing := _CLOSING_LINE.match(text, end)) is not None:
            end = _next_line(text, _line_end_after(text, closing.end()), limit)
        return end

    def _stretches(self, start: int, end: int, holes: list[tuple[int, int]], reopen: str) -> None:
        """Containers over ``[start, end)`` less the definitions inside it (containers never
        nest): a piece starting in one reopens ``reopen``, its definition's signature."""
        position = start
        for hole_start, hole_end in sorted(holes):
            self._container(position, hole_start, reopen)
            position = max(position, hole_end)
        self._container(position, end, reopen)

    def _container(self, start: int, end: int, reopen: str) -> None:
        start = _next_line(self.text, start, end)
        if start < end:
            self.builder.container(Container(start, start, end, reopen))

    def _cut(self, position: int, level: int) -> None:
        """A cut at the start of the line of ``position``, if only indentation precedes it."""
        if _at_line_start(self.text, position):
            self.builder.cut(self.text.rfind("\n", 0, position) + 1, level)

    # -- what a node defines -------------------------------------------------------------------
    def _definition(self, node: Any) -> _Definition | None:
        """The definition ``node`` makes, through the wrappers around it (decorators, export)."""
        spec = self.spec
        kind = node.type
        if kind in spec.definitions:
            return _Definition(node, self._name(node), _body(node))
        if kind in spec.wrappers:
            for child in node.named_children:
                found = self._definition(child)
                if found is not None:
                    return found
            return None
        if kind == "assignment_expression" and kind in spec.bindings:  # ``app.init = function``
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and right.type in _BOUND_DEFINITIONS:
                return _Definition(node, self._text(left), _body(right))
            return None
        if kind in spec.bindings:
            declarators = [c for c in node.named_children if c.type == "variable_declarator"]
            value = declarators[0].child_by_field_name("value") if len(declarators) == 1 else None
            if value is not None and value.type in _BOUND_DEFINITIONS:
                return _Definition(node, self._name(declarators[0]), _body(value))
        return None

    def _name(self, node: Any) -> str:
        """What ``node`` defines, as it is written: ``Client``, ``Client::send``, ``(*T).Do``."""
        kind = node.type
        if kind == "impl_item":  # Rust: ``impl Trait for Type`` names the type
            kind_of, trait = node.child_by_field_name("type"), node.child_by_field_name("trait")
            named = self._text(kind_of) if kind_of is not None else "impl"
            return f"{self._text(trait)} for {named}" if trait is not None else named
        if kind == "type_declaration":  # Go: ``type T struct {...}``
            specs = [c for c in node.named_children if c.type in ("type_spec", "type_alias")]
            return self._name(specs[0]) if specs else "type"
        name = node.child_by_field_name("name")
        if kind == "method_declaration" and node.child_by_field_name("receiver") is not None:
            receiver = node.child_by_field_name("receiver")  # Go: the receiver's type names it
            types = [c for c in receiver.named_children if c.type == "parameter_declaration"]
            kind_of = types[0].child_by_field_name("type") if types else None
            if kind_of is not None and name is not None:
                return f"{self._text(kind_of).lstrip('*')}.{self._text(name)}"
        declarator = node.child_by_field_name("declarator")
        while name is None and declarator is not None:  # C and C++: down to the declared name
            if declarator.type == "function_declarator":
                name = declarator.child_by_field_name("declarator")
                break
            declarator = declarator.child_by_field_name("declarator")
        return self._text(name) if name is not None else "(anonymous)"

    def _signature(self, definition: _Definition, start: int) -> tuple[int, int]:
        """Where the signature's lines start and end: from the line of the defined name (or of the
        definition, decorators and comments left out) to the end of the line before the body,
        or of the line that opens it with a brace."""
        text = self.text
        node = definition.node
        name = node.child_by_field_name("name")
        first = self._span(name if name is not None else node)[0]
        first = max(start, text.rfind("\n", 0, first) + 1)
        if definition.body is None:
            return first, _line_end(text, first)
        body = self._span(definition.body)[0]
        if text.startswith("{", body):
            return first, _line_end(text, body)
        last = body - 1
        while last > first and text[last].isspace():
            last -= 1
        return first, _line_end(text, last)

    # -- small helpers -------------------------------------------------------------------------
    def _span(self, node: Any) -> tuple[int, int]:
        return self.chars(node.start_byte), self.chars(node.end_byte)

    def _text(self, node: Any) -> str:
        start, end = self._span(node)
        return _SPACES.sub(" ", self.text[start:end]).strip()[:_MAX_TITLE]

    def _blank_between(self, end: int, start: int) -> bool:
        """Whether a blank line lies between a node ending at ``end`` and one starting at
        ``start`` (a line comment may end with its newline)."""
        newlines = self.text.count("\n", end, start) + (end > 0 and self.text[end - 1] == "\n")
        return newlines >= 2


def one_line(signature: str) -> str:
    """A signature as one line, as it is repeated: a parameter list over many lines costs a
    token per line break and indentation in every piece it prefixes.

    >>> one_line("def send(\\n    self,\\n    request: Request,\\n) -> Response:")
    'def send(self, request: Request) -> Response:'
    """
    line = _SPACES.sub(" ", signature).strip()
    return _CLOSE_PAREN.sub(")", _OPEN_PAREN.sub("(", line))


def _body(node: Any) -> Any | None:
    return node.child_by_field_name("body") or node.child_by_field_name("accessors")


def _statements(block: Any) -> list[Any]:
    """The statements or members of a block (Go wraps them in one ``statement_list``)."""
    children = list(block.named_children)
    if len(children) == 1 and children[0].type == "statement_list":
        return list(children[0].named_children)
    return children


def _blocks(node: Any, hops: int = 4) -> Iterator[Any]:
    """The blocks of statements inside a compound statement (an ``if``'s branches, a callback's
    body), looked for at most ``hops`` nodes down."""
    for child in node.named_children:
        if child.type in _BLOCKS:
            yield child
        elif hops > 1 and child.named_child_count:
            yield from _blocks(child, hops - 1)


def _is_docstring(node: Any) -> bool:
    """A statement that is one string: a module docstring, JavaScript's ``"use strict"``."""
    children = node.named_children
    is_one = node.type == "expression_statement" and len(children) == 1
    return is_one and children[0].type == "string"


def _closing_lines(text: str, builder: OutlineBuilder) -> None:
    """Closing lines are bare (they stay with what they close); in a run of them only the first
    ``_MAX_CLOSING_RUN`` are: generated code closes thousands of blocks in a row, and the packer
    looks at every bare line of a range it cuts."""
    run, previous_end = 0, -2
    for line in _CLOSING_LINE.finditer(text):
        run = run + 1 if line.start() == previous_end + 1 else 1
        previous_end = line.end()
        if line.start() > 0 and run <= _MAX_CLOSING_RUN:
            builder.bare_line(line.start(), line.end())


def _at_line_start(text: str, position: int) -> bool:
    line_start = text.rfind("\n", 0, position) + 1
    return not text[line_start:position].strip()


def _line_end(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end < 0 else end


def _line_end_after(text: str, end: int) -> int:
    """``end``, moved past the rest of its line when only spaces follow it there."""
    line_end = _line_end(text, end)
    if text[end:line_end].strip():
        return end
    return min(line_end + 1, len(text))


def _next_line(text: str, position: int, end: int) -> int:
    """The start of the first non-blank line from ``position`` (``end`` when there is none)."""
    match = _CONTENT.search(text, position, end)
    if match is None:
        return end
    return max(position, text.rfind("\n", 0, match.start()) + 1)
