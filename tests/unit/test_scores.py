"""The package's ``Score`` and ``fmeasure`` (``scores``) against rouge-score's own."""

import itertools
import pickle

from rouge_score import scoring

from update_rouge.scores import Score, fmeasure

VALUES = [0.0, 1.0, 0.5, 1 / 3, 2 / 3, 0.1, 0.7, 1e-300, 5e-324, 0.9999999999999999, 0.12345678901234567]


def test_fmeasure_is_rouge_scores_bit_for_bit():
    for precision, recall in itertools.product(VALUES, repeat=2):
        expected = scoring.fmeasure(precision, recall)
        assert fmeasure(precision, recall).hex() == float(expected).hex(), (precision, recall)
    assert fmeasure(0.0, 0.0) == 0.0 and type(fmeasure(0, 0)) is float


def test_a_score_equals_rouge_scores_and_reads_alike():
    ours, theirs = Score(0.5, 0.25, 1 / 3), scoring.Score(precision=0.5, recall=0.25, fmeasure=1 / 3)
    assert ours == theirs and hash(ours) == hash(theirs)
    assert repr(ours) == repr(theirs) == "Score(precision=0.5, recall=0.25, fmeasure=0.3333333333333333)"
    assert ours._fields == theirs._fields and ours.fmeasure == theirs.fmeasure
    assert pickle.loads(pickle.dumps(ours)) == ours
