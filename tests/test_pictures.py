"""What the pictures and pages show (issues 13 and 42): the interactive career graph's edge labels on a background box
with the legend of every requirement kind the kb's pathways use; the route picture with its colour legend, starting at
what the person holds, its title whole, only what the person's routes touch; no edge label over a certificate, and a
note under a certificate no pathway leads on from; the timeline with the days not yet validated and no two rows alike;
every HTML page no wider than a 1 280-pixel screen; the cohort report's dates and citations never broken over a line;
the web form's target list not cut off, its default target the next above what the record holds, the career graph
on the web page zoomable, the answer's summary in a box; and `benchmarks/screenshots.py`, which photographs all of
them in headless Chromium."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.careers.cohorts import cell_html
from crewkg.careers.graph import START, START_LABEL, career_graph
from crewkg.careers.pictures import COLOR, LABEL_BACKGROUND, draw, html_page, route_edges
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.messages.catalogue import catalogue

ROOT = Path(__file__).resolve().parents[1]
PERSONS = ROOT / "kb" / "examples" / "persons"
KATHARINA = PERSONS / "07-katharina-bootsmann-to-steuermann.yaml"  # holds UBZ-Bootsmann
LENA = PERSONS / "01-lena-apprentice.yaml"  # holds no certificate
COHORT = ROOT / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
WEB = ROOT / "src" / "crewkg" / "service" / "web" / "static"
AS_OF = "2026-11-30"
runner = CliRunner()


def _kinds_of_the_kb() -> set[str]:
    """Every requirement kind the kb's pathways use, composite parts included (read from the law, not the graph)."""
    law = load_law()
    found: set[str] = set()

    def walk(rid: str) -> None:
        found.add(law.requirements[rid].kind)
        for child in law.requirements[rid].children:
            walk(child)

    for w in law.pathways.values():  # of the regulations in force: the career graph shows no SchBesV 2004 pathway
        if law.regulations[law.certificates[w.certificate].regulation].in_force_until is not None:
            continue
        if w.replacement:  # § 47 SchBV replacements are no career steps: the graph leaves them out
            continue
        for rid in w.requirements:
            walk(rid)
    return found


def _page_data(page: str) -> dict:
    return json.loads(re.search(r"const data = (\{.*?\});\n", page, flags=re.S).group(1).replace("<\\/", "</"))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_interactive_graph_has_a_legend_entry_for_every_requirement_kind_the_pathways_use(lang):
    page = html_page(career_graph(load_law(), lang))
    kinds = _kinds_of_the_kb()
    assert {"Fahrzeit", "Exam", "AnyOf", "MinimumAge"} <= kinds  # the kb's pathways use these at least
    legend = re.search(r'<section id="kind-legend">(.*?)</section>', page, flags=re.S).group(1)
    listed = set(re.findall(r'data-kind="(\w+)"', legend))
    assert listed == kinds | {"sep"}
    t = catalogue(lang)
    for k in kinds:
        phrase, _, meaning = t[f"kind.legend.{k}"].partition(" — ")
        item = re.search(rf'<li data-kind="{k}">(.*?)</li>', legend).group(1)
        assert phrase.replace("…", "") .split()[0] in item and meaning.split()[-1] in item, (k, item)
    # and the pathway list below the graph: every pathway with its requirements and minimum time
    g = career_graph(load_law(), lang)
    for _, _, key, a in g.edges(keys=True, data=True):
        row = re.search(rf'<tr data-pathway="{key}"[^>]*>(.*?)</tr>', page).group(1)
        assert a["provision"] in row and a["duration"] in row


def test_a_kind_without_legend_text_is_listed_by_its_name(monkeypatch):
    """A kind added as a module (docs/requirement-kinds.md) may bring no legend text: it is named, not dropped."""
    from crewkg.careers.pictures import kind_legend
    from crewkg.messages.catalogue import CATALOGUES

    assert kind_legend("Exam", "de") == CATALOGUES["de"]["kind.legend.Exam"]
    monkeypatch.delitem(CATALOGUES["de"], "kind.legend.Exam")
    assert kind_legend("Exam", "de") == "Exam"


