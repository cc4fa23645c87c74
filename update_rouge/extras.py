"""The optional extras: the error when one is missing, and what counts as installed.

A package counts as installed only when Python finds the package itself, not a namespace package
(which any folder of that name on the path makes, holding none of its code). ``installed`` asks
without importing; ``extra_imports`` checks what a block of imports gave.
"""

import contextlib
import importlib.util
import sys
from collections.abc import Iterator, Mapping

from .errors import Part, UpdateRougeError


class MissingExtra(UpdateRougeError, ImportError):
    """An optional extra of update-rouge is not installed (a language's word segmenter, Ray): an
    ``UpdateRougeError`` and an ``ImportError``.

    Its message, ``parts``, is one line naming the ``pip install`` command that installs it and
    the option that needs it as a mention (``Setting("language", "zh")``), which each door
    renders in its own words (``language='zh'``, ``--language zh``).
    """

    def __init__(self, *parts: Part):
        super().__init__(*parts)
        self.parts = parts


def installed(name: str) -> bool:
    """Whether the top-level module ``name`` is installed: found as a module or a regular
    package, not as a namespace package (a folder without ``__init__.py``; see the module
    docstring). Nothing is imported."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # a module of that name in sys.modules without a spec
        return False
    return spec is not None and spec.origin is not None


def is_package(module: object, attribute: str) -> bool:
    """Whether the imported ``module`` is the package that holds ``attribute``: a file of code
    (``__file__``: a namespace package has none) with that attribute."""
    return getattr(module, "__file__", None) is not None and hasattr(module, attribute)


@contextlib.contextmanager
def extra_imports(message: str, expected: Mapping[str, str]) -> Iterator[None]:
    """Within the block, the imports of an optional extra: an ``ImportError`` becomes
    ``MissingExtra(message)``, and so does each module ``name`` of ``expected`` that the block
    imported as anything but the package holding ``expected[name]`` (``is_package``), with
    where Python found it."""
    try:
        yield
    except MissingExtra:
        raise
    except ImportError as error:
        raise MissingExtra(message) from error
    for name, attribute in expected.items():
        module = sys.modules.get(name)
        if not is_package(module, attribute):
            where = getattr(module, "__file__", None) or ", ".join(getattr(module, "__path__", None) or ["nowhere"])
            raise MissingExtra(f"{message} (the {name} that Python finds, {where}, is not that package)")
