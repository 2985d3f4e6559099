"""Files that name a file outside their folder (issue 14, "file access confined"): `extends`,
`house:` in a rulebook and in an overlay, a scenario's `rulebook:` and `house:`, each by a
relative `../` path, an absolute path and a symlink; and a rulebook whose `house:` lists
5,000 paths outside its folder. Every one is refused unread: exit 1 (2 for a scenario
file). tests/test_resources.py asserts the messages and that the planted secret never shows.
"""

from __future__ import annotations

from pathlib import Path

VIA = {  # file name, text with REF, command, exit code
    "extends": ("rb.yaml", "name: evil\nextends: REF\n", ["validate"], 1),
    "rulebook house:": ("house.yaml", "name: evil\nextends: classic\nhouse: [REF]\n",
                        ["validate"], 1),
    "overlay house:": ("overlay.yaml", "title: evil\nhouse: [REF]\n",
                       ["deck", "classic", "--house"], 1),
    "scenario rulebook:": ("s.yaml", "rulebook: REF\nplayers: 2\nname: x\nsteps: []\n",
                           ["scenario"], 2),
    "scenario house:": ("sh.yaml", "rulebook: classic\nhouse: [REF]\nplayers: 2\nname: x\n"
                        "steps: []\n", ["scenario"], 2),
}


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    secret = tmp / "secret.yaml"
    secret.write_text("db_password: hunter2\nsettings: {hand_size: hunter2}\n")
    out = []
    for how, ref in [("relative", "../secret.yaml"), ("absolute", str(secret)),
                     ("symlink", "conf.yaml")]:
        folder = tmp / how
        folder.mkdir()
        (folder / "conf.yaml").symlink_to(secret)
        for via, (name, text, command, code) in VIA.items():
            (folder / name).write_text(text.replace("REF", ref))
            out.append((f"{via} {how} outside", [*command, str(folder / name)], code))
    many = tmp / "many" / "rb.yaml"
    many.parent.mkdir()
    many.write_text("name: evil\nextends: classic\nhouse:\n"
                    + "".join(f"  - ../x{i}.yaml\n" for i in range(5_000)))
    out.append(("5,000 house: paths outside", ["validate", str(many)], 1))
    return out
