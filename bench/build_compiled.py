"""Build the compiled engine into a folder, without installing it anywhere.

    python bench/build_compiled.py DIR

leaves an importable compiled ``uno_rules`` under DIR (``pip install --target DIR
--no-deps .`` with ``UNO_RULES_COMPILE=1``; pip fetches setuptools and mypy for the build
itself). Then ``PYTHONPATH=DIR python bench/bench.py`` measures the compiled build; its
dependencies (pyyaml, jsonschema, click) come from the running environment. DIR is
replaced. Prints the time the build took and checks that ``uno_rules.COMPILED`` is true
there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[0], "\nusage: python bench/build_compiled.py DIR",
              file=sys.stderr)
        return 1
    target = Path(argv[0]).resolve()
    if target.exists():
        shutil.rmtree(target)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-cache-dir", "--target", str(target), str(ROOT)],
                   env={**os.environ, "UNO_RULES_COMPILE": "1"}, check=True)
    took = time.perf_counter() - start
    check = subprocess.run([sys.executable, "-P", "-c", "import uno_rules; "
                            "print(uno_rules.__file__, uno_rules.COMPILED)"],
                           env={**os.environ, "PYTHONPATH": str(target)}, check=True,
                           capture_output=True, text=True).stdout.split()
    if check != [str(target / "uno_rules" / "__init__.py"), "True"]:
        print(f"not a compiled build under {target}: {check}", file=sys.stderr)
        return 1
    print(f"compiled uno_rules under {target} in {took:.0f} s "
          f"(PYTHONPATH={target} python bench/bench.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
