"""matplotlib for the plot scripts: the pyplot module on the file-only Agg backend, or, when this
interpreter cannot import matplotlib, one line on stderr naming the fix and exit status 2."""

import pathlib
import sys


def pyplot():
    """matplotlib.pyplot with the Agg backend (no display needed)."""
    try:
        import matplotlib
    except ImportError:
        sys.stderr.write(f"{pathlib.Path(sys.argv[0]).name}: {sys.executable} cannot import matplotlib: run "
                         "/usr/bin/python3 with Debian's python3-matplotlib (apt-get install python3-matplotlib)\n")
        sys.exit(2)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
