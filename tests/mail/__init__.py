"""Tests of the pure mail-to-YAML layer (pbem.mail.message and friends)."""
