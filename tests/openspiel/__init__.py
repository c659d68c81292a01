"""Differential tests of the classic rulebooks against OpenSpiel 2.0.2 (pyspiel)."""
