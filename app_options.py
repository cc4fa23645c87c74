"""The demo's options: the controls' choices, their values as a checked ``Settings``, the
Reproduce code of them, and the server's limits read from the environment.

Every option is the package's (``update_rouge.settings``, taken from the package
``evaluate.load`` made, see ``app_metric``); this module only turns what the screen or the HTTP
API gives into it, naming the option in every error.
"""

import math
import os
from typing import Any, Dict, List, Optional, Sequence

import gradio as gr

from app_metric import package_module

DEFAULT_ROUGE_TYPES = package_module("rouge_types").DEFAULT_ROUGE_TYPES
OPTION_BY_NAME = package_module("settings").OPTION_BY_NAME
DEFAULTS = package_module("settings").DEFAULTS
Settings = package_module("settings").Settings
LANGUAGES = package_module("languages").ISO_639_1

ROUGE_TYPE_CHOICES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4", "rougeW")
# The types whose matched tokens the one-example view shows (see update_rouge.matches).
MATCH_TYPE_CHOICES = [t for t in ROUGE_TYPE_CHOICES if package_module("matches").explained(t)]
# The English name of each ISO 639-1 code: ISO 639-3's reference name (as Debian's iso-codes 4.15.0
# lists it) without its qualifier ("Malay (macrolanguage)" is "Malay", "Modern Greek (1453-)" "Greek").
LANGUAGE_NAMES = dict(
    pair.split(" ", 1)
    for pair in (
        "aa Afar; ab Abkhazian; ae Avestan; af Afrikaans; ak Akan; am Amharic; an Aragonese; ar Arabic; "
        "as Assamese; av Avaric; ay Aymara; az Azerbaijani; ba Bashkir; be Belarusian; bg Bulgarian; bi Bislama; "
        "bm Bambara; bn Bengali; bo Tibetan; br Breton; bs Bosnian; ca Catalan; ce Chechen; ch Chamorro; "
        "co Corsican; cr Cree; cs Czech; cu Church Slavic; cv Chuvash; cy Welsh; da Danish; de German; dv Dhivehi; "
        "dz Dzongkha; ee Ewe; el Greek; en English; eo Esperanto; es Spanish; et Estonian; eu Basque; fa Persian; "
        "ff Fulah; fi Finnish; fj Fijian; fo Faroese; fr French; fy Western Frisian; ga Irish; gd Scottish Gaelic; "
        "gl Galician; gn Guarani; gu Gujarati; gv Manx; ha Hausa; he Hebrew; hi Hindi; ho Hiri Motu; hr Croatian; "
        "ht Haitian; hu Hungarian; hy Armenian; hz Herero; ia Interlingua; id Indonesian; ie Interlingue; ig Igbo; "
        "ii Sichuan Yi; ik Inupiaq; io Ido; is Icelandic; it Italian; iu Inuktitut; ja Japanese; jv Javanese; "
        "ka Georgian; kg Kongo; ki Kikuyu; kj Kuanyama; kk Kazakh; kl Kalaallisut; km Khmer; kn Kannada; "
        "ko Korean; kr Kanuri; ks Kashmiri; ku Kurdish; kv Komi; kw Cornish; ky Kirghiz; la Latin; "
        "lb Luxembourgish; lg Ganda; li Limburgan; ln Lingala; lo Lao; lt Lithuanian; lu Luba-Katanga; lv Latvian; "
        "mg Malagasy; mh Marshallese; mi Maori; mk Macedonian; ml Malayalam; mn Mongolian; mr Marathi; ms Malay; "
        "mt Maltese; my Burmese; na Nauru; nb Norwegian Bokmål; nd North Ndebele; ne Nepali; ng Ndonga; nl Dutch; "
        "nn Norwegian Nynorsk; no Norwegian; nr South Ndebele; nv Navajo; ny Nyanja; oc Occitan; oj Ojibwa; "
        "om Oromo; or Oriya; os Ossetian; pa Panjabi; pi Pali; pl Polish; ps Pushto; pt Portuguese; qu Quechua; "
        "rm Romansh; rn Rundi; ro Romanian; ru Russian; rw Kinyarwanda; sa Sanskrit; sc Sardinian; sd Sindhi; "
        "se Northern Sami; sg Sango; si Sinhala; sk Slovak; sl Slovenian; sm Samoan; sn Shona; so Somali; "
        "sq Albanian; sr Serbian; ss Swati; st Southern Sotho; su Sundanese; sv Swedish; sw Swahili; ta Tamil; "
        "te Telugu; tg Tajik; th Thai; ti Tigrinya; tk Turkmen; tl Tagalog; tn Tswana; to Tonga; tr Turkish; "
        "ts Tsonga; tt Tatar; tw Twi; ty Tahitian; ug Uighur; uk Ukrainian; ur Urdu; uz Uzbek; ve Venda; "
        "vi Vietnamese; vo Volapük; wa Walloon; wo Wolof; xh Xhosa; yi Yiddish; yo Yoruba; za Zhuang; zh Chinese; "
        "zu Zulu"
    ).split("; ")
)
NO_LANGUAGE = "none (rouge-score's tokens)"
# The language menu as gradio's (label, value) pairs: "Chinese (zh)" gives "zh" to the scorer.
LANGUAGE_CHOICES = [
    (NO_LANGUAGE, NO_LANGUAGE),
    *sorted((f"{LANGUAGE_NAMES[code]} ({code})", code) for code in LANGUAGES),
]
# Confidence levels of the corpus scores' bootstrap intervals ("none": no interval).
CONFIDENCE_LEVELS = {"none": None, "0.90": 0.90, "0.95": 0.95, "0.99": 0.99}
# What max_words and max_bytes, and alpha, must be (the demo's messages).
LIMIT_RULE = "a whole number >= 0 (0: no limit)"
ALPHA_RULE = "a number in [0, 1]"
COUNT_RULE = "a whole number > 0"
SEED_RULE = "a whole number >= 0"
# The most resamples the demo draws (the command line takes any number).
MAX_DEMO_BOOTSTRAP = 10_000

