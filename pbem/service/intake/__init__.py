"""A raw mail to its outcome: the intake rules, the chain, the handlers; quarantine.

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
