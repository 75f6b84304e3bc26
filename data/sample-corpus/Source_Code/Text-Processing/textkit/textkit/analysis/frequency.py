"""Term frequency tables."""

from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from textkit.tokenize.words import WordTokenizer


@dataclass
class FrequencyTable:
    """Counts of terms, with relative-frequency helpers."""

    counts: Counter = field(default_factory=Counter)
    total: int = 0

    def add(self, tokens: Iterable[str]) -> None:
        """Count the tokens into the table."""
        for tok in tokens:
            self.counts[tok] += 1
            self.total += 1

    def frequency(self, term: str) -> float:
        """Return the relative frequency of the term, 0.0 for an empty table."""
        if self.total == 0:
            return 0.0
        return self.counts[term] / self.total

    def most_common(self, n: int = 10) -> List[Tuple[str, int]]:
        """Return the n most frequent terms and their counts, ties broken alphabetically."""
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def merge(self, other: "FrequencyTable") -> "FrequencyTable":
        """Return a new table with the counts of both tables."""
        merged = FrequencyTable(Counter(self.counts), self.total)
        merged.counts.update(other.counts)
        merged.total += other.total
        return merged

    @classmethod
    def from_text(cls, text: str, tokenizer: Optional[WordTokenizer] = None) -> "FrequencyTable":
        """Build a table from raw text."""
        tokenizer = tokenizer or WordTokenizer.for_search()
        table = cls()
        table.add(tokenizer.tokenize(text))
        return table


def term_frequencies(tokens: Iterable[str]) -> Dict[str, float]:
    """Map each term of the token stream to its relative frequency."""
    table = FrequencyTable()
    table.add(tokens)
    return {term: table.frequency(term) for term in table.counts}


def top_terms(text, n=5, *, tokenizer=None):
    """Return the n most frequent terms of the text."""
    return [term for term, _ in FrequencyTable.from_text(text, tokenizer).most_common(n)]
