"""A sheet's real header row, several tables on one sheet, and cells as displayed
(skills/formats/office/xlsx.py), on workbooks written here with openpyxl."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from skills.formats.conversion import Limits
from skills.formats.office.xlsx import xlsx_to_markdown


def workbook(
    rows: Mapping[int, Any],
    formats: dict[str, str] | None = None,
    merged: Sequence[str] = (),
) -> bytes:
    """One sheet, ``Data``, with ``rows`` by row number (1-based; missing numbers are blank),
    number formats by cell, and merged ranges (``"B1:C1"``)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Data"
    for number, values in rows.items():
        for column, value in enumerate(values, start=1):
            if value is not None:
                sheet.cell(row=number, column=column, value=value)
    for ref, fmt in (formats or {}).items():
        sheet[ref].number_format = fmt
    for ref in merged:
        sheet.merge_cells(ref)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def converted(data: bytes) -> str:
    return xlsx_to_markdown(data, Limits()).text


def headers(markdown: str) -> list[str]:
    """The header row of every table, in order."""
    lines = markdown.splitlines()
    return [lines[i - 1] for i, line in enumerate(lines) if re.fullmatch(r"\|( --- \|)+", line)]


BUDGET: dict[int, Sequence[Any]] = {
    1: ["SIMPLE MONTHLY BUDGET"],
    2: ["Prepared by the finance team"],
    4: ["Item", "Planned", "Actual"],
    5: ["Rent", 1200, 1200],
    6: ["Food", 400, 385.5],
    7: ["Travel", 150, 210],
}


def test_a_title_row_above_the_table_is_text_not_the_header() -> None:
    text = converted(workbook(BUDGET))
    assert headers(text) == ["| Item | Planned | Actual |"]
    assert "SIMPLE MONTHLY BUDGET" in text.split("| Item")[0]


def test_caption_rows_touching_the_table_are_not_its_header() -> None:
    rows = {1: ["Deaths in 2016"], 2: ["compiled", None, "in 2017"], 3: ["Name", "Age", "Born"]}
    rows |= {4: ["Bowie", 69, "London"], 5: ["Fisher", 60, "Burbank"]}
    assert headers(converted(workbook(rows))) == ["| Name | Age | Born |"]


def test_notes_under_the_table_are_text_after_it() -> None:
    rows = {1: ["Name", "Age", "Born"], 2: ["Bowie", 69, "London"], 3: ["Fisher", 60, "Burbank"]}
    rows |= {4: ["Source: the newspapers"]}
    text = converted(workbook(rows))
    assert "| Source" not in text and text.index("Source: the newspapers") > text.index("Fisher")


def test_two_tables_separated_by_a_blank_row_keep_their_own_headers() -> None:
    rows = {1: ["Region", "Sales"], 2: ["North", 10], 3: ["South", 12], 5: ["Product", "Units"]}
    rows |= {6: ["Widget", 3], 7: ["Gadget", 4]}
    assert headers(converted(workbook(rows))) == ["| Region | Sales |", "| Product | Units |"]


def test_a_blank_row_inside_a_table_does_not_make_data_a_header() -> None:
    rows = {1: ["Region", "Sales"], 2: ["North", 10], 4: [12.5, 11], 5: [13.5, 12]}
    found = headers(converted(workbook(rows)))
    assert found[0] == "| Region | Sales |" and "12.5" not in "".join(found)


def test_a_table_of_numbers_has_an_empty_header_not_a_row_of_data() -> None:
    text = converted(workbook({1: [1, 2], 2: [3, 4]}))
    assert headers(text) == ["|  |  |"] and "| 1 | 2 |" in text


def test_a_crosstab_header_with_an_empty_corner_is_the_header() -> None:
    rows = {1: ["Sales by quarter"], 2: [None, "Q1", "Q2", "Q3"], 3: ["North", 1, 2, 3]}
    rows |= {4: ["South", 4, 5, 6]}
    assert headers(converted(workbook(rows))) == ["|  | Q1 | Q2 | Q3 |"]


