"""The one `ask` pipeline: understand -> scope -> retrieve -> propose -> check -> score ->
answer or refuse, over one state object (state.py). Every answer shape is a proposer in one
registry (registry.py); the same checks run on every candidate (checks.py); one scoring
step gives support and picks the answer (pick.py); the trace records it all (trace.py).
`agent/ask/qa.py` runs the stages; docs/answer_shapes.md says how to add a shape."""