MAX_UPLOAD_VARIABLE = "UPDATE_ROUGE_DEMO_MAX_MB"
MAX_SECONDS_VARIABLE = "UPDATE_ROUGE_DEMO_MAX_SECONDS"
# The demo's default LCS limit (about 10 s of one core for one example), unless the variable is set.
DEMO_MAX_LCS_CELLS = 20_000_000_000


class DemoError(ValueError):
    """A problem the demo reports as text next to the results (not as a stack trace)."""


def _positive_setting(variable: str, default: str, unit: str, environ) -> float:
    """The number in ``environ[variable]`` (``default`` when unset); ``ValueError`` naming the
    variable unless it is a finite number > 0."""
    text = environ.get(variable, default)
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ValueError(f"{variable} must be a number of {unit} > 0, got {text!r}")
    return value


def max_upload_mb(environ=os.environ) -> float:
    """The upload cap in megabytes (10**6 bytes): ``UPDATE_ROUGE_DEMO_MAX_MB``, 50 when unset."""
    return _positive_setting(MAX_UPLOAD_VARIABLE, "50", "megabytes", environ)


def max_request_seconds(environ=os.environ) -> float:
    """The most seconds a file is scored for: ``UPDATE_ROUGE_DEMO_MAX_SECONDS``, 120 when unset."""
    return _positive_setting(MAX_SECONDS_VARIABLE, "120", "seconds", environ)


def serve_limits(environ=os.environ) -> None:
    """Lower the LCS limit to ``DEMO_MAX_LCS_CELLS`` in ``environ`` unless it is set there: run
    when the demo is served, so that one example holds the (one-at-a-time) queue seconds, not minutes."""
    environ.setdefault(package_module("lcs_limits").MAX_PYTHON_LCS_CELLS_VARIABLE, str(DEMO_MAX_LCS_CELLS))


def settings_from(
    rouge_types: Sequence[str],
    stemmer: str,
    language: str = NO_LANGUAGE,
    remove_stopwords: bool = False,
    max_words: Optional[float] = None,
    max_bytes: Optional[float] = None,
    alpha: float = 0.5,
    confidence_level: str = "0.95",
    multi_ref: str = DEFAULTS["multi_ref"],
    n_bootstrap: Any = DEFAULTS["n_bootstrap"],
    seed: Any = DEFAULTS["seed"],
    additions: str = DEFAULTS["additions"],
    average: str = DEFAULTS["average"],
) -> Any:
    """The ``Settings`` of the options on screen; 0 or empty for max_words/max_bytes is no limit,
    empty (``None``) n_bootstrap or seed, additions or average is the default.

    Raises ``DemoError`` naming the option for unusable values.
    """
    options = dict(
        rouge_types=_ordered_types(rouge_types),
        stemmer=stemmer,
        language=None if language in (None, NO_LANGUAGE) else language,
        remove_stopwords=bool(remove_stopwords),
        max_words=_limit(max_words, "max_words"),
        max_bytes=_limit(max_bytes, "max_bytes"),
        alpha=_alpha(alpha),
        confidence_level=CONFIDENCE_LEVELS.get(confidence_level, DEFAULTS["confidence_level"]),
        multi_ref=multi_ref or DEFAULTS["multi_ref"],
        n_bootstrap=DEFAULTS["n_bootstrap"] if n_bootstrap is None else n_bootstrap,
        seed=DEFAULTS["seed"] if seed is None else seed,
        additions=additions or DEFAULTS["additions"],
        average=average or DEFAULTS["average"],
    )
    try:
        return Settings(**options)
    except (TypeError, ValueError) as error:
        raise DemoError(str(error)) from None


