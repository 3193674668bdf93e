// The in-browser PDF viewer of the evidence board: pdf.js (vendored in /static/pdfjs/)
// renders the document's pages to a canvas; on the cited page the cited block is boxed (and
// the cited table cell inside it, emphasised, when the citation names one).
// pdf.js runs with eval off and never runs a PDF's own scripts.
"use strict";

const CitewiseViewer = (() => {
  let pdfjs = null;
  let current = null; // {doc, page, cited: {page, bbox, cells}}

  async function library() {
    if (!pdfjs) {
      pdfjs = await import("/static/pdfjs/pdf.min.mjs");
      pdfjs.GlobalWorkerOptions.workerSrc = "/static/pdfjs/pdf.worker.min.mjs";
    }
    return pdfjs;
  }

  // Open `data` (the PDF's bytes) at page `page`, boxing `bbox` (PDF points) there, and
  // `cells` (the cited cells' bboxes, maybe none) inside it.
  async function open(data, page, bbox, cells) {
    const lib = await library();
    if (current) await current.doc.destroy();
    const doc = await lib.getDocument({ data, isEvalSupported: false, enableXfa: false }).promise;
    current = { doc, page, cited: { page, bbox, cells: cells || [] } };
    document.getElementById("viewer").hidden = false;
    await render();
  }

  async function render() {
    const { doc, page, cited } = current;
    const canvas = document.getElementById("viewer-canvas");
    const box = document.getElementById("viewer-box");
    const pdfPage = await doc.getPage(page);
    const width = (canvas.parentElement.clientWidth || 600) - 2 * canvas.clientLeft;
    const unscaled = pdfPage.getViewport({ scale: 1 });
    const viewport = pdfPage.getViewport({ scale: width / unscaled.width });
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${viewport.width}px`;
    canvas.style.height = `${viewport.height}px`;
    const transform = ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : null;
    await pdfPage.render({ canvas, canvasContext: canvas.getContext("2d"), viewport, transform }).promise;
    document.getElementById("viewer-label").textContent = `page ${page} of ${doc.numPages}`;
    box.hidden = page !== cited.page;
    const cells = cellBoxes(document.getElementById("viewer-cell"), box.hidden ? 0 : cited.cells.length);
    // bboxes are in PDF points from the page's top-left, as PyMuPDF gives them
    const scale = viewport.width / unscaled.width;
    if (!box.hidden) place(box, canvas, cited.bbox, scale);
    cells.forEach((cell, i) => {
      place(cell, canvas, cited.cells[i], scale);
      cell.dataset.placed = String(page);
    });
    box.dataset.placed = box.hidden ? "" : String(page);
    canvas.dataset.page = String(page);
  }

  function place(box, canvas, [x0, y0, x1, y1], scale) {
    box.style.left = `${canvas.offsetLeft + canvas.clientLeft + x0 * scale}px`;
    box.style.top = `${canvas.offsetTop + canvas.clientTop + y0 * scale}px`;
    box.style.width = `${(x1 - x0) * scale}px`;
    box.style.height = `${(y1 - y0) * scale}px`;
  }

  // `count` cell boxes shown, the others hidden: `first` (in the page) and as many more
  // beside it as needed (made once, kept for the next citation).
  function cellBoxes(first, count) {
    const boxes = [first, ...first.parentElement.querySelectorAll(`.cell[data-of="${first.id}"]`)];
    while (boxes.length < count) {
      const more = document.createElement("div");
      more.className = "highlight-box cell";
      more.dataset.of = first.id;
      more.hidden = true;
      first.parentElement.append(more);
      boxes.push(more);
    }
    boxes.forEach((box, i) => {
      box.hidden = i >= count;
      if (box.hidden) delete box.dataset.placed;
    });
    return boxes.slice(0, count);
  }

  async function turn(step) {
    if (!current) return;
    const next = current.page + step;
    if (next < 1 || next > current.doc.numPages) return;
    current.page = next;
    await render();
  }

  function close() {
    document.getElementById("viewer").hidden = true;
  }

  return { open, turn, close, cellBoxes };
})();
