// crewkg eligibility page: builds the record form from /api/terms, posts the record to /api/report and shows
// the answer. Every id, label, number and sentence comes from the server; nothing about the law is written here.
"use strict";

const UI = {
  de: {
    title: "crewkg — Unionsbefähigungszeugnisse nach SchBV 2022", nav_check: "Prüfen", nav_queries: "SPARQL-Abfragen",
    nav_api: "API", language: "Sprache", record: "Ihre Angaben",
    record_hint: "Geben Sie Ihre Daten ein oder laden Sie eine Datei (YAML, JSON oder Turtle) hoch. Nichts wird gespeichert.",
    person: "Person und Stichtag", target: "Ziel (Karriereweg)", id: "Kennung", birth_date: "Geburtsdatum", as_of: "Stichtag", documents: "Nachweise",
    medical: "Medizinische Tauglichkeit (Anlage 7)", medical_no: "keine", medical_yes: "vorhanden", medical_until: "gültig bis …",
    valid_until: "gültig bis", radio: "Sprechfunkzeugnis", safety: "Grundlegende Sicherheitsausbildung (§ 19)",
    apprentice: "Lehrvertrag", apprentice_year: "Lehrjahr", sailing: "Fahrzeit (validierte Tage je Funktion)",
    experience: "Seefahrt und Berufserfahrung", sea_deck: "Tage als Decksmannschaft auf einem Seeschiff",
    sea_master: "Tage als Schiffsführer auf See", work_years: "Jahre Berufserfahrung", training_years: "Jahre Berufsausbildung",
    programmes: "Absolvierte Ausbildungsprogramme (§ 132 SchFG)", add_programme: "Programm hinzufügen",
    programme_for: "Programm für", months: "Monate", days_within: "Fahrzeit im Programm", days_after: "Fahrzeit danach",
    remove: "entfernen", exams: "Bestandene Prüfungen (§ 134 SchFG)", certificates: "Vorhandene Befähigungszeugnisse",
    functions: "Sicherheitsfunktionen", submit: "Prüfen", or: "oder", upload: "Datei prüfen", result: "Ergebnis",
    certificate: "Befähigungszeugnis", provision: "Bestimmung", verdict: "Ergebnis", pathways: "Wege", missing: "Was fehlt",
    career: "Karriereweg", eligible: "✓ ausstellbar", not_eligible: "✗ nicht ausstellbar", not_covered: "? nicht abgedeckt",
    roles: "Kann besetzen", none: "—", regulation: "Rechtsgrundlage", person_label: "Person", date_label: "Stichtag",
    nothing_missing: "Für jedes Zeugnis ist mindestens ein Weg erfüllt.", no_file: "Bitte zuerst eine Datei wählen.",
    checking: "Prüfe …", zoom_in: "vergrößern", zoom_out: "verkleinern", zoom_fit: "ganzes Bild",
    zoom_hint: "Strg + Mausrad: zoomen; ziehen: verschieben",
    paste: "Datensatz einfügen (YAML oder JSON, auch mit Schifferdienstbuch)", paste_check: "Eingefügten Datensatz prüfen",
    no_paste: "Bitte zuerst einen Datensatz einfügen.",
    clerk_title: "Für die Behörde: Entwurf und Nachweis", clerk_certificate: "Zeugnis", clerk_kind: "Art",
    kind_decision: "Bescheid", kind_completion: "Auftrag zur Verbesserung (§ 13 Abs. 3 AVG)",
    kind_hearing: "Ergebnis der Beweisaufnahme (§ 45 Abs. 3 AVG)", draft_html: "Entwurf öffnen (HTML)",
    draft_pdf: "Entwurf laden (PDF)", credential_edc: "Nachweis laden (EDC, JSON-LD)",
    clerk_hint: "Ein Entwurf ist kein Bescheid: die Behörde entscheidet, würdigt die Beweise und unterschreibt. Der Nachweis ist unversiegelt und nicht das amtliche Dokument.",
  },
  en: {
    title: "crewkg — Union certificates of qualification under SchBV 2022", nav_check: "Check", nav_queries: "SPARQL queries",
    nav_api: "API", language: "Language", record: "Your record",
    record_hint: "Enter your data or upload a record file (YAML, JSON or Turtle). Nothing is stored.",
    person: "Person and evaluation date", target: "Target (career path)", id: "Identifier", birth_date: "Birth date", as_of: "Evaluation date",
    documents: "Documents", medical: "Medical fitness (Annex 7)", medical_no: "none", medical_yes: "held",
    medical_until: "valid until …", valid_until: "valid until", radio: "Radio certificate (Sprechfunkzeugnis)",
    safety: "Basic safety training (§ 19)", apprentice: "Apprenticeship contract", apprentice_year: "Apprenticeship year",
    sailing: "Sailing time (validated days per role)", experience: "Sea time and work experience",
    sea_deck: "Days as deck crew on a sea-going ship", sea_master: "Days as master at sea", work_years: "Years of work experience",
    training_years: "Years of vocational training", programmes: "Completed approved programmes (§ 132 SchFG)",
    add_programme: "Add programme", programme_for: "Programme for", months: "Months", days_within: "Days within",
    days_after: "Days after", remove: "remove", exams: "Passed exams (§ 134 SchFG)", certificates: "Certificates held",
    functions: "Safety functions", submit: "Check", or: "or", upload: "Check file", result: "Result",
    certificate: "Certificate", provision: "Provision", verdict: "Result", pathways: "Pathways", missing: "What is missing",
    career: "Career path", eligible: "✓ can be issued", not_eligible: "✗ cannot be issued", not_covered: "? not covered",
    roles: "Can fill", none: "—", regulation: "Regulation", person_label: "Person", date_label: "Evaluation date",
    nothing_missing: "Every certificate has at least one satisfied pathway.", no_file: "Please choose a file first.",
    checking: "Checking …", zoom_in: "zoom in", zoom_out: "zoom out", zoom_fit: "whole picture",
    zoom_hint: "Ctrl + mouse wheel: zoom; drag: move",
    paste: "Paste a record (YAML or JSON, a service log too)", paste_check: "Check the pasted record",
    no_paste: "Please paste a record first.",
    clerk_title: "For the authority: draft and credential", clerk_certificate: "Certificate", clerk_kind: "Kind",
    kind_decision: "Decision (Bescheid)", kind_completion: "Request to complete (§ 13 Abs. 3 AVG)",
    kind_hearing: "Result of the taking of evidence (§ 45 Abs. 3 AVG)", draft_html: "Open the draft (HTML)",
    draft_pdf: "Download the draft (PDF)", credential_edc: "Download the credential (EDC, JSON-LD)",
    clerk_hint: "A draft is not a decision: the authority decides, weighs the evidence and signs. The credential is unsealed and not the legal document.",
  },
};

