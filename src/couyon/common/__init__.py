"""What every game shares: the deterministic stream, the record document, the duplicate-match harness."""
