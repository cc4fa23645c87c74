import sys

from .cli import run_program

sys.exit(run_program())
