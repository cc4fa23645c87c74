"""The TRL reward's entity terms (update_rouge/integrations/reward_terms.py): ``ent``,
``ent_precision``, ``ent_recall`` equal compute's per-example ``update_ent`` values, and
``ent_unsupported`` is 1 / (1 + n), n the unsupported entities counted by hand, with the
evidence read from a dataset column; each missing or needless companion option refused by name."""

import pytest

from update_rouge import OptionError, compute
from update_rouge.integrations.rewards import update_rouge_reward

NAMES = ("Dan", "Eve", "Bob", "Ann", "Paris", "Rome")


def names(text):
    """An entity extractor whose entities can be counted by hand: the names of ``NAMES`` in the text."""
    return [name for name in NAMES if name in text]


SOURCES = ["Dan lives in Paris.", "Eve is here.", "Bob works.", "Ann sings."]
REFERENCES = ["Dan lives in Rome. Eve visits.", "Eve is here. Bob came.", "Bob works.", "Ann sings. Dan came."]
COMPLETIONS = [
    "Dan lives in Paris. Eve visits.",  # P_new {eve}: P 1, R 1/2; supported (evidence: eve, rome)
    "Eve is here. Rome and Ann.",  # P_new {rome, ann}: 0; both unsupported (evidence: bob)
    "Bob works.",  # nothing new on either side: 1.0 (both empty); nothing unsupported
    "Ann sings. Dan and Eve came.",  # P_new {dan, eve}: P 1/2, R 1; both unsupported (no evidence)
]
EVIDENCE = ["Eve visits Rome.", ["Bob"], [], []]
COLUMNS = {"source": SOURCES, "reference": REFERENCES, "evidence": EVIDENCE}


def rewards(reward, **options):
    return update_rouge_reward(reward, **options)(prompts=None, completions=COMPLETIONS, **COLUMNS)


def test_entity_terms_equal_compute_per_example():
    table = compute(SOURCES, COMPLETIONS, REFERENCES, entities=names, use_aggregator=False)
    assert table["update_ent_precision"] == [1.0, 0.0, 1.0, 0.5]
    assert table["update_ent_recall"] == [0.5, 0.0, 1.0, 1.0]
    for term, key in (
        ("ent", "update_ent"),
        ("ent_precision", "update_ent_precision"),
        ("ent_recall", "update_ent_recall"),
    ):
        assert rewards(term, entities=names) == table[key], term
    assert rewards("ent_f1", entities=names) == table["update_ent"]


def test_ent_unsupported_is_one_over_one_plus_the_count():
    got = rewards("ent_unsupported", entities=names, evidence_column="evidence")
    assert got == [1.0, 1 / 3, 1.0, 1 / 3]
    table = compute(SOURCES, COMPLETIONS, REFERENCES, entities=names, evidence=EVIDENCE, use_aggregator=False)
    assert got == [1 / (1 + n) for n in table["update_ent_unsupported"]]


def test_a_weighted_mix_of_rouge_and_entity_terms():
    reward = {"rouge1": 1, "ent_recall": 1, "ent_unsupported": 2}
    got = rewards(reward, entities=names, evidence_column="evidence")
    rouge1 = compute(SOURCES, COMPLETIONS, REFERENCES, rouge_types=["rouge1"], use_aggregator=False)["update_rouge1"]
    recall, supported = [0.5, 0.0, 1.0, 1.0], [1.0, 1 / 3, 1.0, 1 / 3]
    assert got == [pytest.approx((r + e + 2 * s) / 4, abs=1e-15) for r, e, s in zip(rouge1, recall, supported)]
    assert update_rouge_reward(reward, entities=names, evidence_column="evidence").__name__ == (
        "update_rouge_rouge1_f1_ent_recall_ent_unsupported"
    )


def test_abstain_and_the_logged_entity_parts():
    logged = {}
    reward = update_rouge_reward("ent_recall", entities=names, abstain=True)
    got = reward(completions=COMPLETIONS, log_metric=logged.__setitem__, **COLUMNS)
    # The third example adds no entity on either side: the rule decides it.
    assert got == [0.5, 0.0, None, 1.0]
    prefix = "rewards/update_rouge_ent_recall/"
    assert logged[prefix + "ent_recall"] == 0.5 and logged[prefix + "ent_both_empty_share"] == 0.25
    # No rule decides ent_unsupported.
    mixed = update_rouge_reward(
        {"ent": 1, "ent_unsupported": 1}, entities=names, evidence_column="evidence", abstain=True
    )
    assert None not in mixed(completions=COMPLETIONS, **COLUMNS)


@pytest.mark.parametrize(
    "reward, options, message, advised",
    [
        ("ent_recall", {}, "^reward term 'ent_recall' needs entities", {}),
        ({"rouge1": 1, "ent": 2}, {}, "^reward term 'ent' needs entities", {"reward": {"rouge1": 1}}),
        ("rouge1", {"entities": names}, "^entities is read only by an ent term of the reward", {"reward": "rouge1"}),
        (
            {"ent": 1, "ent_unsupported": 1},
            {"entities": names},
            "^reward term 'ent_unsupported' needs evidence_column",
            {"reward": {"ent": 1}, "entities": names},
        ),
        (
            "ent",
            {"entities": names, "evidence_column": "evidence"},
            "^evidence_column is read only by the reward term 'ent_unsupported'",
            {"reward": "ent", "entities": names},
        ),
        (
            "ent_unsupported",
            {"entities": names, "evidence": EVIDENCE},
            "^evidence cannot be set for a reward: a reward reads each example's evidence from a dataset column",
            None,
        ),
        (
            "ent_f2",
            {"entities": names},
            "^reward term 'ent_f2' must end in one of _f1, _precision",
            {"reward": "ent_f1", "entities": names},
        ),
    ],
)
def test_entity_options_are_refused_by_name_with_what_works(reward, options, message, advised):
    with pytest.raises(OptionError, match=message):
        update_rouge_reward(reward, **options)
    if advised is not None:
        update_rouge_reward(**advised)
