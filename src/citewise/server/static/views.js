// citewise web app, the chat, compare and matrix views (after app.js, whose helpers they
// use). Faces of POST /chat, /compare and /matrix: no logic of their own; every string
// from a document goes in as text.
"use strict";

// The conversation, kept here: the server keeps none and is sent the earlier turns.
const conversation = { turns: [] };
// The last turns sent along, cut short (the server reads no more: server/analysis.py)
const HISTORY_SENT = 3;
const PAST_CHARS = 1000;

// -- chat -----------------------------------------------------------------------------

async function sendChat(event) {
  event.preventDefault();
  const message = $("chat-message").value.trim();
  const scope = $("chat-scope").value;
  const history = conversation.turns.slice(-HISTORY_SENT).map((t) => ({
    question: t.question.slice(0, PAST_CHARS),
    resolved: t.resolved.slice(0, 2 * PAST_CHARS),
    answer: t.answer.slice(0, PAST_CHARS),
  }));
  status("thinking…");
  const reply = await postJSON("/chat", { message, history, documents: scope ? [scope] : null });
  conversation.turns.push(reply);
  $("chat-turns").append(turnItem(reply, conversation.turns.length));
  $("chat-message").value = "";
  status(reply.refused ? "refused: no passage answers this" : `turn ${conversation.turns.length}`);
}

// One turn: the question, the answer with its own citation markers, what was searched.
function turnItem(reply, number) {
  const answer = el("p", { cls: "turn-answer" });
  fillAnswer(answer, reply);
  const item = el("li", { attrs: { "data-turn": number } }, [el("p", { text: reply.question, cls: "you" }), answer]);
  if (reply.resolved && reply.resolved !== reply.question) {
    item.append(el("p", { text: `searched as: ${reply.resolved}`, cls: "meta resolved" }));
  }
  const count = reply.evidence.length;
  item.append(el("p", { text: `support ${reply.support_score.toFixed(2)} · ${count} passages`, cls: "meta" }));
  if (reply.refused && count) {
    item.append(el("ol", { cls: "hits" }, reply.evidence.map((e) => hitItem(e, "closest passage"))));
  }
  return item;
}

function newConversation() {
  conversation.turns = [];
  $("chat-turns").replaceChildren();
  status("a new conversation");
}

// -- pickers --------------------------------------------------------------------------

function fillPickers() {
  const scope = $("chat-scope");
  scope.replaceChildren(el("option", { text: "all documents", attrs: { value: "" } }));
  for (const doc of state.documents) scope.append(el("option", { text: doc.title || doc.id, attrs: { value: doc.id } }));
  for (const id of ["compare-docs", "matrix-docs"]) {
    const box = $(id);
    const boxes = state.documents.map((doc) =>
      el("label", {}, [
        el("input", { attrs: { type: "checkbox", value: doc.id, name: id } }),
        el("span", { text: ` ${doc.title || doc.id}` }),
      ]),
    );
    box.replaceChildren(box.querySelector("legend"), ...boxes);
  }
}

function ticked(id) {
  return [...$(id).querySelectorAll("input:checked")].map((box) => box.value);
}

// "a, b" -> ["a", "b"]; nothing -> null (the server's defaults)
function listOf(text) {
  const items = text.split(",").map((s) => s.trim()).filter(Boolean);
  return items.length ? items : null;
}

// -- cited cells ----------------------------------------------------------------------

// A table cell: the value as a button that shows its evidence, or "not stated".
function cellView(cell, label) {
  if (!cell.stated) return el("td", { text: cell.value, cls: "not-stated" });
  const button = el("button", {
    text: cell.value,
    cls: "link cell-cite",
    attrs: { type: "button", "data-evidence": cell.block, title: cell.quote },
  });
  const support = `${label}: ${cell.value}`;
  button.addEventListener("click", guarded(() => showEvidence(cell.block, support, cell.quote, cell.cell_bbox)));
  return el("td", { attrs: { "data-aspect": cell.aspect, "data-document": cell.document } }, [
    button,
    el("span", { text: ` p. ${cell.page}`, cls: "meta" }),
  ]);
}

