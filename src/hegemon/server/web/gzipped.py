"""Pages sent gzip-compressed, with the board's part compressed once.

A board is most of a game page (270 to 480 KB of SVG, the rest of the page some 15 to
35 KB) and compressing it took more of the server's time than drawing it. A deflate stream
may be spliced from segments compressed apart, each ending on a byte boundary (a sync
flush) and referring to nothing before it: so a board's segment is compressed once
(`Deflated`, kept by `hegemon.server.web.boards` as it was drawn) and each request
compresses only the rest of its page around it (`gzip_of`).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from starlette.requests import Request

LEVEL = 6  # zlib's default: at level 1 the largest game pages weighed over 160 KB
_RAW = -zlib.MAX_WBITS  # a raw deflate stream: no header, no checksum
_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip, deflate, no name, no time


@dataclass(frozen=True)
class Deflated:
    """A text compressed on its own, as a segment of a deflate stream."""

    text: bytes
    data: bytes

    @classmethod
    def of(cls, text: bytes) -> Deflated:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, _RAW)
        return cls(text, compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH))


def gzip_of(parts: Sequence[bytes | Deflated]) -> bytes:
    """The gzip member of the parts one after the other, those already `Deflated` as
    they are."""
    segments = [part if isinstance(part, Deflated) else Deflated.of(part) for part in parts]
    crc, size = 0, 0
    for segment in segments:
        crc = zlib.crc32(segment.text, crc)
        size += len(segment.text)
    last = zlib.compressobj(LEVEL, zlib.DEFLATED, _RAW).flush()  # an empty, final block
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
    return b"".join([_HEADER, *(s.data for s in segments), last, trailer])


def accepts_gzip(request: Request) -> bool:
    """Whether the client takes gzip (``Accept-Encoding``), not refused by ``q=0``."""
    for coding in request.headers.get("accept-encoding", "").split(","):
        name, _, parameters = coding.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            return parameters.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False
