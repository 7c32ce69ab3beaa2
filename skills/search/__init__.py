"""The search side: index definitions for both parent modes, their deployment, a doctor for a live
deployment, the parent-child query, and a local simulation of the indexer.

Library entry points: :func:`skills.search.templates.render` (definitions from settings),
:func:`skills.search.checks.cross_check`, :func:`skills.search.deploy.deploy`,
:func:`skills.search.doctor.diagnose`, :func:`skills.search.upload.sync`,
:func:`skills.search.query.query_parents` with :func:`skills.search.collapse.collapse`, and
:func:`skills.search.local_run.simulate`. The rules that lose data silently (soft delete, tier
limits, key length) live in :mod:`skills.search.safety`.
"""
