"""Benchmarks behind ``prefstats bench``: each module has ``main()`` printing its figures."""
