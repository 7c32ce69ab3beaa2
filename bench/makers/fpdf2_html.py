"""fpdf2's HTML writer as a producer (bench/corpus.py): ``python fpdf2_html.py SOURCE OUT``.

A Markdown source goes through pandoc to an HTML5 fragment first; fpdf2 (``pip install --target
.cache/fpdf2 fpdf2==2.8.9``, kept out of the project's environment) then writes it with
``FPDF.write_html`` at its defaults, in DejaVu Serif (Debian's ``fonts-dejavu-core``) so that
text beyond Latin-1 prints, and DejaVu Sans Mono for code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FONTS = Path("/usr/share/fonts/truetype/dejavu")


def main(source: Path, out: Path) -> None:
    from fpdf import FPDF  # only on the maker's path (.cache/fpdf2)

    if source.suffix == ".md":
        html = subprocess.run(["pandoc", "--to", "html5", str(source)], capture_output=True,
                              text=True, check=True).stdout  # fmt: skip
    else:
        html = source.read_text(encoding="utf-8")
    pdf = FPDF()
    for style, suffix in (("", ""), ("B", "-Bold"), ("I", "-Italic"), ("BI", "-BoldItalic")):
        pdf.add_font("dejavu", style, str(FONTS / f"DejaVuSerif{suffix}.ttf"))
    pdf.add_font("dejavumono", "", str(FONTS / "DejaVuSansMono.ttf"))
    pdf.add_page()
    pdf.write_html(html, font_family="dejavu", pre_code_font="dejavumono")
    pdf.output(str(out))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
