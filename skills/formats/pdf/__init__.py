"""PDF files to the engine's Markdown, with the structure their producers left out.

One converter (``convert.pdf_to_markdown``) and the readings it puts together, each a module:
``lines`` (a page's text lines and their type: size, weight, place, cells), ``furniture``
(running headers, footers and page numbers found by repetition), ``headings`` (bookmarks, else
typography and numbering; the title: a package, one module per rule family), ``tags`` (a tagged
file's structure tree), ``tables`` (cells that line up become pipe tables). Only ``convert``
opens a file; the others read the pages it hands them.
"""
