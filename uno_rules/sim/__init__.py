"""Simulation: many rounds or matches played by policies or agents, on one core, many
processes or a Dask cluster; their statistics, comparisons, plots and records."""
