"""A canned query about each person answered a page of persons at a time (service/paging.py, issue 12): the pages,
one after the other, are exactly the whole answer in its order, on both stores, whether the store looks up each
page's persons or the whole answer is computed once (`# answer: whole`); the service's route gives them with a Link
to the next page, says when a whole answer is still being computed, and refuses an unknown name or a page size out
of range in the language asked."""

from __future__ import annotations

import re
import threading
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from crewkg.records.load import load_persons
from crewkg.service.canned import canned_queries
from crewkg.service.loading import build_store
from crewkg.service.paging import MAX_PAGE_PERSONS, Answers, page, person_ids
from crewkg.service.results import Table
from crewkg.service.stores import STORES

pytestmark = pytest.mark.xdist_group("test_paging")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
CANNED = {q.name: q for q in canned_queries()}
PAGED = sorted(name for name, q in CANNED.items() if q.page and not q.whole)
WHOLE = sorted(name for name, q in CANNED.items() if q.whole)


@pytest.fixture(scope="module")
def stores(law):
    """The examples in the full derivation graph: paging is the same on either shape (tests/test_compact.py asks the
    compact one query by query), and the full graph gives every selective query rows of several persons."""
    persons = load_persons(EXAMPLES, law, AS_OF)
    return {kind: build_store(kind, law, persons, AS_OF, shape="full") for kind in STORES}


def _n3(table) -> list[tuple]:
    return [tuple(None if x is None else x.n3() for x in r) for r in table.rows]


def test_the_queries_with_a_row_or_more_per_person_are_paged_by_the_first_key_of_their_order():
    assert {"roles-per-person", "eligibility-provenance", "credited-days", "eligible-steuermann"} <= set(PAGED)
    # some persons of many, found from a summary triple for the whole register at once
    assert set(WHOLE) == {"blocked-by-medical-fitness", "one-exam-short", "within-30-days-of-fahrzeit",
                          "sea-time-eligibility"}
    for name in PAGED + WHOLE:
        q = CANNED[name]
        assert q.page == "?person", name
        assert re.search(r"ORDER BY\s+\?person\b", q.text), name
        assert "crew:personId ?person" in q.text, name


def test_person_ids_are_every_id_in_the_order_sparql_sorts_them(stores):
    for store in stores.values():
        ids = person_ids(store)
        ordered = [str(r[0]) for r in store.select(
            "SELECT DISTINCT ?id WHERE { ?x <https://w3id.org/crewkg/onto#personId> ?id } ORDER BY ?id").rows]
        assert ids == ordered and len(ids) >= 10


@pytest.mark.parametrize("name", PAGED)
@pytest.mark.parametrize("persons", [1, 3])
def test_the_pages_one_after_the_other_are_the_whole_answer(stores, name, persons):
    q = CANNED[name]
    for kind, store in stores.items():
        ids = person_ids(store)
        whole, pages, after, seen = store.select(q.text), [], None, 0
        while True:
            p = page(q, ids, after, persons)
            table = store.select(p.text)
            assert table.vars == whole.vars
            pages += _n3(table)
            seen += p.persons
            if p.after is None:
                break
            after = p.after
        assert pages == _n3(whole), (kind, name)
        assert seen == len(ids)
        assert whole.rows, f"{name} answers nothing on the examples: its test could not fail"


@pytest.mark.parametrize("name", WHOLE)
@pytest.mark.parametrize("persons", [1, 2])
def test_the_pages_of_a_whole_answer_one_after_the_other_are_the_whole_answer(stores, name, persons):
    q = CANNED[name]
    for kind, store in stores.items():
        whole, answers, pages, after, seen = store.select(q.text), Answers(store), [], None, 0
        while True:
            rows = answers.page(q, after, persons, None)
            assert rows.table.vars == whole.vars
            assert 1 <= len({str(r[0]) for r in rows.table.rows}) == rows.persons <= persons
            pages += _n3(rows.table)
            seen += rows.persons
            if rows.after is None:
                break
            assert str(rows.table.rows[-1][0]) == rows.after
            after = rows.after
        assert pages == _n3(whole), (kind, name)
        assert seen == len({str(r[0]) for r in whole.rows})
        assert whole.rows, f"{name} answers nothing on the examples: its test could not fail"


class _SlowStore:
    """A store whose answer comes when the test says so (or fails)."""

    def __init__(self, table: Table | None) -> None:
        self.table, self.go, self.calls = table, threading.Event(), 0

    def select(self, query: str) -> Table:
        self.calls += 1
        self.go.wait(10)
        if self.table is None:
            raise OSError("the store went away")
        return self.table


def test_a_whole_answer_is_computed_once_and_not_given_before_it_is_ready():
    q = CANNED["one-exam-short"]
    table = Table("select", ["person", "certificate"], [("A", 1), ("A", 2), ("B", 3), ("C", 4)])
    store = _SlowStore(table)
    answers = Answers(store)
    assert answers.page(q, None, 2, 0.05) is None  # still being computed
    store.go.set()
    first = answers.page(q, None, 2, None)
    assert first.table.rows == [("A", 1), ("A", 2), ("B", 3)] and first.persons == 2 and first.after == "B"
    last = answers.page(q, "B", 2, None)
    assert last.table.rows == [("C", 4)] and last.persons == 1 and last.after is None
    assert answers.page(q, "C", 2, None).persons == 0
    assert store.calls == 1


def test_a_whole_answer_that_failed_is_said_to_every_reader():
    store = _SlowStore(None)
    store.go.set()
    answers = Answers(store)
    for _ in range(2):
        with pytest.raises(OSError, match="went away"):
            answers.page(CANNED["one-exam-short"], None, 2, None)


