"""The Starlette application of ``casebook serve``: the page and its JSON API (docs/serve.md).

Every route is a thin call into :class:`~casebook.tools.web.session.Session` or
:class:`~casebook.tools.web.watch.Watch`; work that takes time (a bot's move, an answer) runs in
Starlette's thread pool. A bad request — malformed JSON, a missing or mistyped field, an unknown
or illegal action, an action for a side that does not decide now, a path outside the served
folders — is answered with a 4xx status and ``{"error": message, "cases": [...]}`` and changes
nothing.

Routes (JSON bodies for POST):

- ``GET /`` the page; ``GET /static/…`` its script and style;
- ``GET /api/state`` the play now (:func:`~casebook.tools.web.views.snapshot`);
- ``GET /api/board`` the map SVG and hex geometry; ``GET /api/questions`` the game's questions;
- ``GET /api/reach?stack=S[&as=MODE]`` ``ask reach`` plus the hexes legal moves end in;
- ``POST /api/ask {"question", "args": [...], "options": {...}}`` any ``ask`` question (or
  ``{"question", "words": "…"}``, the words typed after it; a question with words in it is split so);
- ``POST /api/why {"action"}``, ``POST /api/apply {"action"}`` an action in notation;
- ``POST /api/choose {"stack", "hex"}`` the legal actions moving a stack into a hex (or why not);
- ``POST /api/attack {"hex", "with": [...]}`` the legal attacks on a hex by these units (or why not);
- ``POST /api/bot {"steps": N}`` let the bots play; ``POST /api/undo``;
- ``POST /api/save {"path"}``, ``POST /api/load {"path"}``; ``GET /api/trace`` the trace (JSON Lines);
- ``POST /api/watch {"path"}`` open a trace; ``GET /api/watch`` the open one (``{"open": false}`` if none);
  ``GET /api/watch/{i}`` event *i* and the position at it (replayed up to it on demand).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from casebook.tools.cmd_ask import render_text
from casebook.tools.human import parse_ask_words
from casebook.tools.web.session import ServeError, Session, confine
from casebook.tools.web.views import annotate, board_view, case_title, snapshot
from casebook.tools.web.watch import Watch

__all__ = ["make_app", "STATIC"]

#: The folder of the page's files.
STATIC = Path(__file__).resolve().parent / "static"


def make_app(session: Session, watch: Watch | None = None, allowed_hosts: Sequence[str] | None = None) -> Starlette:
    """The application serving ``session`` (and the trace ``watch``, if one was opened).

    ``allowed_hosts``: the host names a request may address (``casebook serve`` passes the loopback
    names, so a page of another site cannot reach the server by DNS rebinding); None: any. POST
    bodies must be sent as ``application/json``, which a page of another origin cannot do without
    the server's consent (CORS), so it cannot play, save or load behind the player's back."""
    held: dict[str, Any] = {"watch": watch, "board": {}}

    def refuse(exc: ServeError) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=exc.status)

    def locked(fn: Callable[..., Any], request: Request, body: dict[str, Any]) -> Any:
        with session.lock:  # one request at a time changes or reads the play
            return fn(request, body)

    def route(fn: Callable[..., Any]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                body: dict[str, Any] = {}
                if request.method == "POST":
                    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
                    if kind != "application/json":
                        raise ServeError("POST bodies must be sent as application/json", status=415)
                    raw = await request.body()
                    if raw.strip():
                        try:
                            body = json.loads(raw)
                        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                            raise ServeError(f"malformed JSON: {exc}") from None
                    if not isinstance(body, dict):
                        raise ServeError("the request body must be a JSON object")
                out = await run_in_threadpool(locked, fn, request, body)
            except ServeError as exc:
                return refuse(exc)
            if isinstance(out, Response):
                return out
            return JSONResponse(out)
        return endpoint

    def state(request: Request, body: dict[str, Any]) -> Any:
        with session.lock:
            return snapshot(session)

    def board(request: Request, body: dict[str, Any]) -> Any:
        with session.lock:
            st = session.state
            key = json.dumps([session.label, [dict(m) for m in st.data.markers]], sort_keys=True, default=str)
            cache = held["board"]
            if key not in cache:
                pack = st.game.engine.pack
                title = f"{pack.manifest.get('name', pack.id)} — {session.label}"
                cache.clear()
                cache[key] = board_view(st, title)
            return cache[key]

    def questions(request: Request, body: dict[str, Any]) -> Any:
        from casebook.tools.cmd_ask import questions_of

        return {"questions": questions_of(session.game.engine)}

    def reach(request: Request, body: dict[str, Any]) -> Any:
        stack = request.query_params.get("stack", "")
        if not stack:
            raise ServeError("reach needs ?stack=HEX or a unit id")
        return session.reach(stack, request.query_params.get("as") or None)

    def ask(request: Request, body: dict[str, Any]) -> Any:
        question = _text(body, "question")
        if len(question.split()) > 1 and "words" not in body and not body.get("args"):  # "supply g-20pz-21": as
            question, _, words = question.strip().partition(" ")                    # the CLI's words
            body = {**body, "words": words}
        args = body.get("args", [])
        options = body.get("options", {})
        if "words" in body:  # the words typed after the question, as at play's `ask` prompt
            if not isinstance(body["words"], str):
                raise ServeError("words must be a string")
            try:
                _, args, options, _ = parse_ask_words([question, *shlex.split(body["words"])])
            except ValueError as exc:
                raise ServeError(f"{question}: {exc}") from None
        if not isinstance(args, list) or not all(isinstance(a, (str, int)) for a in args):
            raise ServeError("args must be a list of words")
        if not isinstance(options, dict):
            raise ServeError("options must be a JSON object")
        pack = session.game.engine.pack
        answer = annotate(pack, session.ask(question, args, options))
        cases = answer.get("cases") or [] if isinstance(answer, dict) else []
        return {"answer": answer, "text": render_text(answer),
                "case_titles": {c: case_title(pack, c) for c in cases if isinstance(c, str)}}

    def why(request: Request, body: dict[str, Any]) -> Any:
        return session.why(_text(body, "action"))

    def apply(request: Request, body: dict[str, Any]) -> Any:
        return {**session.apply(_text(body, "action")), "state": snapshot(session)}

    def choose(request: Request, body: dict[str, Any]) -> Any:
        return session.choices_to(_text(body, "stack"), _text(body, "hex"))

    def attack(request: Request, body: dict[str, Any]) -> Any:
        units = body.get("with")
        if not isinstance(units, list) or not units or not all(isinstance(u, str) for u in units):
            raise ServeError("with must be a non-empty list of unit ids")
        return session.attack_choices(_text(body, "hex"), units)

    def bot(request: Request, body: dict[str, Any]) -> Any:
        steps = body.get("steps", 1)
        if not isinstance(steps, int) or isinstance(steps, bool) or not 0 <= steps <= 100_000:
            raise ServeError("steps must be an integer 0..100000")
        played = session.bot(steps)
        return {"played": played, "state": snapshot(session)}

    def undo(request: Request, body: dict[str, Any]) -> Any:
        return {**session.undo(), "state": snapshot(session)}

    def save(request: Request, body: dict[str, Any]) -> Any:
        return session.save(_text(body, "path"))

    def load(request: Request, body: dict[str, Any]) -> Any:
        return {**session.load(_text(body, "path")), "state": snapshot(session)}

    def trace(request: Request, body: dict[str, Any]) -> Any:
        return PlainTextResponse(session.trace_text(), media_type="application/x-ndjson")

    def watch_open(request: Request, body: dict[str, Any]) -> Any:
        path = confine(_text(body, "path"), session.roots)
        if not path.is_file():
            raise ServeError(f"{body['path']}: no such file (or not a file)")
        held["watch"] = Watch(path, session.game)
        return held["watch"].summary()

    def watch_summary(request: Request, body: dict[str, Any]) -> Any:
        if held["watch"] is None:  # the page asks at every load: no trace open is an answer, not a 404
            return {"open": False}
        return {"open": True, **held["watch"].summary()}

    def watch_at(request: Request, body: dict[str, Any]) -> Any:
        if held["watch"] is None:
            raise ServeError("no trace is open (POST /api/watch {\"path\": …})", status=404)
        text = request.path_params["i"]
        if not text.lstrip("-").isdigit():
            raise ServeError(f"event number expected, got {text!r}")
        return held["watch"].at(int(text))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", page),
        Route("/favicon.ico", no_icon),
        Route("/api/state", route(state)),
        Route("/api/board", route(board)),
        Route("/api/questions", route(questions)),
        Route("/api/reach", route(reach)),
        Route("/api/trace", route(trace)),
        Route("/api/ask", route(ask), methods=["POST"]),
        Route("/api/why", route(why), methods=["POST"]),
        Route("/api/apply", route(apply), methods=["POST"]),
        Route("/api/choose", route(choose), methods=["POST"]),
        Route("/api/attack", route(attack), methods=["POST"]),
        Route("/api/bot", route(bot), methods=["POST"]),
        Route("/api/undo", route(undo), methods=["POST"]),
        Route("/api/save", route(save), methods=["POST"]),
        Route("/api/load", route(load), methods=["POST"]),
        Route("/api/watch", route(watch_open), methods=["POST"]),
        Route("/api/watch", route(watch_summary), methods=["GET"]),
        Route("/api/watch/{i}", route(watch_at)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    return Starlette(routes=routes, middleware=middleware)


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ServeError(f"{key}: a non-empty string is needed")
    return value.strip()
