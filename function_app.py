"""The Azure Function (Python v2 model): a thin HTTP adapter over ``skills.skill``.

- ``POST /api/chunk``: the WebApiSkill. Auth level from ``SKILL_AUTH``: ``key`` (default) needs a
  function key (``x-functions-key`` header or ``?code=``); ``entra`` is anonymous at the function
  level because App Service Authentication checks the indexer's bearer token before Python runs,
  and the skill checks again that it did (``skills/skill/caller.py``).
- ``GET /api/health``: anonymous liveness probe (deployment smoke tests, warm-up); it loads the
  tokenizer so a broken package shows up here, and reveals nothing about the data or the setup.

Module-level work is kept to imports and decorators: Flex Consumption allows 30 s to initialise.
"""

from __future__ import annotations

import json
import logging
import os

import azure.functions as func

from skills.skill import AuthMode, SkillSettings, handle_chunk_request, refusal

JSON = "application/json"

#: The app settings, read once: the host restarts the worker when one changes.
SETTINGS = SkillSettings.from_env(os.environ)
# entra mode without allowed callers raises here: the host then loads no function at all
for _note in SETTINGS.startup_notes():
    logging.getLogger("skills.skill").warning("%s", _note)

app = func.FunctionApp(
    http_auth_level=(
        func.AuthLevel.ANONYMOUS if SETTINGS.auth is AuthMode.ENTRA else func.AuthLevel.FUNCTION
    )
)


@app.route(route="chunk", methods=["POST"])
def chunk(req: func.HttpRequest) -> func.HttpResponse:
    """The custom skill: WebApiSkill request in, one result per recordId out."""
    reply = refusal(req.headers, SETTINGS) or handle_chunk_request(
        req.get_body(), req.params, SETTINGS
    )
    return func.HttpResponse(reply.body, status_code=reply.status, mimetype=JSON, charset="utf-8")


@app.route(route="health", methods=["GET"], auth_level=func.AuthLevel.ANONYMOUS)
def health(req: func.HttpRequest) -> func.HttpResponse:
    """``{"status": "ok"}`` once the engine and its tokenizer load."""
    from skills.chunking import count_tokens

    body = {"status": "ok", "probeTokens": count_tokens("ok")}
    return func.HttpResponse(json.dumps(body), status_code=200, mimetype=JSON, charset="utf-8")
