"""The version of update-rouge, in its own module so that the evaluate script can import it.

``evaluate.load`` does not copy the package's ``__init__.py``; this module it does copy.
"""

__version__ = "0.2.0"
