#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The documentation: the manual (doc/quic-cc.rst and the documents of its toctree) builds with
Sphinx as ns-3's module doc trees build theirs (doc/conf.py, every warning an error), and every
page is looked at in headless Chromium (a screenshot per page; in the DOM: no raw reST, no
broken table, every internal link resolves, nothing wider than the window); the Markdown files
link only to files and sections that exist; each headline result is written once in doc/ (at
most once more in README, checked against the golden runs), the supported-versions table once;
the manual holds no history.

  test_docs.py [WORK_DIR]

Needs Debian's python3-sphinx, python3-matplotlib (its PNG reader) and chromium (all in
DEB_PACKAGES; run with /usr/bin/python3). Screenshots: WORK_DIR/screenshots/<page>.png.
"""

import concurrent.futures
import csv
import html
import html.parser
import json
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
USER = DOC / "quic-cc-user.rst"
DOCS = sorted(DOC.glob("*.rst"))
README = ROOT / "README.md"
MARKDOWN = ["README.md", "CHANGES.md"]
GOLDEN = ROOT / "test" / "golden"  # the baselines the golden-* tests re-run
WORK = None  # set from argv: where the Sphinx output and the screenshots go
WINDOW = (1280, 1600)  # the browser window of the screenshots, CSS pixels

try:
    import docutils.core
    import matplotlib.image
    import sphinx.cmd.build  # noqa: F401 (presence check: the test needs Sphinx itself)
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit(f"test_docs.py: {e}: install Debian's python3-sphinx and python3-matplotlib (make deps) "
             "and run with /usr/bin/python3")


def sphinx_build(source_dir, out_dir):
    """sphinx-build -W --keep-going -n -b html with doc/conf.py; returns (exit status, stderr)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
           "-c", str(DOC), "-d", str(out_dir / "doctrees"), str(source_dir), str(out_dir / "html")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr


_BUILT = {}


def manual_html():
    """The manual built once per run: (exit status, stderr, html directory)."""
    if not _BUILT:
        status, err = sphinx_build(DOC, WORK / "sphinx")
        _BUILT.update(status=status, err=err, html=WORK / "sphinx" / "html")
    return _BUILT["status"], _BUILT["err"], _BUILT["html"]


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
    out = docutils.core.publish_string(rst.read_text(), source_path=str(rst), writer_name="html",
                                       settings_overrides={"report_level": 5}).decode()
    return set(re.findall(r'class="section" id="([^"]+)"', out))


# --- what a browser shows ---------------------------------------------------------------------

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                  f"--window-size={WINDOW[0]},{WINDOW[1]}"]

# Appended to a copy of each page: after layout, the page's width against the window's.
LAYOUT_PROBE = """<script>(function () {
  var r = {window: document.documentElement.clientWidth,
           page: document.documentElement.scrollWidth, tables: []};
  document.querySelectorAll("div.body table").forEach(function (t) {
    r.tables.push(t.getBoundingClientRect().width > 0);
  });
  var pre = document.createElement("pre");
  pre.id = "quiccc-layout";
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();</script>"""


