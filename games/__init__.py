"""The game app. Must not import Django here: ``games.engine`` is imported without Django."""
