"""Types shared by every layer: error codes, kinds, id formats."""
