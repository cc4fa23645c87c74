"""The rules of three published UpdateROUGE scripts, so that ``protocol=`` reproduces their numbers.

Each protocol restates, in our own code, what one published script does (see
docs/published-protocols.md for the sources, the commits read and what differs from our rules):

- ``"fruit"``: google-research/language ``language/fruit/metrics.py`` ``edit_rouge`` with
  ``rendering_utils.extract_additions``. Every match of ``[^.]+\\.?`` is tested against the
  source *before* it is stripped; the stripped match (an empty string too) is an addition; the
  additions are joined with a space; rouge1, rouge2, rougeLsum; an example where neither joined
  side has a non-space character is a perfect score; the corpus value is the median F of
  rouge-score's ``BootstrapAggregator`` times 100. The published code adds a bare ``100.0`` for
  such an example and then fails in ``aggregate``; we add ``Score(1, 1, 1)`` (100 in its scale):
  a repair, the evident intent.
- ``"editeval"``: facebookresearch/EditEval ``src/metrics/update_rouge.py`` ``update_rouge``
  (and ``custom_metrics.py`` ``UpdateRougeMetric`` for several references): the same additions
  and join, ``Score(1, 1, 1)`` where neither side adds, the median F times ``scale`` (1.0); with
  several references the corpus value of each reference slot (all first references, all second
  ones, ...), averaged, the generator seeded once before the first slot.
- ``"autometrics"``: SALT-NLP/autometrics ``UpdateROUGE`` (``_calculate_impl``): each match is
  stripped first, empty ones dropped, the stripped segment tested against the source; joined
  with a space; the first reference only; F1 per example, ``scale`` (1.0) where neither side adds.
  It has no corpus value: ours (the exact mean) is given.

The bootstrap of ``"fruit"`` and ``"editeval"`` is rouge-score 0.1.2's ``BootstrapAggregator``
on NumPy's global legacy generator after ``np.random.seed(seed)``: ``published_bootstrap``
replays it on a local ``np.random.RandomState(seed)``, which draws the same sequence, so the
global generator is neither read nor changed.
"""

import re
from collections.abc import Sequence

import numpy as np

from .errors import LEFT_OUT, Name, OptionError, Setting

PROTOCOLS = ("fruit", "editeval", "autometrics")
BOOTSTRAP_PROTOCOLS = ("fruit", "editeval")
PUBLISHED_TYPES = ("rouge1", "rouge2", "rougeLsum")
SEPARATOR = " "
CORPUS_SCALE = {"fruit": 100.0, "editeval": 1.0}
"""What the published corpus values are multiplied by (FRUIT reports percentages)."""
SOURCES = {
    "fruit": "google-research/language@865fae65f63ef7e6b2989d4ff8b47f61750415a8 language/fruit/metrics.py",
    "editeval": "facebookresearch/EditEval@013cd20aa73be0016041201454b3fcd7c2250fb4 src/metrics/update_rouge.py",
    "autometrics": "SALT-NLP/autometrics@0e9764543141ed3e48bdd80fc4dd3f8033c22015 "
    "autometrics/metrics/reference_based/UpdateROUGE.py",
}
MAX_LEGACY_SEED = 2**32 - 1
MULTI_REFERENCE_RULE = {"fruit": "one", "editeval": "slot-mean", "autometrics": "first"}
"""The signature's ``multiref`` field under each protocol."""
_SEGMENT = re.compile(r"[^.]+\.?")


