"""The Porter stemmer exactly as ROUGE-1.5.5 applies it with ``-m``.

This is Martin Porter's 1980 algorithm as his own reference implementation has it, which
departs from the paper in step 2 (``bli -> ble`` instead of ``abli -> able``, and an added
``logi -> log``), with ROUGE-1.5.5's change to step 4: the suffixes ``ment`` and ``ent`` are
not in the first list; on the result of that list, ``ment`` is removed, then ``ent``, each when
the measure of the rest is greater than 1, and the ``(s|t)ion`` rule applies only to words that
do not end in ``ent`` at that point. So "agreement" stems to "agreem" and "departmental" to
"depart", where the reference implementation gives "agreement" and "department".

Written for this package from the published description of the algorithm. Input: a lower-case
ASCII word; words of fewer than 3 characters are returned unchanged.
"""

_STEP2 = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP4_FIRST = dict.fromkeys(
    ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism", "ate", "iti", "ous", "ive", "ize"),
    "",
)


def _longest_first(rules: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(rules.items(), key=lambda rule: -len(rule[0])))


_STEP2_RULES = _longest_first(_STEP2)
_STEP3_RULES = _longest_first(_STEP3)
_STEP4_FIRST_RULES = _longest_first(_STEP4_FIRST)


def _consonants(word: str) -> list[bool]:
    """Whether each letter is a consonant: not a, e, i, o, u, and not a y that follows a consonant."""
    flags: list[bool] = []
    for index, letter in enumerate(word):
        if letter in "aeiou":
            flags.append(False)
        elif letter == "y":
            flags.append(index == 0 or not flags[-1])
        else:
            flags.append(True)
    return flags


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant sequences in ``stem`` ([C](VC)^m[V])."""
    flags = _consonants(stem)
    return sum(1 for before, after in zip(flags, flags[1:]) if after and not before)


def _has_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _ends_cvc(stem: str) -> bool:
    """Porter's *o: consonant, vowel, consonant at the end, the last not w, x or y."""
    if len(stem) < 3 or stem[-1] in "wxy":
        return False
    flags = _consonants(stem)
    return flags[-3] and not flags[-2] and flags[-1]


def _replace_suffix(word: str, rules: tuple[tuple[str, str], ...], min_measure: int) -> str:
    """Apply the rule of the longest suffix of ``word`` in ``rules`` if the rest has measure > ``min_measure``.

    Only that one rule is tried: when its condition fails the word stays as it is.
    """
    for suffix, replacement in rules:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + replacement if _measure(stem) > min_measure else word
    return word


def _remove_if_measure_above_1(word: str, suffix: str) -> str:
    stem = word[: -len(suffix)]
    return stem if _measure(stem) > 1 else word


# Step 1 of Porter's algorithm as ROUGE-1.5.5 writes it, case by case, so that it reads against the Perl: C901 waived.
def _step1(word: str) -> str:  # noqa: C901
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]

    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    else:
        for suffix in ("ed", "ing"):
            stem = word[: -len(suffix)]
            if word.endswith(suffix) and _has_vowel(stem):
                word = stem
                if word.endswith(("at", "bl", "iz")):
                    word += "e"
                elif len(word) > 1 and word[-1] == word[-2] and word[-1] not in "lsz" and _consonants(word)[-1]:
                    word = word[:-1]
                elif _measure(word) == 1 and _ends_cvc(word):
                    word += "e"
                break

    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    return word


def _step4(word: str) -> str:
    word = _replace_suffix(word, _STEP4_FIRST_RULES, 1)
    if word.endswith("ment"):
        word = _remove_if_measure_above_1(word, "ment")
    if word.endswith("ent"):
        word = _remove_if_measure_above_1(word, "ent")
    elif word.endswith(("sion", "tion")):
        word = _remove_if_measure_above_1(word, "ion")
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _ends_cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


def porter_stem(word: str) -> str:
    """The ROUGE-1.5.5 Porter stem of a lower-case ASCII ``word`` (unchanged if shorter than 3)."""
    if len(word) < 3:
        return word
    word = _step1(word)
    word = _replace_suffix(word, _STEP2_RULES, 0)
    word = _replace_suffix(word, _STEP3_RULES, 0)
    word = _step4(word)
    return _step5(word)
