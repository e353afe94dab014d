"""Warhammer: The Old World (quick reference)."""
