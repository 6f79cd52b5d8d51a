"""The server's log: one line per event, JSON or logfmt, with its time, level and fields.

Hegemon's modules log through the standard library (``logging.getLogger("hegemon.<area>")``,
an event name as the message and its fields in ``extra``); uvicorn and SQLAlchemy do the
same. `configure` sends every such record through structlog's renderer, so that they all
come out alike: ``{"event": "adjudicated", "game": 3, "phase": "S1901M", "seconds": 0.01,
"level": "info", "logger": "hegemon.adjudication", "timestamp": "2026-..."}``.
"""

from __future__ import annotations

import logging
import os
import sys

import structlog
from structlog.processors import CallsiteParameter
from structlog.typing import EventDict, Processor

FORMAT_VARIABLE = "HEGEMON_LOG_FORMAT"
LEVEL_VARIABLE = "HEGEMON_LOG_LEVEL"
FORMATS = ("logfmt", "json")
LEVELS = ("debug", "info", "warning", "error")
DEFAULT_FORMAT = "logfmt"
DEFAULT_LEVEL = "info"


class LogSettingError(ValueError):
    """A log format or level that is not one of those known; says which in one line."""


def setting(name: str, given: str | None, choices: tuple[str, ...], default: str) -> str:
    """The setting given (a flag), else its environment variable, else the default; one
    of `choices`."""
    value = (given or os.environ.get(name) or default).lower()
    if value not in choices:
        expected = ", ".join(choices)
        raise LogSettingError(f"${name} or its flag {value!r}: expected one of {expected}")
    return value


def configure(log_format: str | None = None, level: str | None = None) -> None:
    """Every log record of this process, written to stderr as JSON lines or logfmt, at
    `level` and above (each else from $HEGEMON_LOG_FORMAT, $HEGEMON_LOG_LEVEL)."""
    chosen = setting(FORMAT_VARIABLE, log_format, FORMATS, DEFAULT_FORMAT)
    threshold = setting(LEVEL_VARIABLE, level, LEVELS, DEFAULT_LEVEL).upper()
    renderer: Processor = (
        structlog.processors.JSONRenderer()
        if chosen == "json"
        else structlog.processors.LogfmtRenderer(key_order=["timestamp", "level", "event"])
    )
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),  # the fields given in `extra`
        _drop_colours,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        # which process, where `serve --workers N` runs several
        structlog.processors.CallsiteParameterAdder([CallsiteParameter.PROCESS]),
    ]
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                renderer,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(threshold)
    logging.captureWarnings(True)  # SQLAlchemy's warnings, say, as lines of the log too
    # uvicorn's own loggers write through the root's handler, not theirs; its access log
    # is replaced by hegemon.access (`hegemon.server.access`), which names the route.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").disabled = True
    # Alembic names its dialect each time it reads the tables' version (/readyz does).
    logging.getLogger("alembic.runtime.migration").addFilter(_not_alembic_chatter)
    # structlog's own loggers, should a module use them, end in the same handler.
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def _drop_colours(logger: object, name: str, event: EventDict) -> EventDict:
    """uvicorn's message again with terminal colours, for its own console."""
    event.pop("color_message", None)
    return event


def _not_alembic_chatter(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(("Context impl", "Will assume"))


def keep_for_children(log_format: str | None, level: str | None) -> dict[str, str]:
    """The settings as environment variables, for processes started after (uvicorn's
    workers configure their log from them)."""
    return {
        FORMAT_VARIABLE: setting(FORMAT_VARIABLE, log_format, FORMATS, DEFAULT_FORMAT),
        LEVEL_VARIABLE: setting(LEVEL_VARIABLE, level, LEVELS, DEFAULT_LEVEL),
    }
