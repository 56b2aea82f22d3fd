import sys

from .cli import main

# guarded: `wadkit convert`'s worker processes import the main module again
if __name__ == "__main__":
    sys.exit(main())
