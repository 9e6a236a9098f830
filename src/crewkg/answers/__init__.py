"""Answers arranged from what the rules derived: eligibility per certificate, minimum crew, the roster check.
The CLI, the HTTP service and the Python API all ask here, so the three faces never disagree."""
