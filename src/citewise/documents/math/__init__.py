"""Display equations: spotting them on a page, gathering a formula's pieces, and finding a
numbered equation by the ID a user types."""
