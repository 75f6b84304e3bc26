"""Keyword extraction with TF-IDF against a background corpus."""

import math
from typing import Dict, List, Sequence

from ..stem.porter import stem_word
from ..tokenize.words import WordTokenizer
from .frequency import term_frequencies


class KeywordExtractor:
    """Rank the terms of a document by TF-IDF."""

    def __init__(self, corpus: Sequence[str] = (), *, stem: bool = False):
        self.tokenizer = WordTokenizer.for_search()
        self.stem = stem
        self.document_count = 0
        self.document_frequency: Dict[str, int] = {}
        for document in corpus:
            self.add_document(document)

    def _terms(self, text: str) -> List[str]:
        """Tokenize the text and stem the tokens when stemming is enabled."""
        tokens = self.tokenizer.tokenize(text)
        if self.stem:
            tokens = [stem_word(tok) for tok in tokens]
        return tokens

    def add_document(self, text: str) -> None:
        """Add a document to the background corpus."""
        self.document_count += 1
        for term in set(self._terms(text)):
            self.document_frequency[term] = self.document_frequency.get(term, 0) + 1

    def idf(self, term: str) -> float:
        """Return the smoothed inverse document frequency of the term."""
        df = self.document_frequency.get(term, 0)
        return math.log((1 + self.document_count) / (1 + df)) + 1.0

    def extract(self, text: str, top_n: int = 5) -> List[str]:
        """Return the top_n keywords of the text ranked by TF-IDF."""
        tf = term_frequencies(self._terms(text))
        scores = {term: freq * self.idf(term) for term, freq in tf.items()}
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        return [term for term, _ in ranked[:top_n]]
