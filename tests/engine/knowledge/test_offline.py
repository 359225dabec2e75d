"""Creating the collection, ingesting and querying touch neither the network nor ``~/.cache``.

Chroma's default embedding function downloads a model into ``~/.cache`` on
first use. This runs the whole path in a fresh process (so nothing was
imported or cached with the real home), with an empty ``HOME`` and a socket
layer that records and refuses every connection and name lookup.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = r"""
import json, socket, sys
from pathlib import Path

attempts = []

def refuse(kind):
    def guard(*args, **kwargs):
        attempts.append([kind, repr(args[1:] if kind == "connect" else args[:1])])
        raise OSError("network is off in this test")
    return guard

socket.socket.connect = refuse("connect")
socket.socket.connect_ex = refuse("connect")
socket.getaddrinfo = refuse("getaddrinfo")
socket.create_connection = refuse("create_connection")

from engine.knowledge import KnowledgeBase, KnowledgeConfig

work = Path(sys.argv[1])
articles = work / "articles" / "strength"
articles.mkdir(parents=True)
(articles / "deload.md").write_text(
    "# Deload\n\nA deload is a planned lighter week of training that lets fatigue clear before the next block. "
    "See [[Progressive Overload]].\n", encoding="utf-8")
(articles / "progressive-overload.md").write_text(
    "# Progressive Overload\n\nAdd a little weight or a rep once every set is done with good form.\n", encoding="utf-8")

kb = KnowledgeBase.open(KnowledgeConfig(data_dir=work / "data"))
report = kb.ingest(work / "articles")
result = kb.retrieve("디로드가 뭐야?", top_k=1, expansion_depth=1)
kb.close()
print(json.dumps({"attempts": attempts, "added": report.added,
                  "titles": [c.article_title for c in result.chunks]}))
"""


def test_no_network_and_no_home_cache(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "HF_", "CHROMA", "TRANSFORMERS"))}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "work")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["attempts"] == []
    assert report["added"] == 2
    assert report["titles"] == ["Deload", "Progressive Overload"]
    assert list(home.iterdir()) == []  # no ~/.cache, no ~/.chroma, nothing