def test_cells_show_as_the_sheet_displays_them() -> None:
    rows = {
        1: ["Share", "Amount", "Day"],
        2: [0.6229333333333333, 1234.5, dt.datetime(2022, 11, 11)],
    }
    text = converted(workbook(rows, {"A2": "0.0%", "B2": '"$"#,##0.00', "C2": "d-mmm-yy"}))
    assert "| 62.3% | $1,234.50 | 11-Nov-22 |" in text


def test_a_declared_dimension_smaller_than_the_data_is_not_trusted() -> None:
    import zipfile

    data = workbook({1: ["Name", "Age"], 2: ["Bowie", 69]})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as copy:
        for item in source.infolist():
            part = source.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                part = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:A1"', part)
            copy.writestr(item, part)
    assert "| Bowie | 69 |" in converted(out.getvalue())


def test_a_merged_group_header_prefixes_the_names_under_it() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Region", "Sales"], 2: [None, "2023", "2024"]}
    rows |= {3: ["North", 10, 12], 4: ["South", 9, 14]}
    text = converted(workbook(rows, merged=["A1:A2", "B1:C1"]))
    assert headers(text) == ["| Region | Sales 2023 | Sales 2024 |"]


def test_a_merged_category_names_every_row_it_spans() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Region", "Product", "Units"]}
    rows |= {2: ["North", "Widget", 3], 3: [None, "Gadget", 4]}
    text = converted(workbook(rows, merged=["A2:A3"]))
    assert "| North | Gadget | 4 |" in text


def test_notes_that_merge_a_cell_above_a_table_are_not_its_header() -> None:
    rows = {1: ["or", "merging", None, None, "cells"], 2: ["Name", "Age", "Born", "Died", "Job"]}
    rows |= {3: ["Bowie", 69, 1947, 2016, "musician"], 4: ["Fisher", 60, 1956, 2016, "actor"]}
    text = converted(workbook(rows, merged=["B1:D1"]))
    assert headers(text) == ["| Name | Age | Born | Died | Job |"]


def test_a_range_merged_across_columns_is_one_column_of_the_table() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Sheet", None, None, "Content"]}
    rows |= {2: ["cases", None, None, "Cases by date"], 3: ["deaths", None, None, "Deaths"]}
    text = converted(workbook(rows, merged=["A1:C1", "A2:C2", "A3:C3"]))
    assert headers(text) == ["| Sheet | Content |"]
    assert "| deaths | Deaths |" in text


def test_a_margin_column_left_empty_is_not_a_column_of_the_table() -> None:
    rows = {2: [None, "Clicks", "Impressions"], 3: [None, 423, 398503], 4: [None, 757, 460983]}
    assert headers(converted(workbook(rows))) == ["| Clicks | Impressions |"]


def test_a_title_merged_over_the_whole_header_is_not_a_group_name() -> None:
    rows: dict[int, Sequence[object]] = {1: ["QUARTERLY SALES"], 2: ["Region", "Q1", "Q2"]}
    rows |= {3: ["North", 10, 12], 4: ["South", 9, 14]}
    text = converted(workbook(rows, merged=["A1:C1"]))
    assert headers(text) == ["| Region | Q1 | Q2 |"]
    assert text.index("QUARTERLY SALES") < text.index("| Region")


def test_a_note_merged_above_the_header_is_text_not_a_group_name() -> None:
    note = "N.B. a total under five is written as <5 in every sheet of this file"
    rows: dict[int, Sequence[object]] = {1: [note], 2: ["Sheet", "Content", "Variables"]}
    rows |= {3: ["cases", "Cases by date", "DATE"], 4: ["deaths", "Deaths by date", "DATE"]}
    text = converted(workbook(rows, merged=["A1:B1"]))
    assert headers(text) == ["| Sheet | Content | Variables |"]


def test_a_header_merged_down_two_rows_stays_over_its_table() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Sheet", "Content"], 3: ["cases", "Cases by date"]}
    rows |= {4: ["deaths", "Deaths by date"]}
    text = converted(workbook(rows, merged=["A1:A2", "B1:B2"]))
    assert headers(text) == ["| Sheet | Content |"]
    assert "| cases | Cases by date |" in text


