"""``python -m skills serve --port P``: the Function's routes on a local uvicorn server.

For machines without Azure Functions Core Tools: ``POST http://127.0.0.1:P/api/chunk`` answers as
the Functions host would (same registered functions, same JSON), without key checks, like
``func start``. Binds to loopback unless ``--host`` says otherwise.
"""

from __future__ import annotations

import argparse
import logging

from skills.local.devserver import serve


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=int, default=7071, help="port (default 7071, as func)")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    args = parser.parse_args(argv)
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("skills").setLevel(args.log_level.upper())
    print(f"serving function_app.py on http://{args.host}:{args.port}/api/chunk", flush=True)
    serve(args.host, args.port, log_level=args.log_level)
    return 0
