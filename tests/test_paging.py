"""A canned query about each person answered a page of persons at a time (service/paging.py, issue 12): the pages,
one after the other, are exactly the whole answer in its order, on both stores; the service's route gives them
with a Link to the next page, and refuses an unknown name or a page size out of range in the language asked."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from crewkg.records.load import load_persons
from crewkg.service.paging import MAX_PAGE_PERSONS, page, person_ids
from crewkg.service.sparql import STORES, build_store, canned_queries

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
CANNED = {q.name: q for q in canned_queries()}
PAGED = sorted(name for name, q in CANNED.items() if q.page)


@pytest.fixture(scope="module")
def stores(law):
    persons = load_persons(EXAMPLES, law, AS_OF)
    return {kind: build_store(kind, law, persons, AS_OF) for kind in STORES}


def _n3(table) -> list[tuple]:
    return [tuple(None if x is None else x.n3() for x in r) for r in table.rows]


def test_the_queries_with_a_row_or_more_per_person_are_paged_by_the_first_key_of_their_order():
    assert {"roles-per-person", "eligibility-provenance", "credited-days", "eligible-steuermann"} <= set(PAGED)
    for name in PAGED:
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


def test_the_service_gives_the_pages_with_a_link_to_the_next(client):
    accept = {"Accept": "application/sparql-results+json"}
    whole = client.post("/sparql", data={"query": CANNED["roles-per-person"].text}, headers=accept).json()
    url, rows, pages = "/api/queries/roles-per-person?persons=4", [], 0
    while url:
        r = client.get(url, headers=accept)
        assert r.status_code == 200 and r.headers["vary"] == "Accept"
        rows += r.json()["results"]["bindings"]
        pages += 1
        link = r.headers.get("link")
        url = re.fullmatch(r'<(.+)>; rel="next"', link).group(1) if link else None
        if url:
            assert parse_qs(urlsplit(url).query)["persons"] == ["4"]
    assert rows == whole["results"]["bindings"] and pages >= 3


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
