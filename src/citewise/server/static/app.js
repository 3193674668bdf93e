// citewise web app: a face of the HTTP API, no logic of its own.
// Every string that comes from a document is set with textContent, never parsed as HTML.
"use strict";

// Opened from the link `citewise serve` prints, the token arrives in the URL fragment
// (never sent to a server): keep it for this tab's bearer headers, then drop it from the URL.
if (location.hash.startsWith("#token=")) {
  sessionStorage.setItem("citewise-token", decodeURIComponent(location.hash.slice(7)));
  history.replaceState(null, "", location.pathname + location.search);
}
const state = { token: sessionStorage.getItem("citewise-token") || "", documents: [] };

function $(id) {
  return document.getElementById(id);
}

// An element with text (never HTML), attributes and children.
function el(tag, { text, cls, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const child of children) node.append(child);
  return node;
}

function status(message, isError = false) {
  const node = $("status");
  node.textContent = message;
  node.classList.toggle("error", isError);
}

function headers(extra = {}) {
  const h = { ...extra };
  if (state.token) h.Authorization = `Bearer ${state.token}`;
  return h;
}

async function request(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (!response.ok) {
    let detail = `${response.status}`;
    try {
      const body = await response.json();
      detail = `${body.code}: ${body.message}${body.hint ? ` (${body.hint})` : ""}`;
    } catch (_) {
      /* not JSON */
    }
    if (response.status === 401) detail += " - enter the server's token above";
    throw new Error(detail);
  }
  return response;
}

async function getJSON(path) {
  return (await request(path)).json();
}

async function postJSON(path, body) {
  const init = { method: "POST", body: JSON.stringify(body) };
  return (await request(path, { ...init, headers: { "Content-Type": "application/json" } })).json();
}

async function blobURL(path) {
  return URL.createObjectURL(await (await request(path)).blob());
}

function docPath(id) {
  return `/documents/${encodeURIComponent(id)}`;
}

function guarded(fn) {
  return async (...args) => {
    try {
      await fn(...args);
    } catch (exc) {
      status(String(exc.message || exc), true);
    }
  };
}

// -- views ----------------------------------------------------------------------------