def test_a_long_note_merged_over_many_rows_is_written_once() -> None:
    note = "The data in this file are updated daily. " * 8
    rows: dict[int, Sequence[object]] = {1: [note, None, "Links"], 2: [None, None, "Dashboard"]}
    rows |= {3: [None, None, "Ministry data"]}
    text = converted(workbook(rows, merged=["A1:B12"]))
    assert text.count("updated daily") == 8
    assert "Ministry data" in text


def test_a_stylesheet_openpyxl_refuses_costs_the_looks_not_the_numbers() -> None:
    import zipfile

    data = workbook({1: ["Item", "Price"], 2: ["Tea", 1.2]}, formats={"B2": '"$"#,##0.00'})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as copy:
        for item in source.infolist():
            part = source.read(item)
            if item.filename == "xl/styles.xml":  # xlsx-populate writes empty fills
                part = re.sub(rb"<fills[^>]*>", lambda m: m.group() + b"<fill/>", part, count=1)
            copy.writestr(item, part)
    file = xlsx_to_markdown(out.getvalue(), Limits())
    assert "| Tea | $1.20 |" in file.text
    assert any("cell styles cannot be read" in warning for warning in file.warnings)


def test_the_last_rows_of_a_merged_category_are_data_not_notes() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Sheet", "Content", "Variable"]}
    rows |= {2: ["cases", "Cases by date", "DATE"], 3: [None, None, "CASES"]}
    rows |= {4: [None, None, "REGION"]}
    text = converted(workbook(rows, merged=["A2:A4", "B2:B4"]))
    assert "| cases | Cases by date | REGION |" in text


def test_two_rows_of_merged_group_names_both_prefix_the_names_under_them() -> None:
    # IPC's export: "Current" over "Phase 1" (each merged) over "# | %"
    rows: dict[int, Sequence[object]] = {1: ["Afghanistan"], 2: [None, "Current"]}
    rows |= {3: [None, "Phase 1", None, "Phase 2"], 4: ["Area", "#", "%", "#", "%"]}
    rows |= {5: ["Badakhshan", 155349, 0.15, 310697, 0.3]}
    text = converted(workbook(rows, merged=["B2:E2", "B3:C3", "D3:E3"]))
    assert headers(text) == [
        "| Area | Current Phase 1 # | Current Phase 1 % | Current Phase 2 # | Current Phase 2 % |"
    ]


def test_a_header_merged_down_over_several_rows_is_one_header() -> None:
    # LibreOffice: names merged down beside the sub-names under a merged name
    rows: dict[int, Sequence[object]] = {1: ["Region", "Contribution", "Impact of changes"]}
    rows |= {3: [None, None, "from last quarter", "from baseline"], 4: [None, "(%)"]}
    rows |= {5: ["North", 12, 3, 4]}
    merged = ["A1:A4", "B1:B3", "C1:D2", "C3:C4", "D3:D4"]
    assert headers(converted(workbook(rows, merged=merged))) == [
        "| Region | Contribution (%) | Impact of changes from last quarter | "
        "Impact of changes from baseline |"
    ]


def test_group_names_over_spacer_columns_name_only_the_columns_under_them() -> None:
    # Apache POI bug 52348: "Balance" merged over F:I above Opening (G) and Ending (I:J),
    # Category and Account merged down two rows, spacer columns between the figures
    rows: dict[int, Sequence[object]] = {
        2: [None, None, "Category", None, "Account", "Balance", None, None, None, None],
        3: [None, None, None, None, None, None, "Opening", None, "Ending"],
        4: [None, None, "Food", None, "City Bank", None, 1000, None, 800],
        5: [None, None, "Gas", None, "J.P Morgan", None, 400, None, 200],
    }
    merged = ["C2:C3", "E2:E3", "F2:I2", "I3:J3", "I4:J4", "I5:J5"]
    text = converted(workbook(rows, merged=merged))
    assert headers(text) == ["| Category | Account | Balance Opening | Balance Ending |"]
    assert "| Food | City Bank | 1000 | 800 |" in text


