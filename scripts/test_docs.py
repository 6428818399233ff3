#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The documentation builds: the manual (doc/quic-cc.rst and the documents of its toctree) with
Sphinx as ns-3's module doc trees build theirs (doc/conf.py, master document quic-cc, every
warning an error); the Markdown files link only to files and .rst sections that exist;
README's headline table and the results document's default death-spiral and HyStart++ lab 0 %
tables are the golden runs' numbers.

  test_docs.py [WORK_DIR]

Needs Debian's python3-sphinx (in DEB_PACKAGES; run with /usr/bin/python3).
"""

import csv
import math
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "doc"
RESULTS = DOC / "quic-cc-results.rst"
DOCS = sorted(DOC.glob("*.rst"))
MARKDOWN = ["README.md", "CHANGES.md"]
GOLDEN = ROOT / "test" / "golden"  # the death-spiral baseline the golden-* tests re-run
WORK = None  # set from argv: where the Sphinx output goes

try:
    import docutils.core
    import sphinx.cmd.build  # noqa: F401 (presence check: the test needs Sphinx itself)
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit(f"test_docs.py: {e}: install Debian's python3-sphinx (make deps) and run with /usr/bin/python3")


def sphinx_build(source_dir, out_dir):
    """sphinx-build -W --keep-going -b html with doc/conf.py; returns (exit status, stderr)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
           "-c", str(DOC), "-d", str(out_dir / "doctrees"), str(source_dir), str(out_dir / "html")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr


def rst_section_titles(text):
    """Every section title of an .rst text (a line followed by an underline of one punctuation
    character at least as long)."""
    lines = text.splitlines()
    titles = []
    for prev, line in zip(lines, lines[1:]):
        if (prev.strip() and line and len(set(line)) == 1 and line[0] in "=-*#^~+\"'"
                and len(line) >= len(prev.rstrip()) and len(set(prev.strip())) > 1):
            titles.append(prev.strip())
    return titles


def github_anchor(title):
    """The id GitHub gives a Markdown heading: lower case, punctuation dropped except '-' and '_',
    spaces to '-'."""
    return re.sub(r"[^\w\- ]", "", title.replace("`", "").lower()).replace(" ", "-")


def rst_section_ids(rst):
    """The ids docutils gives the sections of one .rst file (GitHub renders .rst with docutils, so
    these are the anchors of doc/<file>.rst#...; Sphinx's roles are unknown there and ignored)."""
    html = docutils.core.publish_string(rst.read_text(), source_path=str(rst), writer_name="html",
                                        settings_overrides={"report_level": 5}).decode()
    return set(re.findall(r'class="section" id="([^"]+)"', html))


class SphinxBuild(unittest.TestCase):
    def test_manual_builds_without_warnings(self):
        status, err = sphinx_build(DOC, WORK / "sphinx")
        self.assertEqual(status, 0, f"sphinx-build -W failed on doc/:\n{err}")
        self.assertEqual(err.strip(), "", err)
        self.assertGreaterEqual(len(DOCS), 5)
        for rst in DOCS:
            html = (WORK / "sphinx" / "html" / f"{rst.stem}.html").read_text()
            # Every section made it into its page: the build did not stop half-way or swallow one.
            self.assertEqual(html.count("<section id="), len(rst_section_titles(rst.read_text())), rst.name)
            for fig in re.findall(r"^\.\. (?:figure|image):: (\S+)", rst.read_text(), flags=re.M):
                self.assertTrue((DOC / fig).is_file(), f"figure {fig} missing")
                self.assertTrue((WORK / "sphinx" / "html" / "_images" / pathlib.Path(fig).name).is_file(), fig)

    def test_a_bad_heading_fails_the_build(self):
        # The check can fail: the defect it guards against (a subsection underlined with the chapter's
        # character) must stop the build.
        with tempfile.TemporaryDirectory(dir=WORK) as d:
            src = pathlib.Path(d) / "src"
            src.mkdir()
            (src / "quic-cc.rst").write_text(
                "Chapter\n-------\n\nSection\n*******\n\nSub\n===\n\nBad\n---\n\ntext\n\nNext\n====\n")
            status, err = sphinx_build(src, pathlib.Path(d) / "out")
            self.assertNotEqual(status, 0)
            self.assertIn("Title level inconsistent", err)