const $ = (id) => document.getElementById(id);
let terms = null;
// the target the user chose in the list; until then the server plans for the next certificate above what the
// record holds and the list shows that one
let targetChosen = false;

function lang() { return $("lang").value; }
function t(key) { return (UI[lang()] || UI.de)[key] || key; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function translatePage() {
  document.documentElement.lang = lang();
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = t(n.getAttribute("data-t")); });
}

async function loadTerms() {
  const response = await fetch(`/api/terms?lang=${lang()}`);
  terms = await response.json();
  const keep = collectChecked();
  const days = $("sailing-days");
  const oldDays = {};
  days.querySelectorAll("input").forEach((i) => { oldDays[i.dataset.role] = i.value; });
  days.replaceChildren(...terms.deck_roles.map((r) => el("label", {}, el("span", {}, r.label),
    el("input", { type: "number", min: 0, step: 1, id: `days-${r.id}`, "data-role": r.id, value: oldDays[r.id] || "" }))));
  for (const [box, list] of [["exams", terms.exams], ["certificates", terms.certificates], ["functions", terms.functions]]) {
    $(box).replaceChildren(...list.map((x) => el("label", { class: "check" },
      el("input", { type: "checkbox", id: `${box}-${x.id}`, value: x.id, checked: keep.has(`${box}-${x.id}`) }), ` ${x.label}`)));
  }
  document.querySelectorAll("#programmes select").forEach(fillRoleSelect);
  const target = $("target");
  const chosen = target.value || terms.default_target;
  target.replaceChildren(...terms.targets.map((x) => el("option", { value: x.id }, x.label)));
  if (chosen) target.value = chosen;
}

function collectChecked() {
  const out = new Set();
  document.querySelectorAll("#exams input:checked, #certificates input:checked, #functions input:checked").forEach((i) => out.add(i.id));
  return out;
}

function fillRoleSelect(select) {
  const current = select.value;
  select.replaceChildren(...terms.deck_roles.map((r) => el("option", { value: r.id }, r.label)));
  if (current) select.value = current;
}