def test_every_edge_label_of_the_interactive_graph_sits_on_a_tinted_background():
    g = career_graph(load_law(), "de")
    data = _page_data(html_page(g))
    assert data["options"]["edges"]["font"]["background"] == LABEL_BACKGROUND["edge"]
    assert LABEL_BACKGROUND["edge"].lower() not in ("#fff", "#ffffff", "white")  # a box the eye can see on the white canvas
    assert len(data["edges"]) == g.number_of_edges()
    assert all(e["font"]["background"] in LABEL_BACKGROUND.values() for e in data["edges"])


def test_the_interactive_graph_can_be_zoomed_and_says_how():
    page = html_page(career_graph(load_law(), "en"))
    for how in ("in", "out", "fit"):
        assert f'data-zoom="{how}"' in page
    assert "network.getScale()" in page and '"zoomView": true' in page
    assert catalogue("en")["careers.picture.zoom"] in page


def _plan_picture(tmp_path: Path, person: Path, target: str, suffix: str = "svg", lang: str = "de") -> str:
    out = tmp_path / f"route.{suffix}"
    result = runner.invoke(app, ["plan", str(person), "--target", target, "--as-of", AS_OF, "--out", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def _node_style(svg: str, node: str) -> str:
    block = re.search(rf'<g id="node-{re.escape(node)}">(.*?)</g>', svg, flags=re.S).group(1)
    return re.search(r'style="([^"]*)"', block).group(1)


def test_the_route_picture_starts_at_the_certificate_the_person_holds(tmp_path):
    """Katharina holds the Bootsmann UBZ; her route to Steuermann is § 14 Z 1 from there (180 days as Bootsmann)."""
    svg = _plan_picture(tmp_path, KATHARINA, "UBZ-Steuermann")
    assert "Weg für katharina-pichler: UBZ Bootsmann (vorhanden) → UBZ Steuermann (§ 14 Z 1 SchBV)" in svg
    start = _node_style(svg, "UBZ-Bootsmann")
    assert f"fill: {COLOR['held']}" in start and f"stroke: {COLOR['hi']}" in start and "stroke-width: 3" in start
    thick = [n for n in re.findall(r'<g id="node-([^"]+)">', svg) if "stroke-width: 3" in _node_style(svg, n)]
    assert thick == ["UBZ-Bootsmann"]  # the one start of the route
    edge = re.search(r'<g id="edge-label-Pathway-SchBV2022-P14-Z1">(.*?)</g>\s*</g>', svg, flags=re.S).group(1)
    assert f"stroke: {COLOR['hi']}" in edge


def test_a_person_without_a_certificate_starts_at_no_certificate(tmp_path):
    law = load_law()
    g = career_graph(law, "en")
    svg = _plan_picture(tmp_path, LENA, "UBZ-Matrose", lang="en")
    assert "Route for lena-gruber: no certificate yet → UBZ boatman (§ 12 Z 2 SchBV) — earliest 2028-04-13" in svg
    assert "stroke-width: 3" in _node_style(svg, START)
    assert route_edges({"steps": []}, g) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_route_picture_has_a_colour_legend(tmp_path, lang):
    svg = _plan_picture(tmp_path, KATHARINA, "UBZ-Steuermann", lang=lang)
    t = catalogue(lang)
    key = re.search(r'<g id="colour-key">(.*)', svg, flags=re.S).group(1)
    for entry in ("colours", "key.certificate", "key.held", "key.from", "key.route", "key.other"):
        assert t[f"careers.picture.{entry}"] in key, entry
    assert t["careers.picture.key.start"] not in key  # she holds a certificate: no starting point without one is drawn
    key = re.search(r'<g id="colour-key">(.*)', _plan_picture(tmp_path, LENA, "UBZ-Matrose", lang=lang), flags=re.S).group(1)
    assert t["careers.picture.key.start"] in key and t["careers.picture.key.held"] not in key
    # the plain career graph has no route and nothing held: its legend names only what it draws
    plain = draw(career_graph(load_law(), lang), "svg").decode("utf-8")
    key = re.search(r'<g id="colour-key">(.*)', plain, flags=re.S).group(1)
    assert t["careers.picture.key.edge"] in key and t["careers.picture.key.route"] not in key
    assert t["careers.picture.key.held"] not in key


def test_every_edge_label_of_the_svg_has_a_background_box():
    """Read as SVG, not by matplotlib's own element ids: the group the label's gid names holds a white, stroked box."""
    import xml.etree.ElementTree as ET

    g = career_graph(load_law(), "de")
    root = ET.fromstring(draw(g, "svg"))
    groups = {e.get("id"): e for e in root.iter("{http://www.w3.org/2000/svg}g")}
    for _, _, key in g.edges(keys=True):
        label = groups.get(f"edge-label-{key}")
        assert label is not None, key
        styles = [p.get("style", "") for p in label.iter("{http://www.w3.org/2000/svg}path")]
        assert any("fill: #ffffff" in s and "stroke:" in s for s in styles), key


def test_the_cohort_report_keeps_dates_and_citations_on_one_line(tmp_path):
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert re.search(r"\.nw \{ white-space: nowrap; \}", page)
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    # every date and every citation of the table is inside an element that does not wrap
    unwrapped = re.sub(r'<(span|td) class="nw">.*?</\1>', "", body)
    assert not re.search(r"\d{4}-\d{2}-\d{2}", unwrapped)
    assert "§" not in unwrapped
    assert '<span class="nw">§ 12 Z 2 lit. a SchBV</span>' in body  # lehrling-01 is not yet 18
    # lehrling-01's date assumes the exam passed by then (the plan's assumption): the date stays whole, the words wrap
    assert '<td><span class="nw">2028-04-18</span>, wenn bis dahin erlangt: Prüfung Anl. 8</td>' in body
    assert '<td class="nw">2027-01-29</td>' in body  # a date alone is a cell kept whole


def test_a_cell_breaks_between_items_and_words_but_never_inside_a_citation_or_date():
    cell = cell_html("noch 1 Tag Fahrzeit als Bootsmann (§ 14 Z 1 lit. a SchBV); 18 Jahre am 2027-06-28", 5)
    assert cell == ('<td>noch 1 Tag Fahrzeit als Bootsmann (<span class="nw">§ 14 Z 1 lit. a SchBV</span>); '
                    '18 Jahre am <span class="nw">2027-06-28</span></td>')
    assert cell_html("§ 12 Z 2 → § 13 Z 1", 4) == '<td><span class="nw">§ 12 Z 2</span> → <span class="nw">§ 13 Z 1</span></td>'
    assert cell_html("UBZ Decksmann, UBZ Matrose", 1) == '<td><span class="nw">UBZ Decksmann</span>, <span class="nw">UBZ Matrose</span></td>'
    assert cell_html("a < b", 6) == "<td>a &lt; b</td>"


def test_the_web_form_gives_the_target_list_its_width_and_zooms_the_career_graph():
    css = (WEB / "style.css").read_text(encoding="utf-8")
    index = (WEB / "index.html").read_text(encoding="utf-8")
    js = (WEB / "app.js").read_text(encoding="utf-8")
    assert re.search(r"\.grid select \{[^}]*width: 100%", css) and re.search(r"\.grid > label \{[^}]*min-width: 0", css)
    assert re.search(r'<label class="wide"><span data-t="target">', index)
    assert re.search(r"\.grid label\.wide \{[^}]*grid-column: span 2", css)
    assert re.search(r"\.career-frame \{[^}]*overflow: auto", css)
    for how in ("in", "out", "fit"):
        assert f'button("{how}"' in js
    assert "ev.ctrlKey" in js and "img.style.width" in js


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


@pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                    reason="needs Debian's chromium and chromium-driver in /usr/bin (apt-get install -y chromium chromium-driver)")
def test_the_screenshot_script_photographs_the_pictures_and_the_web_page(tmp_path):
    out = tmp_path / "shots"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "screenshots.py"), "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    sizes = dict(re.findall(r"^(\S+\.png)  (\d+x\d+) px$", run.stdout, flags=re.M))
    names = {Path(p).name for p in sizes}
    pages = [f"{x}-{y}" for x, ys in (("route", ("png", "svg", "html")), ("career-graph", ("png", "svg", "html")),
                                       ("timeline", ("png", "html")), ("cohort-report", ("html",))) for y in ys]
    pages += ["web-form", "web-answer", "web-answer-overdue", "web-queries", "web-docs", "web-onto", "web-kb-UBZ-Matrose", "web-fleet"]
    pictures = {"route.png", "career-graph.png", "timeline.png"}  # drawn by the commands, then photographed
    assert names == ({f"{p}.png" for p in pages} | {f"{p}-full.png" for p in pages} | pictures
                     | {"web-answer-career.png", "web-answer-overdue-career.png"})
    for path, size in sizes.items():
        width, height = map(int, size.split("x"))
        if Path(path).stem in pages:
            assert (width, height) == (1280, 800), (path, size)  # the first screen of a 1 280 × 800 window
        assert width >= 800 and height >= (300 if path.endswith("-career.png") else 500), (path, size)
        assert Path(path).stat().st_size > 20_000, path
    assert "too wide" not in run.stdout  # every HTML page fits the window: no page scrolls sideways
    assert (out / "route.svg").exists() and (out / "cohort-report.html").exists() and (out / "timeline.html").exists()


