"""Answers arranged from what the rules derived: eligibility per certificate and the text of check/explain (the
minimum crew and the roster check are answered in `crewkg.manning`). The CLI, the HTTP service and the Python API
all ask here, so the three faces never disagree."""