def _limit(value: Any, name: str) -> Optional[int]:
    """A length limit as the screen or the HTTP API gives it (a number or its text); ``DemoError``
    naming ``name`` for anything but a whole number >= 0 (NaN, infinities, words, booleans)."""
    if value in (None, "", 0) and not isinstance(value, bool):
        return None
    try:
        number = value if isinstance(value, int) and not isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not math.isfinite(number) or number != int(number) or number < 0:
        raise DemoError(f"{name} must be {LIMIT_RULE}, got {value!r}")
    return int(number) or None


def _alpha(value: Any) -> float:
    """alpha as the screen or the HTTP API gives it; ``DemoError`` naming it unless a number."""
    if value is None:
        return DEFAULTS["alpha"]
    try:
        if isinstance(value, bool):
            raise TypeError
        return float(value)
    except (TypeError, ValueError):
        raise DemoError(f"alpha must be {ALPHA_RULE}, got {value!r}") from None


def _ordered_types(rouge_types: Sequence[str]) -> List[str]:
    """The chosen types in the order of ``ROUGE_TYPE_CHOICES``, then any others as given."""
    chosen = list(rouge_types or [])
    return [t for t in ROUGE_TYPE_CHOICES if t in chosen] + [t for t in chosen if t not in ROUGE_TYPE_CHOICES]


# Each option's value on screen where it differs from the table's default (``None``): the
# controls show "none", 0 (no limit), the no-language entry, the level as text.
SCREEN_DEFAULTS = {
    "rouge_types": list(DEFAULT_ROUGE_TYPES),
    "stemmer": "none",
    "language": NO_LANGUAGE,
    "max_words": 0,
    "max_bytes": 0,
    "confidence_level": f"{DEFAULTS['confidence_level']:.2f}",
}
# The options whose help is not shown under their control: it would push Score off a phone's first screen.
TERSE = ("rouge_types", "stemmer")


def option_control(name: str) -> Dict[str, Any]:
    """The keyword arguments of the control of option ``name`` taken from the option table
    (``update_rouge.settings.OPTIONS``): its name as the label, its help as the info (except
    ``TERSE`` ones), its default as shown on screen (``SCREEN_DEFAULTS``) and its choices."""
    option = OPTION_BY_NAME[name]
    control: Dict[str, Any] = {"label": option.name, "value": SCREEN_DEFAULTS.get(name, option.default)}
    if name not in TERSE:
        control["info"] = option.help
    if option.choices:
        control["choices"] = list(option.choices)
    return control


def option_component(kind: Any, name: str, **kwargs: Any) -> Any:
    """A ``kind`` (a gradio component class) for option ``name``: ``option_control(name)`` with
    ``kwargs`` (layout, or the demo's own choices) added, the name kept as its ``option`` attribute."""
    component = kind(**option_control(name), **kwargs)
    component.option = name
    return component


def option_number(option: str, rule: str, **kwargs: Any) -> gr.Number:
    """A ``gr.Number`` for option ``option`` (``option_component``) whose value gradio's
    own conversion fails on (NaN or an infinity where a whole number is expected, text) is refused
    with ``gr.Error`` naming the option and ``rule``, not gradio's bare ``ValueError`` ("cannot
    convert float NaN to integer"). Its ``preprocess`` is wrapped, not overridden in a subclass:
    gradio writes a ``.pyi`` file beside the module of every component subclass."""
    number = option_component(gr.Number, option, **kwargs)
    convert = number.preprocess

    def preprocess(payload: Any) -> Any:
        try:
            return convert(payload)
        except (TypeError, ValueError, OverflowError):
            raise gr.Error(f"{option} must be {rule}, got {payload!r}", print_exception=False) from None

    number.preprocess = preprocess  # type: ignore[method-assign]
    return number


