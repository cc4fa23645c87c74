"""Ray's door refuses as the package does (integrations/ray_errors.py): the error a scoring task
raises reaches ``corpus_scores`` as the same object (type and data, its one-line message), for
``score_dataset`` and ``score_jsonl`` (whose bad line test_ray.py checks); a dataset without a needed column is refused in one line
naming the option that names it; docs/ray.md's pipeline example runs as written (on local folders,
with one scorer)."""

import ast
import contextlib
import io
import json
import pickle
import re
from pathlib import Path

import pytest
import ray
from conftest import read_jsonl
from ray.data._internal.util import _annotate_exception_with_retry_context
from ray_helpers import local_cluster, tokens_needing_an_extra

from update_rouge import InputError, OptionError, compute
from update_rouge.errors import LEFT_OUT, Field, Setting
from update_rouge.extras import MissingExtra
from update_rouge.integrations.ray_batches import score_dataset, score_jsonl
from update_rouge.integrations.ray_errors import CarriedError, check_columns
from update_rouge.integrations.ray_scoring import corpus_scores
from update_rouge.lcs_limits import LcsTableTooLarge
from update_rouge.tokens import TokenizerError

DOC = Path(__file__).resolve().parents[2] / "docs" / "ray.md"
LCS_LIMIT = 1_000_000
LONG = " ".join(f"w{i}" for i in range(2000))
NO_JIEBA = "language='zh' segments Chinese words with jieba (cannot be imported: no jieba on this worker)"


def _retry_noted(error):
    """``error`` as Ray Data leaves it before pickling it for the driver: its retry advice appended to ``args``."""
    return _annotate_exception_with_retry_context(
        error, description="apply UDF transform", attempts=1, max_attempts=1, total_backoff_s=0.0, exception_str=""
    )


def test_a_carried_error_is_pickled_as_the_error_whatever_ray_data_does_to_the_carriers_args():
    refusal = OptionError("stemmer", "nope", ("unknown ", Setting("stemmer", "nope")), [[Setting("stemmer", LEFT_OUT)]])
    back = pickle.loads(pickle.dumps(_retry_noted(CarriedError(refusal)))).error
    assert type(back) is OptionError
    assert (back.option, back.value, back.instead) == ("stemmer", "nope", ((Setting("stemmer", LEFT_OUT),),))
    assert back.args == ("stemmer", "nope", refusal.parts, refusal.instead)
    assert str(back) == "unknown stemmer='nope'; instead: leave out stemmer"
    # Without the carrier, the same note changes an OptionError's args and breaks an InputError.
    noted = OptionError("stemmer", "nope", ("unknown ", Setting("stemmer", "nope")))
    assert pickle.loads(pickle.dumps(_retry_noted(noted))).args[0].startswith("stemmer\nFailed to apply")
    bad_row = InputError(Field("source", 7), ("row 7: source must be a string, got None",))
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(_retry_noted(bad_row)))


