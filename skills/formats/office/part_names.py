"""Office packages whose part names differ from the names their relationships use, renamed.

Open Packaging Conventions compare part names without regard to case, and Excel and Word open a
package whatever the case of its zip entries; some writers also separate folders with
backslashes. openpyxl, python-pptx and our Word stream look parts up by the exact name a
relationship or ``[Content_Types].xml`` gives, so such a package fails as "not a workbook"
(xlrd's test files: an Apache POI bug's qPCR export named ``[content_types].xml`` and
``xl\\_rels\\workbook.xml.rels``; a 1C stock list whose relationships say ``sharedStrings.xml``
where the entry is ``xl/SharedStrings.xml``). :func:`usual_part_names` renames each entry to the
name the package refers to it by (else only its backslashes become slashes); a package whose
names already agree is returned as it is, unread beyond its relationships.

>>> _resolved("xl/_rels/workbook.xml.rels", "worksheets/sheet1.xml")
'xl/worksheets/sheet1.xml'
>>> _resolved("_rels/.rels", "/xl/workbook.xml")
'xl/workbook.xml'
>>> _resolved("xl/worksheets/_rels/sheet1.xml.rels", "../drawings/drawing1.xml")
'xl/drawings/drawing1.xml'
"""

from __future__ import annotations

import io
import posixpath
import zipfile

from lxml import etree

from skills.formats.conversion import DEFAULT_LIMITS, Limits, rewritten_package

#: names every package has, whatever its parts refer to
_FIXED = ("[Content_Types].xml", "_rels/.rels")


def usual_part_names(data: bytes, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The package with each zip entry named as the package refers to it: ``data`` itself when
    they already agree (or it is no readable zip: the converter says what is wrong)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = [info.filename for info in package.infolist()]
            renamed = _renames(package, names)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, KeyError):
        return data
    if not renamed:
        return data
    return rewritten_package(
        data, limits, "renamed the package's parts", lambda part: renamed.get(part, part)
    )


def _renames(package: zipfile.ZipFile, names: list[str]) -> dict[str, str]:
    """Entry name -> the name the package uses for it, for the entries named otherwise."""
    slashed = {name: _slashed(name) for name in names}
    if all(name == usual for name, usual in slashed.items()) and _agree(package, names):
        return {}
    wanted = {name.lower(): name for name in _referred(package, slashed)}
    present = set(names)
    renamed = {}
    for name, usual in slashed.items():
        target = wanted.get(usual.lower(), usual)
        if target != name and target not in present:  # never two entries of one name
            renamed[name] = target
    return renamed


def _slashed(name: str) -> str:
    return name.replace("\\", "/").lstrip("/")


def _agree(package: zipfile.ZipFile, names: list[str]) -> bool:
    """Whether every part the package refers to is an entry of that exact name (or of no name
    at all: a missing part is the converter's to report)."""
    present = set(names)
    lowered = {name.lower() for name in names}
    slashed = {name: name for name in names}
    return all(
        name in present or name.lower() not in lowered for name in _referred(package, slashed)
    )


def _referred(package: zipfile.ZipFile, slashed: dict[str, str]) -> set[str]:
    """The part names ``[Content_Types].xml`` and the relationship parts give, with the
    relationship parts' own names (``xl/_rels/workbook.xml.rels`` for ``xl/workbook.xml``)."""
    referred = set(_FIXED)
    for name, usual in slashed.items():
        lowered = usual.lower()
        if lowered == "[content_types].xml":
            referred |= {p.lstrip("/") for p in _attributes(package, name, "Override", "PartName")}
        elif lowered.endswith(".rels"):
            for target in _attributes(package, name, "Relationship", "Target", external=False):
                part = _resolved(usual, target)
                referred.add(part)
                folder, base = posixpath.split(part)
                referred.add(posixpath.join(folder, "_rels", f"{base}.rels"))
    return referred


def _attributes(
    package: zipfile.ZipFile, name: str, element: str, attribute: str, external: bool = True
) -> list[str]:
    """``attribute`` of every ``element`` of the XML part ``name`` (relationships to external
    targets left out unless ``external``)."""
    try:
        root = etree.fromstring(package.read(name), etree.XMLParser(resolve_entities=False))
    except etree.XMLSyntaxError:
        return []
    values = []
    for node in root.iter(f"{{*}}{element}"):
        if not external and node.get("TargetMode") == "External":
            continue
        value = node.get(attribute)
        if value:
            values.append(value.replace("\\", "/"))
    return values


def _resolved(rels_name: str, target: str) -> str:
    """A relationship's target as a part name: relative to the folder of the part the
    relationship part describes, or absolute from the package root."""
    if target.startswith("/"):
        return posixpath.normpath(target).lstrip("/")
    folder = posixpath.dirname(posixpath.dirname(rels_name))  # xl/_rels/x.rels -> xl
    return posixpath.normpath(posixpath.join(folder, target)).lstrip("/")
