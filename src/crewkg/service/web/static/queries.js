// crewkg canned-query page: lists /api/queries and runs a query through the SPARQL endpoint (/sparql).
"use strict";

const $ = (id) => document.getElementById(id);
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
  return fetch("/sparql", { method: "POST", body, headers: { Accept: accept } });
}

async function run() {
  $("error").classList.add("hidden");
  $("status").textContent = "running …";
  const started = performance.now();
  const response = await post("application/sparql-results+json");
  const ms = Math.round(performance.now() - started);
  if (!response.ok) {
    $("status").textContent = `HTTP ${response.status}`;
    $("error").textContent = await response.text();
    $("error").classList.remove("hidden");
    return;
  }
  const data = await response.json();
  if ("boolean" in data) {
    $("results").replaceChildren(el("p", {}, String(data.boolean)));
    $("status").textContent = `${ms} ms`;
    return;
  }
  const vars = data.head.vars;
  const rows = data.results.bindings;
  const table = el("table", { id: "result-table" },
    el("thead", {}, el("tr", {}, ...vars.map((v) => el("th", {}, v)))),
    el("tbody", {}, ...rows.map((b) => el("tr", {}, ...vars.map((v) => el("td", {}, short(b[v])))))));
  $("results").replaceChildren(table);
  $("status").textContent = `${rows.length} rows, ${ms} ms`;
}

async function csv() {
  const response = await post("text/csv");
  if (!response.ok) { $("error").textContent = await response.text(); $("error").classList.remove("hidden"); return; }
  const url = URL.createObjectURL(await response.blob());
  const a = el("a", { href: url, download: "crewkg-query.csv" });
  document.body.append(a); a.click(); a.remove();
  URL.revokeObjectURL(url);
}

async function init() {
  const [queries, health] = await Promise.all([fetch("/api/queries").then((r) => r.json()), fetch("/health").then((r) => r.json())]);
  $("health").textContent = `Store: ${health.store}, ${health.triples} triples, ${health.persons} persons` +
    (health.as_of ? `, evaluated on ${health.as_of}.` : ".");
  $("queries").replaceChildren(...queries.map((q) => {
    const button = el("button", { type: "button", class: "secondary", "data-query": q.name }, "Run");
    button.addEventListener("click", () => { $("query-text").value = q.query; run(); });
    return el("div", { class: "query" }, el("h3", {}, q.title), el("p", {}, q.description), el("span", { class: "mono" }, `${q.name}.rq `), button);
  }));
  if (queries.length) $("query-text").value = queries[0].query;
  $("run").addEventListener("click", run);
  $("csv").addEventListener("click", csv);
}

document.addEventListener("DOMContentLoaded", init);
