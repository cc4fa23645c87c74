import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

# tests/served_app.py holds the served demo's fixtures (pytest_plugins of the files that use it):
# its asserts report their values as a test's do.
pytest.register_assert_rewrite("served_app")

DATA_DIR = Path(__file__).parent / "data"
# Set by tests/run.sh, with the reason, where it installs no torch (no local CPU wheel fits the
# interpreter): the tests marked needs_torch are then skipped, and the modules that import torch
# at the top are not collected.
SKIP_TORCH_TESTS = os.environ.get("UPDATE_ROUGE_SKIP_TORCH_TESTS", "")
collect_ignore = ["entry_points/test_trainer.py", "reliability/test_reliability_trainer.py"] if SKIP_TORCH_TESTS else []


# Set by tests/run.sh to the modules it installed: a test that skips for want of one of them would
# hide a failed install, so the run stops at once instead, naming what is missing.
INSTALLED_MODULES = os.environ.get("UPDATE_ROUGE_INSTALLED_MODULES", "").split()


def pytest_configure(config):
    missing = [name for name in INSTALLED_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise pytest.UsageError(
            f"tests/run.sh installed {', '.join(missing)} for the tests, but Python cannot find them: "
            "the install failed or another environment is active"
        )


def pytest_report_header():
    if SKIP_TORCH_TESTS:
        return f"skipping tests marked needs_torch and not collecting {', '.join(collect_ignore)}: {SKIP_TORCH_TESTS}"
    return None


def pytest_collection_modifyitems(items):
    if SKIP_TORCH_TESTS:
        skip = pytest.mark.skip(reason=SKIP_TORCH_TESTS)
        for item in items:
            if item.get_closest_marker("needs_torch"):
                item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def session_temp_folder(tmp_path_factory):
    """The system temporary folder (``tempfile.gettempdir()`` and ``TMPDIR``) of this test session
    and of every process it starts: a new folder, removed at the end, so that what libraries put
    there (jieba's dictionary cache, Ray's session folders) is not left behind; so is the XDG data
    folder (inspect_ai's traces). pythainlp's data
    folder (``PYTHAINLP_DATA``, else ``~/pythainlp-data``, made on import) goes there too. pytest's
    own ``tmp_path`` folders stay where they were (its base folder is fixed first)."""
    tmp_path_factory.getbasetemp()
    # A short name: Ray's socket paths under it must stay within the 107 bytes of a Unix socket path.
    folder = tempfile.mkdtemp(prefix="ur-tests-")
    # XDG_DATA_HOME: inspect_ai writes its traces and sample buffers under it (else ~/.local/share).
    settings = {"TMPDIR": folder, "XDG_DATA_HOME": os.path.join(folder, "xdg-data")}
    if not os.environ.get("PYTHAINLP_DATA") and not os.environ.get("PYTHAINLP_DATA_DIR"):
        settings["PYTHAINLP_DATA"] = os.path.join(folder, "pythainlp-data")
    saved = {name: os.environ.get(name) for name in settings}, tempfile.tempdir
    os.environ.update(settings)
    tempfile.tempdir = folder
    yield Path(folder)
    tempfile.tempdir = saved[1]
    for name, value in saved[0].items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    shutil.rmtree(folder)


TRIPLE_FILES = ("fruit_triples.jsonl", "iterater_triples.jsonl", "wiki_triples.jsonl")


def read_jsonl(name):
    with open(DATA_DIR / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def columns(rows):
    """Rows of a triples file (``source``, ``prediction``, ``reference``) as ``compute``'s three lists."""
    return {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
    }


def readme_section(heading):
    """The text of README.md under ``heading`` (e.g. ``"## Reporting a result"``), up to the next heading
    of the same or a higher level: tests check the README's figures there instead of copying them."""
    lines = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8").splitlines()
    level = len(heading.split(" ", 1)[0])
    section, fenced = [], False
    for line in lines[lines.index(heading) + 1 :]:
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("#") and len(line.split(" ", 1)[0]) <= level:
            break
        section.append(line)
    return "\n".join(section)


def markdown_rows(markdown, first_cell_prefix):
    """The cells of each Markdown table row of ``markdown`` whose first cell starts with ``first_cell_prefix``."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith("|")
    ]
    return [row for row in rows if row[0].startswith(first_cell_prefix)]


@pytest.fixture(scope="session")
def golden():
    """ROUGE-1.5.5's additions and [P, R, F1] for each FRUIT sample, in file order."""
    return [row for row in read_jsonl("rouge155_golden.jsonl") if row["file"] == "fruit_triples.jsonl"]


@pytest.fixture(scope="session")
def triples():
    """Every row of the bundled triples files, keyed by (file name, id)."""
    return {(name, row["id"]): row for name in TRIPLE_FILES for row in read_jsonl(name)}


# Hypothesis draws the same cases on every run and machine: failures reproduce, CI is stable.
from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

settings.register_profile("deterministic", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("deterministic")


# Texts for the engines and tokens against rouge-score (tests/agreement/test_engines.py and
# test_tokens.py): a small vocabulary (repeated tokens, ties in the LCS), case, digits,
# punctuation-only and empty lines, Unicode that lower-cases oddly.
WORDS = [
    "the",
    "The",
    "cat",
    "cats",
    "running",
    "ran",
    "a",
    "A.",
    "dog",
    "dogs",
    "x",
    "42",
    "1990s",
    "İstanbul",
    "naïve",
    "Straße",
    "中文",
    "ǅ",
    "--",
    "!!",
    "é",
    "running,",
    "generously",
    "Cat",
]
SEPARATORS = [" ", " ", " ", "  ", "\n", "\n\n", " \n ", ", ", "\t", "...", "\n!!\n"]


@st.composite
def texts(draw, max_words=40):
    """Up to ``max_words`` words of ``WORDS``, each followed by one of ``SEPARATORS``."""
    words = draw(st.lists(st.sampled_from(WORDS), max_size=max_words))
    separators = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, separators))


QUICK_EXAMPLES = 200


def quick_and_full(full_examples, *strategies, quick_examples=QUICK_EXAMPLES):
    """The same property twice: a quick test drawing ``quick_examples`` cases for the default run,
    and the full sweep of ``full_examples`` cases marked slow (run by ``tests/run.sh --all`` and CI).

    Use as ``test_x, test_x_full = quick_and_full(4000, st.text())(body)``.
    """
    from hypothesis import given

    def decorate(body):
        quick = settings(max_examples=quick_examples)(given(*strategies)(body))
        full = pytest.mark.slow(settings(max_examples=full_examples)(given(*strategies)(body)))
        return quick, full

    return decorate


def plain_walk(text, source):
    """The walk of ``additions="edits"``'s diff (``edits``, ``lcs.lcs_walk``) on a plain O(n * m)
    table of suffix LCS lengths: the kept text positions, the source positions the walk pairs
    them with, and the text position where it stops."""
    n, m = len(text), len(source)
    suffix = [[0] * (m + 1) for _ in range(n + 1)]  # suffix[i][j]: LCS length of text[i:], source[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            same = text[i] == source[j]
            suffix[i][j] = suffix[i + 1][j + 1] + 1 if same else max(suffix[i + 1][j], suffix[i][j + 1])
    kept, paired, i, j = [], [], 0, 0
    while i < n and j < m:
        if text[i] == source[j]:
            kept.append(i)
            paired.append(j)
            i, j = i + 1, j + 1
        elif suffix[i][j + 1] > suffix[i + 1][j]:
            j += 1
        else:
            i += 1
    return kept, paired, i


def run_main(argv, capsys):
    """Run the command line's ``main`` in this process: its exit status, standard output and error."""
    from update_rouge.cli import main

    try:
        status = main([str(a) for a in argv])
    except SystemExit as exit:
        status = exit.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def evaluate_metric(tmp_path_factory):
    """The evaluate module of this checkout, loaded offline into a fresh cache."""
    os.environ["HF_EVALUATE_OFFLINE"] = "1"
    import evaluate

    import update_rouge

    module_dir = Path(update_rouge.__file__).parent
    return evaluate.load(str(module_dir), cache_dir=str(tmp_path_factory.mktemp("evaluate_cache")))


SPACE = "someone/update_rouge"


@pytest.fixture(scope="module")
def space_page():
    """The demo's page built as on a Hugging Face Space named ``SPACE`` (for the tests of its
    layout and of its events)."""
    from demo import page as demo_page

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPACE_ID", SPACE)
        return demo_page.build_demo()


@pytest.fixture(params=["package", "evaluate"])
def compute(request, evaluate_metric):
    """``compute`` of the package and of the evaluate module: each test runs through both."""
    import update_rouge

    if request.param == "package":
        return update_rouge.compute
    return evaluate_metric.compute


def read_histogram(svg):
    """What the histogram SVG draws: the count of each bar (read off its height against the count
    axis), the count axis's tick labels, where the mean line stands on the F1 axis (read off the
    F1 axis's tick positions), the mean's label and the axis titles."""
    root = ElementTree.fromstring(svg)
    texts = {element.get("class"): [] for element in root.iter("{http://www.w3.org/2000/svg}text")}
    for element in root.iter("{http://www.w3.org/2000/svg}text"):
        texts[element.get("class")].append(element)
    y_ticks = [(int(t.text), float(t.get("y"))) for t in texts["y-tick"]]
    (zero, zero_y), (top, top_y) = y_ticks[0], y_ticks[-1]
    per_count = (zero_y - top_y) / (top - zero)
    x_ticks = {float(t.text): float(t.get("x")) for t in texts["x-tick"]}
    per_f1 = x_ticks[1.0] - x_ticks[0.0]
    bars = {
        rect.get("data-bin"): round(float(rect.get("height")) / per_count, 6)
        for rect in root.iter("{http://www.w3.org/2000/svg}rect")
    }
    (mean_line,) = [line for line in root.iter("{http://www.w3.org/2000/svg}line") if line.get("class") == "mean"]
    return {
        "bars": bars,
        "y_ticks": [count for count, _ in y_ticks],
        "mean_at": (float(mean_line.get("x1")) - x_ticks[0.0]) / per_f1,
        "mean_label": texts["mean-label"][0].text,
        "titles": [t.text for t in texts[None]],
    }


@pytest.fixture(scope="module")
def iterater():
    """The bundled IteraTeR triples as compute's three lists."""
    rows = read_jsonl("iterater_triples.jsonl")
    return {
        "sources": [r["source"] for r in rows],
        "references": [r["reference"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
    }


def three_systems(data):
    """The do-nothing baseline, the bundled predictions, and the references themselves."""
    return {"source": data["sources"], "model": data["predictions"], "oracle": data["references"]}


def write_lines(path, texts):
    """A text file of ``texts``, one a line, their line breaks made spaces (the command line's text-file form)."""
    path.write_text("".join(text.replace("\n", " ") + "\n" for text in texts), encoding="utf-8")
    return path


def flat(data):
    """The texts with line breaks made spaces, as the text-file form of the command line reads them."""
    return {key: [text.replace("\n", " ") for text in texts] for key, texts in data.items()}


# The limits' examples (tests/reliability/test_lcs_limits.py and test_limits.py): one example of
# 20 x 20 tokens (one line each side), after two small ones.
LONG = " ".join(["w"] * 20)
COLUMNS = {"sources": ["", "", ""], "references": ["a b.", "a b.", LONG], "predictions": ["a c.", "a b.", LONG]}


def write_jsonl(path, columns):
    """A JSONL file of ``columns``, with a second system ``base`` that adds nothing."""
    rows = zip(columns["sources"], columns["references"], columns["predictions"])
    path.write_text(
        "".join(json.dumps({"source": s, "reference": r, "prediction": p, "base": s}) + "\n" for s, r, p in rows)
    )
    return path


class WordIds:
    """A tokenizer for the Trainer helper: id 1 is the word "w", 0 is padding."""

    pad_token_id = 0

    def batch_decode(self, rows, skip_special_tokens):
        return [" ".join("w" for token in row if token) for row in rows]

    def __len__(self):
        return 2


# The WordNet 2.0 exception lists that ROUGE-1.5.5 -m looks words up in (tests/data/NOTICE.md).
LISTS_DIR = DATA_DIR / "wordnet-2.0-exceptions"


def read_stems():
    """(word, token) of each word of tests/data/rouge155_stems.tsv: the token ROUGE-1.5.5 -m gives it."""
    with open(DATA_DIR / "rouge155_stems.tsv", encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t") for line in handle if not line.startswith("#")]


def read_exception_files():
    """Form -> base form as ROUGE-1.5.5 loads them: adj, adv, noun, verb, a later line replacing an earlier one."""
    table = {}
    for name in ("adj", "adv", "noun", "verb"):
        for line in (LISTS_DIR / f"{name}.exc").read_text(encoding="ascii").splitlines():
            form, base = line.split()[:2]
            table[form] = base
    return table


def union_lcs_positions(reference_lines, candidate_lines):
    """For each reference line r, the ascending positions of rouge-score's ``_union_lcs(r,
    candidate_lines)`` as ``lcs._union_lcs_bits`` finds them (read out of its packed layout)."""
    from collections import Counter

    from update_rouge import lcs

    candidate_counts = Counter(token for line in candidate_lines for token in line)
    _, guard_positions, union = lcs._union_lcs_bits(reference_lines, candidate_lines, candidate_counts)
    guard_of_line = iter(guard_positions)
    positions = []
    for line in reference_lines:
        first = next(guard_of_line) + 1 if line else 0
        positions.append([match.start() - first for match in lcs._ONE.finditer(union, first, first + len(line))])
    return positions
