"""The entity scores of ``entities=`` (update_rouge/entities.py, docs/entities.md), counted by hand
on a spaCy blank English pipeline whose entity ruler knows a handful of names (no model download):
every key, the both-empty rule, one side empty, several references, micro, evidence, substrings
and case variants."""

import pytest

from update_rouge import InputError, OptionError, UpdateRougeScorer, compute
from update_rouge.entities import EntityScore, example_entities

spacy = pytest.importorskip("spacy")

PATTERNS = [
    *({"label": "PERSON", "pattern": [{"LOWER": name}]} for name in ("dan", "eve", "bob")),
    {"label": "ORG", "pattern": [{"LOWER": "acme"}]},
    {"label": "GPE", "pattern": [{"LOWER": "new"}, {"LOWER": "york"}]},
    *({"label": "GPE", "pattern": [{"LOWER": name}]} for name in ("york", "paris")),
    {"label": "DATE", "pattern": [{"TEXT": "2020"}]},
]


@pytest.fixture(scope="module")
def ruler(tmp_path_factory):
    """``spacy:<folder>`` of a blank English pipeline with an entity ruler of ``PATTERNS``."""
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    folder = tmp_path_factory.mktemp("ruler") / "pipeline"
    nlp.to_disk(folder)
    return f"spacy:{folder}"


def per_example(ruler, sources, predictions, references, **options):
    return compute(
        sources, predictions, references, entities=ruler, rouge_types=["rouge1"], use_aggregator=False, **options
    )


# Each case: source, prediction, reference, then update_ent precision, recall, F, outdated kept.
CASES = {
    # S {dan, paris}; R_new {eve, bob}, P_new {eve, acme}: 1 of 2 each way; R drops nothing.
    "one of two": (
        "Dan lives in Paris.",
        "Dan lives in Paris. He met Eve and Acme.",
        "Dan lives in Paris. He met Eve and Bob.",
        0.5,
        0.5,
        0.5,
        None,
    ),
    # The source returned: P_new empty, R_new {york}: 0.0; R drops acme, which P keeps.
    "returned source": (
        "Dan works at Acme in Paris.",
        "Dan works at Acme in Paris.",
        "Dan works at York in Paris.",
        0.0,
        0.0,
        0.0,
        1.0,
    ),
    # No entity anywhere: both empty, 1.0.
    "no entities": ("It rained.", "It rained. It stopped.", "It rained. It poured.", 1.0, 1.0, 1.0, None),
    # "york" is a new entity although "new york" is one of the source's: strings, not substrings.
    "substring": (
        "She moved to New York.",
        "She moved to New York. She likes it.",
        "She moved to New York. York is old.",
        0.0,
        0.0,
        0.0,
        None,
    ),
    # ACME, Acme and acme are one entity; EVE and Eve too.
    "case variants": ("ACME grew.", "Acme grew. Eve joined.", "acme grew. EVE joined.", 1.0, 1.0, 1.0, None),
    # R drops dan and paris and adds bob; P keeps dan, drops paris, adds bob and eve.
    "drops two": ("Dan flew to Paris.", "Dan flew. Bob and Eve came.", "Bob flew.", 0.5, 1.0, 2 / 3, 0.5),
}


@pytest.mark.parametrize("case", CASES)
def test_each_key_equals_its_hand_count(case, ruler):
    source, prediction, reference, precision, recall, f1, outdated = CASES[case]
    table = per_example(ruler, [source], [prediction], [reference])
    assert table["update_ent_precision"] == [precision]
    assert table["update_ent_recall"] == [recall]
    assert table["update_ent"] == [pytest.approx(f1, abs=1e-15)]
    assert table["update_ent_outdated_kept"] == [outdated]
    assert table["_ent_outdated_defined"] == [outdated is not None]
    assert table["_ent_both_empty"] == [case == "no entities"]
    assert "update_ent_unsupported" not in table


