"""The PDF reader: a PDF file opened, its pages' lines grouped into rows and units, read in
column order, footnote marks, stacked scripts, headings, captions, first-page metadata, page
crops, and OCR for pages whose text layer is unusable."""
