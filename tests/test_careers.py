"""The career graph (issue 4): derived from the kb's pathways, one edge each, with provision, requirement summary and
minimum time at the § 6 Abs. 4 SchBV pace; and its pictures, which must render offline."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from crewkg.careers.graph import START, career_graph, graphml_text, node_link
from crewkg.careers.pictures import draw, html_page
from crewkg.careers.planning import Pace, accrue, pathway_minimum_days
from crewkg.cli.common import app
from crewkg.errors import InputError
from crewkg.law.cache import load_graph
from crewkg.law.crediting import crediting_limits
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir

pytestmark = pytest.mark.xdist_group("test_careers")  # its module fixtures are made once, on one worker

runner = CliRunner()
PREFIX = "PREFIX crew: <https://w3id.org/crewkg/onto#>\n"


@pytest.fixture(scope="module")
def kb_graph():
    return load_graph()


@pytest.fixture(scope="module")
def graph():
    return career_graph(load_law(), "de")


def _local(iri) -> str:
    return str(iri).rsplit("/", 1)[-1]


def test_the_graph_has_exactly_one_edge_per_pathway_of_the_kb(graph, kb_graph):
    # the pathways of the regulations still in force: the SchBesV 2004 (until 16 Jan 2022) is no career any more, and
    # the replacements of its qualifications (§ 47 SchBV, crew:ReplacementPathway) are no career steps
    pathways = {_local(r.w) for r in kb_graph.query(PREFIX + """SELECT ?w WHERE { ?w a crew:Pathway ;
        crew:leadsTo/crew:inRegulation ?r . FILTER NOT EXISTS { ?r crew:inForceUntil ?u }
        FILTER NOT EXISTS { ?w a crew:ReplacementPathway } }""")}
    assert len(pathways) > 0
    assert graph.number_of_edges() == len(pathways)
    assert {k for _, _, k in graph.edges(keys=True)} == pathways


def test_every_edge_carries_the_provision_of_its_pathway(graph, kb_graph):
    cited = {_local(r.w): str(r.c) for r in kb_graph.query(
        PREFIX + "SELECT ?w ?c WHERE { ?w a crew:Pathway ; crew:provision ?p . ?p crew:citation ?c }")}
    for _, _, k, a in graph.edges(keys=True, data=True):
        assert a["provision"] == cited[k]
        assert re.fullmatch(r"§ \d+( Abs\. \d+)?( Z \d+)? SchBV", a["provision"]), a["provision"]
        assert a["summary"] and a["duration"]


def test_edges_start_at_the_presupposed_certificate_or_at_start(graph, kb_graph):
    presupposed = {_local(r.w): _local(r.c) for r in kb_graph.query(
        PREFIX + "SELECT ?w ?c WHERE { ?w a crew:Pathway ; crew:presupposes ?c }")}
    assert presupposed  # § 13 Z 1, § 14 Z 1, § 15 Z 2 in the kb
    for u, _, k in graph.edges(keys=True):
        assert u == presupposed.get(k, START), k


def test_the_chain_matrose_bootsmann_steuermann_schiffsfuehrer_follows_13_Z1_14_Z1_15_Z2(graph):
    edge = {a["provision"]: (u, v) for u, v, a in graph.edges(data=True)}
    assert edge["§ 13 Z 1 SchBV"] == ("UBZ-Matrose", "UBZ-Bootsmann")
    assert edge["§ 14 Z 1 SchBV"] == ("UBZ-Bootsmann", "UBZ-Steuermann")
    assert edge["§ 15 Z 2 SchBV"] == ("UBZ-Steuermann", "UBZ-Schiffsfuehrer")
    assert edge["§ 15 Z 3 SchBV"] == (START, "UBZ-Schiffsfuehrer")
    assert [graph.nodes[n]["rank"] for n in ("UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann", "UBZ-Schiffsfuehrer")] == [1, 2, 3, 4]


def test_certificates_without_pathways_in_the_sources_are_nodes_marked_not_covered(graph):
    assert graph.nodes["UBZ-SachkundigerLNG"]["covered"] is False
    assert graph.degree("UBZ-SachkundigerLNG") == 0
    assert graph.nodes["UBZ-Matrose"]["covered"] is True


def test_the_pace_is_read_from_paragraph_6_Abs4_in_the_kb(kb_graph):
    rows = list(kb_graph.query(PREFIX + """SELECT ?d ?p WHERE { ?l a crew:CreditingLimit ; crew:provision ?prov ;
        crew:inNavigationArea crew:InlandNavigation ; crew:maximumCreditedDays ?d ; crew:periodDays ?p .
        ?prov crew:citation "§ 6 Abs. 4 SchBV" }"""))
    assert len(rows) == 1  # the SchBV's; the SchBesV 2004 has its own (§ 3 Abs. 6), cited under it
    pace = Pace.from_kb()
    assert (pace.days, pace.period) == (int(rows[0].d), int(rows[0].p))
    assert pace.citation == "§ 6 Abs. 4 SchBV"
    assert crediting_limits()["SeaNavigation"].days == 250


def test_minimum_times_follow_the_180_per_365_pace():
    law, pace = load_law(), Pace.from_kb()
    # § 12 Z 2: 360 days = 180 in the first 365 days, 180 more from day 366 to day 545; 180 with 250 sea days
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P12-Z2", pace) == (180, 545)
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P13-Z1", pace) == (180, 180)
    # § 15 Z 3: 540 days = three windows of 180 → day 365 * 2 + 180
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P15-Z3", pace) == (180, 910)
    # § 12 Z 1: 24 months counted from the SchBV's entry into force, 17 Jan 2022: the programme's last day 16 Jan 2024
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P12-Z1", pace) == (729, 729)
    # § 14 Z 3 needs 500 days as master at sea: no inland-only minimum
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P14-Z3", pace)[1] is None


def test_a_lower_days_per_year_slows_the_pace():
    law = load_law()
    slow = Pace.from_kb(days=90)
    # 180 days at 90 per 365: 90 in the first window, 90 more from day 366 → day 455
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P13-Z1", slow) == (455, 455)
    assert accrue((), 1, 180, slow)[0] == 455


@pytest.mark.parametrize("days", [0, 181])
def test_days_per_year_outside_1_to_the_legal_maximum_is_refused_citing_paragraph_6_Abs4(days):
    with pytest.raises(InputError, match=r"§ 6 Abs. 4 SchBV"):
        Pace.from_kb(days=days)
    result = runner.invoke(app, ["paths", "--days-per-year", str(days)])
    assert result.exit_code == 2
    assert "§ 6 Abs. 4 SchBV" in result.output and "Traceback" not in result.output


def test_the_pace_is_data_an_edited_kb_changes_the_minimum_time(tmp_path):
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "03_fahrzeit.ttl"
    text = ttl.read_text(encoding="utf-8")
    assert "crew:maximumCreditedDays 180" in text
    ttl.write_text(text.replace("crew:maximumCreditedDays 180", "crew:maximumCreditedDays 120"), encoding="utf-8")
    pace = Pace.from_kb(kb=copy)
    assert pace.days == 120
    # 180 days at 120 per 365: 120, then 60 more from day 366 → day 425
    assert pathway_minimum_days(load_law(kb=copy), "Pathway-SchBV2022-P13-Z1", pace) == (425, 425)


def test_the_graph_is_derived_an_edited_kb_moves_an_edge(tmp_path):
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "02_unionsbefaehigungszeugnisse.ttl"
    text = ttl.read_text(encoding="utf-8")
    line = "    crew:presupposes kb:UBZ-Matrose ;\n"
    assert line in text
    ttl.write_text(text.replace(line, ""), encoding="utf-8")
    g = career_graph(load_law(kb=copy), kb=copy)
    assert [u for u, _, k in g.edges(keys=True) if k == "Pathway-SchBV2022-P13-Z1"] == [START]


def test_json_is_networkx_node_link_data_on_standard_output():
    result = runner.invoke(app, ["paths", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    g = nx.node_link_graph(data, edges="links")
    law = load_law()
    current = [w for w in law.pathways.values()
               if law.regulations[law.certificates[w.certificate].regulation].in_force_until is None and not w.replacement]
    assert g.is_multigraph() and g.number_of_edges() == len(current) < len(law.pathways)


def test_graphml_round_trips(graph):
    g = nx.parse_graphml(graphml_text(graph))
    assert g.number_of_edges() == graph.number_of_edges()
    assert {d["provision"] for _, _, d in g.edges(data=True)} == {d["provision"] for _, _, d in graph.edges(data=True)}
    assert node_link(graph)["links"]


def test_the_png_is_a_real_drawing(graph):
    from matplotlib.image import imread

    png = draw(graph, "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = imread(io.BytesIO(png))
    height, width = pixels.shape[:2]
    assert width >= 1200 and height >= 800
    ink = (pixels[:, :, :3].sum(axis=2) < 2.7).mean()  # share of pixels that are not (nearly) white
    assert 0.01 < ink < 0.5
    # the edge colour is there: arrows were drawn, not only text
    blue = ((abs(pixels[:, :, 0] - 0x35 / 255) < 0.05) & (abs(pixels[:, :, 2] - 0x8F / 255) < 0.05)).sum()
    assert blue > 500


def test_the_svg_names_every_provision_and_the_pace(graph):
    svg = draw(graph, "svg").decode("utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for _, _, a in graph.edges(data=True):
        assert a["provision"] in svg
    assert "180 Tage in 365 aufeinanderfolgenden Tagen (§ 6 Abs. 4 SchBV)" in svg


def test_the_html_has_no_external_script_or_style_and_shows_requirements_on_hover(graph):
    page = html_page(graph)
    for tag in re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", page, flags=re.I):
        assert not re.search(r"\b(?:src|href)\s*=", tag, flags=re.I), tag
    assert not re.search(r"@import|url\(\s*['\"]?https?:", page)
    assert "vis.Network" in page and len(page) > 400_000  # vis-network inlined
    data = json.loads(re.search(r"const data = (\{.*?\});\n", page, flags=re.S).group(1).replace("<\\/", "</"))
    titles = {e["id"]: e["title"] for e in data["edges"]}
    assert len(titles) == graph.number_of_edges()
    assert "§ 13 Z 1 SchBV" in titles["Pathway-SchBV2022-P13-Z1"] and "180 T. als Matrose" in titles["Pathway-SchBV2022-P13-Z1"]


def test_paths_writes_the_picture_named_by_out_in_english(tmp_path):
    for suffix in ("png", "svg", "html"):
        out = tmp_path / f"careers.{suffix}"
        result = runner.invoke(app, ["paths", "--out", str(out), "--lang", "en"])
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 10_000
        assert (result.stdout, result.stderr) == ("", f"{out}: career graph\n")  # where it wrote, as export says it
    assert "boatmaster" in (tmp_path / "careers.html").read_text(encoding="utf-8")


def test_paths_refuses_an_out_file_in_a_missing_folder(tmp_path):
    result = runner.invoke(app, ["paths", "--out", str(tmp_path / "missing" / "g.png"), "--lang", "en"])
    assert result.exit_code == 2 and "existing folder" in result.output
    result = runner.invoke(app, ["paths", "--out", str(tmp_path / "missing" / "g.png")])
    assert result.exit_code == 2 and "vorhandenen Ordner" in result.output, result.output
    assert not (tmp_path / "missing").exists()


def test_the_careers_module_imports_nothing_heavy():
    import subprocess
    import sys

    mods = "crewkg.careers.graph, crewkg.careers.planning, crewkg.careers.routes, crewkg.careers.pictures, crewkg.careers.cohorts, crewkg.careers.programmes"
    code = f"import sys, {mods}; print(any(m in sys.modules for m in ('networkx', 'matplotlib', 'rdflib', 'pyvis')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"


def test_pictures_need_no_network(graph, monkeypatch):
    import socket

    def refuse(*args, **kwargs):
        raise OSError("network used")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert draw(graph, "png") and html_page(graph)
    assert Path(__file__)  # the drawing above ran with every socket refused
