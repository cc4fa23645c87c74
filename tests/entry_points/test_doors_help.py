"""Each option's one help text (``update_rouge.settings.OPTIONS``) as each door renders it: the
evaluate description and ``compute``'s docstring in keywords, the command line's ``--help`` in
flags, the demo's controls in their labels; no door's text speaks another door's words."""

import argparse
import re

import pytest
from conftest import run_main

from demo import options as demo_options
from update_rouge.cli.runner import add_table_options
from update_rouge.errors import Name, Setting
from update_rouge.settings import OPTION_BY_NAME, OPTIONS, rendered

FLAG = re.compile(r"(?<![\w-])--[a-z]")
KEYWORD = re.compile(r"\b[a-z_][a-z0-9_]*=")
PYTHON_CONSTANT = re.compile(r"\b(?:True|False|None)\b")
# An option named as the page names it, with its value in quotes: stemmer "porter".
SCREEN_SETTING = re.compile(r"\b(?:" + "|".join(option.name for option in OPTIONS) + r') "')


def help_in_flags():
    """Each command-line option's help as ``--help`` shows it (argparse's text of the table)."""
    parser = argparse.ArgumentParser()
    add_table_options(parser)
    return {action.dest: action.help for action in parser._actions if action.dest in OPTION_BY_NAME}


def help_in_page():
    """The help of each option the page offers, in the page's words (as the controls' info)."""
    return {name: rendered(OPTION_BY_NAME[name].help, demo_options.SCREEN) for name in demo_options.OPTION_NAMES}


def test_every_mention_in_the_table_names_an_option():
    for option in OPTIONS:
        texts = (option.help, option.shown_default or "")
        mentions = [part for text in texts if not isinstance(text, str) for part in text if not isinstance(part, str)]
        assert all(isinstance(part, (Name, Setting)) for part in mentions), option.name
        assert {part.option for part in mentions} <= set(OPTION_BY_NAME), option.name


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_the_evaluate_description_speaks_keywords_only(option):
    text = option.described()
    assert not FLAG.findall(text) and not SCREEN_SETTING.findall(text)


@pytest.mark.parametrize("name", list(help_in_flags()))
def test_the_command_line_help_speaks_flags_only(name):
    text = help_in_flags()[name]
    assert not KEYWORD.findall(text) and not PYTHON_CONSTANT.findall(text) and not SCREEN_SETTING.findall(text)
    # No option the command line offers is named by its keyword (max_bytes for --max-bytes).
    keywords = [option.name for option in OPTIONS if option.cli is not None and "_" in option.name]
    assert not re.findall(r"(?<![-\w])(?:" + "|".join(keywords) + r")\b", text)


@pytest.mark.parametrize("name", demo_options.OPTION_NAMES)
def test_the_demo_help_speaks_the_pages_words_only(name):
    text = help_in_page()[name]
    assert not FLAG.findall(text) and not KEYWORD.findall(text) and not PYTHON_CONSTANT.findall(text)


def test_one_text_is_spelled_at_each_door():
    use_stemmer, confidence_level, deletions = (
        OPTION_BY_NAME[name] for name in ("use_stemmer", "confidence_level", "deletions")
    )
    assert use_stemmer.described().startswith(
        "`use_stemmer=True` is an alias of `stemmer='porter'` (with a `language`, of `stemmer='snowball'`)"
    )
    helps = help_in_flags()
    assert helps["use_stemmer"].startswith(
        "--use-stemmer is an alias of --stemmer porter (with a --language, of --stemmer snowball)"
    )
    assert "`confidence_level=None` for none. Defaults to `0.95`." in confidence_level.described()
    assert "--confidence-level none for none. Defaults to `0.95`." in helps["confidence_level"]
    assert 'confidence_level "none" for none.' in help_in_page()["confidence_level"]
    assert "with `additions='edits'`, the runs" in deletions.described()
    assert "with --additions edits, the runs" in helps["deletions"] and helps["deletions"].endswith(
        "Not with --protocol."
    )
    assert 'with additions "edits", the runs' in help_in_page()["deletions"]
    # A switch is off unless given: its command-line help states no default.
    assert "Defaults to" not in helps["deletions"] and deletions.described().endswith("Defaults to `False`.")
    assert helps["max_words"].endswith("not with --max-bytes. Defaults to no limit.")


@pytest.mark.parametrize("help_of", [["--help"], ["score", "--help"], ["compare", "--help"]])
def test_the_command_lines_help_speaks_flags_not_python(help_of, capsys):
    status, out, _ = run_main(help_of, capsys)
    assert status == 0 and "--rouge-types" in out and "--protocol" in out  # the table's options are there
    assert re.findall(r"\b(?:True|False|None)\b", out) == []
    # Python's keyword syntax, stemmer="porter" (NAME=FILE, a metavar, is in capitals).
    assert re.findall(r"\b[a-z_][a-z0-9_]*=", out) == []
