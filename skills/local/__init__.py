"""The skill on this machine, without Azure or Core Tools: a local host for ``function_app.py``
(``devserver``), ``python -m skills serve`` and ``python -m skills demo``; and the command line
around the engine, ``python -m skills chunk`` (``chunk``), which reads files of any format.

Nothing here is deployed (``.funcignore`` leaves ``skills/local/`` out): the Function App's request
path is ``function_app.py`` -> ``skills.skill`` -> ``skills.chunking`` (and ``skills.formats`` for
whole files).
"""
