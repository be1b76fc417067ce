"""``python -m cardmind``: the same as the ``cardmind`` command."""

import sys

from .cli import main

sys.exit(main())