# ------------------------------------------------------------------------------------------------------------
# Issue 42: pictures that open on the answer

PIOTR = PERSONS / "02-piotr-sea-deckhand.yaml"  # holds the UBZ Decksmann
SOFIA = PERSONS / "23-sofia-awaiting-validation.yaml"  # 183 days recorded, not yet validated
SVG_NS = "{http://www.w3.org/2000/svg}"


def _texts(svg: str, group: str | None = None) -> list[str]:
    """The text of every <text> element of an SVG (or of its group `group`), in document order."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    if group is not None:
        root = next(e for e in root.iter(f"{SVG_NS}g") if e.get("id") == group)
    return ["".join(e.itertext()) for e in root.iter(f"{SVG_NS}text")]


def _boxes(svg: str, prefix: str) -> dict[str, tuple[float, float, float, float]]:
    """The box (x0, y0, x1, y1) of the path in each group whose id starts with `prefix` (a certificate's box, an
    edge label's background), read from the path's coordinates."""
    import xml.etree.ElementTree as ET

    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG_NS}g"):
        if (g.get("id") or "").startswith(prefix):
            path = next(g.iter(f"{SVG_NS}path"))
            nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
            xs, ys = nums[0::2], nums[1::2]
            out[g.get("id").removeprefix(prefix)] = (min(xs), min(ys), max(xs), max(ys))
    return out


def test_the_route_picture_of_a_holder_starts_at_what_is_held_not_at_no_certificate(tmp_path):
    """Piotr holds the UBZ Decksmann; his fastest route to the Schiffsführer (§ 15 Z 3) presupposes no certificate,
    yet it starts where he stands, at the certificate he holds, and no node says 'no certificate yet'."""
    for lang in ("de", "en"):
        svg = _plan_picture(tmp_path, PIOTR, "UBZ-Schiffsfuehrer", lang=lang)
        texts = " ".join(_texts(svg))
        assert START_LABEL[lang] not in texts and catalogue(lang)["careers.picture.key.start"] not in texts
        assert "stroke-width: 3" in _node_style(svg, "UBZ-Decksmann")  # the route's start, outlined thick
        assert START not in re.findall(r'<g id="node-([^"]+)">', svg)
    title = " ".join(_texts(_plan_picture(tmp_path, PIOTR, "UBZ-Schiffsfuehrer"), "title"))
    assert title == "Weg für piotr-nowak: UBZ Decksmann (vorhanden) → UBZ Schiffsführer (§ 15 Z 3 SchBV) — frühestens 2028-05-28"


def test_a_certificate_of_earlier_law_is_where_its_holder_stands(tmp_path):
    """Rosa holds a Matrose qualification of the SchBesV 2004, no node of the career graph: the picture names it where
    she stands, not 'no certificate yet'."""
    svg = _plan_picture(tmp_path, PERSONS / "31-rosa-legacy-matrose.yaml", "UBZ-Steuermann")
    texts = " ".join(_texts(svg))
    held = load_law().certificate_short("SchBesV2004-Matrose", "de")
    assert held.split(" (")[0] in texts and START_LABEL["de"] not in texts
    assert f"fill: {COLOR['held']}" in _node_style(svg, START)


def test_a_title_too_long_for_a_line_is_wrapped_whole_never_cut():
    g = career_graph(load_law(), "de")
    steps = " → ".join(f"UBZ Schritt {i} (§ {i} Z 1 SchBV)" for i in range(1, 16))
    title = f"Weg für walter-steiner: UBZ Decksmann (vorhanden) → {steps} — frühestens 2028-02-03"
    lines = _texts(draw(g, "svg", title=title).decode("utf-8"), "title")
    assert len(lines) > 1 and " ".join(lines) == title  # every word there, in order, none cut
    assert all(not line.endswith(("§", " Z")) for line in lines)  # a citation keeps its number
    page = html_page(g, title=title)
    assert "frühestens <span class=\"nw\">2028-02-03</span>" in page  # the date never breaks inside


def test_the_route_picture_leaves_out_what_no_route_touches_unless_the_whole_graph_is_asked(tmp_path):
    svg = _plan_picture(tmp_path, PIOTR, "UBZ-Schiffsfuehrer")
    texts = " ".join(_texts(svg))
    assert "Schiffsführerpatent" not in texts and "Kapitänspatent" not in texts  # the national patents no route touches
    assert "Maschinist" not in texts and "UBZ Leichtmatrose" not in texts
    for drawn in ("UBZ Matrose", "UBZ Bootsmann", "UBZ Steuermann", "UBZ Schiffsführer"):
        assert drawn in texts
    out = tmp_path / "whole.svg"
    result = runner.invoke(app, ["plan", str(PIOTR), "--target", "UBZ-Schiffsfuehrer", "--as-of", AS_OF, "--out", str(out),
                                 "--whole-graph"])
    assert result.exit_code == 0, result.output
    whole = " ".join(_texts(out.read_text(encoding="utf-8")))
    assert "Schiffsführerpatent" in whole and "Maschinist" in whole


@pytest.mark.parametrize("picture", ["career graph", "route"])
def test_no_edge_label_covers_a_certificate(tmp_path, picture):
    if picture == "route":
        svg = _plan_picture(tmp_path, PIOTR, "UBZ-Schiffsfuehrer")
    else:
        svg = draw(career_graph(load_law(), "de"), "svg").decode("utf-8")
    nodes, labels = _boxes(svg, "node-"), _boxes(svg, "edge-label-")
    assert nodes and labels
    for key, (a0, b0, a1, b1) in labels.items():
        for node, (x0, y0, x1, y1) in nodes.items():
            assert a1 <= x0 or x1 <= a0 or b1 <= y0 or y1 <= b0, (key, node)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_certificate_no_pathway_leads_on_from_says_so(lang):
    """UBZ Decksmann and Leichtmatrose lead nowhere although the Matrose's role ranks above theirs: the graph knows
    it from its pathways and the role hierarchy, and the pictures say why under their boxes."""
    g = career_graph(load_law(), lang)
    assert {n for n in g if g.nodes[n].get("leads_nowhere")} == {"UBZ-Decksmann", "UBZ-Leichtmatrose"}
    note = catalogue(lang)["careers.picture.dead_end"].format(reg=g.graph["regulation"])
    svg = draw(g, "svg").decode("utf-8")
    for n in ("UBZ-Decksmann", "UBZ-Leichtmatrose"):
        assert " ".join(_texts(svg, f"note-{n}")) == note
    data = _page_data(html_page(g))
    notes = {x["id"] for x in data["nodes"] if x["label"].replace("\n", " ") == note}
    assert notes == {"note:UBZ-Decksmann", "note:UBZ-Leichtmatrose"}


def test_the_next_certificate_above_what_is_held():
    from crewkg.careers.graph import next_certificate

    law = load_law()
    g = career_graph(law, "de")
    assert next_certificate(law, g, []) == "UBZ-Matrose"  # the first step that leads on
    assert next_certificate(law, g, ["UBZ-Decksmann"]) == "UBZ-Matrose"
    assert next_certificate(law, g, ["UBZ-Bootsmann"]) == "UBZ-Steuermann"
    assert next_certificate(law, g, ["UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann"]) == "UBZ-Schiffsfuehrer"
    assert next_certificate(law, g, ["UBZ-Schiffsfuehrer"]) == "UBZ-Schiffsfuehrer"  # nothing above: the one held
    assert next_certificate(law, g, ["SchBV2022-Maschinist"]) == "UBZ-Matrose"  # no step of the deck ladder


def _timeline(person: Path, fmt: str, tmp_path: Path, lang: str = "de", *more: str) -> str:
    out = tmp_path / f"timeline.{fmt}"
    result = runner.invoke(app, ["timeline", str(person), "--as-of", AS_OF, "--out", str(out), "--lang", lang, *more])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_timeline_draws_the_days_not_yet_validated(tmp_path, lang):
    svg = _timeline(SOFIA, "svg", tmp_path, lang)
    texts = _texts(svg)
    assert catalogue(lang)["careers.timeline.picture.unvalidated"] in texts
    assert {"de": "183 Tage", "en": "183 days"}[lang] in texts  # 2026-04-01 to 2026-09-30
    assert 'id="not-validated' in svg


def test_no_two_rows_of_the_timeline_read_alike_and_none_is_cut():
    from crewkg.careers.timeline_picture import row_labels

    alike = [{"id": "A", "label": "Schiffsführerpatent – 20 m, auf andere Gewässer als Wasserstraßen eingeschränkt",
              "provision": "§ 47 Abs. 13 Z 3 SchBV"},
             {"id": "B", "label": "Schiffsführerpatent – 20 m, auf andere Gewässer als Wasserstraßen eingeschränkt",
              "provision": "§ 47 Abs. 13 Z 14 SchBV"}]
    rows = row_labels(alike)
    assert len(set(rows)) == 2 and all("…" not in r for r in rows)
    assert [r.replace("\n", " ") for r in rows] == [f"{c['label']} ({c['provision']})" for c in alike]


def test_the_timeline_picture_has_no_two_rows_alike_and_no_empty_rows(tmp_path):
    svg = _timeline(PERSONS / "20-franz-schifferdienstbuch.yaml", "svg", tmp_path, "de", "--all")  # every certificate
    ticks = [t for t in _texts(svg) if t]
    assert not any(t.endswith("…") for t in ticks)
    assert "Schiffsführerpatent – 20 m" not in " ".join(ticks)  # nothing dated on it: not a row of its own
    assert catalogue("de")["careers.timeline.picture.hidden"].split(":")[0] in " ".join(ticks)
    concerned = " ".join(t for t in _texts(_timeline(PERSONS / "20-franz-schifferdienstbuch.yaml", "svg", tmp_path))
                         if t)  # by default only what concerns the person: no national patent counted either
    assert "Schiffsführerpatent" not in concerned and "UBZ Matrose" in concerned


#: a width in a page's style or an element's attribute, in pixels (a CSS "…px" or a bare number)
_WIDTH = re.compile(r"(?<![-\w])(?:min-)?width\s*[:=]\s*[\"']?(\d+)(?:px)?", re.I)


def _fixed_widths(page: str) -> list[int]:
    """The fixed widths of a page's own markup and style (the inlined vis-network script and style aside: they set
    no page width), the SVG drawings aside (they scale down: `svg { max-width: 100% }`)."""
    page = re.sub(r"<script>.*?</script>|<svg.*?</svg>", "", page, flags=re.S)
    return [int(w) for w in _WIDTH.findall(page)]


def test_every_html_page_fits_a_1280_pixel_screen(tmp_path):
    pages = {"route": _plan_picture(tmp_path, PIOTR, "UBZ-Schiffsfuehrer", suffix="html"),
             "timeline": _timeline(SOFIA, "html", tmp_path), "graph": html_page(career_graph(load_law(), "de"))}
    out = tmp_path / "report.html"
    assert runner.invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--out", str(out)]).exit_code == 0
    pages["cohort"] = out.read_text(encoding="utf-8")
    pages |= {p.name: p.read_text(encoding="utf-8") for p in WEB.glob("*.html")}
    pages["style.css"] = (WEB / "style.css").read_text(encoding="utf-8")
    for name, page in pages.items():
        assert all(w <= 1280 for w in _fixed_widths(page)), (name, _fixed_widths(page))
    # the timeline's text wraps (one long line made the page 2 342 pixels wide) and its picture scales down
    assert re.search(r"pre\{[^}]*white-space:pre-wrap", pages["timeline"])
    assert re.search(r"svg\{[^}]*max-width:100%", pages["timeline"])
    assert "<svg" in pages["timeline"] and "max-width:1240px" in pages["timeline"]


def test_the_answer_summary_becomes_a_box_at_the_top_of_the_answer():
    """Helga's real answer (70, medical proof overdue): the box names the lapse with § 22 Abs. 1 SchBV and the next
    step with its action, each provision said once."""
    from crewkg import api
    from crewkg.service.report import summary_box

    law = load_law()
    assert summary_box(law, {"certificates": []}, "de") is None  # an answer without a summary: no box
    for lang in ("de", "en"):
        answer = api.check(PERSONS / "32-helga-boatmaster-at-70.yaml", as_of=AS_OF, lang=lang)
        box = summary_box(law, answer, lang)
        t = catalogue(lang)
        assert box["title"] == t["service.report.summary.title"]
        assert [p["heading"] for p in box["parts"]] == [t[f"service.report.summary.{k}"] for k in ("roles", "issuable", "lapsed", "next")]
        parts = {p["key"]: p["items"] for p in box["parts"]}
        assert parts["roles"] == [t["service.report.summary.none"]]
        assert parts["lapsed"][0].count("§ 22 Abs. 1 SchBV") == 1
        assert AS_OF in parts["next"][0]["text"]
        assert parts["next"][0]["actions"] == [a["text"] for a in answer["summary"]["next_steps"][0]["actions"]]
        assert all(x.count("§ 22 Abs. 1 SchBV") == 1 for x in parts["next"][0]["actions"])


def test_the_web_page_plans_for_the_next_certificate_and_opens_on_the_route():
    js = (WEB / "app.js").read_text(encoding="utf-8")
    index = (WEB / "index.html").read_text(encoding="utf-8")
    assert "targetChosen && $(\"target\").value" in js  # the target goes to the server only once the user chose it
    assert 'id="digest"' in index and "digest(a.summary_box, a.unbreakable)" in js
    panel = js[js.index("function careerPanel"):]
    assert panel.index("route-steps") < panel.index("zoomControls(frame, img)")  # the steps before the picture