def test_a_missing_column_is_refused_in_one_line_naming_its_option():
    check_columns(["source", "row"], {"source_column": "source", "row_column": "row"})
    with pytest.raises(OptionError) as error:
        check_columns(["source", "text"], {"source_column": "source", "row_column": "id"})
    assert (error.value.option, error.value.value) == ("row_column", "id")
    assert str(error.value) == (
        "the dataset has no row column 'id': add one (a unique integer per example, its place in the input: "
        "docs/ray.md) or name the column that holds it with row_column"
    )
    with pytest.raises(OptionError, match="^the dataset has no prediction column 'prediction': name the column "):
        check_columns(["source"], {"prediction_column": "prediction"})


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A cluster whose workers run with a low LCS time limit and a ``jieba`` that cannot be
    imported (a segmenter missing on the workers, installed on the driver)."""
    fake = tmp_path_factory.mktemp("fake")
    (fake / "jieba").mkdir()
    (fake / "jieba" / "__init__.py").write_text('raise ImportError("no jieba on this worker")\n')
    with local_cluster(paths=[fake], UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS=str(LCS_LIMIT)):
        yield


def _rows(**changes):
    """Ten short examples numbered by ``row``; ``changes``: row -> the fields it changes."""
    rows = [{"source": "a b.", "prediction": "a b c.", "reference": "a c.", "row": i} for i in range(10)]
    for row, fields in changes.items():
        rows[int(row.removeprefix("r"))].update(fields)
    return rows


def _jsonl(tmp_path, rows):
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps({k: v for k, v in row.items() if k != "row"}) + "\n" for row in rows))
    return str(path)


def _raised(scored, **options):
    with pytest.raises(Exception) as error:
        corpus_scores(scored, **options)
    return error.value


@pytest.mark.slow
def test_a_bad_row_reaches_the_driver_as_an_input_error_at_its_row(cluster):
    scored = score_dataset(ray.data.from_items(_rows(r7={"source": None}), override_num_blocks=3))
    error = _raised(scored)
    assert type(error) is InputError
    assert error.where == Field("source", 7)
    assert str(error) == "row 7: source must be a string, got None"


@pytest.mark.slow
def test_the_lcs_limit_reaches_the_driver_at_its_row_from_both_functions(cluster, tmp_path):
    rows = _rows(r5={"prediction": LONG, "reference": LONG + " x"})
    # score_jsonl's row is the example's line: 6.
    datasets = score_dataset(ray.data.from_items(rows, override_num_blocks=3)), score_jsonl(_jsonl(tmp_path, rows))
    for row, scored in zip((5, 6), datasets):
        error = _raised(scored)
        assert type(error) is LcsTableTooLarge
        assert (error.index, error.what, error.kind, error.limit) == (row, "row", "time", LCS_LIMIT)
        assert str(error).startswith(f"row {row}: rougeLsum of 2,001 x 2,000 tokens")
        assert "\n" not in str(error)


@pytest.mark.slow
def test_a_segmenter_missing_on_the_workers_reaches_the_driver_as_missing_extra(cluster, tmp_path):
    rows = _rows(r4={"prediction": "我们喜欢猫。"})
    ds = ray.data.from_items(rows, override_num_blocks=3)
    for scored in score_dataset(ds, language="zh"), score_jsonl(_jsonl(tmp_path, rows), language="zh"):
        error = _raised(scored, language="zh")
        assert type(error) is MissingExtra
        assert str(error).startswith(NO_JIEBA + "; install with: pip install 'update-rouge[multilingual]'")


@pytest.mark.slow
def test_a_custom_tokenizers_failure_names_its_column_and_row(cluster):
    rows = _rows(r6={"prediction": "needs-extra"})
    scored = score_dataset(ray.data.from_items(rows, override_num_blocks=3), tokenizer=tokens_needing_an_extra)
    error = _raised(scored, tokenizer=tokens_needing_an_extra)
    assert type(error) is TokenizerError
    assert error.where == Field("prediction", 6)
    assert str(error).endswith(", on the additions of prediction[6]: 'needs-extra'")


@pytest.mark.slow
def test_a_dataset_without_row_is_refused_before_scoring_or_at_its_first_batch(cluster, tmp_path):
    rows = [{key: value for key, value in row.items() if key != "row"} for row in _rows()]
    with pytest.raises(OptionError, match="^the dataset has no row column 'row': add one ") as known:
        score_dataset(ray.data.from_items(rows))  # its columns are known: refused before anything runs
    assert (known.value.option, known.value.value) == ("row_column", "row")
    unknown = ray.data.read_json(_jsonl(tmp_path, rows))  # its columns are known once it is read
    assert unknown.columns(fetch_if_missing=False) is None
    error = _raised(score_dataset(unknown))
    assert type(error) is OptionError and str(error) == str(known.value)
    # Scored with another row column, corpus_scores is told which.
    error = _raised(score_dataset(ray.data.from_items(_rows())), row_column="id")
    assert type(error) is OptionError and (error.option, error.value) == ("row_column", "id")


@pytest.mark.slow
def test_the_docs_pipeline_example_runs_as_written(cluster, tmp_path):
    (block,) = [
        b for b in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S) if "read_json" in b
    ]
    rows = read_jsonl("iterater_triples.jsonl")[:40]
    (tmp_path / "edits").mkdir()
    with open(tmp_path / "edits" / "part-0.jsonl", "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps({**row, "row": index}) + "\n" for index, row in enumerate(rows))
    # Local folders for the bucket's, and 1 scorer for 8: on the 2-CPU test cluster, scorers holding
    # every CPU leave none to the read and write tasks, and the run waits for ever.
    code = block.replace("s3://bucket/edits/", f"{tmp_path}/edits/").replace("s3://bucket/", f"{tmp_path}/")
    code = code.replace("concurrency=8", "concurrency=1")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    texts = [r["source"] for r in rows], [r["prediction"] for r in rows], [r["reference"] for r in rows]
    expected = compute(*texts, stemmer="porter", rouge_types=["rouge1", "rougeLsum"], return_signature=True)
    assert ast.literal_eval(printed.getvalue().strip()) == expected
    assert len(list((tmp_path / "edits-scored").iterdir())) >= 1