function addProgramme() {
  const n = document.querySelectorAll("#programmes .programme").length;
  const select = el("select", { id: `programme-${n}-for` });
  fillRoleSelect(select);
  const row = el("div", { class: "row programme" },
    el("label", {}, el("span", {}, t("programme_for")), select),
    el("label", {}, el("span", {}, t("months")), el("input", { type: "number", min: 0, step: 1, id: `programme-${n}-months` })),
    el("label", {}, el("span", {}, t("days_within")), el("input", { type: "number", min: 0, step: 1, id: `programme-${n}-within` })),
    el("label", {}, el("span", {}, t("days_after")), el("input", { type: "number", min: 0, step: 1, id: `programme-${n}-after` })));
  const remove = el("button", { type: "button", className: "secondary" }, t("remove"));
  remove.addEventListener("click", () => row.remove());
  row.append(remove);
  $("programmes").append(row);
}

function number(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number(v);
}

/** The form as a person record with the keys of a person record (docs/person-records.md); empty fields are left out. */
function record() {
  const r = { id: $("person-id").value.trim() };
  if ($("birth-date").value) r.birth_date = $("birth-date").value;
  const medical = $("medical").value;
  if (medical === "yes") r.medical_fitness = true;
  if (medical === "until" && $("medical-until").value) r.medical_fitness = { valid_until: $("medical-until").value };
  if ($("radio").checked) r.radio_certificate = true;
  if ($("safety").checked) r.basic_safety_training = true;
  const year = number("apprentice-year");
  if ($("apprentice").checked || year !== null) {
    r.apprenticeship = { contract: $("apprentice").checked };
    if (year !== null) r.apprenticeship.year = year;
  }
  const sailing = {};
  document.querySelectorAll("#sailing-days input").forEach((i) => { if (i.value.trim() !== "") sailing[i.dataset.role] = Number(i.value); });
  if (Object.keys(sailing).length) r.sailing_days = sailing;
  const sea = {};
  if (number("sea-deck") !== null) sea.deck_crew = number("sea-deck");
  if (number("sea-master") !== null) sea.master = number("sea-master");
  if (Object.keys(sea).length) r.sea_days = sea;
  if (number("work-years") !== null) r.professional_experience_years = number("work-years");
  if (number("training-years") !== null) r.vocational_training_years = number("training-years");
  const programmes = [];
  document.querySelectorAll("#programmes .programme").forEach((row) => {
    const [select, months, within, after] = row.querySelectorAll("select, input");
    programmes.push({ for: select.value, months: Number(months.value || 0), sailing_days: Number(within.value || 0),
      sailing_days_after: Number(after.value || 0) });
  });
  if (programmes.length) r.programmes = programmes;
  for (const key of ["exams", "certificates", "functions"]) {
    const ids = [...document.querySelectorAll(`#${key} input:checked`)].map((i) => i.value);
    if (ids.length) r[key] = ids;
  }
  return r;
}

function query() {
  const params = new URLSearchParams({ lang: lang() });
  if ($("as-of").value) params.set("as_of", $("as-of").value);
  if (targetChosen && $("target").value) params.set("target", $("target").value);
  return params.toString();
}

// the last record checked, sent again (the same body to the same kind of endpoint) for a draft or a credential
let lastRequest = null;

async function submit(body, url, headers) {
  lastRequest = { body, upload: url.includes("/upload"), headers };
  $("error").classList.add("hidden");
  const buttons = [$("submit"), $("upload-button"), $("paste-button")];
  buttons.forEach((b) => { b.disabled = true; });
  $("submit").textContent = t("checking");
  try {
    const response = await fetch(url, { method: "POST", body, headers });
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) throw new Error(data.error || JSON.stringify(data));
    show(data);
  } catch (err) {
    $("result").classList.add("hidden");
    $("error").textContent = err.message;
    $("error").classList.remove("hidden");
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
    $("submit").textContent = t("submit");
  }
}

function verdict(c) {
  if (!c.covered) return el("span", { class: "verdict na", "data-eligible": "null" }, t("not_covered"));
  return c.eligible
    ? el("span", { class: "verdict yes", "data-eligible": "true" }, t("eligible"))
    : el("span", { class: "verdict no", "data-eligible": "false" }, t("not_eligible"));
}

/** A text whose citations and dates (the server's pattern `view.unbreakable`) never break inside a line. */
function kept(text, pattern) {
  const node = el("span", {});
  let last = 0;
  for (const m of pattern ? text.matchAll(new RegExp(pattern, "gu")) : []) {
    node.append(text.slice(last, m.index), el("span", { class: "nw" }, m[0]));
    last = m.index + m[0].length;
  }
  node.append(text.slice(last));
  return node;
}

