"""Pictures: charts of distributions (and later, the battlefield)."""
