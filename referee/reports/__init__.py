"""Check's reports: the writer every output format is, the formats, the JSON and text report."""
