"""A new requirement kind is one module plus kb data (issue 9): the kind below lives only in a folder this test
adds to the registry's `__path__`, and a requirement of it only in an edited copy of the kb. Nothing else of
crewkg is edited, yet the answer, its sentence in both languages, `explain`, the career graph's phrase, the
planner and the export all speak of it."""

from __future__ import annotations

import shutil
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest

import crewkg.rules.kinds as registry
from crewkg.answers.eligibility import check
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir
from crewkg.records.persons import person_from_mapping

AS_OF = date(2026, 11, 30)

MODULE = '''
"""CombinedTime — a test kind: Fahrzeit and sea days together (not in the law; it proves the registry)."""

from crewkg.messages.wording import count
from crewkg.rules.kinds import NotAGroup, RequirementKind, nothing, say


class CombinedTime(NotAGroup, RequirementKind):
    name = "CombinedTime"
    order = 45
    role = None

    measured = True
    clauses = """
(all_sea[P] == sum_(D, for_each=C)) <= sea(P, C, D)
have(P, R, V) <= req_kind(R, 'CombinedTime') & (total_fahrzeit[P] == F) & (all_sea[P] == S) & (V == F + S)
"""
    predicates = {}
    kb_facts = nothing  # the minimum is the generic req_min
    person_facts = nothing  # reads the Fahrzeit and SeaTime kinds' facts
    abstracted = ()
    abstraction = None  # a register compares the days exactly

    unit = "days"
    answer = None  # needed is the minimum, have the days the program derived
    have = None  # the days the program derived
    lowered_minima = None  # the record lowers no minimum

    messages = {
        "de": {"combined": "noch {n} Fahrzeit oder Seezeit zusammen", "summary": "{n} T. Fahrzeit + See"},
        "en": {"combined": "{n} of sailing and sea time together", "summary": "{n} d sailing + sea"},
    }

    def missing(self, law, req, lang):
        return say(self.name, lang, "combined", n=count(req["needed"] - req["have"], "days", lang))

    def summary(self, law, r, lang):
        return say(self.name, lang, "summary", n=r.minimum)

    def facts(self, req, p, lang):
        return f"{sum(p.sailing_days.values())} + {sum(p.sea_days.values())}"

    item_terms = None  # names no items, an amount
    based_on = nothing  # the export names the person
    items = None  # names no items, an amount

    action = "serve_days"

    takes_time = True
    obtained_on_the_day = False
    project = None  # not accrued by the planner: a route lacking it cannot be planned
    held_meets = None  # no certificate meets it
    lapsed = None  # credited days stay credited
    assume = None  # not accrued: nothing to assume
'''

KB_DATA = """
crew:CombinedTimeRequirement rdfs:subClassOf crew:Requirement .
kb:Req-SchBV2022-P12-Z2-c-3 a crew:CombinedTimeRequirement ; crew:provision kb:SchBV2022-P12-Z2-c ; crew:statuteOrder 3 ;
    crew:minimumDays 400 ;
    rdfs:label "400 Tage Fahrzeit und Seezeit zusammen"@de , "400 days of sailing and sea time together"@en .
kb:Req-SchBV2022-P12-Z2-c crew:hasAlternative kb:Req-SchBV2022-P12-Z2-c-3 .
"""


