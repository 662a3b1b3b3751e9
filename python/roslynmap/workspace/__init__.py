"""Baselines and (later) overlays: what exists for a repository, and building what is missing."""
