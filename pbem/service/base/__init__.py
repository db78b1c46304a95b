"""The service's bottom layer: the context every stage takes (:mod:`.context`), text,
settings and calendar helpers. Imports no stage.

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
