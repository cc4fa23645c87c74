"""The error of a missing optional extra."""


class MissingExtra(ImportError):
    """An optional extra of update-rouge is not installed (a language's word segmenter, Ray).

    Its message is one line naming the ``pip install`` command that installs it: ``compute``,
    the evaluate module and the worker processes raise it as it is, the command line prints it
    and exits with status 2, the demo shows it.
    """
