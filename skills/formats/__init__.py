"""File formats at the edge of the engine: which files exist, and how each becomes one of the
engine's markups. The engine (``skills.chunking``) never imports from here; the command line, the
skill, the evaluation, the demo and the search definitions do."""
