// crewkg canned-query page: lists /api/queries and runs a query through the SPARQL endpoint (/sparql); a canned query
// about each person runs through /api/queries/<name>, a page of persons at a time (the Link header names the next).
"use strict";

const $ = (id) => document.getElementById(id);

const TEXTS = {
  de: {
    page_title: "crewkg — SPARQL-Abfragen", title: "crewkg — SPARQL-Abfragen", nav_check: "Prüfen", nav_queries: "SPARQL-Abfragen",
    nav_api: "API", nav_fleet: "Flotte", language: "Sprache", canned: "Vorbereitete Abfragen", intro_1: "Die Abfragen aus",
    intro_2: "ausgeführt am Endpunkt", intro_3: "(nur lesend): Ontologie, Wissensbasis, die mit",
    intro_4: "geladenen Personen und ihre abgeleiteten Fakten.",
    titles_note: "",
    query: "Abfrage", run: "Ausführen", csv: "CSV herunterladen", results: "Ergebnisse", running: "läuft …",
    rows: "{n} Zeilen, {ms} ms", health: "Speicher: {store}, {triples} Tripel, {persons} Personen",
    evaluated: ", ausgewertet am {date}.",
    more: "Weitere Personen", page: "{persons} Personen gezeigt", last_page: "{persons} Personen gezeigt, alle",
  },
  en: {
    page_title: "crewkg — SPARQL queries", title: "crewkg — SPARQL queries", nav_check: "Check", nav_queries: "SPARQL queries",
    nav_api: "API", nav_fleet: "Fleet", language: "Language", canned: "Canned queries", intro_1: "The queries of",
    intro_2: "run against the endpoint", intro_3: "(read-only): ontology, kb, the persons loaded with",
    intro_4: "and their derived facts.", titles_note: "",
    query: "Query", run: "Run", csv: "Download CSV", results: "Results", running: "running …",
    rows: "{n} rows, {ms} ms", health: "Store: {store}, {triples} triples, {persons} persons", evaluated: ", evaluated on {date}.",
    more: "More persons", page: "{persons} persons shown", last_page: "{persons} persons shown, all",
  },
};
let currentLang = "de";

/** The text `key` in the page language, its {fields} filled. */
function say(key, fields) {
  return Object.entries(fields || {}).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, String(v)), TEXTS[currentLang][key]);
}
let health = null;
const SHORT = [
  ["https://w3id.org/crewkg/onto#", "crew:"], ["https://w3id.org/crewkg/kb/", "kb:"],
  ["https://w3id.org/crewkg/person/", "person:"], ["https://w3id.org/crewkg/derived/", "derived:"],
];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => { if (k === "class") node.className = v; else node.setAttribute(k, v); });
  children.forEach((c) => node.append(c instanceof Node ? c : document.createTextNode(String(c))));
  return node;
}

function short(term) {
  if (!term) return "";
  if (term.type === "uri") {
    for (const [iri, prefix] of SHORT) if (term.value.startsWith(iri)) return prefix + term.value.slice(iri.length);
  }
  return term.value;
}

async function post(accept) {
  const body = new URLSearchParams({ query: $("query-text").value });
  // in the page's language: the service's refusals (a malformed query, a timeout) are said in it too
  return fetch(`/sparql?lang=${currentLang}`, { method: "POST", body, headers: { Accept: accept } });
}

/** The canned query now shown, while its answer comes a page of persons at a time. */
let paged = null;

async function run() {
  paged = null;
  await show(post("application/sparql-results+json"), false);
}

/** A canned query: through /api/queries/<name>, which pages a query about each person. */
async function runCanned(name) {
  paged = { name, persons: 0, next: null };
  const url = `/api/queries/${encodeURIComponent(name)}?lang=${currentLang}`;  // the Link to the next page keeps it
  await show(fetch(url, { headers: { Accept: "application/sparql-results+json" } }), false);
}

async function more() {
  if (paged && paged.next) await show(fetch(paged.next, { headers: { Accept: "application/sparql-results+json" } }), true);
}

