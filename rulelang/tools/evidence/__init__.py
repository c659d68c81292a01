"""Evidence: `rulelang evaluate`, `compare` and `check --simulate`."""
