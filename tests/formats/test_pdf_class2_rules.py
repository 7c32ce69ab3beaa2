"""Rules for classes of PDF text and structure our truth files still missed after the seventh
pass (issue 30, eighth pass): a piece of a line drawn before the letter it belongs to, ... Each
test fails with its rule taken out."""

from __future__ import annotations

from skills.formats.pdf.lines import Line, _rejoined


def _piece(text: str, left: float, right: float, base: float, size: float = 9.0) -> Line:
    return Line(0, text, size, 400, False, True, base - size * 0.7, left, right=right, base=base)


def test_a_piece_drawn_back_under_the_lines_last_letter_stays_a_word_of_its_own() -> None:
    # rtklib's manual (Word with MathType): 't₀' is drawn '0' first, then 't' back over it, and
    # PDFium broke the line there; joined as drawn it read 'time 0t' and 'includes st'
    drawn = [_piece("time 0", 103.3, 130.2, 676.3), _piece("t .", 124.8, 133.5, 676.1, 9.3)]
    assert [line.text for line in _rejoined(drawn)] == ["time 0 t ."]
    # a footnote's mark, a kerned logo letter and a combining mark still join as they are
    mark = [
        _piece("in Spain3", 72.0, 130.0, 300.0, 12.0),
        _piece(", and it", 131.2, 170.0, 300.0, 12.0),
    ]
    logo = [_piece("TE", 48.3, 61.4, 301.7, 14.1), _piece("X Live", 59.8, 84.6, 301.7, 14.1)]
    khmer = [_piece("ដ", 100.0, 121.0, 300.0, 36.0), _piece("\u17d2ដ", 106.9, 127.0, 300.0, 36.0)]
    assert [line.text for line in _rejoined(mark)] == ["in Spain3, and it"]
    assert [line.text for line in _rejoined(logo)] == ["TEX Live"]
    assert [line.text for line in _rejoined(khmer)] == ["ដ\u17d2ដ"]
