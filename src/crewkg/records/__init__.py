"""Records a user brings (persons) in YAML, JSON or Turtle: reading, the schema check and SHACL; vessel and roster
records build on them in `crewkg.manning.vessels`. Asks `crewkg.law` for the ids a record may use; imports nothing
above it."""