/** The answer's summary box (roles, issuable now, lapsed and why, next steps), every text from the server. */
function digest(box, pattern) {
  const node = $("digest");
  if (!box) { node.replaceChildren(); node.classList.add("hidden"); return; }
  node.replaceChildren(el("h3", {}, box.title), ...box.parts.map((p) => el("div", { "data-part": p.key },
    el("h4", {}, p.heading),
    el("ul", {}, ...p.items.map((x) => typeof x === "string" ? el("li", {}, kept(x, pattern))
      : el("li", {}, kept(x.text, pattern), el("ul", {}, ...x.actions.map((y) => el("li", {}, kept(y, pattern))))))))));
  node.classList.remove("hidden");
}

/** The career panel: the route's title and steps first, then the picture of the routes. */
function careerPanel(data) {
  const career = $("career");
  if (!(data.career && data.career.svg)) {
    career.replaceChildren(el("p", { class: "hint" }, data.career_note || t("none")));
    return;
  }
  const c = data.career;
  const img = el("img", { alt: c.route_text || t("career"), src: `data:image/svg+xml;base64,${c.svg}` });
  const frame = el("div", { class: "career-frame" }, img);
  const pattern = data.view.unbreakable;
  career.replaceChildren(el("p", { class: "route-title" }, kept(c.route_text || "", pattern)));
  if ((c.step_lines || []).length) {
    career.append(el("h4", {}, c.steps_title),
      el("ul", { class: "route-steps" }, ...c.step_lines.map((x) => el("li", {}, kept(x, pattern)))));
  }
  career.append(zoomControls(frame, img), frame);
  if (!targetChosen && c.target) $("target").value = c.target;
}

/** The answer last shown: the "every certificate" switch shows it again with or without the certificates that do
 * not concern the person. */
let shown = null;

function show(data, scroll = true) {
  shown = data;
  const a = data.view;
  digest(a.summary_box, a.unbreakable);
  $("every-label").textContent = a.every_label || "";
  const concerns = new Set(a.concerns || []);
  const listed = (a.certificates || []).filter((c) => $("every").checked || !a.concerns || concerns.has(c.id));
  const summary = $("summary");
  const roles = (a.roles || []).map((r) => a.role_labels[r] || r).join(", ") || t("none");
  summary.replaceChildren(
    el("div", {}, el("b", {}, t("person_label")), a.person),
    el("div", {}, el("b", {}, t("date_label")), a.as_of),
    el("div", {}, el("b", {}, t("regulation")), a.regulation || a.reason || t("none")),
    el("div", { id: "roles" }, el("b", {}, t("roles")), roles));
  const body = $("eligibility").querySelector("tbody");
  body.replaceChildren(...listed.map((c) => {
    const paths = el("div", { class: "pathways" }, ...c.pathways.map((w) =>
      el("span", { class: w.satisfied ? "ok" : "ko", title: w.label }, `${w.satisfied ? "✓" : "✗"} ${w.provision}`)));
    if (!c.covered) paths.append(c.reason);
    const cell = el("td", { class: "verdict-cell" }, verdict(c));
    if (c.since_sentence) cell.append(el("div", { class: "hint since", "data-since": c.eligible_since }, c.since_sentence));
    return el("tr", { "data-certificate": c.id }, el("td", {}, c.label), el("td", {}, c.provision), cell, el("td", {}, paths));
  }));
  // a record with a service log: the credited days of each requirement beside those recorded, not validated, capped
  const credits = $("credits");
  credits.replaceChildren();
  for (const c of listed) {
    if (!(c.credits || []).length) continue;
    credits.append(el("div", { "data-certificate": c.id }, el("h4", {}, `${c.label} (${c.provision})`),
      el("ul", { class: "credits" }, ...c.credits.map((x) => el("li", { "data-requirement": x.id }, x.sentence)))));
  }
  $("credits-title").textContent = a.credit_title || "";
  $("credits-block").classList.toggle("hidden", !credits.children.length);
  const missing = $("missing");
  missing.replaceChildren();
  for (const c of listed) {
    if (!c.covered || c.eligible) continue;
    const block = el("div", { "data-certificate": c.id }, el("h4", {}, `${c.label} (${c.provision})`));
    for (const w of c.pathways) {
      block.append(el("div", {}, el("b", {}, w.label)),
        el("ul", { class: "missing" }, ...w.missing.map((m) => el("li", {}, m.sentence))));
    }
    missing.append(block);
  }
  if (!missing.children.length) missing.append(el("p", { class: "hint" }, t("nothing_missing")));
  careerPanel(data);
  const pick = $("clerk-certificate");
  pick.replaceChildren(...(a.certificates || []).filter((c) => c.covered)
    .map((c) => el("option", { value: c.id }, `${c.label} (${c.provision})`)));
  $("result").classList.remove("hidden");
  if (scroll) $("result").scrollIntoView({ behavior: "smooth", block: "start" });
}

