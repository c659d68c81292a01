"""Independent pure-Python reference implementations used to cross-check rulebooks."""
