"""The service's own entries in a game's log (trust, docs/trust.md).

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
