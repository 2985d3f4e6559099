"""Time and memory of hostile inputs, each in a fresh process: every one must end with
its exit code (1 for bad input, 2 for a scenario file; 0 for a valid rulebook whose rounds
must still end) within 2 s of CPU time and 200 MB. CI runs this script;
the tests (tests/test_hostile.py) check the messages.

Run: ``python bench/hostile.py`` (exit 1 if any input is over its limits).

Besides the cases below, every module in ``bench/hostile_cases/`` that defines
``cases(tmp: Path) -> list[(name, args, exit code)]`` adds its own (one module per class of
hostile input, made in the temporary folder ``tmp``). The children share a fresh
compiled-rulebook cache folder (``UNO_RULES_CACHE``), never the user's.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

CPU_SECONDS, MEGABYTES = 2.0, 200


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    big = tmp / "big.yaml"
    big.write_text("name: big\n# " + "x" * 5_000_000 + "\n")
    fifo = tmp / "fifo.yaml"
    os.mkfifo(fifo)
    utf16 = tmp / "utf16.yaml"
    utf16.write_bytes("name: x\n".encode("utf-16"))
    deep = tmp / "deep.yaml"
    deep.write_text("a: " + "[" * 50_000 + "]" * 50_000 + "\n")
    bomb = "[" + ",".join(["&a [x,x,x,x,x,x,x,x,x]"] + ["*a"] * 8) + "]"
    for level in range(1, 9):
        bomb = f"&l{level} " + bomb if level == 1 else bomb
    alias = ("a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
             "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
             "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
             "g: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n")
    set_bomb = ("[&a [x,x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], "
                "&c [*b,*b,*b,*b,*b,*b,*b,*b,*b], &d [*c,*c,*c,*c,*c,*c,*c,*c,*c], "
                "&e [*d,*d,*d,*d,*d,*d,*d,*d,*d], [*e,*e,*e,*e,*e,*e,*e,*e,*e]]")
    aliases = tmp / "aliases.yaml"
    aliases.write_text(alias)
    for i in range(1500):
        base = "classic" if i == 0 else f"chain{i - 1}.yaml"
        (tmp / f"chain{i}.yaml").write_text(f"name: c{i}\nextends: {base}\n")
    long_int = tmp / "long_int.yaml"
    long_int.write_text("name: x\nextends: classic\nsettings: {hand_size: " + "9" * 5000 + "}\n")
    copies = tmp / "copies.yaml"
    copies.write_text("name: x\nextends: classic\ndeck:\n  numbers: {ranks: [1], colors: all, "
                      "copies: 10000000}\n")
    return [
        ("/dev/zero", ["validate", "/dev/zero"], 1),
        ("/dev/urandom", ["validate", "/dev/urandom"], 1),
        ("a FIFO", ["validate", str(fifo)], 1),
        ("a FIFO as a scenario", ["scenario", str(fifo)], 2),
        ("5 MB file", ["validate", str(big)], 1),
        ("UTF-16 file", ["validate", str(utf16)], 1),
        ("50,000 levels of nesting", ["validate", str(deep)], 1),
        ("alias bomb file", ["validate", str(aliases)], 1),
        ("alias bomb in --set", ["simulate", "classic", "--games", "1", "--set",
                                 f"hand_size={set_bomb}"], 1),
        ("--games 10**23", ["simulate", "classic", "--games", "9" * 23], 1),
        ("hand_size 7.0", ["simulate", "classic", "--games", "1", "--set", "hand_size=7.0"], 1),
        ("extends chain of 1,500", ["validate", str(tmp / "chain1499.yaml")], 1),
        ("a 5,000-digit integer", ["validate", str(long_int)], 1),
        ("copies: 10000000", ["validate", str(copies)], 1),
    ]


def more_cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    """The cases of every module in bench/hostile_cases/, each given a folder of its own."""
    out: list[tuple[str, list[str], int]] = []
    for module_path in sorted((Path(__file__).parent / "hostile_cases").glob("*.py")):
        spec = importlib.util.spec_from_file_location(module_path.stem, module_path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        folder = tmp / module_path.stem
        folder.mkdir()
        out.extend(module.cases(folder))
    return out


def measure(args: list[str]) -> tuple[int, float, float, str]:
    """Exit code, CPU seconds and peak MB of ``uno-rules ARGS`` in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "uno_rules.cli", *args], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    peak_mb = after.ru_maxrss / 1024  # Linux: kilobytes; the largest child so far
    last = (proc.stderr or proc.stdout).strip().splitlines()
    return proc.returncode, cpu, peak_mb, last[-1] if last else ""


def main() -> int:
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["UNO_RULES_CACHE"] = str(Path(tmp) / "uno-rules-cache")  # see cache.py
        for name, args, code in cases(Path(tmp)) + more_cases(Path(tmp)):
            got, cpu, peak, line = measure(args)
            ok = got == code and cpu < CPU_SECONDS and peak < MEGABYTES
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {name:<34} exit {got} (want {code}) "
                  f"{cpu:5.2f} s {peak:6.1f} MB  {line[:90]}")
    print(f"{failed} over the limits ({CPU_SECONDS} s CPU, {MEGABYTES} MB)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
