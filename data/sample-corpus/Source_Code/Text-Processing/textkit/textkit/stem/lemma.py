"""Dictionary-based lemmatization of common irregular forms."""

from typing import Dict, Optional

from .porter import stem_word

IRREGULAR_VERBS = {
    "am": "be", "are": "be", "been": "be", "is": "be", "was": "be", "were": "be",
    "did": "do", "done": "do", "gone": "go", "went": "go", "had": "have",
    "has": "have", "ran": "run", "saw": "see", "seen": "see",
}

IRREGULAR_NOUNS = {
    "children": "child", "feet": "foot", "geese": "goose", "men": "man",
    "mice": "mouse", "teeth": "tooth", "women": "woman",
}


class Lemmatizer:
    """Look words up in irregular-form tables, with simple suffix rules as a fallback."""

    def __init__(self, extra: Optional[Dict[str, str]] = None, fallback_to_stem: bool = False):
        self.table = dict(IRREGULAR_VERBS)
        self.table.update(IRREGULAR_NOUNS)
        if extra:
            self.table.update({k.lower(): v.lower() for k, v in extra.items()})
        self.fallback_to_stem = fallback_to_stem

    def lemmatize(self, word: str) -> str:
        """Return the lemma of the word."""
        key = word.lower()
        if key in self.table:
            return self.table[key]
        if key.endswith("ies") and len(key) > 4:
            return key[:-3] + "y"
        if key.endswith("s") and not key.endswith("ss") and len(key) > 3:
            return key[:-1]
        if self.fallback_to_stem:
            return stem_word(key)
        return key

    def __contains__(self, word: str) -> bool:
        return word.lower() in self.table

    @property
    def size(self) -> int:
        """The number of entries of the lookup table."""
        return len(self.table)