def chromium(args, out_dir):
    """Run Debian's chromium headless with a fresh profile; returns its stdout."""
    with tempfile.TemporaryDirectory(dir=out_dir) as profile:
        p = subprocess.run([shutil.which("chromium"), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                           capture_output=True, text=True, timeout=180)
    if p.returncode != 0:
        raise AssertionError(f"chromium {args}: exit {p.returncode}\n{p.stderr[-2000:]}")
    return p.stdout


def look_at(page, html_dir, shots):
    """Screenshot of one page and its DOM after layout: (png path, dom text)."""
    probe = html_dir / f"{page.stem}.layout-probe.html"
    probe.write_text(page.read_text().replace("</body>", LAYOUT_PROBE + "</body>"))
    png = shots / f"{page.stem}.png"
    chromium([f"--screenshot={png}", page.as_uri()], shots)
    dom = chromium(["--dump-dom", probe.as_uri()], shots)
    probe.unlink()
    return png, dom


class Dom(html.parser.HTMLParser):
    """What the checks need of a page: ids, links, the visible text outside code, tables (rows of
    cell counts), docutils' error markers."""

    SKIP = {"pre", "script", "style", "code", "textarea"}

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.text, self.tables, self.errors = set(), [], [], [], []
        self.layout = None
        self._skip = 0
        self._table = None
        self._row = None
        self._layout = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if {"system-message", "problematic"} & set((a.get("class") or "").split()):
            self.errors.append(f"<{tag} class={a['class']}>")
        if tag == "pre" and a.get("id") == "quiccc-layout":
            self._layout = True
        if tag in self.SKIP:
            self._skip += 1
        if tag == "table":
            self._table = []
            self.tables.append(self._table)
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._row.append(int(a.get("colspan") or 1))

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self._skip -= 1
        if tag == "pre":
            self._layout = False
        if tag == "table":
            self._table = None
        if tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._layout:
            self.layout = json.loads(data)
        elif not self._skip:
            self.text.append(data)


# Raw reStructuredText that reached a page: markup Sphinx did not understand shows as text.
RAW_REST = [r"``", r":(ref|doc|term|math):`", r"\w`_\b", r"`__?\b", r"\|ns3\|", r"(^|\n)\s*\.\. [\w-]+::",
            r"\[\w+\]_", r"^\s*(\*{3,}|={3,}|#{3,}|\^{3,})\s*$"]


class Browser(unittest.TestCase):
    """Every page of the manual in headless Chromium, as a reader sees it."""

    @classmethod
    def setUpClass(cls):
        if not shutil.which("chromium"):
            raise AssertionError("test_docs.py: no chromium: install Debian's chromium (make deps)")
        status, err, cls.html = manual_html()
        if status != 0:
            raise unittest.SkipTest("the manual does not build (test_manual_builds_without_warnings says why)")
        cls.shots = WORK / "screenshots"
        shutil.rmtree(cls.shots, ignore_errors=True)
        cls.shots.mkdir(parents=True)
        cls.pages = [cls.html / f"{rst.stem}.html" for rst in DOCS]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            seen = list(pool.map(lambda p: look_at(p, cls.html, cls.shots), cls.pages))
        cls.doms = {}
        for page, (png, dom) in zip(cls.pages, seen):
            parsed = Dom()
            parsed.feed(dom)
            cls.doms[page.name] = (png, parsed)

    def test_a_screenshot_of_each_page_shows_it(self):
        for name, (png, _) in self.doms.items():
            pixels = matplotlib.image.imread(png)
            self.assertEqual(pixels.shape[:2], (WINDOW[1], WINDOW[0]), name)
            # Not blank: text on a white page spreads the pixel values.
            self.assertGreater(float(pixels[..., :3].std()), 0.05, f"{name}: the screenshot is blank")

    def test_no_raw_restructuredtext_and_no_docutils_errors(self):
        for name, (_, dom) in self.doms.items():
            self.assertEqual(dom.errors, [], f"{name}: docutils error markers")
            text = "".join(dom.text)
            self.assertGreater(len(text), 2000, name)
            for pattern in RAW_REST:
                m = re.search(pattern, text, flags=re.M)
                self.assertIsNone(m, f"{name}: raw reST {pattern!r}: ...{text[max(0, m.start() - 80):m.end() + 80] if m else ''}...")

    def test_tables_are_whole(self):
        checked = 0
        for name, (_, dom) in self.doms.items():
            for k, table in enumerate(dom.tables):
                self.assertGreaterEqual(len(table), 2, f"{name}: table {k} has no body")
                widths = {sum(row) for row in table}
                self.assertEqual(len(widths), 1, f"{name}: table {k} has rows of {sorted(widths)} cells")
                checked += 1
        self.assertGreater(checked, 20)

    def test_nothing_is_wider_than_the_window(self):
        for name, (_, dom) in self.doms.items():
            self.assertIsNotNone(dom.layout, f"{name}: the layout probe did not run")
            self.assertLessEqual(dom.layout["page"], dom.layout["window"], f"{name}: the page scrolls sideways")
            self.assertTrue(all(dom.layout["tables"]), f"{name}: a table is not rendered")

    def test_every_internal_link_resolves(self):
        ids = {name: dom.ids for name, (_, dom) in self.doms.items()}
        checked = 0
        for name, (_, dom) in self.doms.items():
            for href in dom.links:
                if re.match(r"[a-z]+:", href):
                    continue  # http(s), mailto: outside the manual
                path, _, fragment = href.partition("#")
                target = name if not path else path
                if not path or target in ids:
                    self.assertTrue(not fragment or fragment in ids[target], f"{name}: link {href}: no #{fragment}")
                else:
                    self.assertTrue((self.html / target).exists(), f"{name}: link {href}: no {target}")
                checked += 1
        self.assertGreater(checked, 100)


class SphinxBuild(unittest.TestCase):
    def test_manual_builds_without_warnings(self):
        status, err, html_dir = manual_html()
        self.assertEqual(status, 0, f"sphinx-build -W failed on doc/:\n{err}")
        self.assertEqual(err.strip(), "", err)
        self.assertGreaterEqual(len(DOCS), 5)
        for rst in DOCS:
            page = (html_dir / f"{rst.stem}.html").read_text()
            # Every section made it into its page: the build did not stop half-way or swallow one.
            self.assertEqual(page.count("<section id="), len(rst_section_titles(rst.read_text())), rst.name)
            for fig in re.findall(r"^\.\. (?:figure|image):: (\S+)", rst.read_text(), flags=re.M):
                self.assertTrue((DOC / fig).is_file(), f"figure {fig} missing")
                self.assertTrue((html_dir / "_images" / pathlib.Path(fig).name).is_file(), fig)

    def test_a_bad_heading_fails_the_build(self):
        # The check can fail: the defect it guards against (a subsection underlined with the title's
        # character) must stop the build.
        with tempfile.TemporaryDirectory(dir=WORK) as d:
            src = pathlib.Path(d) / "src"
            src.mkdir()
            (src / "quic-cc.rst").write_text(
                "Chapter\n-------\n\nSection\n*******\n\nSub\n===\n\nBad\n---\n\ntext\n\nNext\n====\n")
            status, err = sphinx_build(src, pathlib.Path(d) / "out")
            self.assertNotEqual(status, 0)
            self.assertIn("Title level inconsistent", err)

    def test_the_browser_checks_can_fail(self):
        # The DOM checks find raw reST, a ragged table and a link to nowhere in a page made to have them.
        dom = Dom()
        dom.feed('<div class="body"><p>see ``x`` and `Attributes`_</p><a href="#nowhere">x</a>'
                 '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td></tr></table></div>')
        text = "".join(dom.text)
        self.assertTrue(any(re.search(p, text, flags=re.M) for p in RAW_REST))
        self.assertEqual({sum(r) for r in dom.tables[0]}, {1, 2})
        self.assertNotIn("nowhere", dom.ids)


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

    def test_readme_reaches_attributes_trace_sources_and_recipes_in_one_click(self):
        # From README, one click to the section; the section itself is the second click's target.
        readme = README.read_text()
        for anchor in ("attributes", "trace-sources", "adding-a-controller"):
            self.assertTrue(f"](doc/quic-cc-user.rst#{anchor})" in readme, f"README does not link #{anchor}")

    def test_readme_links_out(self):
        readme = README.read_text()
        for url in ("https://www.nsnam.org/", "https://github.com/cloudflare/quiche", "https://github.com/ngtcp2/ngtcp2",
                    "https://www.rfc-editor.org/rfc/rfc9000", "https://www.rfc-editor.org/rfc/rfc9002",
                    "https://www.rfc-editor.org/rfc/rfc9406", "https://www.rfc-editor.org/rfc/rfc9438",
                    "https://blog.cloudflare.com/"):
            self.assertTrue(url in readme, f"README does not link {url}")
        self.assertEqual(readme.count("https://blog.cloudflare.com/"), 2, "both of Cloudflare's posts")
        self.assertLessEqual(len(readme.splitlines()), 210, "README is an entry page: the manual has the rest")

    def test_readme_lists_every_example(self):
        readme = README.read_text()
        examples = sorted(f.stem for f in (ROOT / "examples").glob("*.cc"))
        self.assertGreaterEqual(len(examples), 5)
        user = USER.read_text()
        for name in examples:
            self.assertIn(f"`build/examples/{name}`", readme, f"README's quick start lacks {name}")
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


def golden_printed():
    """The death-spiral rows the golden batches printed: {config: words of its table line}."""
    return {line.split()[0]: line.replace("|", " ").split()
            for batch in ("death-spiral-all", "death-spiral-ngtcp2")
            for line in (GOLDEN / f"{batch}.txt").read_text().splitlines()
            if line.startswith(("cubic-", "reno ", "ngtcp2-"))}


class ResultsAreTheGoldenRuns(unittest.TestCase):
    """Tables of numbers the code produces are checked against the golden runs that the
    golden-* tests re-run (test/golden: CSV and the table the example printed with it): README's
    headline table, the results document's default death-spiral comparison (its ngtcp2-* rows:
    the ngtcp2 golden batch) and its HyStart++ lab 0 % loss counts."""

    def test_readme_table_is_the_golden_batch(self):
        readme_rows = markdown_table(README.read_text(), "config")
        self.assertGreaterEqual(len(readme_rows), 3)
        printed = golden_printed()
        runs = []
        for batch in ("death-spiral-all", "death-spiral-ngtcp2"):
            with (GOLDEN / f"{batch}.csv").open() as f:
                runs += list(csv.DictReader(f))
        for row in readme_rows:
            config = row[0].split(" ")[0]
            self.assertIn(config, printed, f"README row {config}: not in the golden batch")
            words = printed[config]
            # config runs completed fail% [lo, hi] median p90 pinned ...
            self.assertEqual(row[1:], [words[2], words[3], f"{words[4]} {words[5]}", words[6], words[7], words[8]],
                             config)
            mine = [r for r in runs if r["config"] == config]
            done = [float(r["completion_s"]) for r in mine if r["completed"] == "1"]
            self.assertEqual(f"{len(done)}/{len(mine)}", row[1], config)
            # The table's median is the nearest-rank one (QuicCcQuantile(times, 0.5)).
            nearest_rank = sorted(done)[math.ceil(len(done) / 2) - 1]
            self.assertEqual(f"{nearest_rank:.2f}", row[4], config)

    def test_results_default_comparison_is_the_golden_batch(self):
        rows = rst_list_table(RESULTS.read_text(), "Death spiral, default path")
        self.assertEqual([r[0] for r in rows],
                         ["cubic-LastSent", "cubic-LastActivity", "cubic-LastSentClamped", "cubic-Off", "reno",
                          "ngtcp2-cubic", "ngtcp2-reno", "ngtcp2-bbr"])
        printed = golden_printed()
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


def rows_of(text):
    """Every row of every table of an .rst or Markdown text, as one string each: a list-table row
    (its cells joined), or any other line (a simple table's, a literal block's, a Markdown
    table's, a sentence's line)."""
    rows, current = [], None
    for line in text.splitlines():
        if re.match(r"\s*\* - ", line):
            current = [line]
            rows.append(current)
        elif current is not None and re.match(r"\s+(- |\S)", line) and not re.match(r"\s*\.\. ", line):
            current.append(line)
        else:
            current = None
            rows.append([line])
    return [" ".join(part.strip() for part in row) for row in rows]


def places(text, signature):
    return [row for row in rows_of(text) if all(re.search(p, row) for p in signature)]


def headline_signatures():
    """The headline figures, each as the patterns that all match one row where it is stated: the
    default death-spiral row (from its golden table), the four true-idle rows and the
    model-vs-library rows (from their one table in the results document: each is then looked
    for everywhere else), the versions table's header."""
    sig = {}
    words = golden_printed()["cubic-LastSent"]
    sig["death spiral default row"] = [r"cubic-LastSent(?![-\w])", re.escape(words[2]), re.escape(words[3]),
                                       re.escape(f"{words[4]} {words[5]}"), re.escape(words[6]), re.escape(words[7])]
    clean = {r[0]: r for r in rst_simple_table(RESULTS.read_text(), "cubic-LastSent")}
    for config in ("cubic-LastSent", "cubic-LastActivity", "cubic-Off", "reno"):
        row = clean[config]  # row, burst, loss RTT 1, completion, peak / pre, false idle
        sig[f"true idle {config}"] = [rf"{config}(?![-\w])", rf"\b{row[1]}\b", rf"\b{row[2]}\b",
                                      re.escape(row[4]), re.escape(row[5])]
    diff = {(r[0], r[1]): r for r in rst_list_table(RESULTS.read_text(), "Model vs library")}
    for key in (("oneloss", "W_max B (cwnd before the event)"), ("oneloss", "K s (from W_max and ssthresh)"),
                ("oneloss", "time to regain W_max s"), ("spiral", "completion p90 s"),
                ("slowstart", "cwnd at CSS entry B")):
        model, ngtcp2 = diff[key][2], diff[key][3]
        # The value as the table has it, or rounded as a sentence would state it.
        forms = lambda v: rf"\b({re.escape(v)}|{re.escape(round_like(v))})\b"
        sig[f"model vs library: {key[1]}"] = [forms(model), forms(ngtcp2)]
    sig["supported-versions table"] = [r"^\* - (\|ns3\||ns-3)\s+- build mode", ]
    return sig


def round_like(value):
    """How prose rounds a table value: 213300 -> 213 kB-style leading digits, 4.912 -> 4.91."""
    if "." in value:
        return f"{float(value):.2f}"
    return str(round(int(value) / 1000))


class ResultsStatedOnce(unittest.TestCase):
    """Each headline figure is written in exactly one place of doc/ and at most once in README; the
    supported-versions table once (README lists the releases, one line each, and links to it)."""

    def test_each_headline_figure_is_in_one_place(self):
        manual = {rst.name: rst.read_text() for rst in DOCS}
        readme = README.read_text()
        sigs = headline_signatures()
        self.assertGreaterEqual(len(sigs), 10)
        for name, signature in sigs.items():
            found = [(f, row) for f, text in manual.items() for row in places(text, signature)]
            self.assertEqual(len(found), 1, f"{name}: stated in {len(found)} places of doc/: {found}")
            self.assertLessEqual(len(places(readme, signature)), 1, f"{name}: more than once in README")

    def test_the_check_finds_a_second_copy(self):
        # The check can fail: a copy of the default row, in a sentence or a table, is found.
        signature = headline_signatures()["death spiral default row"]
        words = golden_printed()["cubic-LastSent"]
        copy = f"| cubic-LastSent | {words[2]} | {words[3]} | {words[4]} {words[5]} | {words[6]} | {words[7]} |"
        self.assertEqual(len(places(RESULTS.read_text() + "\n" + copy + "\n", signature)), 2)

    def test_readme_lists_the_versions_of_the_table(self):
        table = rst_list_table(USER.read_text(), "What was checked on each ns-3 release")
        self.assertGreaterEqual(len(table), 4)
        checked = {(row[0], "standalone" if row[1].startswith("standalone") else "in-tree") for row in table}
        readme = README.read_text()
        section = readme[readme.index("## Supported ns-3 versions"):]
        section = section[:section.index("\n## ", 3)]
        listed = set()
        for line in section.splitlines():
            m = re.match(r"- ns-3\.(\d+)\b(.*)$", line)
            if m:
                for kind in ("standalone", "in-tree"):
                    if kind in m.group(2):
                        listed.add((f"3.{m.group(1)}", kind))
                self.assertNotRegex(m.group(2), r"\d+ (s|min)\b", "README lists releases without timings")
        self.assertEqual(listed, checked, "README's releases are the versions table's")
        self.assertIn("](doc/quic-cc-user.rst#supported-ns-3-versions)", section)
        self.assertEqual(markdown_table(readme, "ns-3"), [], "the versions table is written once, in doc/")


# History belongs in CHANGES.md: phrases of a lab notebook and work-item numbers, never in doc/.
HISTORY = [r"\bcommit [0-9a-f]{7,40}\b", r"\b(found|seen) by the first runs?\b", r"\bthe first runs? (found|of)\b",
           r"\bearlier (version|build|runs)\b", r"\b(this|the final) commit\b", r"\bthis session\b",
           r"\b(before|after) this fix\b", r"\b(was|were) fixed\b", r"\bissue #?\d+\b", r"\bwork[- ]items?\b",
           r"\bno longer\b", r"\bused to (be|carry|hold|say|abort)\b"]


class NoHistoryInTheManual(unittest.TestCase):
    def test_the_manual_tells_no_history(self):
        for rst in DOCS:
            text = rst.read_text().replace("\n", " ")
            for pattern in HISTORY:
                m = re.search(pattern, text, flags=re.I)
                self.assertIsNone(m, f"{rst.name}: history ({pattern}): ...{text[max(0, m.start() - 60):m.end() + 60] if m else ''}...")

    def test_the_patterns_catch_history(self):
        # The sentences the manual used to carry are caught.
        for sentence in ("Found by the first runs and fixed in the model",
                         "with the example of commit fbb631c: the examples took",
                         "they came from an earlier version or another RTT",
                         "What the first runs found and what was fixed",
                         "rows that did not finish in this session's CPU budget", "see issue 39"):
            self.assertTrue(any(re.search(p, sentence, flags=re.I) for p in HISTORY), sentence)


if __name__ == "__main__":
    WORK = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else tempfile.mkdtemp()).resolve()
    WORK.mkdir(parents=True, exist_ok=True)
    unittest.main(verbosity=2)
