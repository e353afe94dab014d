"""OpenWar: the project's own game (cm, 90x90 cm table, orders, Presence)."""
