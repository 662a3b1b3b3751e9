"""Roslyn side: CLR hosting, the indexer worker process and the client that drives it."""
