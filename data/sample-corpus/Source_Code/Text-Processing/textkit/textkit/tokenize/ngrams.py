"""N-gram generation over token sequences and characters."""

import itertools
from typing import Iterator, List, Sequence, Tuple

from ..constants import DEFAULT_NGRAM_SIZE


def ngrams(tokens: Sequence[str], n: int = DEFAULT_NGRAM_SIZE) -> List[Tuple[str, ...]]:
    """Return the contiguous n-grams of a token sequence."""
    if n < 1:
        raise ValueError("n must be at least 1")
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def char_ngrams(text: str, n: int = 3, pad: str = " ") -> List[str]:
    """Return the character n-grams of the text, padded at both ends."""
    if pad:
        text = pad + text + pad
    return [text[i:i + n] for i in range(len(text) - n + 1)]


def skipgrams(tokens: Sequence[str], n: int = 2, k: int = 1) -> Iterator[Tuple[str, ...]]:
    """Yield the n-grams that allow up to k skipped tokens between their items."""
    for i in range(len(tokens)):
        window = range(i + 1, min(i + n + k, len(tokens)))
        for rest in itertools.combinations(window, n - 1):
            yield (tokens[i],) + tuple(tokens[j] for j in rest)


def everygrams(tokens, min_n=1, max_n=3):
    """Return all n-grams for every n between min_n and max_n."""
    result = []
    for n in range(min_n, max_n + 1):
        result.extend(ngrams(tokens, n))
    return result
