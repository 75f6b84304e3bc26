"""Constants shared by the textkit modules."""

STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if",
        "in", "into", "is", "it", "no", "not", "of", "on", "or", "such",
        "that", "the", "their", "then", "there", "these", "they", "this",
        "to", "was", "will", "with",
    }
)

PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

SENTENCE_TERMINATORS = ".!?"

VOWELS = "aeiou"

DEFAULT_NGRAM_SIZE = 2