class MarkdownLinks(unittest.TestCase):
    def test_links_point_at_files_and_sections_that_exist(self):
        rst_anchors = {f"doc/{rst.name}": rst_section_ids(rst) for rst in DOCS}
        checked = 0
        for name in MARKDOWN:
            md = ROOT / name
            if not md.exists():
                continue
            text = md.read_text()
            own = {github_anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
            for target in re.findall(r"\]\(([^)\s]+)\)", text):
                if re.match(r"[a-z]+://", target):
                    continue
                path, _, anchor = target.partition("#")
                checked += 1
                if path:
                    self.assertTrue((ROOT / path).exists(), f"{name}: link to missing {path}")
                if not anchor:
                    continue
                if not path:
                    self.assertIn(anchor, own, f"{name}: no section #{anchor}")
                elif path in rst_anchors:
                    self.assertIn(anchor, rst_anchors[path], f"{name}: {path} has no section #{anchor}")
        self.assertGreater(checked, 10)

    def test_readme_lists_every_example(self):
        readme = (ROOT / "README.md").read_text()
        examples = sorted(f.stem for f in (ROOT / "examples").glob("*.cc"))
        self.assertGreaterEqual(len(examples), 5)
        for name in examples:
            self.assertIn(f"`build/examples/{name}`", readme, f"README's quick start lacks {name}")
            user = (DOC / "quic-cc-user.rst").read_text()
            self.assertIn(f"\n{name}\n===", user, f"doc/quic-cc-user.rst has no section on {name}")


def markdown_table(text, first_header, second_header=None):
    """Rows (lists of cells) of the Markdown table whose first (and second) header cell is given."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        cells = line.split("|")
        if (line.startswith("| ") and cells[1].strip() == first_header
                and (second_header is None or cells[2].strip() == second_header)):
            rows = []
            for row in lines[n + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    return []


class ResultsAreTheGoldenRuns(unittest.TestCase):
    """Tables of numbers the code produces are checked against the golden runs that the
    golden-* tests re-run (test/golden: CSV and the table the example printed with it): README's
    headline table (its ngtcp2-* rows: the ngtcp2 golden batch), the results document's default
    death-spiral comparison and its HyStart++ lab 0 % loss counts."""

    def test_readme_table_is_the_golden_batch(self):
        readme_rows = markdown_table((ROOT / "README.md").read_text(), "config")
        self.assertGreaterEqual(len(readme_rows), 3)
        # The quic-cc rows are the golden batch's, the ngtcp2-* rows the ngtcp2 golden batch's.
        printed = {}
        runs = []
        for batch in ("death-spiral-all", "death-spiral-ngtcp2"):
            for line in (GOLDEN / f"{batch}.txt").read_text().splitlines():
                m = re.match(r"(\S+)\s+(\d+)\s+(\d+/\d+)\s+([\d.]+)\s+(\[[\d., ]+\])\s+([\d.]+)\s+([\d.]+) \|\s+(\S+)", line)
                if m:
                    printed[m.group(1)] = m.groups()
            with (GOLDEN / f"{batch}.csv").open() as f:
                runs += list(csv.DictReader(f))
        for row in readme_rows:
            config = row[0].split(" ")[0]
            self.assertIn(config, printed, f"README row {config}: not in the golden batch")
            _, n, completed, fail, ci, median, p90, pinned = printed[config]
            self.assertEqual(row[1:], [completed, fail, ci, median, p90, pinned], config)
            mine = [r for r in runs if r["config"] == config]
            done = [float(r["completion_s"]) for r in mine if r["completed"] == "1"]
            self.assertEqual(f"{len(done)}/{len(mine)}", completed, config)
            # The table's median is the nearest-rank one (QuicCcQuantile(times, 0.5)).
            nearest_rank = sorted(done)[math.ceil(len(done) / 2) - 1]
            self.assertEqual(f"{nearest_rank:.2f}", median, config)

    def test_results_default_comparison_is_the_golden_batch(self):
        rows = rst_list_table(RESULTS.read_text(), "Death spiral, default path")
        self.assertEqual([r[0] for r in rows],
                         ["cubic-LastSent", "cubic-LastActivity", "cubic-LastSentClamped", "cubic-Off", "reno",
                          "ngtcp2-cubic", "ngtcp2-reno", "ngtcp2-bbr"])
        printed = {line.split()[0]: line.replace("|", " ").split()
                   for batch in ("death-spiral-all", "death-spiral-ngtcp2")
                   for line in (GOLDEN / f"{batch}.txt").read_text().splitlines()
                   if line.startswith(("cubic-", "reno ", "ngtcp2-"))}
        for row in rows:
            words = printed[row[0]]
            # config runs completed fail% [lo, hi] median p90 pinned cwnd@2s cwnd@7s transitions cycle
            expected = [words[2], words[3], f"{words[4]} {words[5]}"] + words[6:]
            self.assertEqual([c.replace("\\-", "-") for c in row[1:]], expected, row[0])

    def test_results_hystart_zero_loss_tables_are_the_golden_runs(self):
        text = RESULTS.read_text()
        golden = {}
        buffer = None
        for line in (GOLDEN / "hystart-lab-0pct.txt").read_text().splitlines():
            m = re.match(r"Buffer ([\d.]+ BDP|1000 packets)", line)
            if m:
                buffer = m.group(1).replace(" packets", " pkts")
            elif buffer and re.match(r"(lost|sent) pkts\s+[\d.]", line):
                golden[(line[:9], buffer)] = [f"{float(v):.0f}" for v in line[9:].split()]
        self.assertEqual(len(golden), 8)
        for kind, first_row in (("lost pkts", "0.5 BDP (14 pkts)"), ("sent pkts", "0.5 BDP")):
            table = rst_simple_table(text, first_row)
            for (k, buffer), values in golden.items():
                if k != kind:
                    continue
                row = next((r for r in table if r[0].startswith(buffer)), None)
                self.assertIsNotNone(row, f"{kind}: no row {buffer}")
                self.assertEqual(row[1:], values, f"{kind}, {buffer}")


def rst_list_table(text, caption):
    """Rows of the list-table whose caption starts with caption (header row left out)."""
    body = text[text.index(f".. list-table:: {caption}"):]
    rows = []
    for line in body.splitlines()[1:]:
        if line.startswith("   * - "):
            rows.append([line[7:].strip()])
        elif line.startswith("     - ") and rows:
            rows[-1].append(line[7:].strip())
        elif line and not line.startswith("   "):
            break
    return rows[1:]


def rst_simple_table(text, first_cell):
    """Rows of the simple table (==== borders) whose first body row starts with first_cell."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(first_cell + "  "))
    rows = []
    for line in lines[start:]:
        if line.startswith("="):
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


if __name__ == "__main__":
    WORK = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else tempfile.mkdtemp()).resolve()
    WORK.mkdir(parents=True, exist_ok=True)
    unittest.main(verbosity=2)
