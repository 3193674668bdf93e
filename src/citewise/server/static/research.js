// citewise web app, the research view (after app.js, whose helpers it uses): start a
// task, follow its events live over SSE, show the report with a marker per claim's evidence.
"use strict";

async function loadTasks() {
  const tasks = await getJSON("/tasks");
  $("tasks").replaceChildren(
    ...tasks.reverse().map((t) => {
      const item = el("li", {}, [el("span", { text: `${t.topic} ` }), el("span", { text: t.state, cls: "meta" })]);
      if (t.state === "completed") {
        const view = el("button", { text: "report", cls: "link", attrs: { type: "button" } });
        view.addEventListener("click", guarded(() => showReport(t.id)));
        item.append(" ", view);
      }
      return item;
    }),
  );
}

async function startResearch(event) {
  event.preventDefault();
  const sources = $("sources").value.split(",").map((s) => s.trim()).filter(Boolean);
  const body = { topic: $("topic").value.trim(), rounds: Number($("rounds").value), sources };
  const task = await postJSON("/tasks", body);
  $("research-events").replaceChildren();
  $("report-links").hidden = true;
  $("report-full").hidden = true;
  $("report-claims").replaceChildren();
  $("research-state").textContent = `task ${task.id}: ${task.state}`;
  await follow(task.id);
}

// Server-Sent Events read with fetch, so the bearer header goes along (EventSource sends none).
async function follow(taskId) {
  const response = await request(`/tasks/${encodeURIComponent(taskId)}/events`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const message = parseEvent(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (message && (await onEvent(taskId, message))) return;
    }
  }
}

function parseEvent(chunk) {
  let name = "message";
  const data = [];
  for (const line of chunk.split("\n")) {
    if (line.startsWith("event: ")) name = line.slice(7);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  return data.length ? { name, data: JSON.parse(data.join("\n")) } : null;
}

async function onEvent(taskId, { name, data }) {
  if (name === "end") {
    $("research-state").textContent = `task ${taskId}: ${data.state}`;
    $("research-state").dataset.state = data.state;
    if (data.state === "completed") await showReport(taskId);
    guarded(loadTasks)();
    return true;
  }
  $("research-events").append(el("li", { text: `${data.stage} · ${eventWords(name, data.stage, data.data || {})}`.slice(0, 300) }));
  $("research-state").textContent = `task ${taskId}: ${data.stage}`;
  return false;
}

// An event of the task's log as a reader would say it (the log's keys stay in the API).
const STAGE_DONE = {
  plan: "planned the search",
  search: "searched the sources",
  screen: "screened the papers",
  acquire: "fetched the papers",
  extract: "read the papers for evidence",
  analyze: "compared what the papers say",
  write: "wrote the report",
  verify: "checked every claim against its evidence",
};

function eventWords(kind, stage, data) {
  const round = data.round ? ` (round ${data.round})` : "";
  switch (kind) {
    case "created":
      return "created";
    case "owner":
      return `started by ${data.user}`;
    case "output":
      return `${STAGE_DONE[stage] || "stage finished"}${round}`;
    case "progress":
      return `${data.added ?? 0} new pieces of evidence`;
    case "remote-query":
      return `asked ${data.source || "a source"} for “${data.query}”: ${data.records ?? 0} records`;
    case "acquired":
      return `fetched ${data.paper}`;
    case "abstract_saved":
      return `kept the abstract of ${data.paper}`;
    case "tokens":
      return `${data.tokens} model tokens`;
    case "warning":
    case "model":
      return String(data.message || kind);
    case "error":
      return `stopped: ${data.error}`;
    default:
      return `now ${kind}${data.reason ? `: ${data.reason}` : ""}`;
  }
}

async function showReport(taskId) {
  const base = `/tasks/${encodeURIComponent(taskId)}/report`;
  const html = await blobURL(`${base}?format=html`);
  $("report-md").href = await blobURL(base);
  $("report-html").href = html;
  $("report-csl").href = await blobURL(`/tasks/${encodeURIComponent(taskId)}/references.json`);
  $("report-links").hidden = false;
  // From memory (the report forbids framing itself); the sandbox lets nothing in it run.
  $("report-frame").src = html;
  $("report-full").hidden = false;
  renderClaims(await getJSON(`/tasks/${encodeURIComponent(taskId)}/claims`));
}

// Each claim with a marker per evidence item; local evidence opens the evidence board.
function renderClaims(report) {
  const view = $("report-claims");
  view.replaceChildren(el("h3", { text: `Research report: ${report.topic}` }));
  const numbers = new Map(Object.keys(report.evidence).map((id, i) => [id, i + 1]));
  for (const section of report.sections) {
    view.append(el("h4", { text: section.title }));
    for (const paragraph of section.paragraphs) {
      const para = el("p", { cls: "claims" });
      if (paragraph.lead) para.append(el("strong", { text: `${paragraph.lead} ` }));
      for (const claim of paragraph.claims) {
        para.append(el("span", { text: claim.text, cls: claim.flag ? `claim ${claim.flag}` : "claim" }));
        for (const id of claim.evidence) para.append(claimMarker(report.evidence[id], numbers.get(id), claim));
        para.append(" ");
      }
      view.append(para);
    }
  }
}

function claimMarker(ev, number, claim) {
  const label = `[${number ?? "?"}]`;
  if (!ev || !ev.block_id) {
    return el("span", { text: label, cls: "cite remote", attrs: { title: ev ? `${ev.title}: ${ev.quote}` : "" } });
  }
  const marker = el("button", {
    text: label,
    cls: "cite",
    attrs: { type: "button", "data-evidence": ev.block_id, title: "Show this evidence" },
  });
  const support = `support ${claim.support.toFixed(2)}`;
  marker.addEventListener("click", guarded(() => showEvidence(ev.block_id, support, ev.quote, ev.cell_bbox)));
  return marker;
}

document.addEventListener("DOMContentLoaded", () => {
  $("research-form").addEventListener("submit", guarded(startResearch));
});
