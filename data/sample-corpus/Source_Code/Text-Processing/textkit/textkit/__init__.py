"""textkit: small, dependency-free text processing helpers."""

from textkit.normalize import normalize
from textkit.tokenize.sentences import split_sentences
from textkit.tokenize.words import words

__version__ = "0.4.1"

__all__ = ["normalize", "split_sentences", "words", "__version__"]
