"""Rules from held-out Office round 10 (``docs/formats.md``, *Held-out Office round 10*): each
test builds the smallest file that shows one class of defect and fails without its rule."""

from __future__ import annotations

from collections.abc import Sequence

from test_xlsx_structure import converted, headers, workbook


def test_a_form_s_labels_over_their_values_are_text_not_a_table_s_header() -> None:
    # an invoice (round office-10): "FROM: | BILL TO:" over two addresses, then its line items
    rows: dict[int, Sequence[object]] = {1: ["Invoice"]}
    rows |= {3: ["FROM:", "BILL TO:"], 4: ["Company XYZ", "ABC Company"], 5: ["123 North St"]}
    rows |= {7: ["Description", "Quantity", "Unit Price"], 8: ["Product A", 1, 50.25]}
    text = converted(workbook(rows))
    assert headers(text) == ["| Description | Quantity | Unit Price |"]
    assert "FROM: BILL TO:" in text.splitlines()


def test_a_label_beside_its_value_above_the_header_is_no_part_of_it() -> None:
    # a timesheet (round office-9): "EMPLOYEE ID:" beside the name merged over B1:D2, the ID
    # under the label, the header in row 3 touching them
    rows: dict[int, Sequence[object]] = {1: ["EMPLOYEE ID:", "Jhonny Curambao"], 2: ["E001"]}
    rows |= {3: ["DATE", "LOGIN TIME", "LOGOUT TIME", "TOTAL HOURS"]}
    rows[4] = ["01/01/23", "9:00 AM", "6:00 PM", "9:00"]
    text = converted(workbook(rows, merged=["B1:D2"]))
    assert headers(text) == ["| DATE | LOGIN TIME | LOGOUT TIME | TOTAL HOURS |"]


def test_a_column_of_references_under_a_label_stays_a_table() -> None:
    sentence = "Bloomenthal, A. (2020, March 5). How safe is Venmo and is it free? Investopedia."
    rows: dict[int, Sequence[object]] = {1: ["#", "References:"], 2: [1, sentence]}
    rows[3] = [2, sentence]
    assert headers(converted(workbook(rows))) == ["| # | References: |"]
