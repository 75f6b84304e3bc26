"""Word tokenization with optional stop-word removal."""

import re
from typing import Iterable, List, Optional

from ..constants import STOPWORDS
from ..normalize import normalize

WORD_PATTERN = re.compile(r"[A-Za-z0-9]+(?:['-][A-Za-z0-9]+)*")


def words(text: str, lower: bool = True) -> List[str]:
    """Split the text into word tokens (letters and digits, inner apostrophes and hyphens)."""
    if lower:
        text = text.lower()
    return WORD_PATTERN.findall(text)


def remove_stopwords(tokens: Iterable[str], stopwords=None) -> List[str]:
    """Drop the stop words from a sequence of tokens."""
    stopwords = STOPWORDS if stopwords is None else stopwords
    return [tok for tok in tokens if tok.lower() not in stopwords]


class WordTokenizer:
    """A configurable word tokenizer."""

    def __init__(
        self,
        *,
        lower: bool = True,
        drop_stopwords: bool = False,
        min_length: int = 1,
        stopwords: Optional[Iterable[str]] = None,
    ):
        self.lower = lower
        self.drop_stopwords = drop_stopwords
        self.min_length = min_length
        self.stopwords = frozenset(stopwords) if stopwords is not None else STOPWORDS

    def tokenize(self, text: str) -> List[str]:
        """Tokenize the text according to the tokenizer's settings."""
        text = normalize(text, lower=self.lower)
        tokens = words(text, lower=False)
        if self.drop_stopwords:
            tokens = remove_stopwords(tokens, self.stopwords)
        return [tok for tok in tokens if len(tok) >= self.min_length]

    def __call__(self, text: str) -> List[str]:
        return self.tokenize(text)

    @classmethod
    def for_search(cls) -> "WordTokenizer":
        """Build a tokenizer suited to search indexing."""
        return cls(lower=True, drop_stopwords=True, min_length=2)
