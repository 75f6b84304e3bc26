"""Sentence splitting that respects common abbreviations."""

import re
from typing import Iterable, List, Optional

from textkit.constants import SENTENCE_TERMINATORS
from textkit.normalize import collapse_whitespace

ABBREVIATIONS = frozenset({"dr", "e.g", "etc", "i.e", "mr", "mrs", "ms", "prof", "st", "vs"})

_CANDIDATE_RE = re.compile("[" + re.escape(SENTENCE_TERMINATORS) + "]+[\"')\\]]*\\s+")


class SentenceSplitter:
    """Split text into sentences."""

    def __init__(self, abbreviations: Optional[Iterable[str]] = None):
        source = ABBREVIATIONS if abbreviations is None else abbreviations
        self.abbreviations = {abbr.lower().rstrip(".") for abbr in source}

    def add_abbreviation(self, abbr: str) -> None:
        """Register an extra abbreviation, given with or without its final period."""
        self.abbreviations.add(abbr.lower().rstrip("."))

    def is_abbreviation(self, token: str) -> bool:
        """Tell whether a token that ends with a period is a known abbreviation."""
        if not token.endswith("."):
            return False
        return token.rstrip(".").lower() in self.abbreviations

    def split(self, text: str) -> List[str]:
        """Split the text into a list of sentences."""
        text = collapse_whitespace(text)
        if not text:
            return []
        sentences = []
        start = 0
        for match in _CANDIDATE_RE.finditer(text):
            candidate = text[start:match.end()].strip()
            last_word = candidate.split()[-1]
            if self.is_abbreviation(last_word):
                continue
            sentences.append(candidate)
            start = match.end()
        tail = text[start:].strip()
        if tail:
            sentences.append(tail)
        return sentences


def split_sentences(text: str) -> List[str]:
    """Split the text into sentences with a default splitter."""
    return SentenceSplitter().split(text)
