"""crewkg's version, the one home of it: pyproject reads it ([tool.hatch.version]), the package exports it
(`crewkg.__version__`), and every layer may read it (the digest of an evaluation's input, the banner of a draft)
without importing the package's root, which loads the API."""

__version__ = "0.2.0"
