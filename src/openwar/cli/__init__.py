"""The ``openwar`` command line (Typer + Rich)."""
