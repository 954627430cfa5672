"""The wire: the protocol and its command registry, the connections (hub), the front door (gate,
forwarded headers, names), routing, logs and metrics. It imports nothing of the server above it."""