function show(view) {
  for (const button of document.querySelectorAll("nav button")) {
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  for (const section of document.querySelectorAll(".view")) {
    section.hidden = section.id !== `view-${view}`;
  }
  if (view === "usage") guarded(loadUsage)();
  if (view === "research") guarded(loadTasks)();
}

// -- library --------------------------------------------------------------------------

async function loadDocuments() {
  state.documents = await getJSON("/documents");
  const body = $("documents").tBodies[0];
  body.replaceChildren();
  const scope = $("ask-scope");
  scope.replaceChildren(el("option", { text: "all documents", attrs: { value: "" } }));
  for (const doc of state.documents) {
    const open = el("button", { text: doc.title || doc.id, cls: "link", attrs: { type: "button" } });
    open.addEventListener("click", guarded(() => openDocument(doc.id)));
    body.append(
      el("tr", {}, [
        el("td", {}, [open]),
        el("td", { text: doc.id, cls: "mono" }),
        el("td", { text: doc.pages }),
        el("td", { text: doc.blocks }),
      ]),
    );
    scope.append(el("option", { text: doc.title || doc.id, attrs: { value: doc.id } }));
  }
  status(`${state.documents.length} documents`);
  document.dispatchEvent(new CustomEvent("citewise:documents")); // views.js fills its pickers
}

function sectionTree(sections) {
  const root = el("ul", { cls: "tree" });
  const stack = [{ level: 0, list: root }];
  for (const s of sections) {
    while (stack.length > 1 && stack[stack.length - 1].level >= s.level) stack.pop();
    const label = `${s.number ? `${s.number} ` : ""}${s.title}`;
    const item = el("li", {}, [el("span", { text: label }), el("span", { text: ` p. ${s.page}`, cls: "meta" })]);
    stack[stack.length - 1].list.append(item);
    const children = el("ul");
    item.append(children);
    stack.push({ level: s.level, list: children });
  }
  return root;
}

function grid(table) {
  const view = el("table", { cls: "grid" });
  if (table.caption) view.append(el("caption", { text: `${table.label || ""} ${table.caption}`.trim() }));
  table.grid.forEach((row, r) => {
    const cellTag = r < table.header_rows ? "th" : "td";
    view.append(el("tr", {}, row.map((text) => el(cellTag, { text }))));
  });
  return view;
}

async function openDocument(id) {
  const doc = await getJSON(docPath(id));
  // every table fetched at once, then the view changed in one step: never half a document
  const tableViews = await Promise.all(
    (doc.tables || []).map((t) =>
      t.label
        ? getJSON(`${docPath(doc.id)}/tables/${encodeURIComponent(t.label)}`).then(grid)
        : el("p", { text: `A table on p. ${t.page} (${t.rows} x ${t.cols})`, cls: "meta" }),
    ),
  );
  $("document-view").hidden = false;
  $("doc-title").textContent = doc.title || doc.id;
  const authors = (doc.authors || []).join(", ");
  $("doc-meta").textContent = [authors, doc.year, doc.doi ? `doi:${doc.doi}` : "", `${doc.pages} pages`]
    .filter(Boolean)
    .join(" · ");
  $("doc-abstract").textContent = doc.abstract || "";
  $("doc-sections").replaceChildren(sectionTree(doc.sections || []));
  const tables = $("doc-tables");
  tables.replaceChildren(...tableViews);
  if (!tables.childElementCount) tables.append(el("p", { text: "none", cls: "meta" }));
  const eqs = $("doc-equations");
  eqs.replaceChildren(...(doc.equations || []).map((e) => el("li", { text: `(${e.number}) ${e.text}  p. ${e.page}` })));
  if (!eqs.childElementCount) eqs.append(el("li", { text: "none", cls: "meta" }));
}

function hitItem(hit, support) {
  const item = el("li", {}, [
    el("span", { text: hit.title || hit.document, cls: "title" }),
    el("span", { text: ` p. ${hit.page}`, cls: "meta" }),
    el("div", { text: hit.quote ?? hit.text, cls: "quote" }),
  ]);
  const button = el("button", { text: "Show evidence", cls: "link show-evidence", attrs: { type: "button" } });
  button.addEventListener("click", guarded(() => showEvidence(hit.id, support, hit.quote)));
  item.append(button);
  return item;
}

async function searchLibrary(event) {
  event.preventDefault();
  const q = $("library-q").value.trim();
  const hits = await getJSON(`/search?q=${encodeURIComponent(q)}&k=8`);
  $("search-hits").replaceChildren(...hits.map((h) => hitItem(h, `score ${h.score}`)));
  status(`${hits.length} passages for “${q}”`);
}

// -- ask ------------------------------------------------------------------------------

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  const scope = $("ask-scope").value;
  status("asking…");
  const answer = await postJSON("/ask", { question, documents: scope ? [scope] : null });
  renderAnswer(answer);
  status(answer.refused ? "refused: no passage answers this" : "answered");
}

function renderAnswer(answer) {
  $("answer").hidden = false;
  fillAnswer($("answer-text"), answer);
  $("answer-meta").textContent = `support ${answer.support_score.toFixed(2)} · ${answer.backend}`;
  $("closest-heading").hidden = !answer.refused;
  $("closest").replaceChildren(...(answer.refused ? answer.evidence.map((e) => hitItem(e, "closest passage")) : []));
}

// How a yes/no lead is written before its quote: "Yes." / "是。" (the answer's `lang`).
const LEADS = { zh: { Yes: "是。", No: "否。" } };
function leadLabel(lang, lead) {
  return (LEADS[lang] || {})[lead] || `${lead}.`;
}

