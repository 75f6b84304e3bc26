"""String and sparse-vector similarity measures."""

import math
from typing import Iterable, Mapping

from ..tokenize.ngrams import char_ngrams
from ..utils import memoize


def jaccard(a: Iterable, b: Iterable) -> float:
    """Return the Jaccard similarity of two collections."""
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def cosine_similarity(u: Mapping[str, float], v: Mapping[str, float]) -> float:
    """Return the cosine similarity of two sparse vectors given as mappings."""
    dot = sum(weight * v.get(key, 0.0) for key, weight in u.items())
    norm_u = math.sqrt(sum(w * w for w in u.values()))
    norm_v = math.sqrt(sum(w * w for w in v.values()))
    if norm_u == 0 or norm_v == 0:
        return 0.0
    return dot / (norm_u * norm_v)


@memoize
def levenshtein(a: str, b: str) -> int:
    """Return the edit distance between two strings."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def fuzzy_ratio(a: str, b: str) -> float:
    """Return a similarity in [0, 1] derived from the edit distance."""
    if not a and not b:
        return 1.0
    return 1.0 - levenshtein(a, b) / max(len(a), len(b))


def trigram_similarity(a: str, b: str) -> float:
    """Return the Jaccard similarity of the character trigrams of two strings."""
    return jaccard(char_ngrams(a.lower(), 3), char_ngrams(b.lower(), 3))
