"""crewkg — Austrian inland-navigation crew law as a knowledge graph and a logic program."""

__version__ = "0.1.0"
