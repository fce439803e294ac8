"""Tournaments and ratings: the Django app, with the maths as pure modules (``formats``,
``rating_maths``, ``rating_chart``) that import no Django."""
