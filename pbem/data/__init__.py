"""pbem package."""
