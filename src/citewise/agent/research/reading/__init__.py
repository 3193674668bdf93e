"""What research reads in a paper and across papers: claims, facets, themes, clusters,
disagreements, quotable sentences and the report's voice."""
