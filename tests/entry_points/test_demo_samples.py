"""The demo's examples (``demo.samples``): the FRUIT triples of tests/data as the page's sample
rows, each named by the article it updates, and the Dan example the page opens on (whose hand
counts the served and browser tests check)."""

from app_calls import DAN
from conftest import DATA_DIR, read_jsonl

from demo import samples


def test_the_fruit_samples_are_the_files_triples_named_by_their_article():
    assert samples.EXAMPLES_FILE == DATA_DIR.resolve() / "fruit_triples.jsonl"
    rows, names = samples.fruit_examples()
    assert rows == [[row["source"], row["reference"], row["prediction"]] for row in read_jsonl("fruit_triples.jsonl")]
    assert names == ["The Lone Rider in Frontier Fury", "William Emmanuel Bevan", "Primearth EV Energy (PEVE)"]


def test_the_page_opens_on_the_hand_counted_dan_example():
    assert samples.DAN_EXAMPLE == DAN