def test_a_crosstab_corner_beside_an_empty_margin_column_is_still_the_header() -> None:
    # gdata's example: two lines of text, then the crosstab from B4 with column A empty
    rows: dict[int, Sequence[object]] = {1: ["Text to skip to get to the data"]}
    rows |= {2: [None, "This line too!"], 4: [None, None, "D", "E", "Factor"]}
    rows |= {5: [None, "FirstRow", 1, "NA", "Red"], 6: [None, "SecondRow", 2, 1, "Green"]}
    text = converted(workbook(rows))
    assert headers(text) == ["|  | D | E | Factor |"]
    assert "| FirstRow | 1 | NA | Red |" in text


def test_a_pivot_table_beside_its_data_is_a_table_of_its_own() -> None:
    # openxlsx's loadExample: the data from A1, a pivot from G2 after an empty column
    rows: dict[int, Sequence[object]] = {1: ["Length", "Species"]}
    rows |= {2: [6.4, "virginica", None, "Row Labels", "Sum of Length"]}
    rows |= {3: [4.4, "setosa", None, "setosa", 95.5], 4: [6, "virginica", None, "Total", 95.5]}
    rows |= {5: [6.9, "versicolor"], 6: [5.6, "versicolor"]}
    text = converted(workbook(rows))
    assert headers(text) == ["| Length | Species |", "| Row Labels | Sum of Length |"]
    assert "| 6.9 | versicolor |" in text and "| setosa | 95.5 |" in text


def test_a_spacer_column_inside_one_table_cuts_nothing() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Item", "Kind", None, "Count", "Price"]}
    rows |= {2: ["Lamp", "LED", None, 3, 6], 3: ["Bulb", "E27", None, 5, 2]}
    assert headers(converted(workbook(rows))) == ["| Item | Kind | Count | Price |"]


def test_columns_filled_in_scattered_rows_after_an_empty_column_stay_in_the_table() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Name", "Id", None, "Street", "City"]}
    rows |= {2: ["Ann", 1, None, "1 Main St", "Leeds"], 3: ["Bob", 2], 4: ["Cy", 3]}
    rows |= {5: ["Dee", 4, None, "2 High St", "York"], 6: ["Eve", 5]}
    assert headers(converted(workbook(rows))) == ["| Name | Id | Street | City |"]


LEAGUE = ["POS", "TEAM", "P", "PTS"]


def test_tables_side_by_side_with_the_same_header_are_tables_of_their_own() -> None:
    # kreuzberg's excel.xlsx: four league tables side by side over the same 20 rows
    rows: dict[int, Sequence[object]] = {1: [*LEAGUE, None, *LEAGUE]}
    rows |= {2: [1, "Arsenal", 38, 56, None, 1, "Liverpool", 38, 99]}
    rows |= {3: [2, "Aston Villa", 38, 35, None, 2, "Chelsea", 38, 66]}
    text = converted(workbook(rows))
    assert headers(text) == ["| POS | TEAM | P | PTS |"] * 2
    assert "| 1 | Liverpool | 38 | 99 |" in text


def test_group_names_over_blocks_with_the_same_names_keep_one_table() -> None:
    rows: dict[int, Sequence[object]] = {1: [None, "2023", None, None, "2024"]}
    rows |= {2: ["Item", "Q1", "Q2", None, "Q1", "Q2"]}
    rows |= {3: ["Rent", 1, 2, None, 3, 4], 4: ["Food", 5, 6, None, 7, 8]}
    text = converted(workbook(rows, merged=["B1:C1", "E1:F1"]))
    assert headers(text) == ["| Item | 2023 Q1 | 2023 Q2 | 2024 Q1 | 2024 Q2 |"]


