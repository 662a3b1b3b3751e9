"""Read-only answers from a baseline, one module per tool family. Returns plain data; never formats."""