@pytest.fixture
def new_kind(tmp_path, monkeypatch):
    folder = tmp_path / "more_kinds"
    folder.mkdir()
    (folder / "combined_time.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(folder)])
    yield
    sys.modules.pop("crewkg.rules.kinds.combined_time", None)


def _kb(tmp_path: Path) -> Path:
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "02_unionsbefaehigungszeugnisse.ttl"
    ttl.write_text(ttl.read_text(encoding="utf-8") + KB_DATA, encoding="utf-8")
    return copy


def _person(law, sea: int):
    record = {"id": f"kim{sea}", "birth_date": "2000-01-01", "medical_fitness": True, "exams": ["Anlage8"],
              "sailing_days": {"Decksmann": 300}, "sea_days": {"deck_crew": sea}}
    return person_from_mapping(record, law, AS_OF, "test")


def _lit_c(answer):
    matrose = next(c for c in answer["certificates"] if c["id"] == "UBZ-Matrose")
    pathway = next(w for w in matrose["pathways"] if w["provision"] == "§ 12 Z 2 SchBV")
    return pathway, next(r for r in pathway["requirements"] if r["provision"] == "§ 12 Z 2 lit. c SchBV")


def test_the_new_kind_decides_at_its_threshold(tmp_path, new_kind):
    law = load_law(kb=_kb(tmp_path))
    assert "CombinedTime" in registry.kinds()
    below, at = check(law, [_person(law, 99), _person(law, 100)], AS_OF)
    pathway, lit_c = _lit_c(below)
    third = lit_c["alternatives"][2]
    assert (third["kind"], third["unit"], third["needed"], third["have"], third["met"]) == ("CombinedTime", "days", 400, 399, False)
    assert pathway["satisfied"] is False
    pathway, lit_c = _lit_c(at)
    assert lit_c["alternatives"][2]["met"] is True and lit_c["met"] is True
    assert pathway["satisfied"] is True


def test_the_new_kind_speaks_both_languages_and_reaches_every_face(tmp_path, new_kind):
    from crewkg.careers.graph import pathway_summary
    from crewkg.careers.planning import Pace, pathway_minimum_days
    from crewkg.rules.kinds import missing_sentence

    law = load_law(kb=_kb(tmp_path))
    person = _person(law, 99)
    de = _lit_c(check(law, [person], AS_OF, "de")[0])[1]["alternatives"][2]
    en = _lit_c(check(law, [person], AS_OF, "en")[0])[1]["alternatives"][2]
    assert missing_sentence(law, de, "de") == "noch 1 Tag Fahrzeit oder Seezeit zusammen (§ 12 Z 2 lit. c SchBV)"
    assert missing_sentence(law, en, "en") == "1 more day of sailing and sea time together (§ 12 Z 2 lit. c SchBV)"
    assert "400 T. Fahrzeit + See" in pathway_summary(law, "Pathway-SchBV2022-P12-Z2", "de")
    assert "400 d sailing + sea" in pathway_summary(law, "Pathway-SchBV2022-P12-Z2", "en")
    # the planner does not accrue a kind without a projection; the pathway stays plannable through lit. c-1
    assert pathway_minimum_days(law, "Pathway-SchBV2022-P12-Z2", Pace(180, 365, "§ 6 Abs. 4 SchBV"))[0] is not None


def test_without_the_module_the_kb_data_fails_clearly(tmp_path):
    with pytest.raises(registry.UnknownKind, match="CombinedTime"):
        law = load_law(kb=_kb(tmp_path))
        check(law, [_person(law, 100)], AS_OF)


def test_a_kind_that_forgets_a_hook_fails_when_its_module_loads(tmp_path, monkeypatch):
    source = textwrap.dedent(MODULE).replace("CombinedTime", "Forgetful")
    project = "    project = None  # not accrued by the planner: a route lacking it cannot be planned\n"
    summary = '    def summary(self, law, r, lang):\n        return say(self.name, lang, "summary", n=r.minimum)\n\n'
    assert project in source and summary in source
    folder = tmp_path / "forgetful_kinds"
    folder.mkdir()
    (folder / "forgetful.py").write_text(source.replace(project, "").replace(summary, ""), encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(folder)])
    with pytest.raises(registry.IncompleteKind) as failed:
        registry.kinds()
    assert str(failed.value) == ("requirement kind module crewkg.rules.kinds.forgetful: class Forgetful does not define: "
                                 "project, summary")
    assert "crewkg.rules.kinds.forgetful" not in sys.modules  # nothing half-loaded stays behind

