"""Benchmarks behind ``prefstats bench``: each module's ``main()`` prints its figures and returns
them by name; ``runner`` runs one between the machine's load and speed and can record them;
``speed`` is the fixed loop that measures the machine."""
