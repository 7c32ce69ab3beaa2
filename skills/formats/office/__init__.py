"""Word, PowerPoint and Excel packages to the engine's Markdown.

One converter per format (``docx``, ``pptx``, ``xlsx``) and what they share: ``part_names``
(a package's parts found whatever their case or path) and ``strict`` (Strict Open XML read as
transitional), ``xml_numbers`` (an attribute's integer, bounded), ``number_format`` and
``typed_numbers`` (numbers as the author saw them). Word's reading is ``word_stream`` (the body
in order: paragraphs, tables, content controls) and ``word_outline`` (which paragraphs are
headings, with or without Heading styles); Excel's tables are ``sheet_tables`` (header rows,
title rows, several tables on a sheet).
"""
