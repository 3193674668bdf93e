"""Domain packs: answer shapes for one kind of document, registered with the ask pipeline like
any other proposer."""
