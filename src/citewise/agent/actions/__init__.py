"""The tool registry: typed actions with contracts, and the plans of tool calls that `ask
--trace` shows."""
