"""`python -m crewkg`: the same CLI as the console script, with every command registered."""

from .cli import app

app()
