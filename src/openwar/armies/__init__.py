"""Army lists: files, points and validation that reports every problem at once."""