def test_the_corpus_means_count_and_skip_undefined_outdated(ruler):
    rows = [CASES[case][:3] for case in CASES]
    result = compute(*map(list, zip(*rows)), entities=ruler, rouge_types=["rouge1"], confidence_level=None)
    assert result["update_ent"] == pytest.approx((0.5 + 1 + 1 + 2 / 3) / 6, abs=1e-15)
    assert result["update_ent_recall"] == (0.5 + 1 + 1 + 1) / 6
    # Defined in two examples only: 1.0 and 0.5.
    assert result["update_ent_outdated_kept"] == 0.75 and result["_ent_outdated_defined"] == 2
    assert result["_ent_both_empty"] == 1


def test_micro_pools_the_counts(ruler):
    rows = [CASES[case][:3] for case in ("one of two", "returned source", "no entities", "drops two")]
    result = compute(*map(list, zip(*rows)), entities=ruler, rouge_types=["rouge1"], average="micro", n_bootstrap=50)
    # matched 1 + 0 + 0 + 1 = 2; reference new 2 + 1 + 0 + 1 = 4; prediction new 2 + 0 + 0 + 2 = 4.
    assert (result["update_ent_precision"], result["update_ent_recall"], result["update_ent"]) == (0.5, 0.5, 0.5)
    # kept 1 + 1 of dropped 1 + 2.
    assert result["update_ent_outdated_kept"] == 2 / 3
    assert result["update_ent_low"] <= 0.5 <= result["update_ent_high"]


def test_evidence_counts_the_unsupported_new_entities(ruler):
    # P_new {bob, paris, eve}; the evidence holds dan (also in the source), bob and paris: eve is unsupported.
    source, prediction = "Dan is here.", "Dan is here. Bob went to Paris with Eve."
    table = per_example(
        ruler,
        [source] * 3,
        [prediction] * 3,
        [source] * 3,
        evidence=["Dan met Bob in Paris.", ["Dan met Bob.", "Paris"], []],
    )
    assert table["update_ent_unsupported"] == [1, 1, 3]
    result = compute([source], [prediction], [source], entities=ruler, evidence=[[]], confidence_level=None)
    assert result["update_ent_unsupported"] == 3.0


def test_the_best_reference_gives_every_value_the_first_on_ties(ruler):
    source, prediction = "Dan is here.", "Dan is here. Bob came."
    # The second reference scores F 1 (adds bob) and drops nothing: it gives every value.
    best = per_example(ruler, [source], [prediction], [["Eve came.", "Dan is here. Bob came."]])
    assert (best["update_ent"], best["update_ent_outdated_kept"]) == ([1.0], [None])
    # Both score F 0: the first (which drops dan, kept by the prediction) gives every value.
    tie = per_example(ruler, [source], [prediction], [["Eve came.", "Dan is here. Paris."]])
    assert (tie["update_ent"], tie["update_ent_outdated_kept"]) == ([0.0], [1.0])


def test_the_labels_that_count(ruler):
    source, prediction = "Dan came.", "Dan came in 2020."
    assert per_example(ruler, [source], [prediction], [source])["_ent_both_empty"] == [True]  # DATE: not by default
    every = per_example(f"{ruler}:*", [source], [prediction], [source])
    assert (every["update_ent_precision"], every["_ent_both_empty"]) == ([0.0], [False])
    only_dates = per_example(f"{ruler}:DATE", ["Eve came."], ["Eve came. Bob too."], ["Eve came. Dan too."])
    assert only_dates["_ent_both_empty"] == [True]


def test_the_signature_names_spacy_the_pipeline_and_the_labels(ruler):
    result = compute(["a."], ["a."], ["a."], entities=f"{ruler}:PERSON,ORG", return_signature=True)
    assert (
        f"|multiref:max_f1|ent:spacy-{spacy.__version__}/en_pipeline-0.0.0/labels:PERSON,ORG|agg:mean|"
        in result["signature"]
    )
    custom = compute(["a."], ["a."], ["a."], entities=str.split, return_signature=True)["signature"]
    assert "|ent:custom|" in custom
    assert "ent:" not in compute(["a."], ["a."], ["a."], return_signature=True)["signature"]


