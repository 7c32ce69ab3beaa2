"""Peak memory of one large record through the skill's path: chunk, shape, serialise.

``throughput.py``'s probe measures the engine alone; a record the skill answers is also shaped
into its output ``data`` (``shape.streamed_record_data``, as ``batch`` does) and serialised
into the answer (``answer.Answer.add``), which for a large record costs more than the chunking
did before the parents were written one at a time. This measures
both, the same way (resident-set high-water mark above the baseline of a warm interpreter
holding the document), on one document of ``--mb`` megabytes joined from the corpus:

    python bench/skill_memory.py --mb 50 --overlap 0
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from throughput import (
    DEFAULT_CORPUS,
    _peak_kib,
    _reset_high_water,
    _status_kib,
    load_corpus,
    one_document,
)

from skills.chunking import ChunkOptions, chunk_document
from skills.skill.answer import Answer
from skills.skill.shape import streamed_record_data


def answered(answer: Answer, text: str, options: ChunkOptions) -> int:
    """Chunk ``text`` and add its record to ``answer`` as the skill does; its size in bytes."""
    data = streamed_record_data(chunk_document(text, options=options), "k")
    return answer.add({"recordId": "1", "data": data, "errors": None, "warnings": None})


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of text files")
    p.add_argument("--mb", type=float, default=50.0, help="size of the one document")
    p.add_argument("--child-tokens", type=int, help="default: the engine's")
    p.add_argument("--parent-tokens", type=int, help="default: the engine's")
    p.add_argument("--overlap", type=int, help="default: the engine's for these sizes")
    args = p.parse_args(argv)
    given = {
        "child_max_tokens": args.child_tokens,
        "parent_max_tokens": args.parent_tokens,
        "child_overlap_tokens": args.overlap,
    }
    options = ChunkOptions(**{name: value for name, value in given.items() if value is not None})
    texts = load_corpus(args.corpus)
    answered(Answer(), texts[0], options)  # warm up: lazy imports, compiled patterns, caches
    document = one_document(texts, args.mb)
    size = len(document.encode("utf-8"))
    gc.collect()
    _reset_high_water()
    baseline = _status_kib("VmRSS")
    chunked = chunk_document(document, options=options)
    engine = _peak_kib() - baseline
    del chunked
    answer = Answer()
    _reset_high_water()
    bytes_out = answered(answer, document, options)
    skill = _peak_kib() - baseline
    for name, kib in (("chunk_document", engine), ("chunk, shape, serialise", skill)):
        print(f"{name}: peak {kib * 1024 / 1e6:.0f} MB above the baseline = "
              f"{kib * 1024 / size:.2f}x the document's {size / 1e6:.1f} MB")  # fmt: skip
    print(f"answer: {bytes_out / 1e6:.0f} MB = {bytes_out / size:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
