"""The extractors of ``entities=``: what maps a text to its set of entity strings.

An extractor is a spaCy pipeline (``"spacy:NAME"``, with ``update-rouge[entities]``) or a
user's callable ``text -> iterable of str``. ``check_extractor`` turns the option's value into
one (``SpacyExtractor`` or the callable); ``extract`` gives each distinct text's entities,
normalised (``normalised``: casefolded, inner white space collapsed to one space, stripped;
empty strings dropped). A pipeline is loaded once per process, at first use, and run with
``nlp.pipe`` in batches; ``extractor_field`` is its signature field.

``"spacy:NAME"`` counts the entities whose label is in ``DEFAULT_LABELS``; ``"spacy:NAME:A,B"``
those labelled ``A`` or ``B``; ``"spacy:NAME:*"`` every label. ``NAME`` is what ``spacy.load``
takes: an installed pipeline package's name or a pipeline folder's path.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from .errors import LEFT_OUT, Name, OptionError, Setting
from .extras import MissingExtra, extra_imports

PIP_EXTRA = "pip install 'update-rouge[entities]'"
SPACY_PREFIX = "spacy:"
DEFAULT_LABELS = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE")
"""The labels ``"spacy:NAME"`` counts: OntoNotes' named entities (the labels of spaCy's trained
English pipelines) without its seven numeric ones (DATE, TIME, PERCENT, MONEY, QUANTITY,
ORDINAL, CARDINAL), which are values rather than names."""
ALL_LABELS = "*"
BATCH_SIZE = 256
_LABELS = re.compile(r"[A-Z][A-Z0-9_]*(,[A-Z][A-Z0-9_]*)*|\*")

Extractor = Callable[[str], Iterable[str]]


@dataclass(frozen=True)
class SpacyExtractor:
    """A spaCy pipeline (``name``, as ``spacy.load`` takes it) and the entity ``labels`` that
    count (``None``: every label)."""

    name: str
    labels: tuple[str, ...] | None = DEFAULT_LABELS


def check_extractor(value: Any) -> "SpacyExtractor | Extractor | None":
    """The extractor ``entities=value`` names: ``None``, a ``SpacyExtractor`` (from
    ``"spacy:NAME[:LABELS]"``, see the module docstring) or the callable itself; else
    ``OptionError``. Nothing is loaded here."""
    if value is None or isinstance(value, SpacyExtractor) or callable(value):
        return value
    if isinstance(value, str) and value.startswith(SPACY_PREFIX) and len(value) > len(SPACY_PREFIX):
        name = value[len(SPACY_PREFIX) :]
        labels: tuple[str, ...] | None = DEFAULT_LABELS
        head, _, tail = name.rpartition(":")
        if head and _LABELS.fullmatch(tail):
            name, labels = head, (None if tail == ALL_LABELS else tuple(tail.split(",")))
        return SpacyExtractor(name, labels)
    raise OptionError(
        "entities",
        value,
        (
            Name("entities"),
            f" must be a spaCy pipeline as 'spacy:NAME' (or 'spacy:NAME:LABEL,...') or a callable "
            f"text -> iterable of entity strings, got {value!r}",
        ),
        [[Setting("entities", LEFT_OUT)]],
    )


def normalised(entities: Iterable[str]) -> frozenset[str]:
    """The entity strings as compared: casefolded, inner white space collapsed to one space,
    stripped; empty ones dropped. ``TypeError`` for an item that is not a string."""
    found = set()
    for entity in entities:
        if not isinstance(entity, str):
            raise TypeError(f"an entity extractor must give strings, got {entity!r}")
        text = " ".join(entity.casefold().split())
        if text:
            found.add(text)
    return frozenset(found)


def _missing(name: str, why: str) -> str:
    return f"entities='spacy:{name}' needs {why}; install with: {PIP_EXTRA}"


@cache
def pipeline(name: str) -> Any:
    """The spaCy pipeline ``name``, loaded once per process; ``MissingExtra`` in one line when
    spaCy or the pipeline is not installed, naming the command that installs it."""
    with extra_imports(_missing(name, "spaCy, which is not installed"), {"spacy": "load"}):
        import spacy
    try:
        return spacy.load(name)
    except OSError as error:
        if "E050" not in str(error):
            raise
        raise MissingExtra(
            f"entities='spacy:{name}' needs the spaCy pipeline {name}, which is not installed; "
            f"install with: python -m spacy download {name}"
        ) from None


def extract(extractor: "SpacyExtractor | Extractor", texts: Iterable[str]) -> dict[str, frozenset[str]]:
    """Each distinct text of ``texts`` -> its entities (``normalised``), each text extracted once:
    a spaCy pipeline runs ``nlp.pipe`` on them in batches of ``BATCH_SIZE``."""
    distinct = list(dict.fromkeys(texts))
    if not isinstance(extractor, SpacyExtractor):
        return {text: normalised(extractor(text)) for text in distinct}
    nlp, labels = pipeline(extractor.name), extractor.labels
    docs = nlp.pipe(distinct, batch_size=BATCH_SIZE)
    return {
        text: normalised(entity.text for entity in doc.ents if labels is None or entity.label_ in labels)
        for text, doc in zip(distinct, docs)
    }


def extractor_field(extractor: "SpacyExtractor | Extractor") -> str:
    """The signature's ``ent`` field: ``custom`` for a callable; for a pipeline spaCy's version,
    the pipeline's package name and version and the labels counted (``*``: every label),
    ``spacy-3.8.7/en_core_web_sm-3.8.0/labels:PERSON,NORP,...``."""
    if not isinstance(extractor, SpacyExtractor):
        return "custom"
    import spacy

    meta = pipeline(extractor.name).meta
    labels = ALL_LABELS if extractor.labels is None else ",".join(extractor.labels)
    return f"spacy-{spacy.__version__}/{meta['lang']}_{meta['name']}-{meta['version']}/labels:{labels}"
