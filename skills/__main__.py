"""``python -m skills COMMAND ...``: one entry point, each command a module with ``main(argv)``."""

from __future__ import annotations

import importlib
import sys

#: command -> (module with ``main(argv: list[str]) -> int``, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "chunk": ("skills.local.chunk", "chunk files and print parents/children (jsonl or tree)"),
    "eval": ("skills.evaluation.cli", "measure retrieval quality of chunking strategies"),
    "serve": ("skills.local.serve", "serve function_app.py locally with uvicorn (no Core Tools)"),
    "demo": ("skills.local.demo", "send samples/ through the local skill as an indexer would"),
    "package": ("skills.local.package", "list the files a deployment of the Function App carries"),
    "house": (
        "skills.local.house",
        "draw the packages as floors, their imports as arrows (Mermaid)",
    ),
    "search": ("skills.search.cli", "deploy, query, or simulate the Azure AI Search side"),
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in {"-h", "--help"} or args[0] not in COMMANDS:
        print("usage: python -m skills COMMAND [ARGS...]\n\ncommands:")
        for name, (_, help_text) in COMMANDS.items():
            print(f"  {name:<8} {help_text}")
        return 0 if args and args[0] in {"-h", "--help"} else 2
    module = importlib.import_module(COMMANDS[args[0]][0])
    try:
        return int(module.main(args[1:]))
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
