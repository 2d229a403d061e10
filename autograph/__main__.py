"""`python -m autograph convert ...`: the same command line as `autograph`."""
import sys

from autograph.cli import main

if __name__ == "__main__":
    sys.exit(main())