def test_a_title_over_captions_merged_across_their_tables_is_text() -> None:
    # kreuzberg's excel.xlsx: the sheet's name in A1, each table's caption merged over it
    rows: dict[int, Sequence[object]] = {1: ["Part A"]}
    rows |= {2: [None, "Table A1", None, None, "Table A2"], 4: [None, *LEAGUE]}
    rows |= {5: [None, 1, "Arsenal", 38, 56], 6: [None, 2, "Chelsea", 38, 66]}
    text = converted(workbook(rows, merged=["B2:D2", "E2:G2"]))
    assert headers(text) == ["| POS | TEAM | P | PTS |"]
    assert "Part A\nTable A1 Table A2" in text


def test_boxes_of_merged_lines_side_by_side_are_text() -> None:
    rows: dict[int, Sequence[object]] = {1: ["Functions Used", None, None, "Functions Used"]}
    rows |= {2: ["VLOOKUP", None, None, "INDEX"], 3: ["COLUMN", None, None, "MATCH"]}
    rows |= {5: ["Name", "Score"], 6: ["Ann", 3], 7: ["Bob", 4]}
    merged = ["A1:B1", "A2:B2", "A3:B3", "D1:E1", "D2:E2", "D3:E3"]
    text = converted(workbook(rows, merged=merged))
    assert headers(text) == ["| Name | Score |"]
    assert "Functions Used\nVLOOKUP\nCOLUMN" in text and "Functions Used\nINDEX\nMATCH" in text


def test_rows_numbered_from_the_first_have_no_header() -> None:
    # xlrd's reveng1.xlsx, sheet ControlChars: code point, then the character twice
    rows: dict[int, Sequence[object]] = {1: [1, "alpha", "alpha"], 2: [2, "beta", "beta"]}
    rows |= {3: [3, "gamma", "gamma"], 4: [4, "delta", "delta"]}
    text = converted(workbook(rows))
    assert headers(text) == ["|  |  |  |"]
    assert "| 1 | alpha | alpha |" in text


def test_a_header_over_a_counted_index_stays_the_header() -> None:
    # megaparse's file_example_XLSX_50.xlsx: pandas' index counts 0, 1, 2 beside the names
    rows: dict[int, Sequence[object]] = {1: [0, "First Name", "Age"], 2: [1, "Dulce", 32]}
    rows |= {3: [2, "Mara", 25], 4: [3, "Philip", 36]}
    assert headers(converted(workbook(rows))) == ["| 0 | First Name | Age |"]


def test_a_label_merged_across_data_columns_is_written_once() -> None:
    # xlrd's err_cell_empty.xlsx: 'ИТОГО:' merged over B:E beside the sums
    rows: dict[int, Sequence[object]] = {1: ["Code", "Item", "Group", "Stock"]}
    rows |= {2: ["A1", "Lamp", "Light", 3], 3: ["B2", "Bulb", "Light", 5]}
    rows |= {4: ["TOTAL:", None, None, 8]}
    text = converted(workbook(rows, merged=["A4:C4"]))
    assert "| TOTAL: |  |  | 8 |" in text


def test_group_names_beside_a_merged_note_name_their_columns_and_the_note_is_text() -> None:
    # xlcalculator's BASES.xlsx: a note over the inputs, "dec2bin" over the results beside them
    note = "The inputs the results were computed from, in one row each"
    rows: dict[int, Sequence[object]] = {1: [note, None, None, "doubled", None]}
    rows |= {2: ["n", "square", None, "n", "square"], 3: [1, 1, None, 2, 2]}
    rows |= {4: [2, 4, None, 4, 8]}
    text = converted(workbook(rows, merged=["A1:B1", "D1:E1"]))
    assert headers(text) == ["| n | square | doubled n | doubled square |"]
    assert note + "\n\n| n |" in text


def test_a_wide_header_may_stop_short_of_a_helper_column_without_a_name() -> None:
    """BMW's price list (round office-7) names 69 of its 70 columns: the last one, a helper
    value in every row, has no name. Its header was refused for not reaching that column, and
    the names were written as a data row under an empty header."""
    names = [f"Field {k}" for k in range(1, 13)]
    data = {n: [None if k == 5 else n * k + 0.5 for k in range(1, 14)] for n in range(2, 8)}
    rows = {1: names, **data}
    assert headers(converted(workbook(rows))) == ["| " + " | ".join(names) + " |  |"]


