"""Runs every browser test against one server built from the given binary.

    /usr/bin/python3 scripts/test/browser/run.py .build/debug/onthemap [test name pattern]

Run with Debian's /usr/bin/python3, which sees the python3-selenium package.
"""
import os
import sys
import unittest

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) > 1:
        os.environ["ONTHEMAP_BINARY"] = os.path.abspath(sys.argv[1])
    sys.path.insert(0, here)
    loader = unittest.TestLoader()
    if len(sys.argv) > 2:
        loader.testNamePatterns = [f"*{sys.argv[2]}*"]
    suite = loader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
