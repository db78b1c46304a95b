"""Jinja2 templates for pbem mail (shipped from the top-level templates/ folder)."""