def test_a_narrow_header_still_reaches_the_last_column_its_rows_reach() -> None:
    """Under ten columns a header is refused when it stops short: "Name | Cost" over rows of
    three cells is not the table's header (the third column has no name)."""
    rows = {1: ["Name", "Cost"], 2: ["rent", 12, 1], 3: ["tax", 3, 2], 4: ["fee", 1, 3]}
    assert "| Name | Cost |  |" not in headers(converted(workbook(rows)))


def test_a_block_s_first_row_of_amounts_under_its_title_is_data_not_a_header() -> None:
    # a household budget (round office-8): each block a title merged over its columns, then
    # item | amount | account rows without a header row
    money = '"$"#,##0.00'
    rows = {1: ["Monthly Housing Expenses"], 2: ["Mortgage", 3250, "Joint checking"]}
    rows |= {3: ["Electric", 120, "Joint checking"], 4: ["Trash", 50, "Joint checking"]}
    text = converted(workbook(rows, {"B2": money, "B3": money, "B4": money}, ["A1:C1"]))
    assert "Monthly Housing Expenses\n\n|  |  |  |\n| --- | --- | --- |" in text
    assert "| Mortgage | $3,250.00 | Joint checking |" in text.splitlines()


def test_a_header_of_names_over_amounts_stays_the_header() -> None:
    rows = {1: ["Region", "Planned", "Actual"], 2: ["North", 1250.5, 1300]}
    rows[3] = ["South", 980, 1010.25]
    formats = {f"{c}{r}": '"$"#,##0.00' for c in "BC" for r in (2, 3)}
    assert headers(converted(workbook(rows, formats))) == ["| Region | Planned | Actual |"]


def test_two_rows_of_labels_beside_values_above_a_table_are_a_form_s_text() -> None:
    # a Gantt chart from Google Sheets (round office-8): a form of fields over its task table
    rows = {1: ["PROJECT TITLE", "Banking Service", "GROUP NUMBER", 3]}
    rows[2] = ["GROUP MEMBER", "Ann, Ben", "DATE", dt.datetime(2018, 3, 12)]
    rows |= {4: ["WBS NUMBER", "TASK TITLE", "TASK OWNER"], 5: [1.1, "Purpose", "All"]}
    rows[6] = [1.2, "Overall Description", "All"]
    text = converted(workbook(rows, {"D2": "m/d/yy"}))
    assert headers(text) == ["| WBS NUMBER | TASK TITLE | TASK OWNER |"]
    assert "PROJECT TITLE Banking Service GROUP NUMBER 3" in text.splitlines()


def test_a_two_row_table_of_a_name_over_a_value_keeps_its_header() -> None:
    text = converted(workbook({1: ["Name", "Age", "City"], 2: ["Ann", 32, "Paris"]}))
    assert headers(text) == ["| Name | Age | City |"]


def test_a_title_merged_from_the_first_column_over_most_of_the_header_is_its_title() -> None:
    # a timesheet (round office-9): "Timesheet" merged over A1:E2 above a header of A:F, its
    # "On time" column added after the title was set
    rows: dict[int, Sequence[object]] = {1: ["Timesheet"]}
    rows |= {3: ["EMPLOYEE ID", "LAST NAME", "FIRST NAME", "HOURLY WAGE", "On time"]}
    rows |= {4: ["E001", "Curambao", "Jhonny", 5, "Late"], 5: ["E002", "Sy", "Henry", 4, None]}
    text = converted(workbook(rows, merged=["A1:D2"]))
    assert headers(text) == ["| EMPLOYEE ID | LAST NAME | FIRST NAME | HOURLY WAGE | On time |"]
    assert text.index("Timesheet") < text.index("| EMPLOYEE ID")
