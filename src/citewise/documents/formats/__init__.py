"""The readers of every other format: Word, HTML, Jupyter notebooks, plain text and Markdown,
CSV and TSV."""
