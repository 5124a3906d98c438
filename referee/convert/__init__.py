"""Records in other forms: JSON in and out, and the canonical text."""
