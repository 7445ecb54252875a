"""What a reader sees: ``plots`` draws each figure on an Axes it is given, ``html`` writes the
self-contained HTML report of a run. May import ``studies`` and every layer below it
(docs/design.md, "Layers").
"""
