"""The law as data: the kb and ontology graphs, their compiled views (certificates and pathways, manning tables,
crediting limits) and the cache that keeps them. Imports nothing above itself."""
