import sys

from benchlab.cli import main

sys.exit(main(sys.argv[1:]))
