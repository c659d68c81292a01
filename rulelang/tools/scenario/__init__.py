"""Scenario files: `rulelang test` and `rulelang test --mutate`."""
