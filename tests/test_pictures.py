"""What the pictures and pages show (issue 13): the interactive career graph's edge labels on a background box with
the legend of every requirement kind the kb's pathways use; the route picture with its colour legend, starting at
the certificate the person holds; the cohort report's dates and citations never broken over a line; the web form's
target list not cut off and the career graph on the web page zoomable; and `benchmarks/screenshots.py`, which
photographs all of them in headless Chromium."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.careers.cohorts import cell_html
from crewkg.careers.graph import START, career_graph
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
    for entry in ("colours", "key.start", "key.certificate", "key.held", "key.from", "key.route", "key.other"):
        assert t[f"careers.picture.{entry}"] in key, entry
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
    assert names == {"career-graph-html.png", "career-graph-svg.png", "route-svg.png", "cohort-report.png",
                     "web-form.png", "web-result.png", "web-career.png", "web-career-zoomed.png"}
    for path, size in sizes.items():
        width, height = map(int, size.split("x"))
        assert width >= 800 and height >= 500, (path, size)
        assert Path(path).stat().st_size > 20_000, path
    assert (out / "route.svg").exists() and (out / "cohort-report.html").exists()