// The answer's sentences into `text`, each followed by a marker per citation that opens
// the evidence board on it (with the table cell boxed when the citation names one).
function fillAnswer(text, answer) {
  text.replaceChildren();
  text.classList.toggle("refusal", answer.refused);
  const numbers = new Map(answer.evidence.map((e, i) => [e.id, i + 1]));
  const cited = new Map(answer.evidence.map((e) => [e.id, e]));
  if (answer.refused || !answer.sentences.length) {
    text.textContent = answer.answer;
  }
  for (const sentence of answer.refused ? [] : answer.sentences) {
    if (sentence.lead) text.append(el("strong", { text: `${leadLabel(answer.lang, sentence.lead)} `, cls: "lead" }));
    text.append(el("span", { text: sentence.text, cls: "sentence" }));
    for (const id of sentence.citations) {
      const marker = el("button", {
        text: `[${numbers.get(id) ?? "?"}]`,
        cls: "cite",
        attrs: { type: "button", "data-evidence": id, title: "Show this evidence" },
      });
      const ev = cited.get(id) || {};
      const support = `support ${sentence.support.toFixed(2)}`;
      const cells = citedCells(sentence, id, ev);
      marker.addEventListener("click", guarded(() => showEvidence(id, support, ev.quote, cells)));
      text.append(marker);
    }
    text.append(" ");
  }
}

// The table cells a sentence reads in block `id`: a computed sentence's operands there,
// else the cell its evidence item names (`cell_bbox`, when the answer read one).
function citedCells(sentence, id, ev) {
  const operands = (sentence.operands || []).filter((o) => o.citation === id).map((o) => o.cell_bbox);
  const boxes = operands.filter(validBox);
  return boxes.length ? boxes : [ev.cell_bbox].filter(validBox);
}

// -- evidence board -------------------------------------------------------------------

let shown = null; // the evidence on the board: {bbox, page_size, cells}

// `quote` is the cited sentence when the answer quotes part of the block; `cells` the
// cited table cells' boxes (one box or a list; PDF points, the block's page), drawn inside
// the block's box.
async function showEvidence(blockId, support, quote, cells) {
  const ev = await getJSON(`/blocks/${encodeURIComponent(blockId)}`);
  $("evidence-board").hidden = false;
  $("ev-title").textContent = ev.title || ev.document;
  $("ev-where").textContent = `${ev.document} · page ${ev.page}`;
  $("ev-section").textContent = ev.section ? `Section: ${ev.section}` : "";
  $("ev-support").textContent = support || "";
  $("ev-quote").textContent = quote || ev.quote;
  const pdf = `${docPath(ev.document)}/file`;
  const open = $("ev-open");
  open.href = `${pdf}#page=${ev.page}`;
  open.dataset.pdf = pdf;
  open.dataset.page = ev.page;
  const box = $("ev-box");
  box.hidden = true;
  delete box.dataset.placed;
  CitewiseViewer.cellBoxes($("ev-cell"), 0);
  backToEvidence();
  shown = { ...ev, cells: boxList(cells) };
  const image = $("ev-image");
  image.dataset.loading = ev.id;
  const old = image.src;
  image.src = await blobURL(`${docPath(ev.document)}/pages/${ev.page}.png?highlight=${encodeURIComponent(ev.id)}`);
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
}

// Is `box` four finite numbers?
function validBox(box) {
  return Array.isArray(box) && box.length === 4 && box.every(Number.isFinite);
}

// One box or a list of boxes -> the list of the valid ones.
function boxList(cells) {
  if (validBox(cells)) return [cells];
  return Array.isArray(cells) ? cells.filter(validBox) : [];
}

// `box` over `bbox` (PDF points from the page's top-left) on `surface` (the page as
// shown), `scale` pixels per point.
function placeOver(box, surface, bbox, scale) {
  const [x0, y0, x1, y1] = bbox;
  box.style.left = `${surface.offsetLeft + surface.clientLeft + x0 * scale}px`;
  box.style.top = `${surface.offsetTop + surface.clientTop + y0 * scale}px`;
  box.style.width = `${(x1 - x0) * scale}px`;
  box.style.height = `${(y1 - y0) * scale}px`;
}

