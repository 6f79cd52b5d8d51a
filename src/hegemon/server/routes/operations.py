"""For the operator and the machines watching the server: is the process up (/healthz),
can it serve (/readyz: the database answers and its tables are current), and what has it
done (/metrics, Prometheus's text format, for whoever holds $HEGEMON_METRICS_TOKEN)."""

from __future__ import annotations

import hmac
import os
from typing import Annotated

import anyio
from fastapi import APIRouter, Header, Response
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from hegemon.server import answers, metrics
from hegemon.server.deps import Now, StoreDep

router = APIRouter(tags=["operations"], responses=answers.ALWAYS)

TOKEN_VARIABLE = "HEGEMON_METRICS_TOKEN"
READY_WITHIN = 3.0  # seconds the database has to answer /readyz
NOT_READY_RETRY = "5"


@router.get("/healthz", summary="Whether the process is up (asks nothing of the database)")
def healthz() -> answers.Health:
    return answers.Health()


@router.get(
    "/readyz",
    summary="Whether the server can serve: the database answers and its tables are current",
    response_model=answers.Ready,
    responses=answers.refusals(503),
)
async def readyz(store: StoreDep) -> answers.Ready | JSONResponse:
    try:
        with anyio.fail_after(READY_WITHIN):
            # Not waited for past the limit: the thread is left to its connect timeout.
            current = await anyio.to_thread.run_sync(store.is_current, abandon_on_cancel=True)
    except TimeoutError:
        return _not_ready(f"the database did not answer within {READY_WITHIN:g} s")
    except SQLAlchemyError as exc:
        return _not_ready(f"the database did not answer: {type(exc).__name__}")
    if not current:
        return _not_ready("the database's tables are not current: run 'hegemon db upgrade'")
    return answers.Ready()


def _not_ready(detail: str) -> JSONResponse:
    return _refusal(503, detail, {"Retry-After": NOT_READY_RETRY})


def _refusal(status: int, detail: str, headers: dict[str, str]) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


@router.get(
    "/metrics",
    summary="The server's metrics in Prometheus's text format (a bearer token required)",
    response_class=Response,
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "the metrics",
        },
        **answers.refusals(401, 404, 422),
    },
)
def metrics_text(
    store: StoreDep,
    moment: Now,
    authorization: Annotated[str, Header(include_in_schema=False)] = "",
) -> Response:
    expected = os.environ.get(TOKEN_VARIABLE)
    if not expected:
        return _refusal(404, f"metrics are not enabled: ${TOKEN_VARIABLE} is not set", {})
    scheme, _, sent = authorization.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(sent.encode(), expected.encode()):
        detail = f"metrics need the bearer token set in ${TOKEN_VARIABLE}"
        return _refusal(401, detail, {"WWW-Authenticate": "Bearer"})
    return Response(metrics.render(store, moment), media_type=metrics.CONTENT_TYPE)
