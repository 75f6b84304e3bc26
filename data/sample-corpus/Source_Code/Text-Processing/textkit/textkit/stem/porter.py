"""A compact implementation of most of the Porter stemming algorithm."""

from ..constants import VOWELS
from ..utils import memoize

STEP2_SUFFIXES = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("abli", "able"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
)


class PorterStemmer:
    """Reduce English words to their stems."""

    def __init__(self, min_length: int = 3):
        self.min_length = min_length

    @staticmethod
    def is_consonant(word: str, i: int) -> bool:
        """Tell whether word[i] is a consonant in the Porter sense."""
        ch = word[i]
        if ch in VOWELS:
            return False
        if ch == "y":
            return i == 0 or not PorterStemmer.is_consonant(word, i - 1)
        return True

    def measure(self, stem: str) -> int:
        """Count the vowel-consonant sequences of the stem (Porter's m)."""
        m = 0
        previous_vowel = False
        for i in range(len(stem)):
            vowel = not self.is_consonant(stem, i)
            if previous_vowel and not vowel:
                m += 1
            previous_vowel = vowel
        return m

    def contains_vowel(self, stem: str) -> bool:
        """Tell whether the stem contains a vowel."""
        return any(not self.is_consonant(stem, i) for i in range(len(stem)))

    def ends_double_consonant(self, word: str) -> bool:
        """Tell whether the word ends with two identical consonants."""
        return len(word) >= 2 and word[-1] == word[-2] and self.is_consonant(word, len(word) - 1)

    def ends_cvc(self, word: str) -> bool:
        """Tell whether the word ends consonant-vowel-consonant, the last not being w, x or y."""
        if len(word) < 3:
            return False
        n = len(word)
        return (
            self.is_consonant(word, n - 3)
            and not self.is_consonant(word, n - 2)
            and self.is_consonant(word, n - 1)
            and word[-1] not in "wxy"
        )

    def step1a(self, word: str) -> str:
        """Remove plural endings."""
        if word.endswith("sses") or word.endswith("ies"):
            return word[:-2]
        if word.endswith("ss"):
            return word
        if word.endswith("s"):
            return word[:-1]
        return word

    def step1b(self, word: str) -> str:
        """Remove -eed, -ed and -ing endings."""
        if word.endswith("eed"):
            return word[:-1] if self.measure(word[:-3]) > 0 else word
        for suffix in ("ed", "ing"):
            if word.endswith(suffix):
                stem = word[: -len(suffix)]
                if not self.contains_vowel(stem):
                    return word
                return self._step1b_fixup(stem)
        return word

    def _step1b_fixup(self, stem):
        if stem.endswith(("at", "bl", "iz")):
            return stem + "e"
        if self.ends_double_consonant(stem) and stem[-1] not in "lsz":
            return stem[:-1]
        if self.measure(stem) == 1 and self.ends_cvc(stem):
            return stem + "e"
        return stem

    def step1c(self, word: str) -> str:
        """Turn a final y into i when the stem contains a vowel."""
        if word.endswith("y") and self.contains_vowel(word[:-1]):
            return word[:-1] + "i"
        return word

    def step2(self, word: str) -> str:
        """Map double suffixes to single ones."""
        for suffix, replacement in STEP2_SUFFIXES:
            if word.endswith(suffix):
                stem = word[: -len(suffix)]
                return stem + replacement if self.measure(stem) > 0 else word
        return word

    def step5(self, word: str) -> str:
        """Remove a final e and reduce a final double l."""
        if word.endswith("e"):
            stem = word[:-1]
            m = self.measure(stem)
            if m > 1 or (m == 1 and not self.ends_cvc(stem)):
                return stem
        if word.endswith("ll") and self.measure(word) > 1:
            return word[:-1]
        return word

    def stem(self, word: str) -> str:
        """Return the stem of the word."""
        word = word.lower()
        if len(word) < self.min_length:
            return word
        for step in (self.step1a, self.step1b, self.step1c, self.step2, self.step5):
            word = step(word)
        return word


_DEFAULT_STEMMER = PorterStemmer()


@memoize
def stem_word(word: str) -> str:
    """Stem one word with the shared default stemmer; results are cached."""
    return _DEFAULT_STEMMER.stem(word)
