#!/usr/bin/env python3
"""No output of hetscale speaks the project's paper numbers: every golden
(what the commands print) and a report page of every kind of input are read
for "seed 000"-style references and the old "seed000-fig1"-style figure
names. The papers are cited by their keys (docs/references.md: APGA 2004,
Chen et al. 2008, ...); data files keep their seedNNN names, which are file
names, not prose.

  check_no_jargon.py HETSCALE PROJECT_DIR
"""
import pathlib
import re
import subprocess
import sys
import tempfile

JARGON = re.compile(r"seed 0\d\d|seed0\d\d-fig")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    hetscale, project = sys.argv[1], pathlib.Path(sys.argv[2])
    texts = {}
    for folder in ("tests/cli/golden", "tests/smpi/golden"):
        for path in sorted((project / folder).rglob("*")):
            if path.is_file() and not path.name.endswith(".actual"):
                texts[str(path.relative_to(project))] = path.read_text(errors="replace")
    inputs = [project / "examples" / name for name in
              ("run-hetero.json", "run-measured.json", "run-measured-regions.json", "run-lammps-emulated.json",
               "run-simulated-seed000.json", "run-sunwulf.json")]
    inputs += sorted((project / "tests/cli/report").glob("*.json"))
    inputs += [project / "data/papers/seed001-section45.json"]
    with tempfile.TemporaryDirectory(prefix="hetscale-jargon-") as folder:
        page = pathlib.Path(folder) / "page.html"
        done = subprocess.run([hetscale, "report", *map(str, inputs), "--model", "two-processors,ewf-heterogeneity",
                               "--out", str(page)], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            sys.exit(f"check_no_jargon: hetscale report exited {done.returncode}: {done.stderr.strip()}")
        # The page's text, its figures' SVG (base64) left out.
        texts["report page of every kind of input"] = re.sub(r"base64,[A-Za-z0-9+/=]+", "", page.read_text())
    found = []
    for name, text in texts.items():
        for number, line in enumerate(text.splitlines(), 1):
            for match in JARGON.finditer(line):
                found.append(f"{name}:{number}: '{match.group(0)}' in: {line.strip()[:160]}")
    if found:
        sys.exit("check_no_jargon: paper numbers where paper keys belong:\n" + "\n".join(found))
    print(f"check_no_jargon: {len(texts)} outputs read, no paper numbers")


if __name__ == "__main__":
    main()
