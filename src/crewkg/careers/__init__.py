"""Careers: the career graph, the fastest routes, programme designs and cohorts, and their pictures."""