/** The answer of `request` as a table; `append`: below the rows of the pages before. */
async function show(request, append) {
  $("error").classList.add("hidden");
  $("status").textContent = say("running");
  const started = performance.now();
  const response = await request;
  const ms = Math.round(performance.now() - started);
  if (!response.ok) {
    $("status").textContent = `HTTP ${response.status}`;
    $("error").textContent = await response.text();
    $("error").classList.remove("hidden");
    return;
  }
  const onPage = response.headers.get("X-Crewkg-Page-Persons");
  const link = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("Link") || "");
  const data = await response.json();
  if ("boolean" in data) {
    $("results").replaceChildren(el("p", {}, String(data.boolean)));
    $("status").textContent = `${ms} ms`;
    $("paging").classList.add("hidden");
    return;
  }
  const vars = data.head.vars;
  const rows = data.results.bindings.map((b) => el("tr", {}, ...vars.map((v) => el("td", {}, short(b[v])))));
  if (append && $("result-table")) {
    $("result-table").querySelector("tbody").append(...rows);
  } else {
    $("results").replaceChildren(el("table", { id: "result-table" },
      el("thead", {}, el("tr", {}, ...vars.map((v) => el("th", {}, v)))), el("tbody", {}, ...rows)));
  }
  const shown = $("result-table").querySelectorAll("tbody tr").length;
  $("status").textContent = say("rows", { n: shown, ms });
  if (paged && onPage !== null) {
    paged.persons += Number(onPage);
    paged.next = link ? link[1] : null;
    $("more").disabled = !paged.next;
    showPageStatus();
    $("paging").classList.remove("hidden");
  } else {
    $("paging").classList.add("hidden");
  }
}

/** How many persons the table shows, and whether those are all. */
function showPageStatus() {
  $("page-status").textContent = say(paged.next ? "page" : "last_page", { persons: paged.persons });
}

async function csv() {
  const response = await post("text/csv");
  if (!response.ok) { $("error").textContent = await response.text(); $("error").classList.remove("hidden"); return; }
  const url = URL.createObjectURL(await response.blob());
  const a = el("a", { href: url, download: "crewkg-query.csv" });
  document.body.append(a); a.click(); a.remove();
  URL.revokeObjectURL(url);
}

/** The canned queries with their titles and descriptions in `lang` (asked once per language). */
const QUERIES = {};
async function queriesIn(lang) {
  if (!QUERIES[lang]) QUERIES[lang] = await fetch(`/api/queries?lang=${lang}`).then((r) => r.json());
  return QUERIES[lang];
}

function listQueries(queries, lang) {
  $("queries").replaceChildren(...queries.map((q) => {
    const button = el("button", { type: "button", class: "secondary", "data-query": q.name }, say("run"));
    button.addEventListener("click", () => { $("query-text").value = q.query; runCanned(q.name); });
    return el("div", { class: "query" }, el("h3", { lang }, q.title), el("p", { lang }, q.description), el("span", { class: "mono" }, `${q.name}.rq `), button);
  }));
}

async function render(lang) {
  currentLang = lang;
  translateTexts(TEXTS, lang);
  listQueries(await queriesIn(lang), lang);
  if (health) {
    $("health").textContent = say("health", health) + (health.as_of ? say("evaluated", { date: health.as_of }) : ".");
  }
  document.querySelectorAll("button[data-query]").forEach((b) => { b.textContent = say("run"); });
  if (paged && paged.persons) showPageStatus();
}

async function init() {
  const [queries, status] = await Promise.all([queriesIn(pageLang()), fetch("/health").then((r) => r.json())]);
  health = status;
  if (queries.length) $("query-text").value = queries[0].query;
  $("run").addEventListener("click", run);
  $("more").addEventListener("click", more);
  $("csv").addEventListener("click", csv);
  bindLanguageSwitch(render);
}

document.addEventListener("DOMContentLoaded", init);
