"""The service face: derived facts as RDF (export), SPARQL over both stores, and the HTTP app."""
