"""The game's course: setup, applying orders, reports and prompts, deadlines, the end and
rollbacks.

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
