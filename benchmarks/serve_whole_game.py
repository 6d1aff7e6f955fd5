"""A whole game played in the browser against the bot: ``casebook serve`` driven by Chromium.

    python benchmarks/serve_whole_game.py [GAME] [SCENARIO] [--side SIDE] [--seed N] [--trace FILE]

Serves GAME's SCENARIO on a free loopback port with SIDE played by a person (default: the first
side) and the others by the greedy bot, opens the page in headless Chromium (Debian's
``/usr/bin/chromium``, through Playwright), and clicks the first legal action the page lists
until the game is over, the bot replying by itself after each click. Prints the clicks, the
seconds, the result the header shows and any script error on the page; ``--trace`` writes the
trace (it replays with ``casebook replay``). Battle for Moscow takes about a minute here, the
October Blitz about seven (810 clicks). Not part of the test suite (tests/web plays a whole
Battle for Moscow this way).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from casebook.core.game import Game
from casebook.tools.cmd_serve import serve_in_thread
from casebook.tools.web.app import make_app
from casebook.tools.web.session import Session

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="moscow41")
    parser.add_argument("scenario", nargs="?", default="october-blitz")
    parser.add_argument("--side", default=None, help="the side the clicks play (default: the first)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trace", type=Path, default=None)
    parser.add_argument("--max-clicks", type=int, default=5000)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    state = Game.load(args.game, args.scenario).new_initial_state(args.seed)
    human = args.side or state.data.sides[0]
    players = {s: "human" if s == human else "bot:greedy" for s in state.data.sides}
    session = Session(state, players, seed=args.seed, roots=[Path.cwd()])
    server, thread, url = serve_in_thread(make_app(session))
    start, clicks, errors = time.perf_counter(), 0, []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 860})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']", timeout=120_000)
            page.uncheck("#animate")
            for _ in range(args.max_clicks):
                page.wait_for_selector("body[data-busy='0']", timeout=300_000)
                if session.state.is_terminal():
                    break
                page.locator("#actions li").first.click()
                clicks += 1
            page.wait_for_selector("body[data-busy='0']", timeout=300_000)
            shown = page.inner_text("#h-result")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    print(f"{args.game} {args.scenario}: {clicks} clicks for {human}, {time.perf_counter() - start:.0f} s, "
          f"{len(session.state.history)} decisions; header: {shown or '(no result)'}; page errors: {errors or 'none'}")
    if args.trace:
        args.trace.write_text(session.trace_text(), encoding="utf-8")
    return 0 if session.state.is_terminal() and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
