"""A file of a public GitHub repository at a pinned commit: the documents users really keep.

The registries serve few files of the producers users have (Word 2013-365 exports, Google
Docs, WPS, report servers, decks and workbooks nobody packaged); public repositories hold
plenty. Like a registry package, such a file stays out of git: a manifest names the
repository, the full commit, the path and the sha256 (``bench/corpus.py`` for the structure
truth, :mod:`skills.evaluation.installed` for question sets), and this module brings the
bytes back:

- from a local mirror of the repository when ``CORPUS_MIRRORS`` names a folder holding
  ``<owner>+<name>/repo``, a bare git directory or a clone (how this workplace's ``fetch`` tool
  lays them out), read with ``git show <commit>:<path>``;
- else from ``https://raw.githubusercontent.com/<owner>/<name>/<commit>/<path>``.

The caller checks the sha256, so a moved file is an error, never another document measured.
"""

from __future__ import annotations

import os
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

#: The environment setting naming a folder of bare mirrors, ``<owner>+<name>/repo`` each.
MIRRORS = "CORPUS_MIRRORS"

_COMMIT = re.compile(r"[0-9a-f]{40}")
_REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")


class GitHubFileError(RuntimeError):
    """A pinned file that cannot be had from a mirror or from GitHub."""


def github_file(repository: str, commit: str, path: str, *, timeout: float = 60.0) -> bytes:
    """The bytes of ``path`` in ``repository`` (``owner/name``) at ``commit`` (40 hex digits:
    a branch or tag could move under the truth written on it)."""
    if not _REPOSITORY.fullmatch(repository):
        raise GitHubFileError(f"{repository!r} is not an owner/name of a GitHub repository")
    if not _COMMIT.fullmatch(commit):
        raise GitHubFileError(f"{repository}: {commit!r} is not a full commit (40 hex digits)")
    mirrored = _from_mirror(repository, commit, path)
    if mirrored is not None:
        return mirrored
    url = f"https://raw.githubusercontent.com/{repository}/{commit}/{urllib.parse.quote(path)}"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            data: bytes = response.read()
            return data
    except (OSError, ValueError, urllib.error.URLError) as exc:
        raise GitHubFileError(
            f"{path} of {repository} at {commit[:12]} could not be downloaded ({exc}); "
            f"set {MIRRORS} to a folder holding a mirror {repository.replace('/', '+')}/repo"
        ) from None


def _from_mirror(repository: str, commit: str, path: str) -> bytes | None:
    """The file from a mirror under ``$CORPUS_MIRRORS`` (bare, or a clone's ``.git``), or None
    (no mirror, or the mirror lacks that commit or path: the download is tried next)."""
    folder = os.environ.get(MIRRORS)
    if not folder:
        return None
    repo = Path(folder) / repository.replace("/", "+") / "repo"
    git_dir = repo / ".git" if (repo / ".git").is_dir() else repo  # a clone, or a bare mirror
    if not git_dir.is_dir():
        return None
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
        capture_output=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None
