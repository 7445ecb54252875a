"""Misère suit structures and how often they are caught (docs/rules.md, "Misère suit classes").

``classes`` derives the clean, conditionally clean and catchable holdings from the exact
one-suit game; ``exact`` gives exact probabilities of hands by class (generating functions);
``tables`` reads the shipped catch-rate tables and looks holdings up in them. May import
``game``, ``solver`` and the base modules, never ``players`` or above (docs/design.md,
"Layers").
"""
