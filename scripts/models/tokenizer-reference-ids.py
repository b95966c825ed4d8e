"""Reference token ids for the embed_static tokenizer test (run once by hand; its output is
committed as test/data/wordllama-tokenizer-ids.json).

    python3 -m venv /tmp/v && /tmp/v/bin/pip install tokenizers==0.23.3
    node bin/mcpgauge.mjs models fetch
    /tmp/v/bin/python scripts/models/tokenizer-reference-ids.py > test/data/wordllama-tokenizer-ids.json

Sample: every golden query of datasets/golden-npm4-v2.json, every tool of
datasets/corpus-npm4-v1.tools.json as embed_static indexes it (name + " " + description), and a
few hand-written edge cases (spaces, tabs, newlines, accents, CJK, emoji: byte fallback). Ids are
those of the Rust `tokenizers` package (the reference implementation) without special tokens.
"""
import hashlib
import json
import os
import sys

import tokenizers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, ".cache", "models", "wordllama-l2-supercat-256", "tokenizer.json")

EDGE = [
    "",
    " ",
    "  two  spaces  ",
    "tab\tand\nnewline\r\n",
    "read_text_file",
    "list-allowed-directories",
    "CamelCaseToolName getHTTPResponse2XX",
    "café naïve résumé Ünïcödé",
    "日本語のテキストを読む",
    "emoji 🚀🔥 and a zero-width\u200bjoiner",
    "numbers 3.14159, 1e-9, 0x1F, 2026-07-28",
    "punctuation!?;:()[]{}<>\"'`~@#$%^&*+=|\\/",
    "<s> </s> <unk> are plain text here",
]


def main():
    tok = tokenizers.Tokenizer.from_file(MODEL)
    golden = json.load(open(os.path.join(ROOT, "datasets", "golden-npm4-v2.json"), encoding="utf-8"))
    corpus = json.load(open(os.path.join(ROOT, "datasets", "corpus-npm4-v1.tools.json"), encoding="utf-8"))
    texts = [q["query"] for q in golden["queries"]]
    texts += [t["tool"] + " " + t["description"] for t in corpus["tools"]]
    texts += EDGE
    with open(MODEL, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    out = {
        "description": "token ids of the reference tokenizer (Rust tokenizers via Python) for embed_static's tokenizer test",
        "produced_by": f"scripts/models/tokenizer-reference-ids.py with Python tokenizers=={tokenizers.__version__}: Tokenizer.from_file(tokenizer.json).encode(text, add_special_tokens=False).ids",
        "tokenizer_sha256": sha,
        "cases": [{"text": t, "ids": tok.encode(t, add_special_tokens=False).ids} for t in texts],
    }
    json.dump(out, sys.stdout, ensure_ascii=False, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
