"""Several processes: placement by leases, the lobby shared between processes, the relay to a
table served elsewhere, and the proxy's map."""
