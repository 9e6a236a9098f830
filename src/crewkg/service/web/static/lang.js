// The page language, shared by every page: ?lang=de|en, else the visitor's last choice, else German (the law's
// language). Each page embeds its texts per language and calls translateTexts; nothing here names the law.
"use strict";

const PAGE_LANGS = ["de", "en"];

function pageLang() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (PAGE_LANGS.includes(asked)) return asked;
  try {
    const kept = window.localStorage.getItem("crewkg.lang");
    if (PAGE_LANGS.includes(kept)) return kept;
  } catch (err) { /* storage may be disabled */ }
  return "de";
}

/** Remember the language, put it into the address and into the links between the pages. */
function setPageLang(lang) {
  try { window.localStorage.setItem("crewkg.lang", lang); } catch (err) { /* storage may be disabled */ }
  const url = new URL(window.location.href);
  url.searchParams.set("lang", lang);
  window.history.replaceState(null, "", url);
  document.documentElement.lang = lang;
  document.querySelectorAll("nav a[data-page]").forEach((a) => { a.setAttribute("href", `${a.dataset.page}?lang=${lang}`); });
}

/** Every element with data-t="key" gets the text of `key` in `lang` (German where a key is missing). */
function translateTexts(texts, lang) {
  const words = texts[lang] || texts.de;
  document.querySelectorAll("[data-t]").forEach((node) => {
    const text = words[node.getAttribute("data-t")];
    if (text !== undefined) node.textContent = text;
  });
  if (words.page_title) document.title = words.page_title;
}

/** A language switch (<select id="lang">) that starts on the page language and re-renders on change. */
function bindLanguageSwitch(render) {
  const select = document.getElementById("lang");
  select.value = pageLang();
  setPageLang(select.value);
  select.addEventListener("change", () => { setPageLang(select.value); render(select.value); });
  render(select.value);
}
