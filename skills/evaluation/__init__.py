"""Retrieval-quality evaluation: which chunking strategy retrieves best, at what context cost.

``python -m skills eval`` chunks a folder of documents with each candidate of a grid (our
strategies and the baselines), embeds the searchable chunks, retrieves for each question, and
scores the returned contexts against the question's exact reference passage.

Modules, one job each: ``dataset`` loads documents and questions, ``spans`` does interval
arithmetic, ``chunksets`` is the common shape every chunker is converted to, ``baselines`` and
``engine`` produce chunk sets, ``returns`` decides what a hit returns, ``retrieval`` ranks,
``metrics`` and ``fragmentation`` score, ``grid`` names the candidates, ``report`` writes the
outputs, ``run`` ties them together and ``cli`` is the command.
"""
