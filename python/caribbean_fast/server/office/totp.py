"""The second factor: time-based one-time passwords (RFC 6238, over RFC 4226's HOTP), as every
authenticator app computes them: HMAC-SHA1 of the 30-second step, six digits. The standard
library's `hmac` is all it takes."""

from __future__ import annotations

import base64
import hmac
import secrets
import struct
from urllib.parse import quote, urlencode

__all__ = ["STEP", "code_at", "matching_step", "new_secret", "uri"]

STEP = 30  # seconds a code lasts
DIGITS = 6
DRIFT = 1  # steps either side accepted: a phone's clock a little off, a code typed as it changes


def new_secret() -> str:
    """160 random bits (RFC 4226's recommended length), in base32 as the apps take them."""
    return base64.b32encode(secrets.token_bytes(20)).decode()


def code_at(secret: str, step: int, digits: int = DIGITS, digest: str = "sha1") -> str:
    """The code of time step `step` (RFC 4226 section 5.3's dynamic truncation)."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", step), digest).digest()
    offset = mac[-1] & 0x0F
    number = struct.unpack(">I", mac[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(number % 10**digits).zfill(digits)


def matching_step(secret: str, code: str, now: float) -> int | None:
    """The step within `DRIFT` of `now` whose code `code` is (None: none), compared in constant time."""
    here = int(now) // STEP
    found = None
    for step in range(here - DRIFT, here + DRIFT + 1):
        if hmac.compare_digest(code_at(secret, step).encode(), code.encode()):
            found = step
    return found


def uri(secret: str, name: str, issuer: str = "caribbean-fast office") -> str:
    """The otpauth:// URI an authenticator app reads (from a QR code, or typed)."""
    query = urlencode({"secret": secret, "issuer": issuer, "digits": DIGITS, "period": STEP})
    return f"otpauth://totp/{quote(issuer)}:{quote(name)}?{query}"
