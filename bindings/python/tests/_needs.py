"""Skip the tests of a command the library does not serve yet (its port is on a branch)."""
import unittest

import hwfit


def needs(*names):
    missing = [n for n in names if n not in hwfit.COMMANDS]
    return unittest.skipIf(missing, f"not a command of this library yet: {', '.join(missing)}")
