"""Benchmarks behind `openwar bench`: they print figures; nothing here is a test."""
