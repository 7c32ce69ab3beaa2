"""The search side: index definitions for both parent modes, their deployment, the parent-child
query, and a local simulation of the indexer.

Library entry points: :func:`skills.search.templates.render` (definitions from settings),
:func:`skills.search.checks.cross_check`, :func:`skills.search.deploy.deploy`,
:func:`skills.search.query.query_parents` with :func:`skills.search.collapse.collapse`, and
:func:`skills.search.local_run.simulate`.
"""
