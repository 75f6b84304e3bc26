"""Term statistics, similarity measures and keyword extraction."""