def test_a_whole_answer_not_ordered_by_the_person_first_is_refused():
    store = _SlowStore(Table("select", ["person"], [("B",), ("A",)]))
    store.go.set()
    with pytest.raises(ValueError, match="not ordered by"):
        Answers(store).page(CANNED["one-exam-short"], None, 2, None)


def test_warming_computes_the_whole_answers_before_the_first_reader():
    store = _SlowStore(Table("select", ["person"], [("A",)]))
    store.go.set()
    answers = Answers(store)
    answers.warm(CANNED.values()).join(10)
    assert store.calls == len(WHOLE)
    assert answers.page(CANNED["within-30-days-of-fahrzeit"], None, 1, 0).persons == 1


def test_a_page_holds_only_its_persons_rows(stores):
    q = CANNED["roles-per-person"]
    store = stores["oxigraph"]
    ids = person_ids(store)
    first = page(q, ids, None, 2)
    assert first.after == ids[1] and first.persons == 2
    assert {str(r[0]) for r in store.select(first.text).rows} <= set(ids[:2])
    last = page(q, ids, ids[-2], 2)
    assert last.persons == 1 and last.after is None
    assert page(q, ids, ids[-1], 2).persons == 0


@pytest.fixture(scope="module")
def client(law, stores):
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, create_app

    return TestClient(create_app(Service(law, stores["oxigraph"])))


def _follow(client, name: str, persons: int) -> tuple[list[dict], list[dict], int]:
    """The whole answer from /sparql, and the rows and number of pages read by following the route's Links."""
    accept = {"Accept": "application/sparql-results+json"}
    whole = client.post("/sparql", data={"query": CANNED[name].text}, headers=accept).json()
    url, rows, pages = f"/api/queries/{name}?persons={persons}", [], 0
    while url:
        r = client.get(url, headers=accept)
        assert r.status_code == 200 and r.headers["vary"] == "Accept"
        assert 0 < int(r.headers["x-crewkg-page-persons"]) <= persons
        rows += r.json()["results"]["bindings"]
        pages += 1
        link = r.headers.get("link")
        url = re.fullmatch(r'<(.+)>; rel="next"', link).group(1) if link else None
        if url:
            assert parse_qs(urlsplit(url).query)["persons"] == [str(persons)]
    return whole["results"]["bindings"], rows, pages


def test_the_service_gives_the_pages_with_a_link_to_the_next(client):
    whole, rows, pages = _follow(client, "roles-per-person", 4)
    assert rows == whole and pages >= 3


def test_the_service_pages_csv_and_keeps_the_language_in_the_link(client):
    r = client.get("/api/queries/credited-days?persons=1&lang=de", headers={"Accept": "text/csv"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["x-crewkg-page-persons"] == "1"
    assert "lang=de" in r.headers["link"]


def test_a_query_not_about_each_person_is_answered_whole(client):
    r = client.get("/api/queries/eligible-count", headers={"Accept": "application/sparql-results+json"})
    assert r.status_code == 200 and "link" not in r.headers and r.headers["vary"] == "Accept"
    whole = client.post("/sparql", data={"query": CANNED["eligible-count"].text},
                        headers={"Accept": "application/sparql-results+json"}).json()
    assert r.json() == whole


@pytest.mark.parametrize(("lang", "words"), [("en", "no canned query named 'nope'"),
                                             ("de", "keine vorbereitete Abfrage namens 'nope'")])
def test_an_unknown_query_name_is_404_naming_the_known_ones(client, lang, words):
    r = client.get(f"/api/queries/nope?lang={lang}")
    assert r.status_code == 404 and words in r.text and "roles-per-person" in r.text


@pytest.mark.parametrize("persons", [0, MAX_PAGE_PERSONS + 1])
def test_a_page_size_out_of_range_is_refused(client, persons):
    r = client.get(f"/api/queries/roles-per-person?persons={persons}")
    assert r.status_code == 400 and str(MAX_PAGE_PERSONS) in r.text
    ok = client.get(f"/api/queries/roles-per-person?persons={MAX_PAGE_PERSONS}")
    assert ok.status_code == 200 and "link" not in ok.headers


def test_the_service_gives_a_whole_answer_a_page_of_its_persons_at_a_time(client):
    whole, rows, pages = _follow(client, "one-exam-short", 1)
    assert rows == whole and pages == len({b["person"]["value"] for b in rows}) >= 2
    csv = client.get("/api/queries/one-exam-short?persons=1", headers={"Accept": "text/csv"})
    assert csv.status_code == 200 and csv.text.startswith("person,certificate,pathway,exam\r\n")
    assert client.get("/api/queries/one-exam-short", headers={"Accept": "image/png"}).status_code == 406


@pytest.mark.parametrize(("lang", "words"), [("en", "still being computed"), ("de", "wird noch")])
def test_a_whole_answer_still_being_computed_is_503_with_retry_after(client, lang, words):
    st = client.app.fastapi.state.crewkg
    kept, store = st.answers, _SlowStore(Table("select", ["person"], []))
    st.answers = Answers(store)
    old, st.service.settings.query_timeout = st.service.settings.query_timeout, 0.05
    try:
        r = client.get(f"/api/queries/within-30-days-of-fahrzeit?lang={lang}")
        assert r.status_code == 503 and r.headers["retry-after"] == "5"
        assert words in r.text and "within-30-days-of-fahrzeit" in r.text
    finally:
        store.go.set()
        st.answers, st.service.settings.query_timeout = kept, old
