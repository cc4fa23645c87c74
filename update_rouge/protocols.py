"""The rules of three published UpdateROUGE scripts, so that ``protocol=`` reproduces their numbers.

``"fruit"``, ``"editeval"`` and ``"autometrics"``, each restated in our own code: their additions,
join, rouge types, no-additions score, reference handling and corpus value (docs/published-protocols.md
gives the sources and what differs from our rules). The bootstrap of ``"fruit"`` and ``"editeval"``
replays rouge-score 0.1.2's ``BootstrapAggregator`` on a local ``np.random.RandomState(seed)``:
NumPy's global generator is neither read nor changed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import LEFT_OUT, Field, InputError, Name, OptionError, Setting

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Protocol:
    """The rules of ``protocol=name`` (``rules_of``), the one place every other module asks them
    of; ``OUR_RULES`` are those of ``protocol=None``."""

    name: str | None
    source: str = ""
    """The published script: ``repository@commit path``."""
    owner: str = ""
    """Whose rules, as a report names them (``FRUIT's``)."""
    multi_ref: str | None = None
    """The signature's ``multiref`` field (``one``, ``slot-mean``, ``first``); ``None``: ours."""
    scale: float = 1.0
    """What the corpus values are multiplied by (FRUIT reports percentages)."""
    bootstrap_median: bool = False
    """Whether the corpus value is rouge-score's ``BootstrapAggregator`` median (``published_statistics``)."""
    strips_first: bool = False
    """Whether each segment is stripped before it is tested against the source (``ProtocolIndex``)."""

    @property
    def keeps_bom(self) -> bool:
        """Whether a text starting with U+FEFF is scored with it, as the published scripts read it."""
        return self.name is not None

    @property
    def commit(self) -> str:
        """The published script's commit, shortened to 7 digits (the signature's)."""
        return self.source.split("@")[1][:7]

    @property
    def reference_slots(self) -> bool:
        """Whether the corpus value averages reference slots, so that every example needs as many references."""
        return self.multi_ref == "slot-mean"

    def scored_references(self, references: list[T]) -> list[T]:
        """The references of one example that this protocol scores: all, or the first (``first``).
        Several where the script takes one (``one``) are refused before, by ``check_one_reference``."""
        return references[:1] if self.multi_ref == "first" else references

    def check_one_reference(self, references: Sequence[Sequence[str]]) -> None:
        """``InputError`` at the first example with several ``references`` where the script takes
        one (``one``: FRUIT's ``edit_rouge``), advising to give it one or to leave ``protocol`` out."""
        if self.multi_ref != "one":
            return
        for index, example in enumerate(references):
            if len(example) > 1:
                where = Field("references", index)
                raise InputError(
                    where,
                    (
                        where,
                        f" holds {len(example)} references, but ",
                        Setting("protocol", self.name),
                        f" takes one per example ({self.owner} edit_rouge has no several): give it one, or ",
                        Setting("protocol", LEFT_OUT),
                    ),
                )


OUR_RULES = Protocol(None)
RULES: dict[str, Protocol] = {
    rules.name: rules
    for rules in (
        Protocol(
            "fruit",
            "google-research/language@865fae65f63ef7e6b2989d4ff8b47f61750415a8 language/fruit/metrics.py",
            "FRUIT's",
            "one",
            scale=100.0,
            bootstrap_median=True,
        ),
        Protocol(
            "editeval",
            "facebookresearch/EditEval@013cd20aa73be0016041201454b3fcd7c2250fb4 src/metrics/update_rouge.py",
            "EditEval's",
            "slot-mean",
            bootstrap_median=True,
        ),
        Protocol(
            "autometrics",
            "SALT-NLP/autometrics@0e9764543141ed3e48bdd80fc4dd3f8033c22015 "
            "autometrics/metrics/reference_based/UpdateROUGE.py",
            "autometrics'",
            "first",
            strips_first=True,
        ),
    )
    if rules.name is not None
}
PROTOCOLS = tuple(RULES)
PUBLISHED_TYPES = ("rouge1", "rouge2", "rougeLsum")
FIXED_OPTIONS: Mapping[str, Any] = {
    "use_stemmer": False,
    "stemmer": "none",
    "tokenizer": None,
    "language": None,
    "additions": "sentences",
    "remove_stopwords": False,
    "max_words": None,
    "max_bytes": None,
    "alpha": 0.5,
    "average": "macro",
    "multi_ref": "max_f1",
    "rouge_types": PUBLISHED_TYPES,
    "deletions": False,
    "entities": None,
}
"""The options every protocol fixes, at the values the published scripts score with: set otherwise,
they are refused rather than mixed with a published procedure."""
SEPARATOR = " "
MAX_LEGACY_SEED = 2**32 - 1
_SEGMENT = re.compile(r"[^.]+\.?")


def rules_of(protocol: str | None) -> Protocol:
    """The rules of ``protocol`` (a name of ``PROTOCOLS``, checked by ``check_protocol``), or ``OUR_RULES`` for ``None``."""
    return OUR_RULES if protocol is None else RULES[protocol]


def check_protocol(protocol: str | None, values: Mapping[str, Any], seed: int) -> str | None:
    """``protocol`` if it is ``None``, or if it names a protocol, every option of ``FIXED_OPTIONS``
    in ``values`` (the options as given, by name) is at its fixed value and, where the corpus
    value is a bootstrap median, ``seed`` is one ``np.random.seed`` takes (below 2**32); else
    ``OptionError``."""
    if protocol is None:
        return None
    if not isinstance(protocol, str) or protocol not in PROTOCOLS:
        raise OptionError(
            "protocol",
            protocol,
            (f"unknown protocol {protocol!r}; valid values are None, {', '.join(PROTOCOLS)}",),
            [[Setting("protocol", LEFT_OUT)]],
        )
    departures = [name for name, value in FIXED_OPTIONS.items() if values[name] != value]
    if departures:
        named = [part for index, name in enumerate(departures) for part in ((", " if index else ""), Name(name))]
        raise OptionError(
            "protocol",
            protocol,
            (Setting("protocol", protocol), " reproduces a published script, which has no ", *named, " option"),
            [[Setting(name, LEFT_OUT) for name in departures], [Setting("protocol", LEFT_OUT)]],
        )
    if RULES[protocol].bootstrap_median and seed > MAX_LEGACY_SEED:
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
    """``OptionError`` where ``protocol``'s corpus value has no paired test (a bootstrap median)."""
    if rules_of(protocol).bootstrap_median:
        raise OptionError(
            "protocol",
            protocol,
            (Setting("protocol", protocol), " has no paired test: its corpus value is a bootstrap median, not a mean"),
            [[Setting("protocol", LEFT_OUT)], [Setting("protocol", "autometrics")]],
        )


def check_reference_counts(protocol: str | None, counts: Collection[int]) -> None:
    """``OptionError`` where ``protocol``'s corpus value averages reference slots and examples
    have different numbers of references (``counts``, one per example or each number once)."""
    if rules_of(protocol).reference_slots and len(set(counts)) > 1:
        raise OptionError(
            "protocol",
            protocol,
            (
                Setting("protocol", protocol),
                " needs the same number of references in every example (its corpus value averages reference slots)",
            ),
            [[Setting("protocol", LEFT_OUT)]],
        )


class ProtocolIndex:
    """A source with the additions rule of ``protocol`` (``additions(text)``, as ``SourceIndex``)."""

    def __init__(self, source: str, protocol: str):
        self.source = source
        self.strips_first = RULES[protocol].strips_first

    def additions(self, text: str) -> list[str]:
        """The published additions of ``text``: ``"fruit"`` and ``"editeval"`` test each match
        before stripping and keep empty strings; ``"autometrics"`` strips, drops empty ones, then tests."""
        source = self.source
        if self.strips_first:
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
    each ``n x 3`` matrix (precision, recall, F per example), in order, on one generator seeded as
    ``np.random.seed(seed)`` seeds the global one, bit for bit; the global generator is not used.

    ``confidence_level`` ``None`` is the aggregator's default, 0.95 (the median does not depend on
    it). Returns per matrix a ``3 x 3`` array: rows low, mid, high; columns precision, recall, F.
    """
    import numpy as np

    generator = np.random.RandomState(seed)
    confidence = 0.95 if confidence_level is None else confidence_level
    delta = (1 - confidence) / 2
    quantiles = 100 * np.array([delta, 0.5, 1 - delta])
    return [
        np.percentile(resample_means(matrix, n_bootstrap, generator), quantiles, axis=1, overwrite_input=True)
        for matrix in matrices
    ]


BLOCK_INDICES = 1 << 16
"""About how many row indices one block of resamples draws: what bounds ``resample_means``'s
memory beyond its ``m x n_bootstrap`` result."""
WORDS_PER_DRAW = 1 << 18
"""At most how many 32-bit words ``legacy_randint`` takes from the stream in one call (1 MiB)."""


def resample_means(matrix: np.ndarray, n_bootstrap: int, generator: np.random.RandomState) -> np.ndarray:
    """The aggregator's resample means of an ``n x m`` ``matrix``, one row per measure (``m x
    n_bootstrap``), each resample's indices drawn as ``generator.choice(n, size=n)`` draws them,
    ``generator`` left where the aggregator's loop leaves it.

    ``k`` resamples draw what one ``randint(0, n, size=k * n)`` draws (``legacy_randint``). Each
    block's ``n x k`` gather is reduced over its first axis, adding in the order ``np.mean(rows,
    axis=0)`` adds; a block of one resample gathers the rows themselves, since an ``n x 1`` gather
    would be summed pairwise and differ in the last bit.
    """
    import numpy as np

    rows, measures = matrix.shape
    columns = np.ascontiguousarray(matrix.T)
    means = np.empty((measures, n_bootstrap))
    block = max(1, BLOCK_INDICES // rows)
    indices = np.empty((rows, min(block, n_bootstrap)), dtype=np.intp)
    values = in_pieces(legacy_randint(generator, rows, n_bootstrap * rows), block * rows)
    for start in range(0, n_bootstrap, block):
        size = min(block, n_bootstrap - start)
        chosen = indices[:, :size]
        np.copyto(chosen.T, next(values).reshape(size, rows), casting="unsafe")  # uint32 -> intp
        if size == 1:
            np.divide(np.add.reduce(matrix.take(chosen[:, 0], axis=0), axis=0), rows, out=means[:, start])
            continue
        for measure, column in enumerate(columns):
            np.divide(np.add.reduce(column.take(chosen), axis=0), rows, out=means[measure, start : start + size])
    return means


def legacy_randint(generator: np.random.RandomState, high: int, count: int) -> Iterator[np.ndarray]:
    """The ``count`` values of ``generator.randint(0, high, size=count)``, in order, in ``uint32``
    pieces, ``generator`` left where that call leaves it; ``1 <= high <= 2**32``.

    NumPy's legacy bounded sampler masks each 32-bit word of the stream to the bits of ``high - 1``
    and rejects it above ``high - 1``; the words are drawn in bulk, never more than values still to
    come, so never a word past the last value's.
    """
    import numpy as np

    top = high - 1
    if top == 0:
        for start in range(0, count, WORDS_PER_DRAW):
            yield np.zeros(min(WORDS_PER_DRAW, count - start), dtype=np.uint32)
        return
    mask = (1 << top.bit_length()) - 1
    left = count
    while left:
        words = generator.randint(0, 1 << 32, size=min(WORDS_PER_DRAW, left), dtype=np.uint32)
        words &= mask
        kept = np.compress(words <= top, words)
        left -= kept.size
        yield kept


def in_pieces(values: Iterator[np.ndarray], size: int) -> Iterator[np.ndarray]:
    """The arrays of ``values``, joined, cut anew into arrays of ``size`` (the last: what is left)."""
    import numpy as np

    rest = np.empty(0, dtype=np.uint32)
    for piece in values:
        rest = np.concatenate([rest, piece]) if rest.size else piece
        while rest.size >= size:
            yield rest[:size]
            rest = rest[size:]
    if rest.size:
        yield rest


def published_statistics(
    columns: dict[str, np.ndarray], protocol: str | None, n_examples: int, bootstrap: tuple[float | None, int, int]
) -> dict[str, float]:
    """The corpus values of ``"fruit"`` or ``"editeval"``: ``columns`` map each ``update_<type>`` (in
    the published order) to the examples' flattened scores, ``k`` reference slots of precision,
    recall and F per example. ``bootstrap`` is ``(confidence_level, n_bootstrap, seed)``.

    Returns per key the median F (the key), precision and recall (``_precision``, ``_recall``) and,
    unless ``confidence_level`` is ``None``, the interval's ends (``_low``, ``_high``), each times
    the protocol's ``scale`` and averaged over slots in slot order.
    """
    import numpy as np

    confidence_level, n_bootstrap, seed = bootstrap
    arrays = {key: np.asarray(values, dtype=np.float64).reshape(n_examples, -1, 3) for key, values in columns.items()}
    slots = next(iter(arrays.values())).shape[1]
    matrices = [np.ascontiguousarray(array[:, slot, :]) for slot in range(slots) for array in arrays.values()]
    aggregated = iter(published_bootstrap(matrices, n_bootstrap, confidence_level, seed))
    scale = rules_of(protocol).scale
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
