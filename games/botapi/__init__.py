"""The open API for programs: scoped personal access tokens, NDJSON streams and bot accounts."""
