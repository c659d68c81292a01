"""The generic model the language talks about: sites and relations, pieces, zones, counters."""