// The box over the cited block (and its cited cell): bboxes scaled to the image as shown.
function placeBox() {
  const image = $("ev-image");
  const box = $("ev-box");
  if (!shown || image.dataset.shows !== shown.id || !image.naturalWidth || !image.clientWidth) return;
  const pageWidth = shown.page_size ? shown.page_size[0] : image.naturalWidth / 1.5;
  const scale = image.clientWidth / pageWidth;
  placeOver(box, image, shown.bbox, scale);
  box.hidden = false;
  box.dataset.placed = shown.id;
  const cells = CitewiseViewer.cellBoxes($("ev-cell"), shown.cells.length);
  cells.forEach((cell, i) => {
    placeOver(cell, image, shown.cells[i], scale);
    cell.dataset.placed = shown.id;
  });
}

// The PDF itself in the in-browser viewer (viewer.js), at the cited page with the box.
async function readInContext() {
  if (!shown) return;
  const data = new Uint8Array(await (await request(`${docPath(shown.document)}/file`)).arrayBuffer());
  $("ev-page").hidden = true;
  await CitewiseViewer.open(data, shown.page, shown.bbox, shown.cells);
}

// The board closed: the question and answer have the width again (a citation reopens it).
function closeEvidence() {
  backToEvidence();
  shown = null;
  $("evidence-board").hidden = true;
}

function backToEvidence() {
  CitewiseViewer.close();
  $("ev-page").hidden = false;
}

// With a token a plain link cannot carry it: fetch the PDF and open it from memory.
async function openPdf(event) {
  if (!state.token) return;
  event.preventDefault();
  const link = event.currentTarget;
  window.open(`${await blobURL(link.dataset.pdf)}#page=${link.dataset.page}`, "_blank", "noopener");
}

// -- usage ----------------------------------------------------------------------------

async function loadUsage() {
  const usage = await getJSON("/usage");
  $("usage-totals").textContent =
    `${usage.calls} model calls · ${usage.prompt_tokens} prompt tokens · ` +
    `${usage.completion_tokens} completion tokens · ${usage.cache_hits} cache hits`;
  $("usage").tBodies[0].replaceChildren(
    ...(usage.by_model || []).map((m) =>
      el(
        "tr",
        {},
        [m.backend, m.model, m.role, m.calls, m.prompt_tokens, m.completion_tokens, m.latency_ms_p50].map((v) =>
          el("td", { text: v }),
        ),
      ),
    ),
  );
}

// -- start ----------------------------------------------------------------------------

function useToken(event) {
  event.preventDefault();
  state.token = $("token").value.trim();
  sessionStorage.setItem("citewise-token", state.token);
  $("token").value = "";
  guarded(loadDocuments)();
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("nav button")) {
    button.addEventListener("click", () => show(button.dataset.view));
  }
  $("token-form").addEventListener("submit", useToken);
  $("library-search").addEventListener("submit", guarded(searchLibrary));
  $("ask-form").addEventListener("submit", guarded(ask));
  $("ev-open").addEventListener("click", guarded(openPdf));
  $("ev-image").addEventListener("load", (event) => {
    event.target.dataset.shows = event.target.dataset.loading; // the image now on screen
    placeBox();
  });
  $("ev-read").addEventListener("click", guarded(readInContext));
  $("viewer-prev").addEventListener("click", guarded(() => CitewiseViewer.turn(-1)));
  $("viewer-next").addEventListener("click", guarded(() => CitewiseViewer.turn(1)));
  $("viewer-close").addEventListener("click", backToEvidence);
  $("ev-close").addEventListener("click", closeEvidence);
  new ResizeObserver(placeBox).observe($("ev-image"));
  guarded(loadDocuments)();
});
