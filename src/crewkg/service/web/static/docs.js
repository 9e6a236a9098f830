// Renders /openapi.json (the FastAPI schema) without external assets: paths, parameters, bodies, responses.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => { if (k === "class") node.className = v; else node.setAttribute(k, v); });
  children.forEach((c) => node.append(c instanceof Node ? c : document.createTextNode(String(c))));
  return node;
}

function resolve(spec, schema) {
  if (schema && schema.$ref) return spec.components.schemas[schema.$ref.split("/").pop()] || schema;
  return schema;
}

async function init() {
  const spec = await (await fetch("/openapi.json")).json();
  document.getElementById("api-title").textContent = `${spec.info.title} ${spec.info.version}`;
  document.getElementById("api-description").textContent = spec.info.description || "";
  const out = document.getElementById("endpoints");
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const block = el("div", { class: "endpoint" },
        el("h3", {}, el("span", { class: "method" }, method.toUpperCase()), el("span", { class: "mono" }, path), ` — ${op.summary || ""}`));
      if (op.description) block.append(el("p", { class: "hint" }, op.description));
      if (op.parameters && op.parameters.length) {
        block.append(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "in"), el("th", {}, "type"), el("th", {}, "required"))),
          el("tbody", {}, ...op.parameters.map((p) => el("tr", {}, el("td", { class: "mono" }, p.name), el("td", {}, p.in),
            el("td", {}, (resolve(spec, p.schema) || {}).type || (p.schema && p.schema.anyOf ? p.schema.anyOf.map((s) => s.type).join(" | ") : "")),
            el("td", {}, p.required ? "yes" : "no"))))));
      }
      if (op.requestBody) {
        for (const [media, body] of Object.entries(op.requestBody.content || {})) {
          block.append(el("div", {}, el("b", {}, "Body "), el("span", { class: "mono" }, media)));
          if (body.schema) block.append(el("pre", {}, JSON.stringify(resolve(spec, body.schema), null, 2)));
        }
      }
      const codes = Object.keys(op.responses || {}).join(", ");
      if (codes) block.append(el("p", { class: "hint" }, `Responses: ${codes}`));
      out.append(block);
    }
  }
}

document.addEventListener("DOMContentLoaded", init);