def test_the_scorer_gives_each_example_its_entity_score(ruler):
    source, prediction, reference = CASES["drops two"][:3]
    example = UpdateRougeScorer(entities=ruler).score(source, prediction, reference, evidence="Eve")
    assert example.entities == EntityScore(
        frozenset({"bob", "eve"}),
        frozenset({"bob"}),
        frozenset({"dan", "paris"}),
        frozenset({"dan"}),
        frozenset({"bob"}),
    )
    assert UpdateRougeScorer().score(source, prediction, reference).entities is None


def test_a_baseline_and_groups_carry_the_entity_keys(ruler):
    rows = [CASES[case][:3] for case in ("one of two", "drops two", "case variants")]
    sources, predictions, references = map(list, zip(*rows))
    result = compute(
        sources,
        predictions,
        references,
        entities=ruler,
        baseline_predictions=sources,
        group_by=["a", "b", "a"],
        n_bootstrap=50,
    )
    assert result["update_ent_delta"] == result["update_ent"] - 0.0
    assert 0 < result["update_ent_p_value"] <= 1
    assert result["groups"]["a"]["update_ent"] == 0.75 and result["groups"]["b"]["_ent_outdated_defined"] == 1


@pytest.mark.slow
def test_workers_give_the_same_numbers(ruler):
    rows = [CASES[case][:3] for case in CASES] * 3
    sources, predictions, references = map(list, zip(*rows))
    one = compute(sources, predictions, references, entities=ruler, evidence=sources)
    assert compute(sources, predictions, references, entities=ruler, evidence=sources, num_proc=2) == one


def test_example_entities_from_plain_sets():
    source, prediction = frozenset({"a", "b"}), frozenset({"a", "c", "d"})
    score = example_entities(source, prediction, [frozenset({"c", "e"})], frozenset({"d"}))
    assert (score.precision, score.recall, score.outdated_kept, score.unsupported) == (0.5, 0.5, 0.5, frozenset({"c"}))
    assert score.counts == (1, 2, 2)
    weighted = example_entities(source, prediction, [frozenset({"c", "e"})], alpha=0.2)
    assert weighted.fmeasure == 0.5 * 0.5 / (0.8 * 0.5 + 0.2 * 0.5)


def test_a_callable_is_normalised():
    def extractor(text):
        return ["  New   York ", "NEW YORK", ""] if "York" in text else []

    table = compute(["a."], ["a. York."], ["a. York too."], entities=extractor, use_aggregator=False)
    assert table["update_ent"] == [1.0] and table["_ent_both_empty"] == [False]


def test_bad_values_are_refused_by_name(ruler):
    with pytest.raises(OptionError, match="^entities must be a spaCy pipeline") as refused:
        compute(["a."], ["a."], ["a."], entities="en_core_web_sm")
    assert refused.value.option == "entities"
    with pytest.raises(OptionError, match="^evidence is read only by the entity scores: it needs entities"):
        compute(["a."], ["a."], ["a."], evidence=["b."])
    with pytest.raises(InputError, match=r"^evidence\[0\] must be a string or a list of strings, got None"):
        compute(["a."], ["a."], ["a."], entities=ruler, evidence=[None])
    with pytest.raises(InputError, match="^evidence must have one entry per example, got 2 for 1 examples"):
        compute(["a."], ["a."], ["a."], entities=ruler, evidence=["b.", "c."])
    with pytest.raises(OptionError, match="which has no entities option") as refused:
        compute(["a."], ["a."], ["a."], entities=ruler, protocol="autometrics")
    assert refused.value.option == "protocol"
    with pytest.raises(TypeError, match="an entity extractor must give strings, got 3"):
        compute(["a."], ["a."], ["a."], entities=lambda text: [3])