def check_protocol(protocol: str | None, departures: Sequence[str], seed: int) -> str | None:
    """``protocol`` if it is ``None`` or names a protocol and no option in ``departures`` (the
    names of the options set away from their defaults that change a number) is set and, for
    ``"fruit"`` and ``"editeval"``, ``seed`` is one ``np.random.seed`` takes (below 2**32); else
    ``OptionError``. The published scripts have no stemmer, tokenizer, language, edits,
    ROUGE-1.5.5 options, micro average, other multi-reference mode or other rouge types, so
    those are refused rather than mixed with a published procedure."""
    if protocol is None:
        return None
    if not isinstance(protocol, str) or protocol not in PROTOCOLS:
        raise OptionError(
            "protocol",
            protocol,
            (f"unknown protocol {protocol!r}; valid values are None, {', '.join(PROTOCOLS)}",),
            [[Setting("protocol", LEFT_OUT)]],
        )
    if departures:
        named = [part for index, name in enumerate(departures) for part in ((", " if index else ""), Name(name))]
        raise OptionError(
            "protocol",
            protocol,
            (Setting("protocol", protocol), " reproduces a published script, which has no ", *named, " option"),
            [[Setting(name, LEFT_OUT) for name in departures], [Setting("protocol", LEFT_OUT)]],
        )
    if protocol in BOOTSTRAP_PROTOCOLS and seed > MAX_LEGACY_SEED:
        raise OptionError(
            "seed",
            seed,
            (
                Setting("protocol", protocol),
                " seeds NumPy's legacy generator as np.random.seed does: ",
                Name("seed"),
                f" must be at most 2**32 - 1, got {seed!r}",
            ),
            [[Setting("seed", LEFT_OUT)]],
        )
    return protocol


def check_protocol_paired(protocol: str | None) -> None:
    """``OptionError`` where ``protocol``'s corpus value has no paired test (``"fruit"``, ``"editeval"``)."""
    if protocol in BOOTSTRAP_PROTOCOLS:
        raise OptionError(
            "protocol",
            protocol,
            (Setting("protocol", protocol), " has no paired test: its corpus value is a bootstrap median, not a mean"),
            [[Setting("protocol", LEFT_OUT)], [Setting("protocol", "autometrics")]],
        )


class ProtocolIndex:
    """A source with the additions rule of ``protocol`` (``additions(text)``, as ``SourceIndex``)."""

    def __init__(self, source: str, protocol: str):
        self.source = source
        self.protocol = protocol

    def additions(self, text: str) -> list[str]:
        """The published additions of ``text``: ``"fruit"`` and ``"editeval"`` test each match
        before stripping and keep empty strings; ``"autometrics"`` strips, drops empty ones, then tests."""
        source = self.source
        if self.protocol == "autometrics":
            stripped = (match.strip() for match in _SEGMENT.findall(text))
            return [segment for segment in stripped if segment and segment not in source]
        return [match.strip() for match in _SEGMENT.findall(text) if match not in source]


def joined(additions: list[str]) -> str:
    """The additions as the published scripts score them: joined with a space (one rougeLsum line,
    unless an addition holds a newline inside)."""
    return SEPARATOR.join(additions)


def adds_nothing(additions: list[str]) -> bool:
    """The published no-additions test of one side: its joined additions are white space only."""
    return not joined(additions).strip()


def published_bootstrap(
    matrices: Sequence[np.ndarray], n_bootstrap: int, confidence_level: float | None, seed: int
) -> list[np.ndarray]:
    """rouge-score 0.1.2's ``BootstrapAggregator(confidence_interval, n_samples).aggregate()`` of
    each ``n x 3`` matrix (precision, recall, F per example, stacked as its ``np.vstack`` of
    ``Score``s), in order, on one generator seeded as ``np.random.seed(seed)`` seeds the global one.

    Per matrix, ``n_bootstrap`` times: ``n`` row indices drawn by the generator's ``choice`` over
    ``n`` rows with replacement, and the column means (``np.mean(..., axis=0)``) of those rows;
    then ``np.percentile`` of the resample means at ``100 * [d, 0.5, 1 - d]``, ``d = (1 -
    confidence) / 2`` (``confidence_level`` ``None``: 0.95, the aggregator's default; the median
    does not depend on it). Returns per matrix a ``3 x 3`` array: rows low, mid, high; columns
    precision, recall, F. NumPy's global generator is not used.

    The resamples are drawn and averaged in blocks (``resample_means``) with the same draws and
    the same sums, so the values are the aggregator's bit for bit.
    """
    generator = np.random.RandomState(seed)
    confidence = 0.95 if confidence_level is None else confidence_level
    delta = (1 - confidence) / 2
    quantiles = 100 * np.array([delta, 0.5, 1 - delta])
    return [np.percentile(resample_means(matrix, n_bootstrap, generator), quantiles, axis=0) for matrix in matrices]


