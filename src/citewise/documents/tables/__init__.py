"""Tables: grids of positioned cells, header rows, tables fused from a page's units and ruled
tables found where a caption says one is."""
