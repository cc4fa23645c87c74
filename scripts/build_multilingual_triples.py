"""Build tests/data/multilingual_triples.jsonl: update triples in many languages from pySBD's
sentence lists.

Source: pySBD (https://github.com/nipunsadvilkar/pySBD, MIT licence, commit
5905f13be4fc95f407b98392e0ec303617a33d86), the ``*_TEST_CASES`` lists in
``tests/lang/test_<language>.py``: real sentences, each case pairing a text with its sentences.
Only the sentences are used (the facts, not pySBD's code).

    python scripts/build_multilingual_triples.py PATH/TO/pySBD/tests/lang > tests/data/multilingual_triples.jsonl

For each language, the sentences that end with a Unicode sentence terminal, without
duplicates, in file order; with s0, s1, ... those sentences and J the language's joiner ("" for
Chinese and Japanese, a space otherwise), two triples:

- ``same``: source s0, reference and prediction J(s0, s1): the prediction adds what the
  reference adds;
- ``other`` (languages with three or more such sentences): source s0, reference J(s0, s1),
  prediction J(s0, s2): the prediction adds another sentence.

Languages with fewer than two such sentences are left out.
"""

import ast
import json
import sys
from pathlib import Path

from update_rouge.sentences import SENTENCE_TERMINAL

FILES = {
    "amharic": "am",
    "arabic": "ar",
    "armenian": "hy",
    "bulgarian": "bg",
    "burmese": "my",
    "chinese": "zh",
    "danish": "da",
    "deutsch": "de",
    "dutch": "nl",
    "english": "en",
    "french": "fr",
    "greek": "el",
    "hindi": "hi",
    "italian": "it",
    "japanese": "ja",
    "kazakh": "kk",
    "marathi": "mr",
    "persian": "fa",
    "polish": "pl",
    "russian": "ru",
    "slovak": "sk",
    "spanish": "es",
    "urdu": "ur",
}
NO_SPACES = ("zh", "ja")


def golden_sentences(path: Path):
    """The expected sentences of the file's ``*_TEST_CASES`` lists, in order."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and node.targets[0].id.endswith("_TEST_CASES"):
            for case in node.value.elts:
                if isinstance(case, ast.Call):
                    case = case.args[0] if len(case.args) == 1 else ast.Tuple(elts=case.args[:2])
                _text, sentences = ast.literal_eval(case)
                yield from sentences


def main(folder: str) -> None:
    for name, code in sorted(FILES.items(), key=lambda item: item[1]):
        sentences = []
        for sentence in golden_sentences(Path(folder) / f"test_{name}.py"):
            sentence = sentence.strip()
            if sentence and sentence not in sentences and SENTENCE_TERMINAL.fullmatch(sentence[-1]):
                sentences.append(sentence)
        if len(sentences) < 2:
            continue
        join = ("" if code in NO_SPACES else " ").join
        source = sentences[0]
        reference = join(sentences[:2])
        row = dict(language=code, source=source, reference=reference, origin=f"pySBD tests/lang/test_{name}.py")
        print(json.dumps(dict(id=f"{code}-same", kind="same", prediction=reference, **row), ensure_ascii=False))
        if len(sentences) > 2:
            prediction = join([sentences[0], sentences[2]])
            print(json.dumps(dict(id=f"{code}-other", kind="other", prediction=prediction, **row), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
