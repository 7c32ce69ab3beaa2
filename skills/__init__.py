"""Hierarchical chunking for Azure AI Search: the engine (``skills.chunking``) and its adapters."""