// The export from POST `path` (same body), downloaded as `name`.
async function download(path, body, name) {
  const init = { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } };
  const url = URL.createObjectURL(await (await request(path, init)).blob());
  const link = el("a", { attrs: { href: url, download: name } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function exportLinks(containerId, path, body) {
  $(containerId).hidden = false;
  for (const link of $(containerId).querySelectorAll("a[download]")) {
    const format = link.id.split("-").pop();
    link.href = "#";
    link.onclick = (event) => {
      event.preventDefault();
      guarded(() => download(`${path}?format=${format}`, body, link.getAttribute("download")))();
    };
  }
}

// -- compare --------------------------------------------------------------------------

async function runCompare(event) {
  event.preventDefault();
  const body = { documents: ticked("compare-docs"), aspects: listOf($("compare-aspects").value) };
  if (body.documents.length < 2) {
    status("tick two or more papers to compare", true);
    return;
  }
  status("comparing…");
  const result = await postJSON("/compare", body);
  const titles = new Map(result.documents.map((d) => [d.id, d.title || d.id]));
  const table = $("compare-table");
  const head = el("tr", {}, [el("th", { text: "aspect" }), ...result.documents.map((d) => el("th", { text: titles.get(d.id) }))]);
  table.replaceChildren(el("thead", {}, [head]));
  const rows = el("tbody");
  for (const aspect of result.aspects) {
    const cells = result.documents.map((d) => result.cells.find((c) => c.aspect === aspect && c.document === d.id));
    rows.append(el("tr", {}, [el("th", { text: aspect }), ...cells.map((c) => cellView(c, `${aspect}, ${titles.get(c.document)}`))]));
  }
  table.append(rows);
  renderDifferences(result);
  exportLinks("compare-links", "/compare/export", body);
  const stated = result.cells.filter((c) => c.stated).length;
  status(`${stated} of ${result.cells.length} cells stated, each cited`);
}

// The key differences, each sentence with a marker per cell it cites.
function renderDifferences(result) {
  const view = $("compare-differences");
  view.replaceChildren();
  if (!result.differences.length) return;
  view.append(el("strong", { text: "Key differences. " }));
  const byBlock = new Map(result.cells.filter((c) => c.stated).map((c) => [c.block, c]));
  for (const difference of result.differences) {
    view.append(el("span", { text: difference.text, cls: "sentence" }));
    for (const id of difference.citations) {
      const cell = byBlock.get(id) || {};
      const marker = el("button", { text: `[${cell.aspect || "?"}]`, cls: "cite", attrs: { type: "button", "data-evidence": id } });
      marker.addEventListener("click", guarded(() => showEvidence(id, "key difference", cell.quote, cell.cell_bbox)));
      view.append(marker);
    }
    view.append(" ");
  }
}

// -- matrix ---------------------------------------------------------------------------

async function runMatrix(event) {
  event.preventDefault();
  const chosen = ticked("matrix-docs");
  const body = { documents: chosen.length ? chosen : null, columns: listOf($("matrix-columns").value) };
  status("building the matrix…");
  const result = await postJSON("/matrix", body);
  const table = $("matrix-table");
  const head = el("tr", {}, [el("th", { text: "paper" }), el("th", { text: "year" }), ...result.columns.map((c) => el("th", { text: c }))]);
  table.replaceChildren(el("thead", {}, [head]));
  const rows = el("tbody");
  for (const row of result.rows) {
    const title = row.title || row.document;
    const cells = result.columns.map((c) => cellView(row.cells[c], `${c}, ${title}`));
    rows.append(el("tr", {}, [el("th", { text: title }), el("td", { text: row.year ?? "" }), ...cells]));
  }
  table.append(rows);
  $("matrix-meta").textContent =
    `${result.rows.length} papers · ${Math.round(result.fill_rate * 100)}% of cells stated · ` +
    `${result.computed} computed, ${result.cached} cached`;
  exportLinks("matrix-links", "/matrix/export", body);
  status("matrix built");
}

document.addEventListener("DOMContentLoaded", () => {
  $("chat-form").addEventListener("submit", guarded(sendChat));
  $("chat-new").addEventListener("click", newConversation);
  $("compare-form").addEventListener("submit", guarded(runCompare));
  $("matrix-form").addEventListener("submit", guarded(runMatrix));
});
document.addEventListener("citewise:documents", fillPickers);
