"""Pictures: charts of distributions, battleplans and the battle table (matplotlib, set up by
:mod:`openwar.render.backend`)."""