def _options_of(settings: Any) -> Dict[str, Any]:
    """The keyword options of ``compute`` that differ from the defaults, in the table's order."""
    chosen = {
        "rouge_types": list(settings.rouge_types),
        "stemmer": settings.stemmer,
        "language": settings.language,
        "remove_stopwords": settings.remove_stopwords,
        "max_words": settings.max_words,
        "max_bytes": settings.max_bytes,
        "alpha": settings.alpha,
        "confidence_level": settings.confidence_level,
        "multi_ref": settings.multi_ref,
        "n_bootstrap": settings.n_bootstrap,
        "seed": settings.seed,
        "additions": settings.additions,
        "average": settings.average,
    }
    defaults = {**DEFAULTS, "rouge_types": list(DEFAULT_ROUGE_TYPES), "stemmer": "none"}
    return {name: value for name, value in chosen.items() if value != defaults[name]}


# The metric's id where the demo runs outside a Space (no ``SPACE_ID``): the reader fills it in.
PLACEHOLDER_ID = "<namespace>/update_rouge"
# The examples file the Reproduce code reads (JSONL: source, reference, prediction, the baseline column).
EXAMPLES_NAME = "examples.jsonl"


def metric_id(environ=os.environ) -> str:
    """What ``evaluate.load`` takes to load this demo's metric from the Hub: the Space's own
    ``owner/name`` (``SPACE_ID``, which Hugging Face sets in a Space), else ``PLACEHOLDER_ID``."""
    return environ.get("SPACE_ID") or PLACEHOLDER_ID


def pinned_revision() -> str:
    """The Space revision the Reproduce code pins: the tag ``v<version>`` of the package the demo
    scores with (docs/publishing.md tags every release of the Space so; ``evaluate.load``'s
    ``revision``)."""
    return f"v{package_module('version').__version__}"


def reproduce(*options: Any, baseline_column: str = "", environ=os.environ) -> str:
    """Python that, run in a fresh Python with the Space's requirements next to ``EXAMPLES_NAME``,
    computes and prints what the demo shows for these options (``settings_from``'s arguments):
    ``evaluate.load(metric_id(environ), revision=pinned_revision())``, every option that differs
    from the defaults, and ``baseline_predictions`` read from ``baseline_column`` when one is
    named; then the same as a command line (``update-rouge compare`` with a baseline). Unusable
    options give the error as a comment."""
    try:
        settings = settings_from(*options)
    except DemoError as error:
        return f"# {error}"
    chosen = _options_of(settings)
    baseline = (baseline_column or "").strip()
    arguments = "".join(f"    {name}={value!r},\n" for name, value in chosen.items())
    if baseline:
        arguments += f"    baseline_predictions=[row[{baseline!r}] for row in rows],\n"
    cli = []
    for name, value in chosen.items():
        flag = OPTION_BY_NAME[name].cli_flag
        if value is True:
            cli.append(flag)
        elif isinstance(value, list):
            cli.append(f"{flag} {' '.join(value)}")
        else:
            cli.append(f"{flag} {'none' if value is None else value}")
    command = f"update-rouge {EXAMPLES_NAME}"
    if baseline:
        command = f"update-rouge compare {EXAMPLES_NAME} --system prediction --system {baseline} --baseline {baseline}"
    return (
        "import json\n\n"
        "import evaluate\n\n"
        f"# {EXAMPLES_NAME}: one JSON object a line with source, reference and prediction"
        + (f" (and {baseline})" if baseline else "")
        + ".\n"
        f'with open("{EXAMPLES_NAME}", encoding="utf-8") as handle:\n'
        "    rows = [json.loads(line) for line in handle if line.strip()]\n"
        f"update_rouge = evaluate.load({metric_id(environ)!r}, revision={pinned_revision()!r})\n"
        "result = update_rouge.compute(\n"
        "    sources=[row['source'] for row in rows],\n"
        "    predictions=[row['prediction'] for row in rows],\n"
        "    references=[row['reference'] for row in rows],\n"
        f"{arguments}"
        "    return_signature=True,\n"
        ")\n"
        "print(json.dumps(result, indent=2))\n\n"
        "# The same from the command line (pip install update-rouge):\n"
        f"# {command} {' '.join(cli)}".rstrip()
        + "\n"
    )
