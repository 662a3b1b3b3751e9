"""SQLite storage: schema, the baseline writer, readers, repository identity and paths."""
