#!/usr/bin/env bash
# Regenerate tests/formats/fixtures/ from the project's own samples with Debian's pandoc and
# LibreOffice (apt-get install pandoc libreoffice-writer-nogui libreoffice-impress-nogui
# libreoffice-calc-nogui). The fixtures are committed, so tests and CI need neither tool; run this
# only to change them, and read the diff of tests/formats/ after.
set -euo pipefail
cd "$(dirname "$0")/.."
out=tests/formats/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=${PYTHON:-.venv/bin/python}

# Word and PowerPoint from Markdown; one slide per second-level section.
pandoc samples/widget-api-guide.md -o "$out/widget-api-guide.docx"
pandoc samples/widget-api-guide.md --slide-level=2 -o "$out/widget-api-guide.pptx"

pandoc samples/meeting-notes.txt -f markdown --metadata title="Storage migration working group" \
  -o "$out/meeting-notes.pptx"

# Web pages: pandoc's standalone HTML, wrapped in the chrome a saved page has.
pandoc samples/widget-api-guide.md -s -o "$work/widget.html"
pandoc samples/sync-agent-reference.rst -s -o "$work/sync.html"
for pair in "widget.html widget-api-guide.html" "sync.html sync-agent-reference.html"; do
  set -- $pair
  "$py" - "$work/$1" "$out/$2" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
chrome = (
    '<nav class="site-menu"><a href="/">Home</a> <a href="/docs">Docs</a></nav>\n'
    '<div id="cookie-consent">We use cookies to improve this site. <button>Accept</button></div>\n'
)
page = page.replace("<body>", "<body>\n" + chrome, 1)
page = page.replace(
    "</body>", '<footer>Copyright 2026 Example Corp. All rights reserved.</footer>\n'
    '<script>window.analytics = "tracking";</script>\n</body>', 1)
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY
done

# A multi-page PDF (with bookmarks, as LibreOffice exports them) of the runbook.
pandoc samples/operations-runbook.md -o "$work/operations-runbook.docx"
soffice --headless --convert-to pdf --outdir "$work" "$work/operations-runbook.docx" >/dev/null
cp "$work/operations-runbook.pdf" "$out/"

# The same PDF locked with a password.
soffice --headless --convert-to \
  'pdf:writer_pdf_Export:{"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"secret"}}' \
  --outdir "$work/locked" "$work/operations-runbook.docx" >/dev/null
cp "$work/locked/operations-runbook.pdf" "$out/locked.pdf"

# A tagged PDF without bookmarks (Word's and LibreOffice's "tagged PDF"): its structure tree marks
# a heading set in the body's type (H3) that only the tags can tell from a paragraph.
cat > "$work/tagged-report.html" <<'HTML'
<html><head><meta charset="utf-8"><title>Harbour Works</title></head><body>
<h1>Harbour Works</h1>
<p>The harbour board met in spring to plan the works on the quays, the locks and the channel, and this report sets out what was agreed.</p>
<p>Each part below says what will be done, by whom, and when the work is to be finished.</p>
<h2>Silt in the channel</h2>
<p>The channel silts up every winter. Dredging will start in March and end before the summer traffic.</p>
<p>The spoil goes to the reclaimed land north of the lock.</p>
<h3 style="font-weight:normal;font-size:12pt;font-family:serif;margin:0">Tides and dredging windows</h3>
<p>Dredgers work two hours either side of low water, when the current in the channel is weakest.</p>
<p>Spring tides shorten the window to three hours a day.</p>
<h2>Lock gates</h2>
<p>The outer gates are to be replaced. The new gates are steel, built off site and floated in.</p>
<p>The lock will be closed for six weeks while the gates are hung.</p>
</body></html>
HTML
soffice --headless --infilter="HTML (StarWriter)" --convert-to \
  'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"},"ExportBookmarks":{"type":"boolean","value":"false"}}' \
  --outdir "$work" "$work/tagged-report.html" >/dev/null
cp "$work/tagged-report.pdf" "$out/"

# A workbook: the error-code table of the runbook, as LibreOffice Calc saves a CSV.
"$py" - samples/operations-runbook.md "$work/error-codes.csv" <<'PY'
import csv, sys
rows = [line.strip().strip("|").split("|") for line in open(sys.argv[1], encoding="utf-8")
        if line.startswith("| ") and "---" not in line]
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows([[c.strip() for c in row] for row in rows])
PY
soffice --headless --convert-to xlsx --outdir "$work" "$work/error-codes.csv" >/dev/null
cp "$work/error-codes.xlsx" "$out/"

# A workbook of the lease's Schedule A (an HTML table in the sample), via CSV.
"$py" - samples/scanned-lease.md "$work/lease-equipment.csv" <<'PY'
import csv, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
rows = [re.findall(r"<t[hd]>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>.*?</tr>", text)]
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows(rows)
PY
soffice --headless --convert-to xlsx --outdir "$work" "$work/lease-equipment.csv" >/dev/null
cp "$work/lease-equipment.xlsx" "$out/"

# A scan: a page that is only a picture of text, as a PDF with no text layer.
"$py" - "$work/scan.png" <<'PY'
import sys
from PIL import Image, ImageDraw
image = Image.new("L", (1240, 1754), 255)
draw = ImageDraw.Draw(image)
for line in range(30):
    draw.text((100, 100 + 40 * line), "Lease agreement, clause %d: the tenant pays rent monthly." % line, fill=0)
image.save(sys.argv[1])
PY
soffice --headless --convert-to pdf --outdir "$work" "$work/scan.png" >/dev/null
cp "$work/scan.pdf" "$out/scanned.pdf"
ls -l "$out"
