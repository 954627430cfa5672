"""The tables: each table's owner (its queue, its commit, fail-stop) and the trainer's advice."""