$("every").addEventListener("change", () => { if (shown) show(shown, false); });

/** A draft (HTML opened, PDF downloaded) or a credential (downloaded) for the last record checked: the same body
 * sent to /api/draft or /api/credential (their /upload twins for a file); a refusal is shown as the check's is. */
async function clerk(what, format) {
  if (!lastRequest) return;
  $("error").classList.add("hidden");
  const params = new URLSearchParams({ lang: lang(), certificate: $("clerk-certificate").value });
  if ($("as-of").value) params.set("as_of", $("as-of").value);
  if (what === "draft") { params.set("format", format); params.set("kind", $("clerk-kind").value); }
  const url = `/api/${what}${lastRequest.upload ? "/upload" : ""}?${params}`;
  try {
    const response = await fetch(url, { method: "POST", body: lastRequest.body, headers: lastRequest.headers });
    if (!response.ok) {
      const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
      throw new Error(data.error || JSON.stringify(data));
    }
    const link = URL.createObjectURL(await response.blob());
    if (format === "html") { window.open(link, "_blank"); return; }
    const a = el("a", { href: link, download: `${what}-${params.get("certificate")}.${format === "pdf" ? "pdf" : "jsonld"}` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    $("error").textContent = err.message;
    $("error").classList.remove("hidden");
  }
}

/** Buttons (and Ctrl + mouse wheel) that zoom the career graph inside its frame; the frame scrolls and can be
 * dragged. Zoom 1 fits the frame's width. */
function zoomControls(frame, img) {
  let zoom = 1;
  const label = el("span", { class: "hint zoom-level" }, "100 %");
  const apply = (z) => {
    zoom = Math.min(4, Math.max(1, z));
    img.style.width = `${zoom * 100}%`;
    label.textContent = `${Math.round(zoom * 100)} %`;
    frame.classList.toggle("zoomed", zoom > 1);
  };
  const button = (how, text, title, step) => {
    const b = el("button", { type: "button", className: "secondary", title: t(title) }, text);
    b.setAttribute("data-zoom", how);
    b.addEventListener("click", () => apply(step(zoom)));
    return b;
  };
  frame.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    apply(zoom * (ev.deltaY < 0 ? 1.25 : 0.8));
  }, { passive: false });
  let drag = null;
  frame.addEventListener("mousedown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, left: frame.scrollLeft, top: frame.scrollTop }; ev.preventDefault(); });
  window.addEventListener("mouseup", () => { drag = null; });
  frame.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    frame.scrollLeft = drag.left - (ev.clientX - drag.x);
    frame.scrollTop = drag.top - (ev.clientY - drag.y);
  });
  return el("div", { class: "zoom row" },
    button("out", "−", "zoom_out", (z) => z / 1.25), button("in", "+", "zoom_in", (z) => z * 1.25),
    button("fit", t("zoom_fit"), "zoom_fit", () => 1), label, el("span", { class: "hint" }, t("zoom_hint")));
}

function init() {
  $("as-of").value = new Date().toISOString().slice(0, 10);
  bindLanguageSwitch(() => { translatePage(); loadTerms(); });
  $("medical").addEventListener("change", () => {
    $("medical-until-label").classList.toggle("hidden", $("medical").value !== "until");
  });
  $("add-programme").addEventListener("click", addProgramme);
  $("target").addEventListener("change", () => { targetChosen = true; });
  $("draft-html").addEventListener("click", () => clerk("draft", "html"));
  $("draft-pdf").addEventListener("click", () => clerk("draft", "pdf"));
  $("credential-edc").addEventListener("click", () => clerk("credential", "edc"));
  $("record-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    submit(JSON.stringify(record()), `/api/report?${query()}`, { "Content-Type": "application/json" });
  });
  $("upload-button").addEventListener("click", () => {
    const file = $("upload").files[0];
    if (!file) { $("error").textContent = t("no_file"); $("error").classList.remove("hidden"); return; }
    const form = new FormData();
    form.append("file", file);
    submit(form, `/api/report/upload?${query()}`, {});
  });
  // a pasted record goes the upload's way: JSON when it starts with "{", YAML otherwise
  $("paste-button").addEventListener("click", () => {
    const text = $("paste").value.trim();
    if (!text) { $("error").textContent = t("no_paste"); $("error").classList.remove("hidden"); return; }
    const form = new FormData();
    const json = text.startsWith("{");
    form.append("file", new Blob([text], { type: json ? "application/json" : "application/yaml" }), json ? "record.json" : "record.yaml");
    submit(form, `/api/report/upload?${query()}`, {});
  });
}

document.addEventListener("DOMContentLoaded", init);
