"""Records a user brings (persons, vessels, rosters) in YAML, JSON or Turtle: reading, the schema check and SHACL.
Asks `crewkg.law` for the ids a record may use; imports nothing above it."""
