"""`python -m rulelang ...` is the same as the `rulelang` command."""
import sys

from rulelang.tools.cli import main

if __name__ == "__main__":
    sys.exit(main())
