"""Runs of many deals and what they show.

``runs`` (the one chunked, verified, resumable run driver), ``storage`` (parquet and CSV
with provenance, atomic writes), ``executors`` (loky and dask workers, and their watch),
``study`` (deal, bid, play and score a run of deals), ``catch_tables`` (open play's catch
rates), ``catch_information`` (the misère information models on shared layouts),
``catch_rates`` (the shipped table of both), ``misere_ev`` (solo and shared EV of every
misère of a run) and ``results`` (summaries with confidence intervals, the verdict on Codex
note 40, policy comparisons). May import every layer below: ``game``, ``solver``, ``misere``,
``players`` and the base modules (docs/design.md, "Layers").
"""
