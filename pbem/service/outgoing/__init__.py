"""Outgoing mail: the outbox and sending it, notices to hosts, server faults, the answers'
rate limit, the seats' preferences and digests, the answers to a mail.

Imports nothing (docs/pipeline.md, "The service's layers"): importing one module of
the layer never pulls in another."""
