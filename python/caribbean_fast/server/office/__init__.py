"""The operator's office at /office: operators' own accounts (password and TOTP, two roles),
disputes answered from the record, the players' accounts read only, the office's own
hash-chained log, and actual against theoretical with its alarms and reports
(docs/guides/office.md)."""

from __future__ import annotations

from .routes import SCREENS, office_mount

__all__ = ["SCREENS", "office_mount"]
