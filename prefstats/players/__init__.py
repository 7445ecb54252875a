"""What the players decide: counting a hand, bidding, discarding, playing out, sharing.

``counting`` (human trick counting and the misère filters), ``evaluators`` (each seat's highest
bid behind one ``Evaluator`` protocol), ``discards`` (the discard policies behind one
``DiscardPolicy`` protocol, and the equivalence of discards), ``declarer`` (the declarer's phase
after the auction: talon, discard, contract, double-dummy play and score), ``misere_risk``
(P(caught) of a misère hand over its layouts), ``analysis`` (every contract of a hand: P(make),
tricks, EV, the best bid) and ``sharing`` (solo or shared misère: values and
decisions). May import ``game``, ``solver``, ``misere`` and the base modules, never
``studies`` or above (docs/design.md, "Layers").
"""
