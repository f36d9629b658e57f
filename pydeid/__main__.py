import sys

from pydeid.cli import main

sys.exit(main())
