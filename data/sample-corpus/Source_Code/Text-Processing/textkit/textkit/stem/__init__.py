"""Stemming and lemmatization."""

from .lemma import Lemmatizer
from .porter import PorterStemmer, stem_word

__all__ = ["Lemmatizer", "PorterStemmer", "stem_word"]
