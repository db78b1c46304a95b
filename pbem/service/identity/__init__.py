"""Who sent a mail: the envelope (game, seat, key, step, sequence), Authentication-Results,
the host key.

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