BLOCK_INDICES = 1 << 16
"""About how many row indices one block of resamples draws (512 KiB of int64, 1.5 MiB of gathered
rows of three measures): what bounds ``resample_means``'s memory beyond its ``n_bootstrap x 3``
result."""


def resample_means(matrix: np.ndarray, n_bootstrap: int, generator: np.random.RandomState) -> np.ndarray:
    """The ``n_bootstrap x m`` resample means of an ``n x m`` ``matrix`` that the aggregator's loop
    computes, each resample's ``n`` indices drawn from ``generator`` as its ``choice(n, size=n)``
    draws them, ``generator`` left where that loop leaves it.

    ``choice`` with replacement is ``randint(0, n, size=n)``, and the legacy bounded-integer
    sampler takes from the stream the same words whether ``k`` resamples are drawn in one
    ``size=(k, n)`` call or in ``k`` calls (for ``n = 1`` it takes none), so a block draws what
    ``k`` iterations draw. ``np.mean(rows, axis=0)`` of the ``n x m`` rows adds them one after
    another down each column and divides by ``n``; the block's ``n x k x m`` gather (``take``
    returns it C-contiguous), reduced over its first axis, adds in that order too (its last two
    axes are the contiguous inner loop, as the ``m`` columns are; for ``k = 1`` it is that very
    ``n x m`` array). A gather reduced along a contiguous axis would be summed pairwise, which
    differs in the last bit.
    """
    rows, measures = matrix.shape
    means = np.empty((n_bootstrap, measures))
    block = max(1, BLOCK_INDICES // rows)
    for start in range(0, n_bootstrap, block):
        size = min(block, n_bootstrap - start)
        gathered = matrix.take(generator.randint(0, rows, size=(size, rows)).T, axis=0)  # C-contiguous
        np.divide(np.add.reduce(gathered, axis=0), rows, out=means[start : start + size])
    return means


def published_statistics(
    columns: dict[str, np.ndarray], protocol: str, n_examples: int, bootstrap: tuple[float | None, int, int]
) -> dict[str, float]:
    """The corpus values of ``"fruit"`` or ``"editeval"``: ``columns`` map each ``update_<type>``
    (in the published order) to the examples' flattened scores, per example ``k`` reference slots
    of precision, recall and F (``k`` the same for every example). ``bootstrap`` is
    ``(confidence_level, n_bootstrap, seed)``.

    Returns per key the median F (the key), precision and recall (``_precision``, ``_recall``) and,
    unless ``confidence_level`` is ``None``, the interval's ends (``_low``, ``_high``), each
    times the protocol's ``CORPUS_SCALE`` and, over slots, summed in slot order and divided by
    ``k`` (``custom_metrics.py``'s average; one slot: the value itself).
    """
    confidence_level, n_bootstrap, seed = bootstrap
    arrays = {key: np.asarray(values, dtype=np.float64).reshape(n_examples, -1, 3) for key, values in columns.items()}
    slots = next(iter(arrays.values())).shape[1]
    matrices = [np.ascontiguousarray(array[:, slot, :]) for slot in range(slots) for array in arrays.values()]
    aggregated = iter(published_bootstrap(matrices, n_bootstrap, confidence_level, seed))
    scale = CORPUS_SCALE[protocol]
    names = {"": (1, 2), "_precision": (1, 0), "_recall": (1, 1)}
    if confidence_level is not None:
        names.update({"_low": (0, 2), "_high": (2, 2)})
    per_slot: dict[str, list[float]] = {f"{key}{name}": [] for key in arrays for name in names}
    for _ in range(slots):
        for key in arrays:
            percentiles = next(aggregated)
            for name, (row, column) in names.items():
                per_slot[f"{key}{name}"].append(float(percentiles[row, column] * scale))
    return {key: sum(values) / len(values) for key, values in per_slot.items()}
