"""Age of Sigmar, 2nd edition core rules."""
