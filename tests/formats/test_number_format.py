"""Cells as the sheet displays them (skills/formats/office/number_format.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from skills.formats.office.number_format import display

DAY = dt.datetime(2022, 11, 11, 14, 5, 9)


@pytest.mark.parametrize(
    ("value", "fmt", "shown"),
    [
        (0.6229333333333333, "0.0%", "62.3%"),
        (0.005, "0%", "1%"),
        (0.01234, "0.00%", "1.23%"),
        (1234567.891, "#,##0.00", "1,234,567.89"),
        (1234.5, '"$"#,##0', "$1,235"),
        (1234.5, "[$€-407]#,##0.00", "€1,234.50"),
        (1234.5, "#,##0.00 [$€-407]", "1,234.50 €"),
        (-1234.5, "#,##0;(#,##0)", "(1,235)"),
        (-1234.5, "#,##0", "-1,235"),
        (0, "#,##0;(#,##0);-", "-"),
        (-5, "#,##0_);[Red](#,##0)", "(5)"),
        (3, '0" kg"', "3 kg"),
        (2.5, "0.000", "2.500"),
        (27.299999999999997, "General", "27.3"),
        (12.0, "General", "12"),
        (7, "@", "7"),
    ],
)
def test_numbers(value: float, fmt: str, shown: str) -> None:
    assert display(value, fmt) == shown


@pytest.mark.parametrize(
    ("fmt", "shown"),
    [
        ("yyyy-mm-dd", "2022-11-11"),
        ("m/d/yy", "11/11/22"),
        ("d-mmm-yy", "11-Nov-22"),
        ("dddd, mmmm d, yyyy", "Friday, November 11, 2022"),
        ("mm-dd-yy", "2022-11-11"),  # built-in 14, the locale's short date: ISO
        ("hh:mm:ss", "14:05:09"),
        ("h:mm AM/PM", "2:05 PM"),
        ("mm/dd/yyyy hh:mm", "11/11/2022 14:05"),
        ('yyyy"年"m"月"d"日"', "2022年11月11日"),
    ],
)
def test_dates_and_times(fmt: str, shown: str) -> None:
    assert display(DAY, fmt) == shown


def test_a_time_of_day_and_a_duration() -> None:
    assert display(dt.time(9, 30), "h:mm") == "9:30"
    assert display(dt.timedelta(hours=27, minutes=3), "[h]:mm") == "27:03"


def test_unknown_formats_fall_back_to_the_plain_value() -> None:
    assert display(0.75, "# ?/?") == "0.75"
    assert display(5, "[>=100]0;0.0") == "5"
    assert display(123456.0, "0.00E+00") == "123456"


def test_text_booleans_and_empty_cells() -> None:
    assert display("Total", "0.00%") == "Total"
    assert display(True, "General") == "TRUE"
    assert display(None, "0%") == ""
    assert display(dt.datetime(2022, 11, 11), "General") == "2022-11-11"


@pytest.mark.parametrize(
    ("value", "fmt", "shown"),
    [
        (1000, "#0.#", "1000."),  # Apache POI bug 52348's credit column
        (0, "#0.#", "0."),
        (2.25, "#0.#", "2.3"),
        (0, "#", ""),  # '#' shows no insignificant digit: zero shows nothing
        (200, "#", "200"),
        (0.5, "#.0#", ".5"),
        (1.5, "0.0#", "1.5"),
        (1.255, "0.0#", "1.26"),
        (0, "#,###", ""),
        (0, "#,##0", "0"),
    ],
)
def test_optional_digit_placeholders_show_only_significant_digits(
    value: float, fmt: str, shown: str
) -> None:
    assert display(value, fmt) == shown
