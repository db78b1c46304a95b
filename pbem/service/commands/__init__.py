"""Everything a mail or the CLI asks besides orders: player and host commands, sign-up,
history requests.

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
