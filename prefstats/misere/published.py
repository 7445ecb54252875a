"""Catch rates of misère holdings published in Preferans literature, transcribed with their
sources, to set beside the package's measured rates (``tables.published_comparison``).

Few sources give numbers. The one that gives a figure for most common holdings is an anonymous
Russian rules text, "Общие правила карточной игры преферанс" (page 6 of its web edition,
https://litfond.net/r/73873?p_=6): round percentages ("ловля дыр распределяется следующим
образом"), with no derivation, no talon or discard, and the leader named for three holdings
only. O. S. Skuratov, "Преферанс. История, стратегия, тактика", calls 7-10-J caught unless the
layout is lucky, and gives no number. D. S. Lesnoy, "Русский преферанс", tabulates suit splits
between two ten-card hands (its Appendix 2, Table 4) rather than catch rates.

>>> [record.holding for record in PUBLISHED][:3]
['8', '8', '9']
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCES = {
    "rules-text": (
        "Общие правила карточной игры преферанс (author unknown), p. 6, "
        "https://litfond.net/r/73873?p_=6"
    ),
}


@dataclass(frozen=True)
class PublishedRate:
    """One published catch rate: the holding, who leads (``own``, ``defenders`` or
    ``unstated``), the figure as a range of probabilities, the source's words, the source."""

    holding: str
    lead: str
    low: float
    high: float
    quote: str
    source: str = "rules-text"

    @property
    def text(self) -> str:
        """The figure as the source gives it: ``30%``, ``80–90%``, ``almost 100%``."""
        if self.high >= 1.0 and self.low < 1.0:
            return "almost 100%"
        if self.low == self.high:
            return f"{self.low:.0%}"
        return f"{self.low:.0%}–{self.high:.0%}"


PUBLISHED = (
    PublishedRate("8", "own", 0.05, 0.05, "8 - 5% при своем ходе"),
    PublishedRate("8", "defenders", 0.30, 0.30, "и 30% при ходе ловящих"),
    PublishedRate("9", "own", 0.15, 0.15, "9 - ловится в 15% при своем ходе"),
    PublishedRate("9", "defenders", 0.80, 0.90, "и в 80-90% при чужом"),
    PublishedRate("7 9", "own", 0.05, 0.05, "7, 9 - ловится в 5% случаев при ходе мизериста"),
    PublishedRate("7 10", "unstated", 0.50, 0.50, "7, 10 - ловится в 50% случаев"),
    PublishedRate("7 J", "unstated", 0.80, 0.80, "7, валет - ловится в 80% случаев"),
    PublishedRate("7 Q", "unstated", 0.95, 0.95, '7, дама - " " 95%'),
    PublishedRate("8 9", "unstated", 0.80, 0.80, "8, 9 - ловится в 80% случаев"),
    PublishedRate("7 8 A", "unstated", 0.95, 1.0, "7, 8 или 9, туз - ловится почти в 100% случаев"),
    PublishedRate("7 9 A", "unstated", 0.95, 1.0, "7, 8 или 9, туз - ловится почти в 100% случаев"),
    PublishedRate("7 8 Q", "unstated", 0.20, 0.20, "7, 8 или 9, дама - ловится в 20% случаев"),
    PublishedRate("7 9 Q", "unstated", 0.20, 0.20, "7, 8 или 9, дама - ловится в 20% случаев"),
    PublishedRate("7 8 K", "unstated", 0.70, 0.70, "7, 8 или 9, король - ловится в 70% случаев"),
    PublishedRate("7 9 K", "unstated", 0.70, 0.70, "7, 8 или 9, король - ловится в 70% случаев"),
)
