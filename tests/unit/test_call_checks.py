"""``call_checks``: a whole ``compute`` call checked at once, each refusal an ``OptionError``
whose advice, followed, gives a call that passes."""

import pytest

from update_rouge.call_checks import checked_call
from update_rouge.errors import OptionError


def test_group_labels_without_the_aggregator_advise_what_works_for_the_whole_call():
    call = {"group_by": ["a", "b"], "use_aggregator": False}
    with pytest.raises(OptionError) as refused:
        checked_call(call)
    assert refused.value.option == "group_by"
    assert str(refused.value).endswith("instead: leave out use_aggregator, or leave out group_by")
    assert checked_call({"group_by": ["a", "b"]}).use_aggregator is True
    assert checked_call({"use_aggregator": False}).use_aggregator is False


def test_a_baseline_under_a_protocol_without_a_paired_test_is_refused_before_any_work():
    with pytest.raises(OptionError) as refused:
        checked_call({"baseline_predictions": ["x"], "protocol": "fruit"})
    assert refused.value.option == "protocol"
    assert checked_call({"baseline_predictions": ["x"], "protocol": "autometrics"}).protocol == "autometrics"
