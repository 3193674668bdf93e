"""The research stages, one module each: plan, gather, screen, acquire, extract, analyze, write,
verify."""
