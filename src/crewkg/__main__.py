"""`python -m crewkg`: the same CLI as the console script, with every command registered."""

from crewkg.cli.common import app

app()
