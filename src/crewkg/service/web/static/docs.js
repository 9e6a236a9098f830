// Renders /openapi.json (the FastAPI schema) without external assets: paths, parameters, bodies, responses.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => { if (k === "class") node.className = v; else node.setAttribute(k, v); });
  children.forEach((c) => node.append(c instanceof Node ? c : document.createTextNode(String(c))));
  return node;
}

const TEXTS = {
  de: {
    page_title: "crewkg — API", title: "crewkg — HTTP-API", nav_check: "Prüfen", nav_queries: "SPARQL-Abfragen", nav_api: "API", nav_fleet: "Flotte",
    language: "Sprache", schema_note: "Die Beschreibungen der Endpunkte stammen aus dem OpenAPI-Schema des Dienstes.",
    parameter: "Parameter", in: "Ort", type: "Typ", required: "Pflicht", yes: "ja", no: "nein", body: "Inhalt ",
    responses: "Antworten: {codes}",
  },
  en: {
    page_title: "crewkg — API", title: "crewkg — HTTP API", nav_check: "Check", nav_queries: "SPARQL queries", nav_api: "API", nav_fleet: "Fleet",
    language: "Language", schema_note: "",
    parameter: "parameter", in: "in", type: "type", required: "required", yes: "yes", no: "no", body: "Body ",
    responses: "Responses: {codes}",
  },
};
let spec = null;
const SPECS = {};

/** The OpenAPI document with the service's descriptions in `lang` (asked once per language). */
async function specIn(lang) {
  if (!SPECS[lang]) SPECS[lang] = await (await fetch(`/openapi.json?lang=${lang}`)).json();
  return SPECS[lang];
}

function resolve(spec, schema) {
  if (schema && schema.$ref) return spec.components.schemas[schema.$ref.split("/").pop()] || schema;
  return schema;
}

async function render(lang) {
  spec = await specIn(lang);
  translateTexts(TEXTS, lang);
  const w = TEXTS[lang] || TEXTS.de;
  document.getElementById("api-title").textContent = `${spec.info.title} ${spec.info.version}`;
  document.getElementById("api-description").textContent = spec.info.description || "";
  const out = document.getElementById("endpoints");
  out.replaceChildren();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const block = el("div", { class: "endpoint", lang },
        el("h3", {}, el("span", { class: "method" }, method.toUpperCase()), el("span", { class: "mono" }, path), ` — ${op.summary || ""}`));
      if (op.description) block.append(el("p", { class: "hint" }, op.description));
      if (op.parameters && op.parameters.length) {
        block.append(el("table", { lang }, el("thead", {}, el("tr", {}, el("th", {}, w.parameter), el("th", {}, w.in), el("th", {}, w.type), el("th", {}, w.required))),
          el("tbody", {}, ...op.parameters.map((p) => el("tr", {}, el("td", { class: "mono" }, p.name), el("td", {}, p.in),
            el("td", {}, (resolve(spec, p.schema) || {}).type || (p.schema && p.schema.anyOf ? p.schema.anyOf.map((s) => s.type).join(" | ") : "")),
            el("td", {}, p.required ? w.yes : w.no))))));
      }
      if (op.requestBody) {
        for (const [media, body] of Object.entries(op.requestBody.content || {})) {
          block.append(el("div", { lang }, el("b", {}, w.body), el("span", { class: "mono" }, media)));
          if (body.schema) block.append(el("pre", {}, JSON.stringify(resolve(spec, body.schema), null, 2)));
        }
      }
      const codes = Object.keys(op.responses || {}).join(", ");
      if (codes) block.append(el("p", { class: "hint", lang }, w.responses.replace("{codes}", codes)));
      out.append(block);
    }
  }
}

async function init() {
  bindLanguageSwitch(render);
}

document.addEventListener("DOMContentLoaded", init);
