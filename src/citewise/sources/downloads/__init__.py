"""Open-access copies: finding one for a work and downloading it from a host its source is known
to serve PDFs from."""
