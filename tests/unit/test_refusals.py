"""``integrations.refusals``: the lists of options the integrations refuse, and the refusal itself."""

import pytest

from update_rouge.cli.runner import FLAGS
from update_rouge.errors import LEFT_OUT, Setting, UnknownOptionError
from update_rouge.integrations.refusals import CORPUS_OPTIONS, NOT_ONE_RESULT, refuse_given, refuse_unknown


def test_the_corpus_options_are_the_statistics_group_and_the_python_only_corpus_arguments():
    assert sorted(CORPUS_OPTIONS) == [
        "average",
        "baseline_predictions",
        "confidence_level",
        "group_by",
        "n_bootstrap",
        "protocol",
        "return_signature",
        "seed",
        "use_aggregator",
    ]
    assert set(NOT_ONE_RESULT) < set(CORPUS_OPTIONS)


def test_the_first_refused_option_given_is_named_with_the_door_and_the_advice_to_leave_it_out():
    refuse_given({"stemmer": "porter"}, ("seed", "group_by"), "a door", "why")  # none given: nothing raised
    with pytest.raises(ValueError) as refused:
        refuse_given({"group_by": ["a"], "seed": 3}, ("seed", "group_by"), "a door", "it has no groups")
    error = refused.value
    assert (error.option, error.value, error.instead) == ("seed", 3, ((Setting("seed", LEFT_OUT),),))
    assert str(error) == "seed cannot be set for a door: it has no groups; instead: leave out seed"
    assert error.render(FLAGS) == "--seed cannot be set for a door: it has no groups; instead: leave out --seed"


def test_a_keyword_that_is_no_option_is_a_type_error_naming_it():
    refuse_unknown({"seed": 3, "rouge_types": ["rouge1"]}, "f()")
    with pytest.raises(TypeError) as caught:
        refuse_unknown({"seed": 3, "stemer": "porter"}, "f()")
    assert isinstance(caught.value, UnknownOptionError)
    assert str(caught.value) == (
        "f() got an unexpected keyword argument 'stemer'; instead: stemmer='porter' and leave out stemer, "
        "or leave out stemer"
    )
