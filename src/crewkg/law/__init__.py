"""The law as data: the kb and ontology graphs, their compiled views (certificates and pathways, crediting limits;
the manning tables are compiled in `crewkg.manning`) and the cache that keeps them. Imports nothing above itself."""
