"""Tokenizers for words, sentences and n-grams."""

from .ngrams import char_ngrams, ngrams
from .sentences import SentenceSplitter, split_sentences
from .words import WordTokenizer, words

__all__ = [
    "SentenceSplitter",
    "WordTokenizer",
    "char_ngrams",
    "ngrams",
    "split_sentences",
    "words",
]
