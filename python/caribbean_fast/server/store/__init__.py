"""The store: the only SQL of the server (SQLite and PostgreSQL), in named queries and the records
and summaries the commits write. It imports nothing of the server above it but the wire."""
