"""Game records: writing, reading and replaying them."""
